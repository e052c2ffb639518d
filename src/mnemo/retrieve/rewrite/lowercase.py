"""Names in all-lower-case chat ("talked to ravi", "tariq fixed the leak", "grew up in tromsø").

A message with no capital letter hides its names; these rules capitalise the likely ones so the
candidate extraction treats them as names: listed first names, words after a person cue, a word
that opens a sentence as its agent, and a place word ending a clause after "in"/"to"/"from"/"at".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from mnemo.retrieve.rewrite.names import (
    COLLECTIVES,
    CURATED_FEMALE,
    CURATED_MALE,
    FIRST_NAMES,
    IRREGULAR_PAST,
    NOT_NAMES,
    PERSON_NOUNS,
    PLURAL_GROUPS,
    VAGUE,
    WORDS_TOO_NAMES,
)
from mnemo.store.sql import STOPWORDS

from . import cached_re

_LOWER_PERSON_CUE = re.compile(
    r"\b(?:mr|mrs|ms|dr|prof|ask|asked|tell|told|met|ping|pinged|call|called|email|emailed|talked to|talk to|"
    r"with|" + "|".join(sorted(PERSON_NOUNS)) + r")\.?\s+$"
)
_PRICE_TO = re.compile(r"[£$€]\d[\d,.]*k?\s+to\s+$|\d\s*(?:quid|euros?|dollars?|pounds?)\s+to\s+$")
_LOWER_PLACE_CUE = re.compile(r"(?<!-)\b(?:in|to|from|at)\s+$")
#: "did your dad cry", "will my sister come": after an auxiliary and its subject comes the verb,
#: so the person noun here cues no name.
_AUX_SUBJECT = re.compile(
    r"\b(?:did|does|do|will|would|can|could|should|has|have|had)\s+(?:your|my|his|her|their|our|the)\s+\w+\s+$"
)
_LOWER_AGENT_AFTER = re.compile(
    r"\s+(?:is|was|has|had|will|said|says|thinks|wants|just|also|and\s+i\b|[a-z]{2,}ed\b"
    # irregular past tenses: "tomek left the stove on", "mikey forgot the keys"
    r"|left|forgot|broke|lost|took|gave|told|sent|wrote|bought|found|made|got|went|came|ran|won|paid|spent)"
    r"(?!\s+(?:by|to)\b)"
)
#: Lower-case sentence openers that are never names: indefinite pronouns and everyday subjects.
_NOT_AGENTS = frozenset(
    """everyone everybody everything someone somebody something nobody nothing anyone anybody anything
    all both none people weather traffic dinner lunch breakfast rain snow""".split()
)


#: Listed first names that are everyday words too ("i will call", "max 5%", "mark it done"): in
#: lower-case chat they count as names only after a person cue ("met will", "ask mark").
_WORDS_TOO = WORDS_TOO_NAMES
#: "with us", "told them": object pronouns follow person cues and are never names.
_OBJECT_PRONOUNS = frozenset("me us you him her them it".split())

_INTERJECTIONS = frozenset("ugh oh so well ok okay lol omg wow yeah yes no argh hey and but".split())


def lower_case_chat(text: str) -> bool:
    """Whether a message is written without the case that marks names: no capital letter at all,
    or capitals only where they carry no news ("I", shouting or acronyms in all caps: "ugh mikey
    forgot AGAIN"). A writer who capitalises even a sentence's first word marks names too."""
    for match in cached_re.finditer(r"[A-Za-z][\w'-]*", text):
        word = match.group(0)
        if word[:1].isupper() and not word.isupper() and word.split("'")[0] != "I":
            return False
    return bool(text.strip())


#: Nouns English uses without an article after a locative preposition ("at work", "in hospital").
_BARE_LOCATIVES = frozenset(
    """work home school church uni college university hospital prison court bed sea town class lunch dinner
    breakfast night noon midnight dawn sunset sunrise university office camp main master prod production
    staging dev develop origin progress review stock advance person total general particular public private
    charge person time stages parallel""".split()
)


def _finite(word: str) -> bool:
    """ "my mom keeps", "the vet says", "my brother went", "me and my girlfriend keep": a verb
    after a person noun, no name."""
    third_person = len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "os", "as"))
    return verbal(word) or third_person or word in IRREGULAR_PAST or word in _PLAIN_VERBS


#: Common verbs in their plain form, after a plural subject ("my parents want", "me and my wife keep").
_PLAIN_VERBS = frozenset(
    """keep want need love like hate think say go come live work get make take feel seem try use know
    prefer reckon agree disagree argue""".split()
)


def verbal(word: str) -> bool:
    return len(word) > 4 and word.endswith(("ed", "ing"))


def written_names(texts: Iterable[str]) -> frozenset[str]:
    """The words a conversation capitalises inside a sentence (lower-case): its names, which a
    lower-case message of the same conversation writes without the capital ("siew ling wants ...")."""
    found: set[str] = set()
    for text in texts:
        for match in cached_re.finditer(r"(?<=[\w,;] )[A-Z][a-z][\w'-]*", text):
            found.add(match.group(0).lower().removesuffix("'s"))
    return frozenset(found - STOPWORDS - NOT_NAMES)


def common_words(texts: Iterable[str]) -> frozenset[str]:
    """The words a conversation writes in lower case inside a sentence ("stop drinking cranberry
    juice"): a sentence that opens with one ("Cranberry can increase ...") names no one."""
    found: set[str] = set()
    for text in texts:
        found.update(m.group(0) for m in cached_re.finditer(r"(?<=[a-z,;] )[a-z][a-z'-]{3,}", text))
    return frozenset(found - STOPWORDS)


_TRUECASE_NAMES = CURATED_MALE | CURATED_FEMALE
#: A subject pronoun opening the next clause (matched in place: slicing the rest per word is quadratic).
_NEXT_CLAUSE = re.compile(r"\s+(?:i|we|he|she|they)\s")


#: A lower-case first name and surname before what the person did: "jannik sinner won in melbourne".
_FULL_NAME = re.compile(r"\b([a-z]{3,})\s+([a-z]{3,})(?=" + _LOWER_AGENT_AFTER.pattern + ")")


def _full_names(text: str) -> set[int]:
    """Offsets of the words of a listed first name and its surname acting as a subject, typed in
    lower case; a first name that is an everyday word ("will", "mark") is left alone."""
    found: set[int] = set()
    for match in _FULL_NAME.finditer(text):
        first, last = match.group(1), match.group(2)
        if first not in FIRST_NAMES or first in _WORDS_TOO or first in STOPWORDS | NOT_NAMES:
            continue
        if last in STOPWORDS | NOT_NAMES or verbal(last) or _finite(last) or last in PERSON_NOUNS:
            continue
        found.update((match.start(1), match.start(2)))
    return found


@lru_cache(maxsize=1024)
def truecase(text: str, known: frozenset[str] = frozenset()) -> str:
    """Capitalise the likely names of an all-lower-case message ("talked to ravi", "my cousin priya",
    "grew up in tromsø"): listed first names, words after a person cue, a place word ending a clause."""
    out: list[str] = []
    full = _full_names(text)
    for match in cached_re.finditer(r"\S+|\s+", text):
        word = match.group(0)
        bare = word.strip(".,;:!?")
        before = text[max(0, match.start() - 40) : match.start()]  # the cues look back a few words
        ending = bare != word or match.end() == len(text)
        low = bare.lower()
        cued = bool(_LOWER_PERSON_CUE.search(before[-24:])) and not _AUX_SUBJECT.search(before[-40:])
        if low in COLLECTIVES or low in PLURAL_GROUPS or low.removesuffix("s") in PERSON_NOUNS:
            cued = False  # "dinner with family", "out with friends": people, but no one's name
        if (low in _WORDS_TOO or low not in FIRST_NAMES) and cached_re.search(r"\bthe\s+[a-z]+\s+$", before[-30:]):
            cued = False  # "the dentist bill", "the vendor project": a compound of common nouns, no name
        name = (
            (low in _TRUECASE_NAMES and (low not in _WORDS_TOO or cued))
            or low in known
            or match.start() in full
            or (cued and low not in STOPWORDS | NOT_NAMES | _OBJECT_PRONOUNS | _BARE_LOCATIVES and not _finite(low))
        )
        # "tariq fixed ...", "rahul is debugging ...": an unlisted word opening a sentence as its agent
        opening = not before.strip() or before.rstrip()[-1:] in ".!?" or before.strip().lower() in _INTERJECTIONS
        if opening and len(bare) > 2 and low not in STOPWORDS | NOT_NAMES | _NOT_AGENTS and not verbal(low):
            name = name or bool(_LOWER_AGENT_AFTER.match(text, match.end()))
        # "in glasgow i played": a subject pronoun opens the next clause, so the place ends this one
        ending = ending or bool(_NEXT_CLAUSE.match(text, match.end()))
        # "at work", "to bed", "in town": English lets institutional nouns go bare there; no names
        ending = ending and bare.lower() not in _BARE_LOCATIVES
        # "hard at restaurants": a bare plural is a kind of place, not one named place
        ending = ending and not (low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 5)
        place = ending and _LOWER_PLACE_CUE.search(before[-6:]) and len(bare) > 3 and bare not in STOPWORDS
        place = place and not _PRICE_TO.search(before[-16:])  # "€45 to straighten": what the price buys
        if bare.isalpha() and (name or place) and bare.lower() not in VAGUE:
            word = word.replace(bare, bare[:1].upper() + bare[1:], 1)
        out.append(word)
    return "".join(out)
