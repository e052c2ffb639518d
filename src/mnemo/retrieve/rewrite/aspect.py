"""Tense as a pointer: "had they already signed?" asks about a moment the query never names.

The past perfect places an event before a past reference time, and "already"/"still" in a past
clause measure it against one ("was the heating still off?"). When the query names no time of its
own, that reference time can only be the conversation's event, so the query is as context-bound as
"by then". This is grammar, not a phrase list: an auxiliary "had" (opening the question, after a
wh-word, or before "already/just/ever/been"), or a past auxiliary with "already"/"still".

The span is the clause's tail from the aspect adverb (or its last word), so the anchor is added
after it: "had they already signed (when ...)?". Pronouns before it stay references of their own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mnemo.retrieve.rewrite.dates import TIME

from . import cached_re

_WH = r"(?:what|who|whom|which|where|why|how(?:\s+(?:much|many|long|far))?)"
#: "had" as an auxiliary: opening the question ("had they ..."), after a wh-word ("what had she
#: said"), or before an aspect word ("we had already paid"); "had to" and "had a cold" are not.
_PERFECT = re.compile(
    rf"(?:^\W*(?:(?:and|so|but|ok|okay)\W+)?|\b{_WH}\s+)had\s+(?!to\b|a\b|an\b|any\b|some\b|no\b)"
    r"|\bhad\s+(?:already|just|ever|never|been|not|n't)\b",
    re.IGNORECASE,
)
#: A past auxiliary measured by "already"/"still": "was the heating still off", "did they already pay".
_PAST_MEASURED = re.compile(r"\b(?:was|were|did|wasn't|weren't|didn't)\b.*\b(?:already|still)\b", re.IGNORECASE)
#: Words that give the query a time of its own: a relation with its own object, "then", "now", "yet".
_OWN_TIME = re.compile(
    r"\b(?:before|after|by|when|whenever|until|till|since|while|during|then|now|ago|yet|today|tonight|yesterday"
    r"|tomorrow|last|next|this\s+(?:week|month|year|morning|evening))\b",
    re.IGNORECASE,
)
_ADVERB = re.compile(r"\b(?:already|still|just|ever)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*[?.!]*\s*$")


def aspect_span(query: str, taken: Sequence[tuple[int, int]] = (), context_text: str = "") -> tuple[int, int] | None:
    """The tail of a past-perfect (or "already/still") clause that names no time of its own, or
    None. It stops before any ``taken`` span (another reference), so "they" in "had they already
    signed?" is still resolved on its own."""
    span = _tail(query)
    if span is None or _names_its_own(query, context_text):
        return None
    start, end = span
    if any(s < start < e for s, e in taken):
        return None
    end = min([end] + [s for s, e in taken if e > start])
    while end > start and query[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def _tail(query: str) -> tuple[int, int] | None:
    if not (_PERFECT.search(query) or _PAST_MEASURED.search(query)):
        return None
    if _OWN_TIME.search(query) or TIME.search(query):
        return None  # "had they signed by Friday": the query says when
    end = _CLAUSE_END.search(query).start()  # type: ignore[union-attr]  # the pattern always matches
    adverb = _ADVERB.search(query)
    if adverb is not None and adverb.end() < end:
        return adverb.start(), end
    last = cached_re.search(r"[\w'-]+$", query[:end])
    return (last.start(), end) if last else None


def _names_its_own(query: str, context_text: str) -> bool:
    """The query names something the conversation never did ("what had the Romans built in
    Britain?"): it is about that, not about the conversation's moment."""
    known = context_text.lower()
    names = cached_re.findall(r"(?<=\s)[A-Z][\w'-]+", query)
    return any(name.lower().removesuffix("'s") not in known for name in names)
