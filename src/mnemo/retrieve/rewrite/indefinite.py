"""One-substitution: "book one", "can he get one", "pick one up" stand for a kind the chat offered.

"one" after a verb of getting or using replaces a singular noun phrase the conversation introduced
with "a"/"an" ("so book a truck early" -> "book one" is a truck). It is a reference only when the
query has no indefinite of its own before it ("what a Kubernetes operator is and when I'd use one").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.names import VAGUE
from mnemo.retrieve.rewrite.noun_phrases import phrases
from mnemo.retrieve.rewrite.tidy import TIME_UNITS, tidy

from . import cached_re

#: The noun a one-substitution carries (resolve.py dispatches on it).
ONE = "one:indefinite"

_TAKING_VERBS = (
    "get|gets|getting|got|buy|buying|book|booking|need|needs|order|ordering|rent|renting|hire|hiring|bring"
    "|use|pick|grab|borrow|find|reserve|want|wants|afford|replace\\s+it\\s+with|take|apply\\s+for|sign\\s+up\\s+for"
)
#: "book one", "pick one up", "get one for her" - but never "one of", "one more", "one day", "one another".
_ONE = re.compile(
    rf"\b(?:{_TAKING_VERBS})\s+(one)\b(?!\s+(?:of|more|another|day|time|thing|or|by|at\s+a\s+time)\b)(?![-'])",
    re.IGNORECASE,
)
_OWN_INDEFINITE = re.compile(r"\b(?:a|an)\s+[a-z]", re.IGNORECASE)
#: Adverbs that end a phrase but are no part of the thing and tidy() keeps: "book a truck early".
_TRAILING = frozenset("early quickly asap".split())
_NO_KIND = VAGUE | TIME_UNITS | frozenset("lot bit few couple way chance idea look try question while".split())


def one_spans(query: str) -> list[tuple[int, int]]:
    """Where "one" stands for a kind the conversation offered, unless the query introduced its own."""
    spans: list[tuple[int, int]] = []
    for match in _ONE.finditer(query):
        if _OWN_INDEFINITE.search(query[: match.start(1)]):
            continue  # "what a Kubernetes operator is and when I'd use one": the query's own
        spans.append((match.start(1), match.end(1)))
    return spans


def offered_kind(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest singular noun phrase the conversation introduced with "a"/"an", as written."""
    for message in reversed(context):
        text = message.get("content", "")
        for at, phrase in reversed(phrases(text)):
            article = cached_re.match(r"(an?)\s", text[at:], re.IGNORECASE)
            if article is None or phrase.plural:
                continue
            words = tidy(phrase.text).split()[1:]  # phrases() writes "the"; the chat wrote "a"
            while words and words[-1].lower() in _TRAILING:
                words.pop()
            if words and words[-1].lower() not in _NO_KIND:
                return f"{article.group(1).lower()} {' '.join(words)}"
    return None
