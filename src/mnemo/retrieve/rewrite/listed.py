"""Fixed phrases that lean on the conversation: "since then", "the other day", "the bug", "the same".

Each is a temporal or an implicit reference wherever it stands, unless a reference already found
covers it, "before" has its own object ("before the move") or "the same" its own standard ("the
same as last year").
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.names import PUNCTUATION as PUNCT
from mnemo.retrieve.rewrite.own_frame import points_nowhere
from mnemo.retrieve.rewrite.reference import Reference

from . import cached_re

TEMPORAL_PHRASES = (
    "since then",
    "back then",
    "at that time",
    "last time",
    "just now",
    "the other day",
    "earlier",
    "previously",
    "yesterday",
    "recently",
    "before",
    "again",
)
IMPLICIT_PHRASES = (
    "the same",
    "similar",
    "like before",
    "as usual",
    "another one",
    "the other one",
    "the issue",
    "the problem",
    "the error",
    "the bug",
    "the feature",
    "the fix",
    "the change",
    "the idea",
    "the plan",
    "the thing",
    "the crash",
    "the outage",
    "the failure",
    "the leak",
    "the regression",
)
_LISTED = [*((p, "temporal") for p in TEMPORAL_PHRASES), *((p, "implicit") for p in IMPLICIT_PHRASES)]


def listed_phrases(query: str, covered: list[tuple[int, int]]) -> list[Reference]:
    """The fixed temporal and implicit phrases ("earlier", "the bug") outside the spans already
    taken; ``covered`` grows with each one found."""
    found: list[Reference] = []
    low = query.lower()
    for phrase, kind in _LISTED:
        if phrase not in low:
            continue  # a substring test first: most phrases are in no query, and a search costs more
        for match in cached_re.finditer(rf"\b{re.escape(phrase)}\b", query, flags=re.IGNORECASE):
            if any(s < match.end() and match.start() < e for s, e in covered):
                continue
            if phrase == "before" and not _ends_clause(query, match.end()):
                continue  # "before the move" names its own anchor
            if phrase == "before" and cached_re.search(r"\blike\s+$", query[: match.start()], re.IGNORECASE):
                continue  # "like before": the implicit phrase, found with the others below
            if phrase == "earlier" and _COMPARATIVE_EARLIER.search(query[: match.start()] + "|" + query[match.end() :]):
                continue  # "start earlier than that", "can we leave earlier": sooner, no time back in the chat
            carried = phrase == "similar" and cached_re.search(_CARRIED_OVER, query[: match.start()], re.IGNORECASE)
            standard = phrase in ("similar", "the same") and cached_re.match(
                _OWN_STANDARD[phrase], query[match.end() :]
            )
            if standard and not carried:
                continue  # "similar to Project Hail Mary", "the same way as pothos": its own object
            if points_nowhere(phrase, query, match.start(), match.end()):
                continue  # "the same time every night", "why does ssh ask again": the query's own frame
            found.append(Reference(match.group(0), kind, match.start(), match.end()))
            covered.append((match.start(), match.end()))
    return found


#: What "similar" or "the same" is measured against in the query itself: "a similar drink to coffee",
#: "the same way as pothos" ("the same fix to both services" gives it to them, no standard).
_OWN_STANDARD = {
    "similar": r"\s+(?:[a-z]+\s+)?(?:to|as)\s+(?!do\b|make\b|what\b|before\b)\S",
    "the same": r"\s+(?:(?:way|thing|kind|amount|size|time|day|age|price)\s+)?(?:to|as)\s+\S|\s+[a-z]+\s+as\s+\S",
}
#: "take a similar approach to the auth service": "to" is where the chat's approach goes, no standard.
_CARRIED_OVER = r"\b(?:take|taking|apply|applying|adopt|adopting|follow|bring)\s+(?:a\s+|an\s+)?$"
#: "earlier" as a comparative: before "than" or what it is compared across ("dark earlier in
#: winter", "earlier each year"), or after a verb of setting off or arriving ("start earlier", "leave
#: a bit earlier"); the split marks where "earlier" stood.
_COMPARATIVE_EARLIER = re.compile(
    r"\|\s*(?:than|each|every|in\s+(?:the\s+)?(?:winter|summer|autumn|fall|spring|north|south|year|season))\b|\b(?:start|starts|starting|leave|leaving|arrive|arriving|come|coming|finish|finishing|go|going"
    r"|get\s+up|wake\s+up|open|close|begin|set\s+off|book|eat|sleep|be\s+there)\s+(?:dinner\s+|lunch\s+|breakfast\s+)?"
    r"(?:a\s+bit\s+|any\s+|much\s+|even\s+)?\|",
    re.IGNORECASE,
)


def _ends_clause(text: str, position: int) -> bool:
    rest = text[position:].strip()
    return not rest or rest[0] in PUNCT
