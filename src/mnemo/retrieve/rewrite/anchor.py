"""The time a temporal pointer stands for (a date, an event, a place) and the words that take the
pointer's place: "the day before Tuesday", "since I reverted the commit", "during the Lisbon offsite on
March 3rd". Finding the anchor is ``temporal.find_anchor``'s job; this module only words it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mnemo.retrieve.rewrite.dates import with_preposition, without_preposition
from mnemo.retrieve.rewrite.timeref import relative_text

from . import cached_re

#: A trailing pointer that is a relation to the anchor ("the day before", "after that").
RELATIONS = re.compile(
    r"^(?:the\s+(?:day|night|week|morning|evening|weekend|month|year)\s+(?:before|after)"
    r"|(?:right\s+|just\s+|shortly\s+|soon\s+)?(?:after|before)\s+(?:that|it|this)"
    r"|(?:before|after|until|by)\s+then"
    r"|(?:earlier|later)\s+that\s+\w+)$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Anchor:
    """The time a temporal pointer stands for: a date/time phrase, an event phrase, or both."""

    time: str | None
    event: str | None
    confidence: float
    place: str | None = None

    def phrase(self) -> str:
        """ "during the Lisbon offsite on March 3rd": the event, then the date with its preposition."""
        parts = []
        if self.event:
            parts.append(self.event if self.event.lower().startswith(("when ", "while ")) else f"during {self.event}")
        if self.place:
            parts.append(f"in {self.place}")
        if self.time and without_preposition(self.time).lower() not in (self.event or "").lower():
            parts.append(with_preposition(self.time))
        return " ".join(parts)

    def bare(self) -> str:
        """ "Tuesday", "the Stockholm half marathon": an object for "the day before" or "since"."""
        where = f" in {self.place}" if self.place else ""
        if self.event and not self.event.lower().startswith(("when ", "while ")):
            if not self.time or without_preposition(self.time).lower() in self.event.lower():
                return self.event + where
            return f"{self.event}{where} {with_preposition(self.time)}"
        if self.time and self.event:  # "Thursday when we deployed v2.3": the date, then the deed it dates
            return f"{without_preposition(self.time)}{where} {self.event}"
        if self.time:
            return without_preposition(self.time) + where
        if self.event and self.event.lower().startswith("when "):
            return self.event[5:] + where  # "since I reverted the commit", not "since when I reverted"
        return self.event or self.place or ""


def temporal_text(reference: str, anchor: Anchor) -> str:
    """What the pointer becomes: a relation keeps its words ("the day before Tuesday"), "since
    then" becomes "since <anchor>", every other pointer the anchor's own phrase."""
    low = reference.lower()
    if RELATIONS.match(low):
        # "after that" -> "after", "earlier that week" -> "earlier": the anchor takes the pointer's place
        relation = cached_re.sub(r"\s+(?:that|it|this|then)(?:\s+\w+)?$", "", reference)
        if low.startswith(("earlier ", "later ")):
            return f"{relation} {anchor.phrase()}"
        return f"{relation} {anchor.bare()}"
    if low == "since then":
        return f"since {anchor.bare()}"
    if low == "from then":  # "30 days from then": counted from the anchor
        deed = anchor.event if anchor.event and anchor.event.lower().startswith("when ") and not anchor.time else None
        return f"from {deed or anchor.bare()}"  # "from when I bought the keyboard", "from 3 May"
    relative = relative_text(reference, anchor.bare(), anchor.phrase())
    if relative is not None:
        return relative
    if low == "last time" and anchor.event and not anchor.event.lower().startswith(("when ", "while ")):
        event = cached_re.sub(r"^(?:the|our|my|a)\s+", "", anchor.event, flags=re.IGNORECASE)
        return f"at the last {event}"
    if low == "back then" and anchor.time and not anchor.event:
        where = f" in {anchor.place}" if anchor.place else ""  # "back in 2022 in Santorini"
        return f"back {with_preposition(anchor.time)}{where}"
    return anchor.phrase()
