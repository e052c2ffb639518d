"""Definite-description anchoring: "the interview" -> "the interview at Stripe".

A definite description is unambiguous to the speaker because the conversation already tied its
head noun to an identifier. The tie is grammatical, so it is found by grammar, not by a list of
nouns: the head noun (or a form of it: plural, -ing/-ed) occurs in a message with a proper name
attached as

* a prepositional complement: "interview at Stripe", "appointment with Dr Osei", "flight to Lima";
* a compound modifier: "the Stripe interview", "our Hilton booking";
* an appositive or a name-giving verb: "my landlord, Mr Hale", "a cafe called Koya";
* a copula: "the venue is the Roxy".

The latest message with such a tie wins. A query that names something itself (a capitalised word
after the first) or already carries the identifier is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from mnemo.retrieve.rewrite.clause import CLAUSE_PREDICATES, REPORTING_VERBS
from mnemo.retrieve.rewrite.implicit import LIGHT, head_noun, is_role
from mnemo.retrieve.rewrite.lowercase import lower_case_chat, truecase
from mnemo.retrieve.rewrite.names import PETS
from mnemo.retrieve.rewrite.nominal import deed_of
from mnemo.retrieve.rewrite.nouns import specific_mention
from mnemo.retrieve.rewrite.temporal import TIME
from mnemo.retrieve.rewrite.wordfind import sentences
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: A proper name of up to three words, with an optional title ("Dr Osei", "Casa Labra").
#: A brand may open in lower case before its capital ("iRobot", "eBay"): the prefix is part of it.
_NAME = r"((?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?(?:\b[a-z]{1,2}(?=[A-Z]))?[A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*){0,2})"
_PREPOSITIONS = r"(at|with|to|from|in|for|on|of|by)"
#: Capitalised words that open a sentence or a clause and name nothing.
_NOT_NAMES = frozenset("the a an my our your his her their this that these those i we you it if so and but".split())
_DEFINITE = re.compile(r"\b(?:the|that|this|our|my)\s+([a-z][a-z-]{2,})\b")
#: An attachment in the query itself: "the interview at Stripe" needs nothing from the conversation.
_OWN_ATTACHMENT = re.compile(
    r"^\s+(?:(?:of|at|with|for|to|from|in|on)\s+(?:the\s+)?[A-Z0-9]|(?:of|with|to|from)\s+(?:a|an|my|your|his|her|their)\s)"
)  # "the move to a new job" says which move; "the class for a weekend" says when
#: Weekdays and months, singular or plural: "the tutor on Tuesdays" is when, not which tutor.
_CALENDAR = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:january|february|march|april|may|june|july|august"
    r"|september|october|november|december)\b",
    re.IGNORECASE,
)
#: Heads that are never anchored this way: times, vague words, units and quantities.
_SKIP = frozenset(
    """time times day days week weeks month months year years moment way thing things one ones lot bit
    rest end same other first last next best most kind sort type part point number amount idea""".split()
)


def forms(noun: str) -> str:
    """A regex alternation of the noun's forms: "interview" -> interview|interviews|interviewing|..."""
    return "(?:" + "|".join(sorted(map(re.escape, variants(noun)), key=len, reverse=True)) + ")"


@lru_cache(maxsize=1024)
def variants(noun: str) -> frozenset[str]:
    """The noun's forms, lower-case: "interview" -> interview, interviews, interviewing, interviewed."""
    low = noun.lower()
    base = {low, low.removesuffix("s"), low.removesuffix("es")}
    if low.endswith("ing") and len(low) > 5:
        base |= {low[:-3], low[:-3] + "e"}
    if low.endswith("ed") and len(low) > 4:
        base |= {low[:-2], low[:-1]}
    return frozenset(
        v for b in base if len(b) > 2 for v in (b, b + "s", b + "es", b + "ing", b + "ed", *_inflections(b))
    )


def _inflections(base: str) -> tuple[str, ...]:
    """English spelling rules for a verb's forms, so a noun meets the verb it was made from:
    "the move" ~ "we moved", "the plan" ~ "we planned", "the delay" ~ "it was delayed",
    "the copy" ~ "she copied"."""
    if base.endswith("e"):  # move -> moved, moving
        return (base + "d", base[:-1] + "ing")
    if base.endswith("y") and base[-2:-1] not in ("a", "e", "o", "u"):  # copy -> copied
        return (base[:-1] + "ied", base[:-1] + "ies")
    if cached_re.search(r"[^aeiou][aeiou][bdgmnprt]$", base) and len(base) <= 5:  # plan -> planned, planning
        return (base + base[-1] + "ed", base + base[-1] + "ing")
    return ()


#: A tie's pattern, the shape of its rewrite, and the word forms its noun slot must take (None:
#: the pattern has the noun written into it).
_Tie = tuple[re.Pattern[str], str, frozenset[str] | None]
#: The noun slot of a tie shared by every noun: any word, its form checked after the match.
_SLOT = r"\b(?P<w>[A-Za-z][\w-]*)"
_NAMED = _NAME.replace("((?:", "(?P<x>(?:", 1)
#: Ties that open with the noun, compiled once for every noun (compiling a pattern per noun was
#: most of what anchoring cost); a lookahead lets matches overlap, as the per-noun patterns' did.
_NOUN_FIRST: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (re.compile(rf"(?={_SLOT}\s+(?i:(?P<p>{_PREPOSITIONS[1:-1]}))\s+(?:(?i:the)\s+)?{_NAMED})"), "{n} {p} {x}", True),
    (re.compile(rf"(?={_SLOT},?\s+(?i:called|named)\s+{_NAMED})"), "{n} {x}", True),
    # "my landlord, Mr Hale, ..."
    (re.compile(rf"(?={_SLOT},\s+{_NAMED}(?=\s*(?:[,)–-]|[.!?]?\s*$)))"), "{n} {x}", False),
    (
        re.compile(rf"(?={_SLOT}\s+(?i:is|was|will\s+be|'s)\s+(?:(?i:at|in|on)\s+)?(?:(?i:the)\s+)?{_NAMED})"),
        "{n} {x}",
        True,
    ),
)


@lru_cache(maxsize=512)
def _patterns(noun: str) -> list[_Tie]:
    """Each tie with the shape of its rewrite (``{n}`` the noun, ``{p}`` the preposition, ``{x}`` the name)."""
    plain = rf"(?i:\b{re.escape(noun.lower())}s?\b)"  # a compound's head is a noun, not "Sarah reviewed"
    inflected, bare = variants(noun), frozenset({noun.lower(), f"{noun.lower()}s"})
    specific = [
        (cached_re.compile(rf"{_NAME}\s+{plain}"), "{x} {n}"),
        # "Lorraine is vegan", "Theo's a diabetic": "the vegan" is the one the attribute was said of
        (cached_re.compile(rf"{_NAME}\s+(?i:is|was|'s)\s+(?:(?i:a|an)\s+)?{plain}(?![\w-])"), "{n} {x}"),
        *_pet_patterns(noun),
        *_work_patterns(noun),
        *(
            [(cached_re.compile(rf"(?i:\b(?:my|our|the)\s+{re.escape(noun.lower())})\s+{_TITLED}"), "{n} {x}")]
            if is_role(noun.lower())
            else []
        ),
    ]
    first = [(pattern, shape, inflected if any_form else bare) for pattern, shape, any_form in _NOUN_FIRST]
    return first + [(pattern, shape, None) for pattern, shape in specific]


def _pet_patterns(noun: str) -> list[tuple[re.Pattern[str], str]]:
    """ "the dog" after "a rescue greyhound called Pepper" or "our beagle Hugo": a pet by its kind."""
    kinds = PETS.get(noun.lower())
    if kinds is None:
        return []
    return [
        (cached_re.compile(rf"(?i:\b(?:{kinds}))\s+(?i:called|named)\s+{_NAME}"), "{n} {x}"),
        (cached_re.compile(rf"(?i:\b(?:my|our|his|her|their|the)\s+(?:[a-z]+\s+)?(?:{kinds}))\s+{_NAME}"), "{n} {x}"),
    ]


#: Kinds of work and the verbs a chat consumes them with: "reading The Master and Margarita" is
#: the book, "watching Severance" the show.
_WORK_VERBS = {
    "book": "read|reading|rereading",
    "novel": "read|reading|rereading",
    "film": "watch|watched|watching",
    "movie": "watch|watched|watching",
    "show": "watch|watched|watching|binging|bingeing",
    "series": "watch|watched|watching|binging|bingeing|read|reading",
    "album": "listen(?:ing|ed)?\\s+to|playing",
    "podcast": "listen(?:ing|ed)?\\s+to",
    "game": "play|played|playing",
}
#: A title: capitalised words, perhaps joined by short function words ("The Master and Margarita").
_TITLE = r"((?:The\s+|A\s+)?[A-Z][\w'&:-]*(?:\s+(?:(?:of|and|the|in|a|an|on|to|for|&)\s+)*[A-Z0-9][\w'&:-]*){0,5})"


#: Services one reads or watches on, which are no titles: "reading Slack messages", "watching Netflix".
_PLATFORMS = r"(?:Slack|Netflix|YouTube|Youtube|Spotify|Kindle|Audible|Twitter|Reddit|TikTok|Instagram|Facebook|Disney)"
#: What may follow a title: the clause's end or a function word, never a lower-case noun ("Slack messages").
_TITLE_END = (
    r"(?=\s*(?:[,;:!?)]|\.\B|$"
    r"|\s+(?:with|at|on|in|and|but|so|last|this|again|tonight|now|lately|right|for|to)\b))"
)


def _work_patterns(noun: str) -> list[tuple[re.Pattern[str], str]]:
    """ "the book" after "I'm reading The Master and Margarita": a titled work by its verb."""
    verbs = _WORK_VERBS.get(noun.lower())
    if verbs is None:
        return []
    # the title ends the phrase: "reading Slack messages" names no book
    return [(cached_re.compile(rf"(?i:\b(?:{verbs}))\s+(?!{_PLATFORMS}\b){_TITLE}{_TITLE_END}"), "{n} {x}")]


#: A titled name: "Mr Okoye", "Dr. Osei" (an untitled capital after a role may be a verb's object).
_TITLED = r"((?:Dr|Mr|Mrs|Ms|Prof)\.?\s+[A-Z][\w'&-]*)"


def _clean(name: str) -> str | None:
    """The name without the function words a sentence opening capitalised ("The", "My")."""
    words = name.split()
    while words and words[0].lower() in _NOT_NAMES:
        words.pop(0)
    while words and words[-1].lower() in STOPWORDS:
        words.pop()
    return " ".join(words) or None


def _root(noun: str) -> str:
    """The letters every form of the noun shares ("interview" in "interviewing", "mov" in "moved")."""
    low = noun.lower()
    for suffix in ("ing", "es", "ed", "s", "e", "y"):
        if low.endswith(suffix) and len(low) - len(suffix) >= 3:
            return low[: -len(suffix)]
    return low


def identify(noun: str, context: Sequence[Mapping[str, str]] | str) -> str | None:
    """ "the {noun}" with its identifier ("interview at Stripe", "Stripe interview"), or None."""
    if noun.lower() in _SKIP or noun.lower() in STOPWORDS:
        return None
    messages = [context] if isinstance(context, str) else [str(m.get("content") or "") for m in context]
    if noun.lower() not in _WORK_VERBS and not any(_root(noun) in text.lower() for text in messages):
        return None  # no form of the noun in the conversation: nothing to tie (and no patterns to build)
    patterns = _patterns(noun)
    for text in reversed(messages):
        text = _cased(text)
        for pattern, shape, accepted in patterns:
            for found in pattern.finditer(text):
                if accepted is not None and found.group("w").lower() not in accepted:
                    continue  # a noun-first tie of some other noun
                name = _clean(found.group("x") if accepted is not None else found.groups()[-1])
                if name is None or name.lower() == noun.lower() or TIME.search(name) or _CALENDAR.search(name):
                    continue  # "the tutor on Tuesdays": a date is when, not which
                preposition = found.group("p").lower() if "{p}" in shape else ""
                return shape.format(n=noun, p=preposition, x=name)
    return None


def descriptions(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """The definite descriptions of the query the conversation anchors: (start, end, noun)."""
    words = cached_re.findall(r"[A-Za-z][\w'-]*", query)
    named = [w for n, w in enumerate(words) if n and w[:1].isupper() and not _ACRONYM.fullmatch(w)]
    if any(w.lower() not in ("i", "i'm", "i've") for w in named):
        return []  # the query names its own subject ("CI", "API": a kind of thing, not a name)
    out = []
    messages = [{"content": line} for line in context_text.split("\n")]
    for match in _DEFINITE.finditer(query):
        light = cached_re.match(r"\s+([a-z][a-z-]{2,})\b(?!\s+[a-z]{3,})", query[match.end(1) :])
        if match.group(1) in LIGHT and light and light.group(1) not in STOPWORDS | LIGHT:
            if _said_more(f"{match.group(1)} {light.group(1)}", light.group(1), messages):
                out.append((match.start(), match.end(1) + light.end(), light.group(1)))  # "the long run"
            continue
        if match.group(1) in LIGHT or match.group(1) in STOPWORDS:
            continue  # "the new guy": an adjective, no head noun to anchor
        if _conjunction_that(query, match):
            continue  # "make sure that the job finishes", "is it true that charging ...": a clause follows
        before = query[max(0, match.start() - _NEAR) : match.start()]  # bounded: a long text stays linear
        if _SUBJECT_SLOT.search(before):  # "is the cafe open": the noun, then the predicate
            noun, end = match.group(1), match.end(1)
        else:
            noun, end = head_noun(query, match)  # "the venue deposit": the deposit, not the venue
        modified = " " in query[match.start(1) : end] or _compound(before, query[end:])
        # only a vague modifier ("old", "failed") leaves a description to the chat: "the cast iron pan" says which
        vague = all(
            w in LIGHT or w in _VAGUE_MODIFIERS or w.endswith("ed")
            for w in query[match.start(1) : end].lower().split()[:-1]
        )
        fuller = modified and vague and not _compound(before, query[end:]) and not is_role(noun.lower())
        if fuller and _said_more(query[match.start(1) : end], noun, messages):
            out.append((match.start(), end, noun))  # "the long run": the chat's "32km long run on sunday"
            continue
        if modified or _OWN_ATTACHMENT.match(query[end:]):
            continue  # "the payment service review", "the flight booking": its own modifiers already say which
        found = anchor_text(noun, messages)
        if found and not _already_said(found, noun, query):
            out.append((match.start(), end, noun))
    return out


_ACRONYM = re.compile(r"[A-Z]{2,4}s?")
#: Modifiers that tell one of several apart only by what the chat said of them.
_VAGUE_MODIFIERS = frozenset(
    "old new big small long short main current previous original usual bigger smaller older newer".split()
)


def _said_more(written: str, noun: str, messages: Sequence[Mapping[str, str]]) -> bool:
    """Whether the chat's mention of the noun has every modifier the query wrote, and more:
    "the long run" after "a 32km long run on sunday", "the old index" after "the old index on email"."""
    mention = specific_mention(noun, messages) if MENTIONS else None
    if mention is None:
        return False
    said = {w.lower() for w in cached_re.findall(r"[\w-]+", mention[0])}
    wrote = {w.lower() for w in cached_re.findall(r"[\w-]+", written)}
    # "the failed pool" after "failed on the third node pool": a deed the chat told of that very one
    text = "\n".join(str(m.get("content") or "") for m in messages)
    bare = mention[0].lower().removeprefix("the ")
    if cached_re.search(rf"\b[A-Z][\w-]*\s+(?:is|was|as)\s+(?:the|our|my)\s+{re.escape(bare)}", text, re.IGNORECASE):
        return False  # "Bongani is the code owner for the middleware": a person, which the person rules name
    told = text.lower()
    deeds = {
        w
        for w in wrote - said
        if w.endswith("ed") and cached_re.search(rf"\b{w}\s+(?:\w+\s+){{0,2}}{re.escape(bare)}", told)
    }
    return wrote - deeds <= said and len(said - wrote - STOPWORDS) >= 1


def _conjunction_that(query: str, match: re.Match[str]) -> bool:
    """Whether the description's "that" opens a reported clause: a verb of saying or knowing, or a
    predicate like "sure" or "true", stands just before it."""
    if query[match.start() : match.start() + 4].lower() != "that":
        return False
    before = cached_re.findall(r"[a-z']+", query[max(0, match.start() - 30) : match.start()].lower())
    return bool(before) and (before[-1] in REPORTING_VERBS or before[-1] in CLAUSE_PREDICATES)


#: How far before a description its auxiliary is looked for: the last few words decide.
_NEAR = 60


def _already_said(found: str, noun: str, query: str) -> bool:
    extra = {w.lower() for w in cached_re.findall(r"\w+", found)} - {noun.lower()} - STOPWORDS
    return not extra or extra <= {w.lower() for w in cached_re.findall(r"\w+", query)}


_SUBJECT_SLOT = re.compile(r"\b(?:is|are|was|were|does|did|do|will|can|could|has|have|had)\s*$", re.IGNORECASE)


def _compound(before: str, rest: str) -> bool:
    """The noun is a modifier of the next word ("the flight *booking*"): a content word follows,
    unless an auxiliary made the description the subject ("is the cafe *open*", "did the game *start*")."""
    following = cached_re.match(r"\s+([a-z][a-z-]+)\b", rest)
    if following is None or _SUBJECT_SLOT.search(before):
        return False
    word = following.group(1)
    return word not in STOPWORDS and word not in LIGHT and not word.endswith(("ed", "ly"))


def _cased(text: str) -> str:
    """All-lower-case sentences with their likely names capitalised ("dr osei" -> "Dr Osei"); a
    sentence that has capitals already is trusted as written."""
    parts = sentences(text)
    return "\n".join(truecase(p) if lower_case_chat(p) else p for p in parts)


def anchor_text(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """What "the {noun}" becomes: the identifier tie, else the noun's modified earlier mention
    ("the leave" -> "the parental leave"), else None."""
    tied = identify(noun, context)
    if tied is not None or not MENTIONS:
        return tied
    mention = specific_mention(noun, context) if noun.lower() not in _SKIP else None
    if mention:
        return mention[0].removeprefix("the ")
    deed = deed_of(noun, context) if noun.lower() not in _SKIP else None
    return f"{noun} ({deed})" if deed else None  # "the migration (migrated the billing service ...)"


#: Whether a description with no identifier tie falls back to its modified earlier mention. Kept
#: switchable for the measurement in docs/search.md (on: +1 row on dev3 and dev4, no clear row lost).
MENTIONS = True
