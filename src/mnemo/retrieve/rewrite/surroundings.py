"""Whom and where an event was: "a call with the bank at 2", "her new job at the maritime museum".
The words after an event's noun phrase that say which event it is, cut before the time.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.dates import TIME
from mnemo.store.sql import STOPWORDS

_LOCATIVE = re.compile(r"^\s+(at|in)\s+(the\s+(?:[a-z][\w'-]*\s+){0,2}[a-z][\w'-]*)")

_PARTNER = re.compile(
    r"^\s+with\s+((?:the|my|our|his|her|their)\s+(?:[a-z][\w'-]*\s+){0,2}[a-z][\w'-]*|[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
)


def event_partner(rest: str) -> str:
    """Whom an event was with ("with the bank", "with Priya"), cut before function words and times."""
    found = _PARTNER.match(rest)
    if found is None:
        return ""
    words = _without_tail(found.group(1).split())
    return f" with {' '.join(words)}" if words and words[-1].lower() not in STOPWORDS else ""


def event_place(rest: str) -> str:
    """A lower-case place the event happened at ("at the maritime museum"), cut before function
    words and times; empty when there is none."""
    found = _LOCATIVE.match(rest)
    if found is None:
        return ""
    words = _without_tail(found.group(2).split())
    return f" {found.group(1)} {' '.join(words)}" if len(words) > 1 else ""


def _without_tail(words: list[str]) -> list[str]:
    """A phrase cut before the function words and times that end it ("the bank at 2" -> "the bank")."""
    while len(words) > 1 and (words[-1].lower() in STOPWORDS or TIME.fullmatch(words[-1])):
        words = words[:-1]
    return words
