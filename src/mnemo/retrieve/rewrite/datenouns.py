"""A date named by what happens on it: "a week before the start date" after "Tomasz starts on 4
November" is Tomasz's start on 4 November; "the launch date" after "v3 launches on the 12th".

The compound "<deed> date" names the date of a deed the chat told with its verb and a day; the
rewrite keeps the compound and adds that clause ("the start date (Tomasz starts on 4 November)").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.dates import TIME

#: "the start date", "the move date", "the go-live date": a deed's noun before "date".
DEED_DATE = re.compile(
    r"\bthe\s+(start|end|finish|move|moving|launch|release|go-live|completion|closing|delivery|arrival|departure)"
    r"\s+date\b",
    re.IGNORECASE,
)
#: The verb stems each deed noun is told with.
_VERBS = {
    "start": "start",
    "end": "end",
    "finish": "finish",
    "move": "mov",
    "moving": "mov",
    "launch": "launch",
    "release": "releas",
    "go-live": "go(?:es)?\\s+live",
    "completion": "complet",
    "closing": "clos",
    "delivery": "deliver",
    "arrival": "arriv",
    "departure": "(?:depart|leav)",
}


def deed_date_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, deed) of "the start date" when the chat dates that deed."""
    found = DEED_DATE.search(query)
    if found is None or _dated(found.group(1).lower(), context_text) is None:
        return []
    return [(found.start(), found.end(), found.group(1).lower())]


def deed_date_text(reference: str, deed: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the start date (Tomasz starts on 4 November)", or None."""
    clause = _dated(deed, "\n".join(str(m.get("content") or "") for m in context))
    return f"{reference} ({clause})" if clause else None


def _dated(deed: str, text: str) -> str | None:
    """The latest clause that tells the deed with its verb and dates it."""
    verb = _VERBS.get(deed)
    if verb is None:
        return None
    pattern = re.compile(
        rf"((?:\b[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|\b(?:i|we|he|she|they|it)|\b(?:the|my|our)\s+[\w-]+)"
        rf"(?:'s|'re|'m|\s+is|\s+are|\s+will)?\s+{verb}[a-z]*\b[^.;!?\n]*)",
        re.IGNORECASE,
    )
    for match in reversed(list(pattern.finditer(text))):
        clause = match.group(1).strip(" ,")
        when = TIME.search(clause)
        if when:
            return clause[: when.end()].strip()
    return None
