"""An absence the conversation dated: "while i'm out", "while we're away".

"cancel my gym classes while we're away" asks about the stretch of time the speaker will be gone,
and only the chat says when that is: "we're driving up to scotland on the 5th and back on the
15th", "i'm off on parental leave from september". The clause is a temporal reference whose
anchor is a period (two dates, or a leave and its start), not one event, so it gets its own reader.
Pure functions over the conversation's text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

#: "while i'm out", "when we're away", "while i'll be on leave": the speaker's coming absence.
ABSENCE_CLAUSE = (
    r"(?:when|while)\s+(?:i'm|i\s+am|we're|we\s+are|i'll\s+be|we'll\s+be)\s+"
    r"(?:away|out|off|gone|abroad|travelling|traveling|on\s+(?:holiday|leave|vacation|the\s+trip))\b"
)
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
#: A day or a month as people write them: "the 5th", "3 may", "june 12", "friday", "september".
_DATE = (
    rf"(?:(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+(?:of\s+)?{_MONTH})?|{_MONTH}(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?"
    rf"|(?:next\s+)?{_DAY}|next\s+(?:week|month))"
)
#: "on the 5th and back on the 15th", "from 3 june to 10 june", "between friday and monday".
_RANGE = re.compile(
    rf"\b(?:from|on|leaving(?:\s+on)?|between)\s+({_DATE})\b.{{0,40}}?\b"
    rf"(?:to|until|till|through|and(?:\s+(?:back|home|return(?:ing)?))?(?:\s+on)?|back\s+on|returning(?:\s+on)?)"
    rf"\s+({_DATE})\b",
    re.IGNORECASE,
)
#: "i'm off on parental leave from september", "we're away on holiday until the 20th".
_LEAVE = re.compile(
    r"\b(?:i'm|i\s+am|we're|we\s+are|i'll\s+be|we'll\s+be|i\s+go|we\s+go|going)\s+(?:off\s+|away\s+|out\s+)?"
    r"(on\s+(?:[a-z]+\s+)?(?:leave|holiday|vacation|sabbatical|secondment|honeymoon)"
    rf"(?:\s+(?:from|until|till|in|on|for)\s+(?:{_DATE}|\w+\s+(?:weeks?|months?|days?)))?)",
    re.IGNORECASE,
)


def is_absence(reference: str) -> bool:
    return cached_re.fullmatch(ABSENCE_CLAUSE, reference.lower()) is not None


def absence_period(context: Sequence[Mapping[str, str]]) -> str | None:
    """The dated stretch of the speaker's absence, latest message first: "from the 5th to the
    15th", "on parental leave from september"; None when the chat dates no absence."""
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        leave = _LEAVE.search(text)
        if leave:
            return leave.group(1)
        span = _RANGE.search(text)
        if span:
            return f"from {span.group(1)} to {span.group(2)}"
    return None
