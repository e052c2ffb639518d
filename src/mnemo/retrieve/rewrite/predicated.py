"""A noun the chat used as a predicate's stem: "that crowd" after "the Mona Lisa room gets extremely
crowded", "that leak" after "the roof is leaking", "that delay" after "our train was delayed".

The chat never said "crowd"; it said what gets crowded. The demonstrative's noun is that state of
the subject, so the subject says which crowd, leak or delay is meant: "the Mona Lisa room crowd".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

#: The subject of the predicate: a determiner phrase or a capitalised name, a few words long.
_SUBJECT = (
    r"((?:the|my|our|your|their|his|her)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+"
    r"|(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z])[\w'-]*){0,2})"
)
_COPULA = r"(?:is|are|was|were|gets|get|got|getting|becomes|became|has\s+been|have\s+been|keeps)"
_DEGREE = r"(?:(?:very|so|really|extremely|super|quite|pretty|always|often|still|badly|constantly)\s+)*"


def predicated_subject(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest subject the chat said the noun's state of ("crowded", "leaking", "delayed"), or None."""
    stem = noun.lower().rstrip("s")
    if len(stem) < 4:
        return None
    pattern = cached_re.compile(rf"{_SUBJECT}\s+{_COPULA}\s+{_DEGREE}{re.escape(stem)}(?:ed|ing|y)\b", re.IGNORECASE)
    for message in reversed(list(context)):
        found = list(pattern.finditer(str(message.get("content") or "")))
        if found:
            return found[-1].group(1)
    return None
