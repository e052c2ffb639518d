""" "in between": the stretch between the last two times the conversation dated.

"which album came out in between" after "their first gig at the Roundhouse in 2019, then toured
Japan in 2022" asks about the years between the gig and the tour, so the pointer becomes
"between <the first dated clause> and <the second>". A clause is a stretch of a message up to a
comma, a semicolon, a sentence end or "then"/"and"; it counts when it carries a date or time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.dates import times_in

_CLAUSES = re.compile(r"[,;!?\n]+|\.(?=\s|$)|\s+(?:then|and\s+then|and|but)\s+", re.IGNORECASE)
_OPENING_CONJUNCTION = re.compile(r"^(?:and\s+then|and|then|but|so)\s+", re.IGNORECASE)
#: How much of each message is read: a dated clause pointed at "in between" is near its end.
_WINDOW = 2000
#: Sentence openers that lose their capital inside the rewrite ("The gig was ..." -> "the gig was ...").
_OPENERS = frozenset("the a an my our your his her their we they it".split())
#: How far back the two dated clauses may lie.
_MESSAGES = 6


def between_text(context: Sequence[Mapping[str, str]]) -> str | None:
    """ "between <clause> and <clause>" for the last two dated clauses, or None with fewer than two."""
    dated: list[str] = []
    for message in list(context)[-_MESSAGES:]:
        for clause in _CLAUSES.split(str(message.get("content") or "")[-_WINDOW:]):
            clause = _OPENING_CONJUNCTION.sub("", clause.strip(" ,;:"))
            if clause and times_in(clause):
                opener = clause.split()[0]
                dated.append(clause[0].lower() + clause[1:] if opener.lower() in _OPENERS else clause)
    if len(dated) < 2:
        return None
    return f"between {dated[-2]} and {dated[-1]}"
