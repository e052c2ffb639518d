"""What the conversation talks about: people, places and things, each with a salience score.

Heuristic and dependency-free on purpose (the core install has no parser, and the rewrite budget
is a few milliseconds): capitalised names, speaker roles, technical tokens and determiner-led
noun phrases, weighted by how recently and how often they were mentioned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mnemo.retrieve.rewrite.gender import TITLES, chain_gender, gender_hint, gender_of, learn_gender, noun_gender
from mnemo.retrieve.rewrite.lowercase import truecase, verbal
from mnemo.retrieve.rewrite.names import (
    FEMALE,
    FEMALE_NOUNS,
    MALE,
    MALE_NOUNS,
    NOT_NAMES,
    PERSON_NOUNS,
    PHRASE_BREAKERS,
    PLACE_NOUNS,
    VAGUE,
    fold,
)
from mnemo.store.sql import STOPWORDS

GENERIC_ROLES = frozenset({"user", "assistant", "system", "tool", "human", "ai", "bot", "model", "function"})
#: Upper- and lower-case letters of the Latin scripts, so "Siobhán", "Björn" and "Nguyễn" are names.
_UP = "".join(sorted({chr(c) for c in range(0x41, 0x250) if chr(c).isupper()} | {"Ạ", "Ả", "Ấ", "Ế", "Ễ", "Ộ"}))
_LO = "".join(
    sorted(
        {chr(c) for c in range(0x61, 0x250) if chr(c).islower()} | set("ạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ")
    )
)
_WORD = rf"[{_UP}][{_LO}]+"
_NAME = re.compile(rf"(?<![\w])({_WORD}(?:[- ]{_WORD}){{0,2}})('s)?(?![\w])")
_TECH = re.compile(
    r"\b(?:[A-Za-z]+[A-Z][A-Za-z0-9]*|[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*[_./][A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*"
    r"|[A-Z]{2,}[0-9]*|(?!\d+(?:st|nd|rd|th)\b)(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{2,})\b"
)
#: The phrase sits in a lookahead so a determiner inside a trimmed-off tail ("a doctor about
#: my back pain") still starts a phrase of its own.
_PHRASE = re.compile(
    r"\b(?:the|a|an|our|my|your|his|her|their|this|that|these|those)\s+"
    r"(?=((?:[A-Za-z][\w.\-]*\s+){0,2}[A-Za-z][\w.\-]*))",
    re.IGNORECASE,
)
_PLACE_CUE = re.compile(
    r"\b(?:in|at|near|visit|visited|visiting|(?:go|goes|went|going|move|moved|moving|flew|fly|flight|trip|"
    r"travel|travelled|traveled|drove|came|come|back|arrived)\s+(?:to|from|in))\s+$",
    re.IGNORECASE,
)
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_TIME = re.compile(
    rf"\b(?:(?:on|in|since|last|next)\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|"
    r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    rf"{_MONTH}|the\s+\d{{1,2}}(?:st|nd|rd|th)|(?:19|20)\d{{2}}(?!-)|"
    r"(?:last|next|this)\s+(?:week|month|year|sprint|quarter)|\d{4}-\d{2}-\d{2})\b"
)
#: "[Maya]: the deploy is stuck", "Anna: I booked it": a chat transcript pasted as one message.
_SPEAKER_LABEL = re.compile(rf"^\s*\[?({_WORD}(?: {_WORD})?)\]?\s*:\s+")
_QUOTED = re.compile(r"(?<!\w)[\"“'‘]([^\"“”'‘’\n]{3,60})[\"”'’](?!\w)")
_COMPOUND = re.compile(r"\b([A-Z][\w.\-]*[A-Za-z0-9])\s+([a-z]{3,})\b")
_CALLED = re.compile(r"^\s+(?:called|named)\s+([\w.\-]+)")
_ATTACHED = re.compile(r"^\s+(?:for|of|from|with(?=\s+[A-Z]))\s+((?:the\s+|a\s+|an\s+)?(?:[\w.\-]+\s+){0,2}[\w.\-]+)")
_PERSON_CUE_BEFORE = re.compile(
    r"\b(?:ask|asked|tell|told|with|talk to|talked to|call|called|email|emailed|met|meet|"
    r"manager|colleague|friend|boss|teammate|wife|husband|by|from|ping|pinged)\s+$",
    re.IGNORECASE,
)
_PERSON_CUE_AFTER = re.compile(r"^\s*(?:said|says|say|mentioned|thinks|thought|wants|wanted|told|asked|suggested|'s)\b")
_NOT_COMPOUND = frozenset("last next this now then here there today also still already never".split())
_OBJECT_NEXT = re.compile(r"^\s+(?:you|the|a|an|it|us|them|me|him|her|this|that|your|our|their|my)\b")
_SUBJECT_CUE_AFTER = re.compile(
    rf"^(?:\s+and\s+(?:{_WORD}|I)\b|\s+from\s+[a-z]|\s+[a-z]{{3,}}ed\b|\s+(?:ran|went|got|made|took|came|met|lost|left|"
    r"won|gave|told|said|wrote|sent|built|bought|found|saw|had|was|did|flew|drove|quit|spent|paid)\b)"
)
#: A sentence opened by a word and then one of these is about that word as an agent ("Marta is
#: reviewing it", "Kofi keeps ..."): a person or an organisation, which only the pronoun can tell.
_AGENT_CUE_AFTER = re.compile(
    r"^\s+(?:is|was|has|had|will|would|can|could|keeps|wants|thinks|says|said|asked|told|just|also|still|"
    r"never|always|[a-z]{3,}ed|took|went|got|made|came|left|gave|wrote|sent|ran|won|lost|met|joined)\b"
)
_TITLE_BEFORE = re.compile(r"\b(Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+$")
_AND_NAME_BEFORE = re.compile(rf"(?<!\w)({_WORD})\s+and\s+$")
_AND_NAME_AFTER = re.compile(rf"^\s+and\s+({_WORD})(?!\w)")
_STOP_AFTER = STOPWORDS | {"and", "or", "but", "yesterday", "today", "tomorrow", "again", "now", "too", "please"}


@dataclass(slots=True)
class Candidate:
    text: str
    kind: str  # person, place, thing
    salience: float = 1.0
    gender: str | None = None  # "m", "f" or None
    plural: bool = False
    last_seen: int = 0  # messages back from the latest (0 = the latest message)
    mentions: int = 0
    #: A guess at the gender from the shape of an unlisted name ("Lucía", "Lorenzo"): a tie-breaker only.
    hint: str | None = None
    #: Position among the mentions of the message it was last seen in ("Gwen and Oskar": 0, 1).
    order: int = 0

    @property
    def head(self) -> str:
        return self.text.split()[-1].lower()


def extract(context: Sequence[Mapping[str, str]], max_messages: int = 10) -> list[Candidate]:
    """Candidates from the last ``max_messages`` messages, most salient first."""
    found: dict[tuple[str, str], Candidate] = {}
    recent = list(context)[-max_messages:]
    for distance, message in enumerate(reversed(recent)):
        role = str(message.get("name") or message.get("role") or "").strip()
        text = str(message.get("content") or "")
        label = _SPEAKER_LABEL.match(text)
        if label and label.group(1).split()[0].lower() not in NOT_NAMES:
            role, text = label.group(1), text[label.end() :]  # the label names the speaker
        if text and not any(ch.isupper() for ch in text):
            text = truecase(text)
        # Soft recency, and the user's own words count more: what they asked about is the topic.
        weight = (1.5 if role.lower() in ("user", "human") else 1.0) / (1.0 + 0.35 * distance)
        if role and role.lower() not in GENERIC_ROLES:
            speaker = Candidate(role, "person", gender=gender_of(role), hint=gender_hint(role))
            _note(found, speaker, weight * 0.8, distance)
        mentions = _mentions(text)
        for order, candidate in enumerate(mentions):
            # earlier in a message ~ the subject or topic of it; later mentions are often asides
            candidate.order = order
            _note(
                found, candidate, weight * candidate.salience * (1.25 - 0.5 * order / max(1, len(mentions))), distance
            )
        for match in _TIME.finditer(text):
            _note(found, Candidate(match.group(0), "time"), weight, distance)
        learn_gender(found, text)
    if recent:
        _topic_bonus(found, recent)
        chain_gender(found, recent)
    return sorted(found.values(), key=lambda c: -c.salience)


def _topic_bonus(found: dict[tuple[str, str], Candidate], recent: Sequence[Mapping[str, str]]) -> None:
    """What the conversation opened with stays its topic (centering): the things the first user
    message of the window names get a boost that outlasts the recency decay."""
    first = next((m for m in recent if str(m.get("role") or "").lower() in ("user", "human")), None)
    if first is None:
        return
    opening = re.split(r"(?<=[.!?])\s", str(first.get("content") or ""), maxsplit=1)[0].lower()
    for candidate in found.values():
        if candidate.kind == "thing" and candidate.text.lower().removeprefix("the ").removeprefix("my ") in opening:
            candidate.salience *= TOPIC_BONUS


#: How much the opening topic counts against recency (measured on the rewrite dev sets).
TOPIC_BONUS = 1.3


def _note(found: dict[tuple[str, str], Candidate], new: Candidate, weight: float, distance: int) -> None:
    key = (new.text.lower(), new.kind)
    known = found.get(key)
    if known is None:
        new.salience, new.last_seen, new.mentions = weight, distance, 1
        new.salience = weight
        found[key] = new
        return
    # every further mention counts, however it was phrased ("Postgres won" opens a sentence)
    known.salience = max(known.salience, weight) + 0.3 / (1.0 + 0.35 * distance)
    known.mentions += 1
    known.last_seen = min(known.last_seen, distance)
    known.gender = known.gender or new.gender
    known.hint = known.hint or new.hint


def _mentions(text: str) -> list[Candidate]:
    """People, places and things of one message in order of position (each salience = its weight)."""
    noun_phrases = phrases(text)
    compounds = [c for c in _compounds(text) if c[1].text.lower() not in inside_text(noun_phrases)]
    # a name inside a phrase or compound ("the Postgres replica", "Docker images") stands for it
    inside = {w.lower().removesuffix("'s") for _, c in noun_phrases + compounds for w in c.text.split()}
    found, names = _named(text, inside)
    for match in _QUOTED.finditer(text):  # a quoted error message or title is a specific thing
        found.append((match.start(), Candidate(match.group(1).strip(), "thing", salience=1.8)))
        inside.update(w.lower() for w in match.group(1).split())
    found.extend(_possessed(text))
    for match in _TECH.finditer(text):
        token = match.group(0)
        if token.lower() not in names | inside and token.lower() not in NOT_NAMES:
            # identifiers (snake_case, dotted, camelCase, codes) are what technical questions are about
            found.append((match.start(), Candidate(token, "thing", salience=_tech_weight(token))))
    found.extend(noun_phrases)
    found.extend(compounds)
    found.extend(p for p in bare_plurals(text) if p[1].text.lower().split()[-1] not in inside)
    return [c for _, c in sorted(found, key=lambda pair: pair[0])]


def _named(text: str, inside: set[str]) -> tuple[list[tuple[int, Candidate]], set[str]]:
    """The capitalised names of a message as people, places or things, and every name seen."""
    found: list[tuple[int, Candidate]] = []
    names: set[str] = set()
    for match in _NAME.finditer(text):
        name, start = match.group(1), match.start()
        title = TITLES.get(name.split()[0].lower()) if " " in name else None
        lead = name.split()[0].lower()
        if " " in name and (lead in NOT_NAMES or title is not None or lead in PERSON_NOUNS):  # "Ask John": John
            name, start = name.split(" ", 1)[1], start + len(name.split(" ", 1)[0]) + 1
        first = name.split()[0].lower()
        if first in NOT_NAMES or first in TITLES or name.lower() in STOPWORDS:
            continue
        before, after = text[:start], text[match.end() :]
        titled = _TITLE_BEFORE.search(before[-8:])
        if titled:  # "Dr. Nguyen", "Mr Lindqvist": a person, and the title may say the gender
            title = TITLES[titled.group(1).lower()]
            name = f"{titled.group(1)} {name}"
            found.append((start, Candidate(name, "person", gender=title or None)))
            names.add(name.lower())
            continue
        kind, weight = _name_kind(name, before, after, bool(match.group(2)))
        names.add(name.lower())
        if weight == 0.0 or (kind == "thing" and name.lower() in inside):
            continue  # "the Berlin marathon" stands for Berlin here
        if kind == "agent":  # both readings, the person a little less likely than the thing
            found.append((start, Candidate(name, "person", salience=0.6 * weight, hint=gender_hint(name))))
            found.append((start, Candidate(name, "thing", salience=weight)))
            continue
        gender = gender_of(name) or noun_gender(before) if kind == "person" else None
        hint = gender_hint(name) if kind == "person" and gender is None else None
        found.append((start, Candidate(name, kind, salience=weight, gender=gender, hint=hint)))
        if kind == "place":  # "in Rust", "to Redis": places and things share the cue words
            found.append((start, Candidate(name, "thing", salience=1.2)))
    return found, names


def _possessed(text: str) -> list[tuple[int, Candidate]]:
    """ "Julien's band", "Gabriel's pull request": a thing or person known by its owner."""
    found: list[tuple[int, Candidate]] = []
    for match in _POSSESSED.finditer(text):
        noun = match.group(2).lower()
        named_after = re.match(rf"\s+{_WORD}", text[match.end() :])  # "Ahmed's daughter Noor": Noor stands for it
        if (
            not named_after
            and match.group(1).lower() not in NOT_NAMES
            and noun not in STOPWORDS
            and noun not in PHRASE_BREAKERS
            and not _past(noun)
        ):
            kind = "person" if noun in PERSON_NOUNS else "thing"
            gender = "f" if noun in FEMALE_NOUNS else "m" if noun in MALE_NOUNS else None
            found.append((match.start(), Candidate(match.group(0), kind, gender=gender, plural=_looks_plural(noun))))
    return found


_POSSESSED = re.compile(rf"(?<!\w)({_WORD})'s\s+([a-z]{{3,}})\b")
_SUBJECTS = frozenset("i you we they he she it who that which there this".split())


def bare_plurals(text: str) -> list[tuple[int, Candidate]]:
    """Plural nouns with no determiner ("new football boots", "old photos", "3 tickets for the
    Ghibli exhibition"): what "these" and "those" point at. A plural-looking word after a subject
    is a verb ("she keeps"), so it is skipped."""
    out: list[tuple[int, Candidate]] = []
    words = list(re.finditer(r"[A-Za-z0-9][\w'-]*", text))
    for n, word in enumerate(words):
        token = word.group(0)
        low = token.lower()
        if not _plural_noun(low) or token[:1].isupper() or re.search(r"[_./\d]", token):
            continue
        if _OBJECT_NEXT.match(text[word.end() :]):
            continue  # "any lockfile change busts the cache": a verb before its object
        before = words[n - 1].group(0) if n else ""
        if before.lower() in _SUBJECTS or before[:1].isupper() or before.lower() in ("the", "my", "your", "our", "a"):
            continue  # a verb after its subject, or a phrase the determiner pass already has
        modifiers: list[str] = []
        for prev in reversed(words[max(0, n - 2) : n]):
            plow = prev.group(0).lower()
            adverb = plow.endswith("ly") and len(plow) > 4
            if plow in STOPWORDS or plow in PHRASE_BREAKERS or verbal(plow) or adverb:
                break
            modifiers.insert(0, prev.group(0))
        start = words[n - len(modifiers)].start()
        phrase = " ".join([*modifiers, token])
        attached = _ATTACHED.match(text[word.end() :])
        if attached and _trim(attached.group(1).split(maxsplit=1)[-1]):
            phrase = f"{phrase} {text[word.end() :].split()[0]} {_trim_keep_det(attached.group(1))}"
        # weaker than a determiner-led phrase: a bare "-s" word may be a name ("postgres") or a verb
        out.append((start, Candidate(phrase, "thing", salience=0.6, plural=True)))
    return out


def _plural_noun(low: str) -> bool:
    return (
        len(low) > 3
        and low.endswith("s")
        and not low.endswith(("ss", "us", "is", "'s"))
        and low not in STOPWORDS
        and low not in PHRASE_BREAKERS
        and low not in VAGUE
        and low[:-1] not in _COMMON_VERBS_3RD
    )


_COMMON_VERBS_3RD = frozenset(
    """need want keep get make take give look seem sound feel work run go come say know think use help show
    start stop open close cost mean hurt smell taste leak drip break fail""".split()
)


def _tech_weight(token: str) -> float:
    if not re.search(r"[A-Za-z]", token):
        return 0.3  # "6.8", "19.30": a number is not a topic
    if re.search(r"[_./]", token) or (token[:1].islower() and re.search(r"[a-z][A-Z]", token)):
        return 1.8  # snake_case, dotted, paths, lowerCamel: code identifiers
    if re.search(r"[a-z][A-Z]", token):
        return 1.5  # product names: "MongoDB", "FastAPI"
    if len(token) >= 5 and re.search(r"\d", token):
        return 1.5  # commit hashes, ticket ids: "a1b2c3d", "PR412"
    return 1.3 if token.isupper() and len(token) > 2 else 1.0


def inside_text(phrases: list[tuple[int, Candidate]]) -> str:
    return " ".join(c.text.lower() for _, c in phrases)


def phrases(text: str) -> list[tuple[int, Candidate]]:
    out: list[tuple[int, Candidate]] = []
    covered = 0
    for match in _PHRASE.finditer(text):
        phrase = _trim(match.group(1))
        if not phrase or match.start() < covered:
            continue
        head = phrase.split()[-1].lower()
        rest = text[match.start(1) + len(phrase) :]
        if len(phrase.split()) > 1 and _verb_like_end(phrase, rest):
            phrase = phrase.rsplit(" ", 1)[0]  # "the ETL job writes Parquet": "writes" is the verb
            rest = text[match.start(1) + len(phrase) :]
            head = phrase.split()[-1].lower()
        named, attached = _CALLED.match(rest), _ATTACHED.match(rest)
        kind = "person" if head in PERSON_NOUNS else "place" if head in PLACE_NOUNS else "thing"
        words = phrase.split()
        if len(words) > 1 and words[-2].lower() in PERSON_NOUNS and words[-1][:1].isupper():
            kind = "person"  # "my daughter Amira" is Amira
        if named:
            phrase = f"{phrase} {named.group(1)}"
        elif attached and kind != "person" and _trim(attached.group(1).split(maxsplit=1)[-1]):
            phrase = f"{phrase} {rest.split()[0]} {_trim_keep_det(attached.group(1))}"
        covered = match.start(1) + len(phrase)
        gender = "f" if head in FEMALE_NOUNS else "m" if head in MALE_NOUNS else None
        det = match.group(0).split()[0].lower()
        owner = "my" if det == "my" else "your" if det == "your" else "the"
        weight = max([_tech_weight(w) for w in phrase.split() if _TECH.fullmatch(w)] + [1.0])
        if weight == 1.0 and any(w[:1].isupper() for w in phrase.split()):
            weight = 1.15  # "the Kindle Paperwhite": a named thing
        candidate = Candidate(f"{owner} {phrase}", kind, salience=weight, gender=gender, plural=_looks_plural(head))
        out.append((match.start(), candidate))
    return out


def _verb_like_end(phrase: str, rest: str) -> bool:
    last = phrase.split()[-1].lower()
    following = rest.split()[0].lower().strip(".,;:!?") if rest.split() else ""
    if last in _THIRD_PERSON_VERBS:  # "my passport expires on 2 August"
        return True
    plural_verb = last.endswith("s") and not last.endswith("ss") and not phrase.split()[-2].lower().endswith("s")
    return plural_verb and bool(following) and following not in STOPWORDS and rest.lstrip()[:1] not in ".,;:!?"


#: Present-tense verbs that follow a subject noun phrase; a phrase ending in one ends before it.
_THIRD_PERSON_VERBS = frozenset(
    """expires keeps leaks hurts smells returns crashes breaks fails works runs needs takes shows looks seems
    sounds chokes lags hangs stops starts opens closes costs belongs depends happens matters""".split()
)


def _compounds(text: str) -> list[tuple[int, Candidate]]:
    """A name or technical token followed by a common noun: "Parquet files", "LRU cache"."""
    out: list[tuple[int, Candidate]] = []
    for match in _COMPOUND.finditer(text):
        modifier, noun = match.group(1), match.group(2)
        if modifier.lower() in NOT_NAMES or noun in STOPWORDS or noun in PHRASE_BREAKERS or _past(noun):
            continue
        if noun in _NOT_COMPOUND or (noun.endswith("s") and _OBJECT_NEXT.match(text[match.end() :])):
            continue  # "Redis last sprint", "Temporal gives you": not a compound noun
        opening = not text[: match.start()].strip() or text[: match.start()].rstrip()[-1:] in ".!?:\n"
        if opening and modifier[1:].islower() and modifier.lower() not in MALE | FEMALE:
            continue  # "About twenty", "Wait times": a sentence's first word is no evidence of a name
        out.append((match.start(), Candidate(f"{modifier} {noun}", "thing", salience=0.9, plural=_looks_plural(noun))))
    return out


def _trim_keep_det(text: str) -> str:
    first, _, rest = text.partition(" ")
    return f"{first} {_trim(rest)}" if first.lower() in ("the", "a", "an") and rest else _trim(text)


def _name_kind(name: str, before: str, after: str, possessive: bool) -> tuple[str, float]:
    """What a capitalised word is, and how sure: a cue or a known first name makes a person."""
    if _PLACE_CUE.search(before[-24:]):
        return "place", 1.0
    first = name.split()[0].lower()
    if fold(first) in MALE or fold(first) in FEMALE or possessive:
        return "person", 1.0
    if _PERSON_CUE_BEFORE.search(before[-20:]) or _PERSON_CUE_AFTER.match(after):
        return "person", 0.8
    previous = before.rstrip(" ,").rsplit(None, 1)[-1].lower() if before.strip() else ""
    if previous in PERSON_NOUNS:  # "my sister Ines", "our dentist Ferreira"
        return "person", 0.9
    paired = _AND_NAME_BEFORE.search(before[-24:]) or _AND_NAME_AFTER.match(after)
    if paired and (
        paired.group(1).lower() in MALE | FEMALE or re.match(r"^\s+(?:are|were|[a-z]{3,}ed)\b", after)
    ):  # "Henry and Paula": both people
        return "person", 0.8
    if paired and re.match(r"^\s+[a-z]{3,}\b", after) and after.split()[0] not in STOPWORDS:
        return "agent", 0.8  # "Ingrid and Lars run ...": people or organisations
    sentence_start = not before.strip() or before.rstrip()[-1:] in ".!?:\n"
    if sentence_start and _looks_like_subject_name(name, after):
        # "Priyanka approved", "Stripe changed": a person or an organisation; a listed name was caught above
        return ("agent", 0.9) if re.match(r"^\s+[a-z]{3,}ed\b", after) else ("person", 0.7)
    if _AGENT_CUE_AFTER.match(after) and not name.lower().endswith(("ing", "ly")):
        return "agent", 0.8  # "Marta is reviewing it", "Stripe changed ...": who or what, the pronoun decides
    # a capitalised word opening a sentence is usually just a word ("Thinking", "About twenty"):
    # it counts only when it is mentioned again (see _note) or has an identifier's shape
    return "thing", 0.0 if sentence_start else 1.5


def _looks_like_subject_name(name: str, after: str) -> bool:
    """ "Priyanka approved", "Gwen and Oskar", "Marcus Chen owns": a sentence opened by a name."""
    if name.lower().endswith(("ing", "ly", "ed", "s")) and " " not in name:
        return False
    if " " in name and re.match(r"^\s+[a-z]+s\b", after):  # a full name then a verb
        return True
    if re.match(r"^\s+[a-z]{3,}\s+(?:me|us|him|her|them|the|a|an|my|his|our|their)\b", after):
        return after.split()[0] not in STOPWORDS  # "Chidi lent me his drill": a verb and its object
    return bool(_SUBJECT_CUE_AFTER.match(after))


def _trim(phrase: str) -> str:
    """Cut a noun phrase at the first function word; drop it when nothing specific is left."""
    words: list[str] = []
    for word in phrase.split():
        low = word.lower().strip(".-")
        if low in _STOP_AFTER or low in PHRASE_BREAKERS or (words and _past(low)):
            break
        words.append(word.strip(".-"))
    if not words or words[-1].lower() in VAGUE or all(w.lower() in VAGUE for w in words):
        return ""
    return " ".join(words)


def _past(word: str) -> bool:
    return len(word) > 4 and word.endswith("ed") and not word.endswith(("eed", "ied"))


def _looks_plural(head: str) -> bool:
    return head.endswith("s") and not head.endswith("ss") and len(head) > 3
