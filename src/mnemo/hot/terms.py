"""Content words of a turn or a fact, lightly stemmed, for lexical overlap."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset(
    "a an the i me my mine you your is are was were be do does did to of in at on for and or but with what where "
    "who when how which it that this have has had am".split()
)


def words(text: str) -> set[str]:
    """Content words, lightly stemmed so "lives" meets "live" and "works" meets "working"."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP}


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
