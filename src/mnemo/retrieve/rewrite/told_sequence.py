"""The happenings a chat tells, clause by clause and in the order told: "I ran a 10k in April in
52 minutes and another one in September in 49" is two, "We spent Christmas with my in-laws in Porto
and Easter with my parents in Galway" two more.

Shared by the rules that pick one of them: by its place (occurrences.py), as the story's beginning
(beginnings.py), or as the time of the person a pronoun became (their_time.py). Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mnemo.retrieve.rewrite.dates import TIME
from mnemo.retrieve.rewrite.wordfind import sentences

#: Times a chat dates a happening by, besides calendar dates: "last week", "two years ago".
_RELATIVE = re.compile(
    r"\b(?:yesterday|last\s+(?:week|weekend|month|year|night|sprint|time)|this\s+(?:morning|afternoon|evening|week)"
    r"|(?:a|one|two|three|few|couple\s+of)\s+(?:days?|weeks?|months?|years?)\s+(?:ago|back|later)"
    r"|the\s+(?:day|week|month)\s+(?:before|after))\b",
    re.IGNORECASE,
)
#: Where one happening of a sentence ends and the next begins: "..., then ...", "... and another ...".
_BREAK = re.compile(
    r",?\s+(?:and\s+)?then\s+|,\s+(?:and|but)\s+|;\s*|\s+and\s+(?=(?:a|an|another|the|my|on|in|at)\b|[A-Z])"
    r"|\s+and\s+(?=(?:[a-z]{3,}ed|drew|won|lost|went|got|had|saw|took|made|came|ran|sat|met)\b)"
)


def told_clauses(texts: Sequence[str]) -> list[str]:
    """The clauses of ``texts``, cut where one happening ends and the next begins."""
    return [c.strip() for text in texts for s in sentences(text) for c in _BREAK.split(s) if c.strip()]


def dated_clauses(texts: Sequence[str]) -> list[str]:
    """The clauses that date a happening, in the order told; a question dates nothing."""
    return [
        c
        for text in texts
        for s in sentences(text)
        if not s.rstrip().endswith("?")
        for c in _BREAK.split(s)
        if len(c.split()) >= 3 and (TIME.search(c) or _RELATIVE.search(c))
    ]
