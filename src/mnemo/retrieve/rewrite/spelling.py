"""A query noun misspelt against the conversation's own word: "that propsal" after "proposal, move
the launch to the 14th". People type fast; the rules that find "that X" in the conversation match
words exactly, so the noun is first read as the conversation wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.session_terms import bounded_distance

#: Shorter words have too many neighbours one edit away ("cat"/"car") to correct safely.
_MIN_LENGTH = 5


def as_written(noun: str, context: Sequence[Mapping[str, str]]) -> str:
    """``noun`` as the conversation spells it: itself when the conversation has it (or it is short),
    else the one conversation word within one edit (two for words of eight letters or more) that
    starts with the same letter; ``noun`` when there is none or more than one."""
    low = noun.lower()
    if len(low) < _MIN_LENGTH:
        return noun
    words = {w for m in context for w in re.findall(r"[a-z][a-z-]+", str(m.get("content") or "").lower())}
    if low in words or low.rstrip("s") in words or f"{low}s" in words:
        return noun
    bound = 2 if len(low) >= 8 else 1
    near = {
        w
        for w in words
        if w[0] == low[0]
        and len(w) >= _MIN_LENGTH
        and not _inflected(low, w)
        and bounded_distance(low, w, bound) <= bound
    }
    return near.pop() if len(near) == 1 else noun


def _inflected(noun: str, word: str) -> bool:
    """ "rename" and "renamed", "proposal" and "proposed": a verb form of the noun's own word,
    which the deed rules read as such, is no spelling of it."""
    return (word.endswith(("ed", "ing")) and not noun.endswith(("ed", "ing"))) or word.startswith(noun)
