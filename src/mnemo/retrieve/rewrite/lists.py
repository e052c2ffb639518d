"""Lists in the conversation, for ordinal references: "the second one", "the other option", "the latter".

An assistant that offers options writes them as a numbered list, bullets, or inline ("Qdrant,
Milvus or pgvector"; "between Terraform and Pulumi"). Each item is cut to its name: the words
before the first comma, colon or function word, so "Milvus, scalable but heavy" gives "Milvus".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.criteria import repeats_an_item
from mnemo.retrieve.rewrite.names import FEMALE, FIRST_PERSON, MALE, PERSON_NOUNS, PHRASE_BREAKERS
from mnemo.retrieve.rewrite.wordfind import sentences
from mnemo.store.sql import STOPWORDS

from . import cached_re

ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "former": 0, "last": -1, "latter": -1}
#: "the second one", "the other option", "the latter", "the first approach" (noun checked by the caller)
ORDINAL_REF = re.compile(
    r"\b(?:the|that|this)\s+(first|second|third|fourth|fifth|middle|last|other|former|latter)\b(?:\s+([a-z][\w\-]*))?",
    re.IGNORECASE,
)
GENERIC_ITEM_NOUNS = frozenset(
    """one ones option options choice choices alternative alternatives pick thing things suggestion suggestions
    idea ideas recommendation recommendations kind kinds type types sort sorts variety model version
    method methods approach approaches solution solutions person people candidate candidates names""".split()
)
_NUMBERED = re.compile(r"(?:^|\s)\d{1,2}[.)]\s+([^\n]+?)(?=\s+\d{1,2}[.)]\s|\n|$)")
_BULLET = re.compile(r"(?:^|:)\s*[-*•]\s+(.+)$", re.MULTILINE)
_SPLIT = re.compile(r",(?!\d)\s*(?:or\s+|and\s+)?|\s+(?:or|and|vs\.?|versus)\s+")  # "1,900" is one number
_DETERMINERS = {"the", "a", "an"}


def find_list(
    context: Sequence[Mapping[str, str]], named: bool = False, pairs: bool = False, asked: str = ""
) -> list[str]:
    """The items of the latest list in the conversation (empty when there is none); ``named``
    skips lists whose items name nothing (no capital or digit: "mostly coding and travel");
    ``pairs`` takes an assistant's two items joined by "and" too, for a reference that presupposes
    a list ("the first one")."""
    for message in reversed(list(context)):
        by_user = str(message.get("role") or "").lower() in ("user", "human")
        items = list_items(str(message.get("content") or ""), inline_min=2 if by_user or pairs else 3)
        if named and not all(cached_re.search(r"[A-Z0-9_]", item) for item in items):  # a capital, digit or identifier
            continue
        if len(items) >= 2 and not repeats_an_item(asked, items):
            return items
    return []


def list_items(text: str, inline_min: int = 2) -> list[str]:
    """Numbered, bulleted or inline items; an inline list needs ``inline_min`` items (prose that
    joins two clauses with "and" is not a list, so an assistant's inline list needs three)."""
    numbered = [_head(m.group(1), whole=True) for m in _NUMBERED.finditer(text)]
    if len([i for i in numbered if i]) >= 2:
        return [i for i in numbered if i]
    bullets = [_head(m.group(1), whole=True) for m in _BULLET.finditer(text)]
    if len([i for i in bullets if i]) >= 2:
        return [i for i in bullets if i]
    for sentence in _sentences(text):
        sentence = _TITLE_STOP.sub(r"\1 ", sentence)  # "Prof. Lindahl" is one name
        # "St Andrews (about 1h30 by train), Stirling Castle (1 hour) or ...": an aside is no item's name
        sentence = _ASIDE.sub("", sentence)
        announced = _ANNOUNCED.search(sentence)  # "Two tests: a and b": the count says it is a list
        if announced:
            parts = [p.strip() for p in _SPLIT.split(sentence[announced.end() :].strip().rstrip(".?!;")) if p.strip()]
            # "Dr Okonjo-Bello, who wrote ..., or Prof. Lindahl, who ...": a relative part describes the item before it
            parts = [p for p in parts if not _RELATIVE_PART.match(p)]
            parts = _without_remark(parts)
            items = [_head(p, whole=True) for p in parts]  # "pin the dependency, vendor it": each item whole
            if len(items) >= 2 and all(items):
                return items
        colon = sentence.rfind(": ")  # "gave me three songs for this term: A, B and C": the list after the colon
        items = _inline(sentence[colon + 2 :].strip().rstrip(".?!;")) if colon > 0 else []
        if len(items) >= inline_min:
            return items
        items = _comma_run(sentence[colon + 2 :]) if colon > 0 else []
        if items:  # "interview loop: coding at 10, system design at 11:30, behavioural at 2": a colon announces
            return items
        items = _inline(sentence.strip().rstrip(".?!;"))
        if len(items) >= inline_min:
            return items
    return []


_ASIDE = re.compile(r"\s*\([^()]*\)")


def _comma_run(text: str) -> list[str]:
    """Three or more short parts joined by commas alone, each opened by a word: a list a colon announced."""
    parts = [cached_re.sub(r"^(?:then|and|or|plus)\s+", "", p.strip()) for p in text.strip().rstrip(".?!;").split(",")]
    if len(parts) < 3 or not all(1 <= len(p.split()) <= 5 and p[:1].isalpha() for p in parts):
        return []
    return [_head(p, whole=True) for p in parts]


_TITLE_STOP = re.compile(r"\b(Dr|Mr|Mrs|Ms|Prof|St)\.\s")
_RELATIVE_PART = re.compile(r"^(?:who|which|whose|where)\b", re.IGNORECASE)
#: Abbreviations whose full stop ends no sentence ("Prof. Lindahl", "Dr. Osei").
_ABBREVIATION = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|St|Mt|vs|etc|approx)\.$")


def _sentences(text: str) -> list[str]:
    """The sentences of a text, not broken after a title's full stop."""
    out: list[str] = []
    for piece in cached_re.split(r"(?<=[.?!;])\s+|\n", text):
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


_ANNOUNCED = re.compile(
    # "two songs to learn, Wonderwall and Blackbird": what the items are for may follow the count
    r"\b(?:two|three|four|five|\d)\s+(?:[a-z]+\s+)?[a-z]+s?(?:\s+(?:to|for)\s+[a-z]+)?(?::|,(?=\s+(?-i:[A-Z])))\s*",
    re.IGNORECASE,
)


def _inline(sentence: str) -> list[str]:
    """ "You could try A, B or the C" -> [A, B, the C]; needs a joining "or"/"and"/"vs"."""
    if not cached_re.search(r"\s(?:or|and|vs\.?|versus)\s", sentence):
        return []
    parts = [p.strip() for p in _SPLIT.split(sentence) if p.strip()]
    parts = _without_remark(parts)
    if len(parts) < 2:
        return []
    items = [_tail(parts[0])] + [_head(p) for p in parts[1:]]
    ones = [bool(_ONE_ITEM.search(i)) for i in items]
    if sum(ones) >= 2 and not ones[0]:  # "two dresses for the wedding, a green one and a navy one"
        items = items[ones.index(True) :]
    counted = _COUNTED_PLURAL.fullmatch(items[0])
    if counted and _COUNTS.index(counted.group(1).lower()) + 2 == len(items) - 1:
        items = items[1:]  # "two standups, the 9am one and the 4pm sync": the count announces the rest
    # every item must be short and name something: a capital, an identifier or a determiner-led phrase
    if not all(items) or not any(_namey(i) for i in items) or any(_verbish(i) for i in items):
        return []
    return items


#: A counted plural that opens an inline list and is no item of it.
_COUNTS = ("two", "three", "four", "five")
_COUNTED_PLURAL = re.compile(r"(two|three|four|five)\s+(?:[a-z]+\s+)?[a-z]+s", re.IGNORECASE)
#: An item named by "one" and its modifier: "a green one", "one in Pollença".
_ONE_ITEM = re.compile(r"(?:^|\s)one(?:\s|$)", re.IGNORECASE)
_REMARKS = frozenset("all both each none mostly either neither".split())


def _without_remark(parts: list[str]) -> list[str]:
    """The parts without a closing remark about the items ("a, b and c, all in tests/x.py")."""
    while len(parts) > 2 and parts[-1].split()[0].lower() in _REMARKS:
        parts = parts[:-1]
    return parts


def _verbish(item: str) -> bool:
    first = item.split()[0].lower()
    if item.lower() in _SPEAKER:
        return False
    if _CLITIC_SUBJECT.match(first):
        return True  # "he's obsessed with volcanoes": a clause, no item
    return (first in STOPWORDS and first not in _DETERMINERS) or first in PHRASE_BREAKERS


_CLITIC_SUBJECT = re.compile(r"^(?:i|you|he|she|it|we|they|that|there)'(?:s|re|m|ve|ll|d)$")


def _namey(item: str) -> bool:
    first = item.split()[0]
    return any(w[:1].isupper() or cached_re.search(r"[_.\d]", w) for w in item.split()) or first.lower() in _DETERMINERS


#: An amount that opens an item and says what it is for: "£420 for Bermondsey", "$90 on remote stipends".
_PRICED = re.compile(r"^(?:about\s+|roughly\s+|around\s+)?[£$€]\d[\d,.]*k?\s+(?:for|on)\s+(?=\S)", re.IGNORECASE)


#: Measures whose "of" goes on to the thing measured.
_MEASURES = frozenset("day week month year hour minute session course round cup bag box bottle pack set".split())


#: An item told apart by "one" and what it has: "one with a correlated subquery", "one in Sóller".
_ONE_WITH = re.compile(
    r"^(?:the\s+)?one\s+(?:with|without|in|on|at|for|from|using|that)\s+(?!(?-i:[A-Z]))\S.*", re.IGNORECASE
)  # "one in Sóller" is named by its place alone


def _head(part: str, whole: bool = False) -> str:
    """The name at the start of an item: up to the first comma/colon/dash (or function word, inline)."""
    part = cached_re.split(r",(?!\d)|[;(]|:\s|\s[-–—]\s|\.\s|\.$", part.strip(), maxsplit=1)[0]
    part = _PRICED.sub("", part)  # "£420 for Bermondsey": the item is what the amount is for
    described = _ONE_WITH.match(part)
    if described:  # "one with a LEFT JOIN plus GROUP BY": the one its description tells apart
        return "the " + " ".join(described.group(0).split()[:8])
    words: list[str] = []
    whole_measure = False  # "six weeks of resistance band exercises" runs on like a whole item
    parts = part.split()
    for n, word in enumerate(parts):
        low = word.lower()
        after_det = len(words) == 1 and words[0].lower() in _DETERMINERS
        # "the Isle of Arran", "a coach tour to Glencoe", "a private lease in Bermondsey": a name after
        # a preposition still belongs to the item
        named_of = low in _NAMING_PREPOSITIONS and n + 1 < len(parts) and parts[n + 1][:1].isupper()
        # "six weeks of resistance band exercises": a measure's "of" names what is measured
        measured_of = low == "of" and bool(words) and words[-1].lower().rstrip("s") in _MEASURES
        if words and not whole and low in STOPWORDS | {"is", "at", "with"} and not after_det and not named_of:
            if measured_of:
                words.append(word)
                whole_measure = True
                continue
            break
        if words and whole and low in ("is", "are", "was", "were", "has", "have"):
            break  # "Poetry is mature" -> "Poetry"
        words.append(word)
        following = parts[n + 1 : n + 3]
        named_next = (
            named_of
            or (  # "... to Skellig Michael": the name goes on
                len(following) == 2 and following[0].lower() in _NAMING_PREPOSITIONS and following[1][:1].isupper()
            )
        )
        name_goes_on = word[:1].isupper() and following[:1] != [] and following[0][:1].isupper()
        if len(words) >= (8 if whole or whole_measure else 4) and not ((named_next or name_goes_on) and len(words) < 8):
            break
    return " ".join(words).strip(" .")


_NAMING_PREPOSITIONS = frozenset({"of", "to", "in", "at", "near", "from"})


def _tail(part: str) -> str:
    """The name at the end of a lead-in ("You could try Sakura Sushi" -> "Sakura Sushi")."""
    described = _ONE_WITH.match(part.strip())
    if described:  # "one with a correlated subquery" opens the list after a colon
        return "the " + " ".join(described.group(0).split()[:8])
    part = cached_re.sub(
        r"(?<!^one)\s+(?:at|for|from|on|in)\s+[£$€]?[\w:.\-]+%?$", "", part
    )  # "TAP at 07:10" -> "TAP", "a card at 24%"; "one in Sóller" keeps its place
    if part.split() and part.split()[-1].lower() in _SPEAKER:
        return "me"  # "the panel is me, Anjali and Pieter": the speaker is an item too
    owned = _OWNED_ITEM.search(part)
    if owned:  # "Lena's caching PR": the owner and the modifiers say which
        return owned.group(0)
    words: list[str] = []
    for word in reversed(part.split()):
        low = word.lower()
        if low in _DETERMINERS:
            words.insert(0, word)
            break
        if low in STOPWORDS or (words and word[:1].islower() and any(w[:1].isupper() for w in words)):
            break
        words.insert(0, word)
        if len(words) == 3:
            break
    if len(words) > 1 and words[0].lower() in _LEAD_VERBS:
        words = words[1:]  # "Use white vinegar, citric acid or ...": the verb leads into the list
    return " ".join(words).strip(" .:")


#: An item named by its owner: "Lena's caching PR", "Omar's API docs PR" (up to three words after).
_OWNED_ITEM = re.compile(r"\b[A-Z][\w-]*'s(?:\s+[\w-]+){1,3}$")
#: The speaker as a list's item ("me, Anjali and Pieter"): one of the group, never the one meant by "the other".
_SPEAKER = frozenset({"me", "myself"})

#: Verbs that lead into a list of things to pick from ("use A, B or C", "try A or B").
_LEAD_VERBS = frozenset("use try buy get add take pick choose consider install book order visit read watch".split())


_CAPITAL = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)")


def named_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The names of the latest message that names two or more things, in order ("remortgage with
    Nationwide … or stay on the Halifax tracker"): what "the former" and "the latter" count."""
    for message in reversed(list(context)):
        names = names_in(str(message.get("content") or ""))
        if len(names) >= 2:
            return names
    return []


def names_in(text: str) -> list[str]:
    """The capitalised names of a text, once each, in order. A capitalised word opening a sentence
    is only a sentence's first word, unless more capitalised words follow it ("Community Fibre
    offers ..."); a leading "The" is no part of the name ("The Gym Group near you")."""
    names = []
    for run in _CAPITAL_RUN.finditer(text):
        opening = _opens_sentence(text, run.start())
        for words in _without_i(run.group(0).split()):  # "Tomorrow I'm meeting Sarah": "I'm" ends a run
            if words[0].lower() in _NOT_NAMES or (opening and words[0].lower() in _LEADING):
                words = words[1:]
                opening = False
            if words and not (opening and len(words) == 1):
                names.append(" ".join(words))
            opening = False
    return list(dict.fromkeys(names))


def _opens_sentence(text: str, at: int) -> bool:
    """Whether position ``at`` opens the text or a sentence (a full stop, "!" or "?" before it; after a
    colon a list begins, whose capitals are names: "two quotes: Hartley 3,100 and Flowline 2,650")."""
    back = at - 1
    while back >= 0 and text[back].isspace():
        back -= 1
    return back < 0 or text[back] in ".!?"


def _without_i(words: list[str]) -> list[list[str]]:
    """A capitalised run split at "I", "I'm" and the like, which are no part of a name."""
    parts: list[list[str]] = [[]]
    for word in words:
        if word in FIRST_PERSON:
            parts.append([])
        else:
            parts[-1].append(word)
    return [p for p in parts if p]


_CAPITAL_RUN = re.compile(r"\b[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*")
_LEADING = frozenset("the a an this that our my your".split())


_NOT_NAMES = frozenset("i i'm i'll i've the a an it this that yes no ok".split())


def pick(items: Sequence[str], which: str) -> str | None:
    """The item an ordinal names; "the other" only makes sense between two."""
    which = which.lower()
    if which == "other":
        return items[1] if len(items) == 2 else None
    if which == "middle":  # only an odd count has one: "the middle one" of three is the second
        return items[len(items) // 2] if len(items) % 2 == 1 else None
    index = ORDINALS[which]
    return items[index] if -len(items) <= index < len(items) else None


def distinct(items: Sequence[str]) -> list[str]:
    """Items in order, without one that is part of an earlier one ("Sony" after "Sony WH-1000XM5")."""
    out: list[str] = []
    for item in items:
        if not any(item.lower() in kept.lower() or kept.lower() in item.lower() for kept in out):
            out.append(item)
    return out


#: The joints of a binary coordination, strongest first: clauses joined by ";", then "or", then "and".
_JOINTS = (
    cached_re.compile(r"\s*;\s*|,?\s+(?:while|whereas)\s+", re.IGNORECASE),
    cached_re.compile(r",?\s+or\s+", re.IGNORECASE),
    cached_re.compile(r",?\s+and\s+", re.IGNORECASE),
)


def coordinated_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two coordinated phrases of the latest message that joins exactly two ("Bouldering,
    which needs no partner, or top-rope"; "Crete has beaches; Sicily has history"): "the former"
    and "the latter" are defined over a pair, so a joint that yields two heads is the grammar's
    answer; each head is cut to its name (the words before a comma, verb or function word)."""
    for message in reversed(list(context)):
        for sentence in reversed(sentences(str(message.get("content") or ""))):
            pair = _pair(sentence.strip().rstrip(".?!"))
            if pair:
                return pair
    return []


def _pair(sentence: str) -> list[str]:
    for joint in _JOINTS:
        parts = [p for p in joint.split(sentence) if p.strip()]
        if len(parts) != 2:
            continue
        if joint is _JOINTS[0]:  # two clauses: each one's subject ("Terraform uses HCL; Pulumi lets you ...")
            heads = [_subject(parts[0]), _subject(parts[1])]
            if not all(heads) or any(h.split()[0].lower() in _NOT_SUBJECT for h in heads):
                continue  # "I'd suggest A or B; both are ...": not two subjects, look inside the clauses
        else:
            first = _head(parts[0], whole=True)
            if not cached_re.match(r"^(?:the\s+|a\s+|an\s+)?[\w'-]+$", first, re.IGNORECASE):
                first = _tail(parts[0])  # "go with Crete or Sicily": the first item ends its lead-in
            heads = [first, _head(parts[1], whole=True)]
        if (
            all(heads)
            and not any(_verbish(h) or _contentless(h) for h in heads)
            and all(len(h.split()) <= _PAIR_WORDS for h in heads)
        ):
            return heads
    return []


#: The longest item of a pair (4 or 5 measured worse on the development sets).
_PAIR_WORDS = 3
_NOT_SUBJECT = frozenset("i i'd i'm i've i'll we you he she they it this that both either neither each all".split())


def _contentless(head: str) -> bool:
    """ "The", "the second": a determiner or an ordinal names no item ("The first comes from an
    old plugin; the second is in tests/" refers back to a pair, it is none)."""
    return all(w.lower() in _ORDER_WORDS for w in head.split())


_ORDER_WORDS = frozenset("the a an first second third last latter former one other".split())


def _subject(clause: str) -> str:
    """A clause's subject: its leading run of capitalised words ("Pulumi lets you ..."), else its
    name as an item."""
    run = cached_re.match(r"\s*((?:(?i:the|a|an)\s+(?:[a-z]+\s+)?)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})", clause)
    return run.group(1) if run else _head(clause, whole=True)


#: Two names weighed against each other: "between Flask and Litestar", "Flask or Litestar", "X vs Y".
#: A name of one to three capitalised words, dots only inside a word ("Fly.io", not "RQ.").
_NAME_WORDS = r"[A-Z][\w+-]*(?:\.\w+)*(?:\s+[A-Z][\w+-]*(?:\.\w+)*){0,2}"
_WEIGHED = re.compile(
    rf"(?:(?:between|either)\s+)?(?:(?:a|an|the)\s+)?({_NAME_WORDS})"
    rf"\s+(?:and|or|vs\.?|versus)\s+(?:(?:a|an|the)\s+)?({_NAME_WORDS})"
)


#: "between Celery with Redis and RQ": the first option's own attachment is no option of its own.
_BETWEEN_WITH = re.compile(
    rf"\bbetween\s+(?:(?:a|an|the)\s+)?({_NAME_WORDS})\s+(?:with|on|in|plus|using)\s+{_NAME_WORDS}"
    rf"\s+(?:and|or)\s+(?:(?:a|an|the)\s+)?({_NAME_WORDS})"
)
#: Examples, not options: "exclusives like Zelda and Mario Kart", "such as Notion and Obsidian".
_EXEMPLIFIED = re.compile(r"\b(?:like|such\s+as|including|e\.g\.|incl\.)\s*$", re.IGNORECASE)
#: "between the Kindle Paperwhite and the Kobo Clara": two names the asker weighs, each with its article.
_BETWEEN = re.compile(
    r"\bbetween\s+(?:the\s+|a\s+|an\s+)?([A-Z][\w.+-]*(?:\s+[A-Z0-9][\w.+-]*){0,2})\s+(?:and|or)\s+"
    r"(?:the\s+|a\s+|an\s+)?([A-Z][\w.+-]*(?:\s+[A-Z0-9][\w.+-]*){0,2})"
)


def still_weighed(context: Sequence[Mapping[str, str]], names: list[str]) -> list[str]:
    """The pair the asker last weighed with "between ... and ..." when a later message names one of
    it beside something else ("torn between the Kindle Paperwhite and the Kobo Clara" - "the Kobo
    supports OverDrive"): the answer leaves the choice as it was. Otherwise ``names``."""
    for message in reversed(list(context)[-_RECENT:]):
        found = _BETWEEN.search(str(message.get("content") or "")) if message.get("role") == "user" else None
        if found:
            weighed = [found.group(1).rstrip(".,"), found.group(2).rstrip(".,")]
            words = {w.lower() for name in names for w in name.split()}
            shared = words & {w.lower() for name in weighed for w in name.split()}
            return weighed if shared and names != weighed else names
    return names


def _personal(name: str) -> bool:
    low = name.lower()
    return low in PERSON_NOUNS or low in MALE or low in FEMALE


#: How far back a compared pair may lie: a comparison follows the comparing.
_RECENT = 3


def compared_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two things the latest messages compare, or [] when they name fewer or none: the latest
    of the last few messages that names two things, else the one name of each of the last two
    messages ("PureGym is 24.99" - "The Gym Group near you is 21.99")."""
    recent = list(context)[-_RECENT:]
    for message in reversed(recent):
        text = str(message.get("content") or "")
        names = distinct(names_in(text))
        if len(names) == 2:
            return still_weighed(recent, names)
        if len(names) > 2:  # a list: only "between X and Y" or "X or Y" says which two are weighed
            joined = _BETWEEN_WITH.search(text) or next(
                (
                    m
                    for m in _WEIGHED.finditer(text)
                    if not text[: m.start()].rstrip().endswith(",") and not _EXEMPLIFIED.search(text[: m.start()])
                ),
                None,
            )
            if joined:
                return [joined.group(1), joined.group(2)]
            # "Lisbon, Porto and Seville": three; an answer that names more (the MacBook, the XPS,
            # OLED, Windows) leaves the pair to the question before it
            if message.get("role") == "user":
                return []
    if len(recent) >= 2:  # one name in each of the last two messages: the exchange compares them
        last = [distinct(names_in(str(m.get("content") or ""))) for m in recent[-2:]]
        if all(len(n) == 1 for n in last) and last[0][0].lower() != last[1][0].lower():
            pair = [last[0][0], last[1][0]]
            # "Did you try Aldi?" - "Mum says hi": a person is not what a price compares
            return [] if any(_personal(name) for name in pair) else pair
    return []


def name_before(text: str) -> str:
    """The name that ends a stretch of text ("Consider the MacBook Air M2" -> "MacBook Air M2")."""
    return _tail(text.strip().rstrip(",:;"))


def name_after(text: str) -> str:
    """The name that opens a stretch of text ("Hostal Atenas for the stay" -> "Hostal Atenas")."""
    return _head(text)
