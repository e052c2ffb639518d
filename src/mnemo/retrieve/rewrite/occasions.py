"""An occasion by its general noun: "the meeting" after "I've got sprint planning with the
platform team at 10", "the appointment" after "my Toyota is due for a service", "the postmortem"
after "the incident last night was caused by an expired certificate".

The chat names the occasion by its own kind (planning, a service, an incident) and the query by
the general noun a listener files it under, so the noun never occurs in the chat and no candidate
holds it. The latest clause that writes a word of the noun's kind is the occasion; the rewrite
keeps that clause beside the noun ("the meeting (sprint planning with the platform team at 10
tomorrow)"), which says which one and gives a search the chat's own words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.store.sql import STOPWORDS

from . import cached_re

#: General nouns and the words a chat names their occasions by.
_DET = r"(?:a|an|the|my|our|your|his|her|their|its)\s+(?:\w+\s+)?"
_KINDS: dict[str, str] = {
    # nouns only: "sprint planning", not "I'm planning a trip"; "a retro", not "retro-themed"
    "meeting": (
        r"(?:sprint|release|roadmap|capacity|quarterly|team|weekly|big\s+room)\s+planning|stand-?ups?"
        r"|(?:weekly|daily|team|morning|monthly)\s+syncs?|1:1s?|one-on-ones?|\bretros?\b(?!-)|retrospectives?"
        r"|catch-?ups?|all-hands|huddles?|offsites?|board\s+meetings?|club\s+meets|meets\s+(?:on|at|every)"
        r"|(?:quarterly|annual|design|performance|project|client|budget)\s+reviews?"
        rf"|{_DET}call\s+with"
    ),
    "appointment": (
        rf"(?:a|an|the|its|annual|yearly)\s+service\b|{_DET}(?:check-?up|consultation|scan|x-ray|haircut|jab|smear"
        r"|vaccination|fitting|blood\s+test|eye\s+test)s?\b(?!\s+seat)|\bMOT\b"
    ),
    # "block out the time" after "pairing from 2 to 4 this afternoon": the slot the chat gave
    "time": r"from\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:to|until|till|-)\s*\d|\bat\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)\b",
    # "after the trip" after "we fly back from lisbon on the 18th": travel told by its journey
    "trip": (
        r"\b(?:fly|flying|flew|drive|driving|drove|travel(?:l?ing)?|head(?:ing)?|sail(?:ing)?)\s+(?:back\s+|out\s+|home\s+"
        r"|off\s+)?(?:to|from)(?!\s+(?:work|school|the\s+(?:office|shops?|gym|station))\b)"
        r"|\b(?:got|get|getting|came|come|coming|am|are|is|we're|i'm)\s+back\s+from|\breturned\s+from|\bflights?\s+(?:to|from)|\b(?:holiday|vacation)\s+(?:in|to)"
    ),
    "postmortem": r"incidents?|outages?",
    "post-mortem": r"incidents?|outages?",
}
_REFERENCE = re.compile(
    r"\bthe\s+(?:(?:next|last|upcoming|first)\s+)?(" + "|".join(map(re.escape, _KINDS)) + r")\b", re.IGNORECASE
)
#: A complement that says which occasion ("the meeting with legal", "the appointment at the clinic");
#: one that says when ("for tuesday morning", "on friday") leaves the question open.
_WHICH = re.compile(
    r"\s+(?:with|about|of|in|between|available|that|which|where|(?:on|at|for)\s+(?!(?:mon|tues|wednes|thurs|fri"
    r"|satur|sun)day|tomorrow|today|tonight|next|this|noon|\d))"
    # a noun after the occasion makes it a modifier: "the meeting room", "the time zone", "the appointment form"
    r"|\s+(?!(?:to|for|on|at|in|and|or|but|so|yet|again|today|tomorrow|tonight|is|was|are|were|be|been|go|went|that"
    r"|next|this|far)\b)[a-z]{3,}\b(?<!ed)",
    re.IGNORECASE,
)
#: "block out the time to prep the slides", "the time for my dentist visit": the query says which slot.
_OWN_SLOT = re.compile(r"\s+(?:to\s+[a-z]+|(?:[^.?!]|\.\b)*\bfor\s+(?:my|the|a|an|our|his|her)\b)", re.IGNORECASE)
_IN_CALENDAR = re.compile(r"\s+in\s+(?:my|our|the|your)\s+(?:calendar|diary|schedule)\b", re.IGNORECASE)
#: Verbs that put a slot in a calendar: "block out the time", "book the time", "hold the time".
_BOOKING_VERB = re.compile(r"\b(?:block|blocking|book|reserve|hold)\s+(?:out\s+|off\s+|in\s+)?$", re.I)
#: Where a clause ends: a sentence's end, a semicolon, a dash, ", but".
_CLAUSE = re.compile(r"(?<=(?:[!?]|\.\B))\s+|\n|;\s*|\s+[—–-]\s+|,\s+but\s+")
#: A clause's opening that names no occasion: "I've got", "we have", "just a reminder that".
_OPENING = re.compile(
    r"^(?:(?:so|ok|okay|also|and|just|btw|fyi|reminder|heads\s+up)[,:]?\s+)*"
    r"(?:(?:i|we|i've|we've|ive|weve)\s+(?:got|have|had)\s+)?",
    re.IGNORECASE,
)
#: The most words kept of the clause: enough for "who, what, when", short enough to read.
_MOST_WORDS = 14


def occasion_kind(noun: str) -> bool:
    return noun.lower() in _KINDS


def occasion_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, noun) of "the meeting", "the next appointment": a general occasion noun the
    chat never wrote, whose kind it did."""
    found = []
    for match in _REFERENCE.finditer(query):
        noun = match.group(1).lower()
        if _WHICH.match(query, match.end()) and not _IN_CALENDAR.match(query, match.end()):
            continue  # "the meeting with legal" says which; "the time in my calendar" says where it goes
        if noun == "time" and (not _BOOKING_VERB.search(query[: match.start()]) or _OWN_SLOT.match(query, match.end())):
            continue  # "what's the time?" asks the clock; only "block out the time" books a slot
        if cached_re.search(rf"\b{re.escape(noun)}", context_text, re.IGNORECASE):
            continue  # the chat's own word: the description rules find which one
        if occasion_clause(noun, [{"content": context_text}]) is not None:
            found.append((match.start(), match.end(), noun))
    return found


def occasion_clause(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest clause of the chat that names an occasion of the noun's kind, trimmed, or None."""
    kind = _KINDS.get(noun.lower())
    if kind is None:
        return None
    pattern = cached_re.compile(rf"\b(?:{kind})\b", re.IGNORECASE)
    for message in reversed(list(context)):
        for clause in reversed(_CLAUSE.split(str(message.get("content") or ""))):
            if pattern.search(clause):
                return _trimmed(clause)
    return None


def _trimmed(clause: str) -> str | None:
    words = _OPENING.sub("", clause.strip(" .!?,")).split()[:_MOST_WORDS]
    while words and words[-1].lower() in STOPWORDS:
        words.pop()
    return " ".join(words) or None


def occasion_text(reference: str, noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """What "the meeting" becomes: "the meeting (sprint planning with the platform team at 10 tomorrow)"."""
    clause = occasion_clause(noun, context)
    return f"{reference} ({clause})" if clause else None
