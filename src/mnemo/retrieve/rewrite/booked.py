"""A booked visit: "move that to friday" after "booked the dentist for thursday".

What one moves, cancels or postpones is an appointment, and a chat books one by naming the person
it is with ("booked the dentist", "got the physio at 3"), so no thing candidate stands for it: the
only nouns are a person and a time. The latest booking of a person by role or name becomes "the
dentist appointment" / "the appointment with Dr Osei".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.implicit import is_role
from mnemo.retrieve.rewrite.names import FEMALE_NOUNS, MALE_NOUNS
from mnemo.retrieve.rewrite.reference import Reference

from . import cached_re

#: Verbs that change when something happens, just before the reference: "move that", "can you cancel it".
_RESCHEDULED = re.compile(
    r"\b(?:move|moving|reschedule|rescheduling|rebook|cancel|cancelling|canceling|push|postpone|shift)\s*$",
    re.IGNORECASE,
)
#: "booked the dentist", "booked in with my GP", "made an appointment with Dr Osei", "got the physio at 3".
_BOOKING = re.compile(
    r"\b(?:booked|scheduled|made\s+an\s+appointment\s+with|got\s+an\s+appointment\s+with|booked\s+in\s+with|"
    r"have\s+an\s+appointment\s+with|seeing)\s+(?:(the|my|our|a|an)\s+([a-z]+)|((?:Dr|Mr|Mrs|Ms)\.?\s+[A-Z][\w'-]*))",
    re.IGNORECASE,
)


def booked_visit(query: str, ref: Reference, context: Sequence[Mapping[str, str]]) -> str | None:
    """The appointment a rescheduling verb's "that"/"it" stands for, or None."""
    if ref.text.lower() not in ("that", "it", "this") or not _RESCHEDULED.search(query[: ref.start]):
        return None
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        found = list(_BOOKING.finditer(text))
        if not found:
            continue
        if cached_re.search(r"[.!?]\s+\S", text[found[-1].end() :]):
            return None  # "Booked the dentist. I still need to send the report": the later thing is meant
        latest = found[-1]  # "booked the flight" after the dentist: the flight has a candidate of its own
        if latest.group(3):
            return f"the appointment with {latest.group(3)}"
        role = latest.group(2).lower()
        kin = role in FEMALE_NOUNS or role in MALE_NOUNS  # "seeing my sister" is a visit, not an appointment
        return f"the {role} appointment" if is_role(role) and not kin else None
    return None
