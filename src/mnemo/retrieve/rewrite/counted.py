"""A counted plural and the list that says what it counts: "the new plants" after "bought two
plants yesterday, a monstera and a fiddle leaf fig" are the monstera and the fig.

The chat introduces the group by number and names its members right after, set off by a comma, a
colon or a dash; a later definite plural of the same noun means the members, which are what a
search must find ("monstera", not "plants").
"""

from __future__ import annotations

import re

from mnemo.store.sql import STOPWORDS

from . import cached_re

_COUNT = r"(?:two|three|four|five|six|both|a\s+couple\s+of|a\s+few|some|\d+)"
#: "the new plants", "the two candidates": a definite plural, perhaps with one light modifier.
_DEFINITE_PLURAL = re.compile(
    r"\bthe\s+(?:(?:new|old|two|three|four|both|other|first|last)\s+)?([a-z]{3,}s)\b(?!\s+(?:of|for|from|in|on|at|with)\b)",
    re.IGNORECASE,
)
#: What the list after the count may not open with: a verb or a clause ("two plants, and they're thriving").
_NOT_LIST = frozenset("and but so which that who they it we i is are was were".split())


def counted_members(noun: str, context_text: str) -> str | None:
    """ "a monstera and a fiddle leaf fig": the members the chat listed after counting ``noun``."""
    plural = noun.lower()
    singular = plural[:-1]
    counted = rf"\b{_COUNT}\s+(?:[a-z-]+\s+)?(?:{re.escape(plural)}|{re.escape(singular)})\b"
    # "two plants yesterday, a ..."
    pattern = counted + r"((?:[^.!?\n]|\.\b){0,30}?)\s*[,:\u2014-]\s*((?:[^.!?\n]|\.\b)+)"
    matches = list(cached_re.finditer(pattern, context_text, re.IGNORECASE))
    if not matches:
        return None
    found = matches[-1]  # the latest count
    listed = cached_re.split(r"\s*[;(]", found.group(2))[0].strip(" ,")
    words = listed.lower().split()
    opens = listed[:1].isupper() or (words and words[0] in ("a", "an", "the", "one"))
    if not words or not opens or words[0] in _NOT_LIST or (" and " not in f" {listed} " and "," not in listed):
        return None  # "two plants, and they're thriving": no members named
    return listed


def counted_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, noun) of each definite plural whose members the chat listed after counting them."""
    out = []
    for match in _DEFINITE_PLURAL.finditer(query):
        noun = match.group(1).lower()
        if noun in STOPWORDS or noun.endswith("ss"):
            continue
        if counted_members(noun, context_text):
            out.append((match.start(), match.end(), noun))
    return out
