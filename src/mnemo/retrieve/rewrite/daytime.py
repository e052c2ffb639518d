"""Which option by the part of the day it falls in: "book the morning one" after "TAP at 7am for
£89 or easyJet at 2pm for £64", "who's running the afternoon meeting" after "standup moved to 9:45
and the retro is at 3".

The chat gives each option a clock time; the query names a part of the day ("morning",
"afternoon", "evening") or an end of it ("the early one", "the later one"). The option whose time
falls in that part (or is earliest or latest) is the one meant. A bare hour from 1 to 7 is read as
afternoon, as people write "the retro is at 3".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.lists import name_before

from . import cached_re

#: "the morning one", "the afternoon meeting", "the early flight", "the later one".
DAYTIME_REF = re.compile(
    r"\bthe\s+(morning|afternoon|evening|night|early|earlier|earliest|late|later|latest)\s+"
    r"(one|ones|meeting|call|slot|flight|train|bus|class|session|appointment|option|booking|show|ferry|tour|lesson)\b",
    re.IGNORECASE,
)
_CLOCK = re.compile(
    r"\b(?:at|@|from|for)?\s*(\d{1,2})(?::(\d\d))?\s*(am|pm)?\b(?![:.,]?\d|\s*(?:%|£|\$|€|k\b|mins?\b))", re.I
)
#: Where one option's description ends: a semicolon, a comma, "or", "and" before the next option.
_SPLIT = re.compile(r";|,(?!\d)|\s+or\s+|\s+and\s+|\s+vs\.?\s+|\s+then\s+", re.IGNORECASE)
#: Hours (24h) each part of the day spans.
_PARTS = {"morning": (5, 12), "afternoon": (12, 17), "evening": (17, 23), "night": (19, 24)}
_LEAD_OUT = re.compile(r"\s*\b(?:is|are|was|at|@|from|for|moved\s+to|starts?\s+at|leaves?\s+at)\s*$", re.IGNORECASE)


def daytime_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, part) for each "the morning one" that a timed option of the chat answers."""
    found = []
    for match in DAYTIME_REF.finditer(query):
        if cached_re.match(r"\s+(?:to|from|in|at)\s+[a-z]", query[match.end() :], re.IGNORECASE):
            continue  # "is the evening train to paris cheaper": the query says which train itself
        if by_daytime(match.group(1), [{"content": line} for line in context_text.split("\n")]):
            found.append((match.start(), match.end(), match.group(1).lower()))
    return found


def by_daytime(part: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The option of the latest message that times two or more, in the part of the day asked."""
    low = part.lower()
    for message in reversed(list(context)):
        options = _timed_options(str(message.get("content") or ""))
        if len(options) < 2:
            continue
        if low in _PARTS:
            start, end = _PARTS[low]
            inside = [name for hour, name in options if start <= hour < end]
            return inside[0] if len(inside) == 1 else None
        return (min if low.startswith("earl") else max)(options)[1]
    return None


def _timed_options(text: str) -> list[tuple[float, str]]:
    options = []
    for piece in _SPLIT.split(text):
        clocks = [m for m in _CLOCK.finditer(piece) if _is_clock(m)]
        if len(clocks) != 1:
            continue
        clock = clocks[0]
        before = _LEAD_OUT.sub("", piece[: clock.start()].split(": ")[-1])
        name = name_before(before)
        if cached_re.match(r"(?:a|an)\s", name, re.IGNORECASE):  # "a morning slot at 9": the one at its time
            name = f"the {name.split(None, 1)[1]} {clock.group(0).strip()}"
        if name.lower() in ("", "a", "an", "the"):  # "a 7:40 train", "a 9:15": the time names it
            noun = cached_re.match(r"\s*([a-z]{3,})\b", piece[clock.end() :])
            written = clock.group(0).strip().removeprefix("at ").removeprefix("from ")
            name = f"the {written} {noun.group(1)}" if noun else f"the {written}"
        options.append((_hour(clock), name))
    return options


def _is_clock(match: re.Match[str]) -> bool:
    """A clock time, not a count: "7am", "9:45", "at 3"; "3 people" or "2 hours" is no time."""
    hour = int(match.group(1))
    if hour > 24:
        return False
    return bool(match.group(2) or match.group(3) or cached_re.match(r"\s*(?:at|@)\b", match.group(0)))


def _hour(match: re.Match[str]) -> float:
    hour, minutes, meridiem = int(match.group(1)), int(match.group(2) or 0), (match.group(3) or "").lower()
    if (meridiem == "pm" and hour < 12) or (not meridiem and not match.group(2) and 1 <= hour <= 7):
        hour += 12  # "the retro is at 3" is in the afternoon
    return hour + minutes / 60
