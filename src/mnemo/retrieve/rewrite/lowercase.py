"""Names in all-lower-case chat ("talked to ravi", "tariq fixed the leak", "grew up in tromsø").

A message with no capital letter hides its names; these rules capitalise the likely ones so the
candidate extraction treats them as names: listed first names, words after a person cue, a word
that opens a sentence as its agent, and a place word ending a clause after "in"/"to"/"from"/"at".
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.names import FEMALE, MALE, NOT_NAMES, PERSON_NOUNS, VAGUE
from mnemo.store.sql import STOPWORDS

_LOWER_PERSON_CUE = re.compile(
    r"\b(?:mr|mrs|ms|dr|prof|ask|asked|tell|told|met|ping|pinged|call|called|email|emailed|talked to|talk to|"
    r"with|" + "|".join(sorted(PERSON_NOUNS)) + r")\.?\s+$"
)
_LOWER_PLACE_CUE = re.compile(r"\b(?:in|to|from|at)\s+$")
_LOWER_AGENT_AFTER = re.compile(
    r"^\s+(?:is|was|has|had|will|said|says|thinks|wants|just|also|and\s+i\b|[a-z]{2,}ed\b)(?!\s+(?:by|to)\b)"
)
#: Lower-case sentence openers that are never names: indefinite pronouns and everyday subjects.
_NOT_AGENTS = frozenset(
    """everyone everybody everything someone somebody something nobody nothing anyone anybody anything
    all both none people weather traffic dinner lunch breakfast rain snow""".split()
)


_INTERJECTIONS = frozenset("ugh oh so well ok okay lol omg wow yeah yes no argh hey and but".split())


def verbal(word: str) -> bool:
    return len(word) > 4 and word.endswith(("ed", "ing"))


def truecase(text: str) -> str:
    """Capitalise the likely names of an all-lower-case message ("talked to ravi", "my cousin priya",
    "grew up in tromsø"): listed first names, words after a person cue, a place word ending a clause."""
    out: list[str] = []
    for match in re.finditer(r"\S+|\s+", text):
        word = match.group(0)
        bare = word.strip(".,;:!?")
        before = text[: match.start()]
        ending = bare != word or match.end() == len(text)
        low = bare.lower()
        name = low in MALE | FEMALE or (
            _LOWER_PERSON_CUE.search(before[-24:]) and low not in STOPWORDS | NOT_NAMES and not verbal(low)
        )
        # "tariq fixed ...", "rahul is debugging ...": an unlisted word opening a sentence as its agent
        opening = not before.strip() or before.rstrip()[-1:] in ".!?" or before.strip().lower() in _INTERJECTIONS
        if opening and len(bare) > 2 and low not in STOPWORDS | NOT_NAMES | _NOT_AGENTS and not verbal(low):
            name = name or bool(_LOWER_AGENT_AFTER.match(text[match.end() :]))
        place = ending and _LOWER_PLACE_CUE.search(before[-6:]) and len(bare) > 3 and bare not in STOPWORDS
        if bare.isalpha() and (name or place) and bare.lower() not in VAGUE:
            word = word.replace(bare, bare[:1].upper() + bare[1:], 1)
        out.append(word)
    return "".join(out)
