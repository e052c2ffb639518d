"""Where "here" is: the place the user says they are now.

"who handles IT here" after "I'm at the Dublin office this week, normally I'm in London" is the
Dublin office - the place the user is at, not the one they usually are. Pure functions over the
user's messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.names import PLACE_NOUNS

#: "I'm at the Dublin office this week", "I'm working from the public library today".
_AT = re.compile(
    r"\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+)?(?:at|in|working\s+(?:from|at|in)|staying\s+(?:at|in)|sitting\s+in)\s+"
    r"((?:the|a|an|my|our)\s+[\w'-]+(?:\s+[\w'-]+){0,3}?|[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)"
    r"(?=\s+(?:today|tonight|this\s+(?:week|morning|afternoon|evening)|right\s+now|now|for\s+the)\b|\s*[,.;!?]|\s*$)"
)
#: A place the user is only as a habit, not now: "normally I'm in London".
_HABITUAL = re.compile(r"\b(?:normally|usually|typically|always|often)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[.;!?]\s+|,\s+")


def present_place(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest place the user says they are at now, or None."""
    for message in reversed(list(context)):
        if str(message.get("role") or "") not in ("user", "human"):
            continue
        for clause in reversed(_CLAUSE.split(str(message.get("content") or ""))):
            found = _AT.search(clause)
            if found is not None and not _HABITUAL.search(clause) and _a_place(found.group(1)):
                return found.group(1)
    return None


#: Heads of a place one can be at: "the Dublin office", "the public library" ("a hurry", "a bad place
#: mentally" are states).
_PLACE_HEADS = PLACE_NOUNS | {"centre", "center", "library", "branch", "site", "lab", "warehouse", "flat", "apartment"}


def _a_place(phrase: str) -> bool:
    """A name ("Lisbon", "the Dublin office") or a phrase whose head is a place noun."""
    words = phrase.split()
    named = any(w[:1].isupper() for w in words[1:]) or (words[0][:1].isupper() and words[0] not in _DETERMINERS)
    return named or words[-1].lower() in _PLACE_HEADS


_DETERMINERS = frozenset({"The", "A", "An", "My", "Our"})
