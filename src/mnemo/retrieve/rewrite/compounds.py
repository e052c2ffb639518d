"""Compound names: a name or a technical token before a common noun ("Parquet files", "LRU cache",
"Postgres replica"), read as one thing."""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.bare import OBJECT_NEXT, looks_plural, past_participle
from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.names import FIRST_NAMES, IRREGULAR_PAST, NOT_NAMES, PHRASE_BREAKERS
from mnemo.store.sql import STOPWORDS

_COMPOUND = re.compile(r"\b([A-Z][\w.\-]*[A-Za-z0-9](?:\s+[A-Z][\w.\-]*[A-Za-z0-9]){0,2})\s+([a-z]{3,})\b")
_NOT_COMPOUND = frozenset(
    """last next this now then here there today also still already never rather via versus per elsewhere ago
    instead anyway though together apart""".split()
)
_PRONOUN_OBJECT = re.compile(r"\s+(?:it|them|him|her|me|us)\b")
_NOT_COMPOUND_HEADS = STOPWORDS | PHRASE_BREAKERS | IRREGULAR_PAST


def window_before(text: str, at: int, width: int = 120) -> str:
    """The text just before ``at``: the patterns read there look back a few words only, and a
    bounded window keeps a long message linear. A cut window opens with a marker, so that "^" in a
    pattern still means the start of the message."""
    return text[:at] if at <= width else "\x00 " + text[at - width : at]


def compound_names(text: str) -> list[tuple[int, Candidate]]:
    """A name or technical token followed by a common noun: "Parquet files", "LRU cache"."""
    out: list[tuple[int, Candidate]] = []
    for match in _COMPOUND.finditer(text):
        modifier, noun = match.group(1), match.group(2)
        start = match.start()
        while " " in modifier and modifier.split()[0].lower() in NOT_NAMES:  # "Our React Native app"
            start += len(modifier.split()[0]) + 1
            modifier = modifier.split(" ", 1)[1]
        if modifier.lower() in NOT_NAMES or noun in _NOT_COMPOUND_HEADS or past_participle(noun):
            continue
        if noun in _NOT_COMPOUND or (noun.endswith("s") and OBJECT_NEXT.match(text[match.end() :])):
            continue  # "Redis last sprint", "Temporal gives you": not a compound noun
        if _PRONOUN_OBJECT.match(text, match.end()):
            continue  # "let HMRC recover it": a verb takes the pronoun, no noun does
        lead = window_before(text, start)
        opening = not lead.strip() or lead.rstrip()[-1:] in ".!?:\n"
        if opening and modifier[1:].islower() and modifier.lower() not in FIRST_NAMES:
            continue  # "About twenty", "Wait times": a sentence's first word is no evidence of a name
        out.append((start, Candidate(f"{modifier} {noun}", "thing", salience=0.9, plural=looks_plural(noun))))
    return out
