"""Time expressions in a query ("last week", "in May 2023", "yesterday", "in June") as windows.

Pure functions: ``parse_time(query, now)`` returns the windows a query names, each either an
absolute [start, end) range (usable as a SQL filter) or a month of any year ("in June" with no
year: usable as a boost only). "before/after <event>" ("before the move", "after my trip to
Paris") is found by ``event_anchors``; the caller looks the event's time up in the store and turns
it into a window with ``anchored_window``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
SEASONS = {"spring": (3, 4, 5), "summer": (6, 7, 8), "autumn": (9, 10, 11), "fall": (9, 10, 11), "winter": (12, 1, 2)}
_MONTH_WORDS = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH_YEAR = re.compile(rf"\b(?:in\s+|during\s+)?({_MONTH_WORDS})\.?\s*,?\s+(\d{{4}})\b", re.IGNORECASE)
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})\s+({_MONTH_WORDS})\.?,?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH_WORDS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.IGNORECASE)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_YEAR = re.compile(r"\b(?:in|during|of|since)\s+((?:19|20)\d{2})\b", re.IGNORECASE)
# "may" is also a verb: a bare month needs a preposition in front ("in may", "during may")
_MONTH_ONLY = re.compile(rf"\b(?:in|during|of|since|last|this|early|late|mid)\s+({_MONTH_WORDS})\b", re.IGNORECASE)
_SEASON = re.compile(r"\b(?:in|during|over|last|this|the)\s+(spring|summer|autumn|fall|winter)\b", re.IGNORECASE)
_AGO = re.compile(r"\b(\d+|a|an|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b", re.IGNORECASE)
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
#: phrase -> (days back from today's midnight to the window's start, window length in days)
_RELATIVE = {
    "today": (0, 1),
    "yesterday": (1, 1),
    "last week": (14, 8),
    "this week": (6, 7),
    "last month": (60, 31),
    "this month": (29, 30),
    "last year": (730, 366),
    "this year": (364, 365),
    "recently": (30, 31),
    "lately": (30, 31),
    "last weekend": (9, 4),
}
#: Words that ask about time without naming one ("when did ..."): the temporal strategy then
#: prefers items that carry a timestamp but cannot narrow the window.
TIME_QUESTION = re.compile(r"^\s*(?:when|what (?:date|day|month|year|time))\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TimeWindow:
    text: str
    start: datetime | None = None
    end: datetime | None = None
    months: tuple[int, ...] = ()  # month(s) of any year, when no year was given

    @property
    def absolute(self) -> bool:
        return self.start is not None and self.end is not None

    def contains(self, when: datetime | None) -> bool:
        if when is None:
            return False
        if self.absolute:
            assert self.start is not None and self.end is not None
            return self.start <= when < self.end
        return when.month in self.months

    def as_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "months": list(self.months),
        }


def parse_time(query: str, now: datetime | None = None) -> list[TimeWindow]:
    """The time windows the query names, most specific first; [] when it names none."""
    now = now or datetime.now(tz=UTC)
    windows: list[TimeWindow] = []
    taken: list[tuple[int, int]] = []

    def add(match: re.Match[str], window: TimeWindow) -> None:
        if not any(s < match.end() and match.start() < e for s, e in taken):
            windows.append(window)
            taken.append((match.start(), match.end()))

    for m in _ISO_DATE.finditer(query):
        day = _date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if day:
            add(m, TimeWindow(m.group(0), day, day + timedelta(days=1)))
    for m in _DAY_MONTH_YEAR.finditer(query):
        day = _date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))
        if day:
            add(m, TimeWindow(m.group(0), day, day + timedelta(days=1)))
    for m in _MONTH_DAY_YEAR.finditer(query):
        day = _date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)))
        if day:
            add(m, TimeWindow(m.group(0), day, day + timedelta(days=1)))
    for m in _MONTH_YEAR.finditer(query):
        month, year = MONTHS[m.group(1).lower()], int(m.group(2))
        start = datetime(year, month, 1, tzinfo=UTC)
        add(m, TimeWindow(m.group(0), start, _next_month(start)))
    for m in _YEAR.finditer(query):
        year = int(m.group(1))
        add(m, TimeWindow(m.group(0), datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)))
    for m in _MONTH_ONLY.finditer(query):
        add(m, TimeWindow(m.group(0), months=(MONTHS[m.group(1).lower()],)))
    for m in _SEASON.finditer(query):
        add(m, TimeWindow(m.group(0), months=SEASONS[m.group(1).lower()]))
    for m in _AGO.finditer(query):
        count = int(m.group(1)) if m.group(1).isdigit() else _NUMBERS[m.group(1).lower()]
        days = count * _UNIT_DAYS[m.group(2).lower()]
        slack = max(1, days // 4)
        add(m, TimeWindow(m.group(0), now - timedelta(days=days + slack), now - timedelta(days=max(0, days - slack))))
    for phrase, (back, length) in _RELATIVE.items():
        for m in re.finditer(rf"\b{phrase}\b", query, flags=re.IGNORECASE):
            start = _midnight(now) - timedelta(days=back)
            add(m, TimeWindow(m.group(0), start, start + timedelta(days=length)))
    return windows


def asks_when(query: str) -> bool:
    return bool(TIME_QUESTION.search(query))


def _date(year: int, month: int, day: int) -> datetime | None:
    try:
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None


def _next_month(start: datetime) -> datetime:
    return start.replace(year=start.year + 1, month=1) if start.month == 12 else start.replace(month=start.month + 1)


def _midnight(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


#: "before the move", "after my trip to Paris", "since our wedding": an event the store knows the time of.
_ANCHOR = re.compile(
    r"\b(before|after|since)\s+((?:the|my|our|his|her|their|we|i|she|he|they)\b[^?.!,;]{2,60})", re.IGNORECASE
)
_ANCHOR_END = re.compile(r"\s+(?:and|or|but|when|while|where|did|do|does|was|were|is|are)\b.*$", re.IGNORECASE)
_EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
_LATEST = datetime(2200, 1, 1, tzinfo=UTC)


def event_anchors(query: str) -> list[tuple[str, str]]:
    """(direction, event phrase) pairs: "before", "after" or "since" and what they are relative to.
    Phrases that are times themselves ("before June 2023", "since then") are left to parse_time."""
    anchors = []
    for match in _ANCHOR.finditer(query):
        phrase = _ANCHOR_END.sub("", match.group(2)).strip()
        if not phrase or parse_time(phrase) or phrase.lower() in ("then", "that", "this"):
            continue
        anchors.append((match.group(1).lower(), phrase))
    return anchors


def anchored_window(direction: str, phrase: str, when: datetime) -> TimeWindow:
    """The window before or after an event's time (the event itself left out)."""
    text = f"{direction} {phrase}"
    if direction == "before":
        return TimeWindow(text, _EARLIEST, when)
    return TimeWindow(text, when + timedelta(seconds=1), _LATEST)
