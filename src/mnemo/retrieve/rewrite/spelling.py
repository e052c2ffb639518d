"""A query noun misspelt against the conversation's own word: "that propsal" after "proposal, move
the launch to the 14th". People type fast; the rules that find "that X" in the conversation match
words exactly, so the noun is first read as the conversation wrote it - for typing slips only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mnemo.retrieve.session_terms import bounded_distance

from . import cached_re

#: Shorter words have too many neighbours one edit away ("cat"/"car") to correct safely.
_MIN_LENGTH = 5


def as_written(noun: str, context: Sequence[Mapping[str, str]]) -> str:
    """``noun`` as the conversation spells it: itself when the conversation has it (or it is short),
    else the one conversation word one typing slip away (a letter dropped, added or swapped with its
    neighbour) that starts with the same letter; ``noun`` when there is none or more than one."""
    low = noun.lower()
    if len(low) < _MIN_LENGTH:
        return noun
    words = {w for m in context for w in cached_re.findall(r"[a-z][a-z-]+", str(m.get("content") or "").lower())}
    if low in words or low.rstrip("s") in words or f"{low}s" in words:
        return noun
    near = {w for w in words if w[0] == low[0] and len(w) >= _MIN_LENGTH and not _inflected(low, w) and _slip(low, w)}
    return near.pop() if len(near) == 1 else noun


def _slip(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with one letter dropped, added or two neighbours swapped: the
    slips of fast typing. A changed letter is not one, since it makes other real words ("printer"
    and "painter", "house" and "horse", "price" and "prize")."""
    if len(typed) == len(word):
        swapped = [i for i in range(len(word)) if typed[i] != word[i]]
        return len(swapped) == 2 and swapped[1] == swapped[0] + 1 and typed[swapped[0]] == word[swapped[1]]
    return abs(len(typed) - len(word)) == 1 and bounded_distance(typed, word, 1) == 1


def _inflected(noun: str, word: str) -> bool:
    """ "rename" and "renamed", "proposal" and "proposed": a verb form of the noun's own word,
    which the deed rules read as such, is no spelling of it."""
    return (word.endswith(("ed", "ing")) and not noun.endswith(("ed", "ing"))) or word.startswith(noun)
