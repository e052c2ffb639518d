"""Whole-word search without a regex per phrase: a conversation names many things and the pattern
cache is small, so "is this phrase here as words" is a find and a look at its two neighbours."""

from __future__ import annotations


def word_at(text: str, phrase: str, start: int = 0) -> int:
    """Where ``phrase`` first stands as whole words in ``text`` from ``start`` (-1 if nowhere): "cli"
    is not in "click"."""
    at = text.find(phrase, start)
    while at != -1:
        end = at + len(phrase)
        if (at == 0 or not text[at - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            return at
        at = text.find(phrase, at + 1)
    return -1
