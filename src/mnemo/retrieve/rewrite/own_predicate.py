"""Definite phrases and times a long question says enough about itself: no topic is attached to them.

"our legacy app still stores passwords as unsalted md5 hashes, how bad is that really?" and
"curl works but the browser gets a CORS error on the same request, why?" name a thing and go on
to say what they ask about it. The definite phrase ("our legacy app", "the same request") leans on
nothing: the query predicates something of it, or compares within itself. Appending the chat's
topic ("... about Google") only pulls the wrong memories.

Short follow-ups keep the topic ("is the error still there?", "ask him to revert the change"):
a phrase counts only when the query has five content words of its own besides it, and a definite
noun only when a verb follows it directly (it is the subject of the query's own clause).

A time word left without an anchor ("the first year", "before they can face forward", "again")
stands alone in a question of seven content words of its own: "does a car lose most of its value in
the first year" is about cars, not the chat's "should I buy or lease".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mnemo.retrieve.rewrite.reference import Reference
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Content words of its own a query needs before its definite phrases stand alone.
MIN_OWN_WORDS = 5
#: ... and before its unanchored time words do (measured: six loses an ambiguous row of seedwords_own).
MIN_OWN_WORDS_TIMED = 7
#: What follows the subject of the query's own clause: "the error *is* on a line", "our app *still stores*".
_PREDICATE = (
    r"\s+(?:still\s+|also\s+|always\s+|sometimes\s+|keeps?\s+)?"
    r"(?:is|are|was|were|has|have|had|gets?|got|returns?|shows?|says?|stores?|looks?|seems?|takes?|runs?"
    r"|works?|uses?|needs?|wants?)\b"
)
#: "the same request", "the same tax year": a comparison the query makes; "the same again" or
#: "the same as before", "the same one", "the same with X" and "the same for X" repeat the chat's.
_SAME_NOUN = r"\s+(?!as\b|again\b|thing\b|one\b|with\b|for\b)[a-z]{3,}"
_WORD = re.compile(r"[A-Za-z][\w'-]*")
#: Words that carry no subject: question words and the chat's light verbs.
_EMPTY = frozenset("what who whom whose which when where why how yesterday recently today earlier previously".split())


def says_its_own(query: str, pending: Sequence[Reference], light: frozenset[str]) -> bool:
    """Whether every pending reference is a definite phrase or a time word the query itself says
    enough about."""
    if not pending or not all(ref.kind == "temporal" or _self_standing(query, ref) for ref in pending):
        return False
    timed = any(ref.kind == "temporal" and not _self_standing(query, ref) for ref in pending)
    return _own_words(query, pending, light) >= (MIN_OWN_WORDS_TIMED if timed else MIN_OWN_WORDS)


def _self_standing(query: str, ref: Reference) -> bool:
    text = ref.text.lower()
    if text == "the same":
        return cached_re.match(_SAME_NOUN, query[ref.end :], re.IGNORECASE) is not None
    if not text.startswith(("the ", "our ", "my ", "your ")):
        return False
    return cached_re.match(_PREDICATE, query[ref.end :], re.IGNORECASE) is not None


def _own_words(query: str, pending: Sequence[Reference], light: frozenset[str]) -> int:
    """Content words of the query outside its references."""
    rest = query
    for ref in sorted(pending, key=lambda r: -r.start):
        rest = rest[: ref.start] + " " + rest[ref.end :]
    ignored = STOPWORDS | light | _EMPTY
    return sum(1 for word in _WORD.findall(rest) if word.lower() not in ignored and len(word) > 2)
