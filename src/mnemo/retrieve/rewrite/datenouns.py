"""A date named by what happens on it: "a week before the start date" after "Tomasz starts on 4
November" is Tomasz's start on 4 November; "the launch date" after "v3 launches on the 12th".

The compound "<deed> date" names the date of a deed the chat told with its verb and a day; the
rewrite keeps the compound and adds that clause ("the start date (Tomasz starts on 4 November)").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.dates import MONTH_NAME, TIME, times_in, without_preposition

from . import cached_re

#: "the start date", "the move date", "the go-live date": a deed's noun before "date".
DEED_DATE = re.compile(
    r"\bthe\s+(start|end|finish|move|moving|launch|release|go-live|completion|closing|delivery|arrival|departure"
    r"|expiry|expiration|renewal)\s+date\b"
    # a deed's noun that is itself a date: "how far ahead of the expiry" after "it expires on 31/01/2026"
    r"|\bthe\s+(expiry|expiration)\b(?!\s+date)"
    # "before the start?": a start or an end with nothing after it is the dated deed's
    r"|\b(?:before|after|by|until|at|from|since)\s+the\s+(start|end)(?=\s*(?:[?!,]|\.\B|$))",
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
    "expiry": "expir",
    "expiration": "expir",
    "renewal": "renew",
}


def deed_date_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, deed) of "the start date" when the chat dates that deed."""
    found = DEED_DATE.search(query)
    deed = next(group for group in found.groups() if group).lower() if found else ""
    if found is None or _dated(deed, context_text) is None:
        return []
    return [(found.start(), found.end(), deed)]


def deed_date_text(reference: str, deed: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the start date (Tomasz starts on 4 November)", or None."""
    clause = _dated(deed, "\n".join(str(m.get("content") or "") for m in context))
    return f"{reference} ({clause})" if clause else None


def _dated(deed: str, text: str) -> str | None:
    """The latest clause that tells the deed with its verb and dates it."""
    verb = _VERBS.get(deed)
    if verb is None:
        return None
    pattern = cached_re.compile(
        rf"((?:\b[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|\d[\w.]*))?(?:\s+[a-z][\w-]*){{0,2}}|\b(?:i|we|he|she|they|it)"
        rf"|\b(?:the|my|our)\s+[\w-]+)"
        rf"(?:'s|'re|'m|\s+is|\s+are|\s+will)?\s+{verb}[a-z]*\b(?:[^.;!?\n]|\.\b)*)",
        re.IGNORECASE,
    )
    for match in reversed(list(pattern.finditer(text))):
        clause = match.group(1).strip(" ,")
        when = TIME.search(clause)
        if when:
            end = when.end()
            more = cached_re.match(r",?\s+(?:the\s+)?", clause[end:])
            further = TIME.match(clause, end + more.end()) if more else None
            if further:  # "ends on Wednesday, October 9": the weekday and its date are one time
                end = further.end()
            return clause[:end].strip()
    return None


#: "the second day", "the last night": a numbered unit of a plan the chat laid out by number.
NUMBERED_UNIT = re.compile(
    r"\bthe\s+(first|second|third|fourth|fifth|sixth|seventh|last)\s+(day|night|week|stop|leg)\b", re.IGNORECASE
)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}


def numbered_unit_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, unit) of "the second day" when the chat numbers its days ("day 2 Tre Cime")."""
    found = NUMBERED_UNIT.search(query)
    if found is None or _plan(found.group(2), context_text) == {}:
        return []
    return [(found.start(), found.end(), found.group(2).lower())]


def numbered_unit_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the second day (day 2: Tre Cime)", or None."""
    found = NUMBERED_UNIT.fullmatch(reference.strip())
    if found is None:
        return None
    plan = _plan(found.group(2), "\n".join(str(m.get("content") or "") for m in context))
    which = found.group(1).lower()
    number = max(plan) if which == "last" and plan else _ORDINAL.get(which)
    if number not in plan:
        return None
    return f"{reference} ({found.group(2).lower()} {number}: {plan[number]})"


def _plan(unit: str, text: str) -> dict[int, str]:
    """{number: what} of "day 1 Seceda, day 2 Tre Cime": the chat's numbered units, or {}."""
    pattern = cached_re.compile(rf"\b{re.escape(unit)}\s+(\d)\s*[:,-]?\s+((?:[^,;.\n]|\.\b){{2,40}})", re.IGNORECASE)
    found = {int(m.group(1)): m.group(2).strip() for m in pattern.finditer(text)}
    return found if len(found) >= 2 else {}


_THOSE_UNITS = re.compile(r"^(?:those|these)\s+(days|weeks|months|hours|nights|years)$", re.IGNORECASE)


def counted_span(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "those 12 days" for "those days" when the chat counted that many of the unit, or None."""
    found = _THOSE_UNITS.match(reference.strip())
    if found is None:
        return None
    unit = found.group(1).lower()
    counts = cached_re.findall(
        rf"\b(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+{unit}\b",
        "\n".join(str(m.get("content") or "") for m in context),
        re.I,
    )
    return f"{reference.split()[0]} {counts[-1]} {unit}" if counts else None


#: The second end of a span of dates: "November 4–6", "from the 8th to the 22nd", "3 to 7 June".
_SPAN_END = re.compile(r"\s*(?:–|—|-|to|until|till|through|thru)\s*(?:the\s+)?", re.IGNORECASE)
_BARE_DAY = re.compile(r"\d{1,2}(?:st|nd|rd|th)?\b")
#: "those dates", "these days", "those nights", "that window", "that gap": a span of time, which
#: the chat gave from end to end.
DATE_SPAN_NOUNS = frozenset({"dates", "days", "nights", "window", "gap", "period", "stretch", "span"})
#: Spans the chat may give as two separate times: "the lease ends on August 31 and the new flat isn't
#: ready until September 15" is "that gap"; "froze the code on Monday and sign-off is Thursday" are
#: "those two days".
_BETWEEN_NOUNS = frozenset({"gap", "window", "period", "stretch", "span"})
#: ...and "those two days", "those two dates": the two times themselves.
_COUNTED_NOUNS = frozenset({"days", "dates"})
#: A bare day before a dated one: "from 25 to 29 June".
_DAY_TO_DATE = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s*(?:–|—|-|to|until|till)\s*(\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH_NAME})\b",
    re.IGNORECASE,
)


def date_span(context: Sequence[Mapping[str, str]], noun: str = "", two: bool = False) -> str | None:
    """The latest span of dates the chat gave ("November 4–6", "the 8th to the 22nd", "25 to 29
    June"), or None; for a gap or a window, two times of one message ("August 31 to September 15"),
    and for "those two days" (``two``) the two times ("Monday and Thursday")."""
    counted = two and noun.lower() in _COUNTED_NOUNS
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        bare = _DAY_TO_DATE.search(text)
        if bare:
            return bare.group(0)
        for found in reversed(list(TIME.finditer(text))):
            link = _SPAN_END.match(text, found.end())
            if link is None:
                continue
            end = TIME.match(text, link.end()) or _BARE_DAY.match(text, link.end())
            if end is not None:
                return without_preposition(text[found.start() : end.end()])
        if noun.lower() in _BETWEEN_NOUNS or counted:
            times = [without_preposition(t) for t in times_in(text)]
            if len(times) == 2:
                return f"{times[0]} and {times[1]}" if counted else f"{times[0]} to {times[1]}"
    return None
