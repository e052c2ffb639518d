"""Word matching for the rewriter: whole-word search without a regex per phrase (a conversation names
many things and the pattern cache is small, so "is this phrase here as words" is a find and a look at
its two neighbours), the sentences of a message, and the crude stems that tell whether two texts talk
of the same things."""

from __future__ import annotations

import re

from mnemo.store.sql import STOPWORDS

_CONTENT_WORD = re.compile(r"[a-z][a-z0-9'-]{2,}")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n")


def sentences(text: str) -> list[str]:
    """``text`` cut after each full stop, question or exclamation mark and at each line break; chat
    messages are short, so no abbreviation list ("Dr. Okafor" splits, and both halves still name her)."""
    return _SENTENCE_BREAK.split(text)


def stems(text: str, size: int = 4) -> set[str]:
    """The first ``size`` letters of each content word of ``text``: "drop" meets "dropped", "tag" (at
    three) meets "tagged"; no lemmatiser, so it fits the per-query budget."""
    return {w[:size] for w in _CONTENT_WORD.findall(text.lower()) if w not in STOPWORDS}


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
