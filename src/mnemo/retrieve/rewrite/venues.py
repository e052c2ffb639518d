"""A question after places to go that names no town: "any good seafood restaurants?" after a chat
about a long weekend in Porto asks about Porto's restaurants.

The query asks for venues or things to do (restaurants, hotels, museums, things to do) and says
nowhere itself; the chat named a town, a region or a country. The rewrite puts "in <place>" after
the venue word. Pure functions; detect.py finds the span, contextual.py fills it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.lexicon import geographic

#: What a traveller asks for: places to eat, stay or see, and things to do (plurals, or one with a
#: judging adjective: "a good hotel"; "the science museum trip" is a trip).
_VENUE_ASK = re.compile(
    r"\b(?:(?:restaurants|caf(?:e|é)s|bars|pubs|hotels|hostels|museums|galleries|beaches|markets|bakeries|day\s+trips"
    r"|places\s+to\s+(?:eat|stay|visit|go|see)|things\s+to\s+(?:do|see)|neighbou?rhoods?\s+to\s+stay|areas?\s+to\s+stay)"
    r"|(?:(?<=good\s)|(?<=nice\s)|(?<=cheap\s)|(?<=decent\s))(?:restaurant|caf(?:e|é)|bar|pub|hotel|hostel|museum|beach"
    r"|bakery))\b"
    r"(?!\s+(?:trip|visit|booking|reservation|bill|name)s?\b)",
    re.IGNORECASE,
)
#: The query places its own venues: "in Lisbon", "near me", "around here", "locally", "there".
_OWN_PLACE = re.compile(
    r"\b(?:in|near|around|at|outside)\s+(?-i:[A-Z])|\b(?:near\s+me|around\s+here|locally|local|here|there|nearby\s+to)\b"
    r"|\b(?:in|near|around)\s+(?:my|our|the|this|that)\b",
    re.IGNORECASE,
)
#: A question: a wh-word, an auxiliary or "any" first, or a question mark last.
_ASKED = re.compile(
    r"^\s*(?:any|what|which|where|who|how|can|could|do|does|is|are|should|would|recommend|suggest)\b|\?\s*$",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-zà-ÿ]{3,}")
_NAME = re.compile(r"\b[A-Z][a-zà-ÿ]+(?:[ -][A-Z][a-zà-ÿ]+)?\b")


def venue_span(query: str) -> tuple[int, int] | None:
    """Where the venue word of a question that names no place stands, or None."""
    found = [m for m in _VENUE_ASK.finditer(query) if m.group(0).islower()]  # "Hotel Artemide" is a name
    if not found or not _ASKED.search(query) or _OWN_PLACE.search(query):
        return None
    if any(geographic(word.capitalize()) for word in _WORD.findall(query)):
        return None  # "in japan do they expect a tip at restaurants": the query's own country
    return found[-1].start(), found[-1].end()


def venue_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "restaurants in Porto": the venue word with the latest town, region or country the chat
    named, or None when it named none."""
    for message in reversed(list(context)):
        names = [m.group(0) for m in _NAME.finditer(str(message.get("content") or ""))]
        place = next((name for name in reversed(names) if geographic(name)), None)
        if place is not None:
            return f"{reference} in {place}"
    return None
