"""The next or the same of a recurring occasion: "who's hosting the next one" after "book club is at
Hannah's on the 12th" is the next book club; "put the same one in for next week" after "move my 1:1
with Ravi to thursday" is another 1:1 with Ravi.

"One" stands for a noun the chat gave; with no list to pick from, "the next one" and "the same one"
presuppose something that recurs, and the chat's latest recurring occasion (a club, a 1:1, a
standup, a class, a match) is it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.lists import find_list

from . import cached_re

#: "the next one", "the same one", "the following one", "the previous one": one of a series.
SERIES_REF = re.compile(
    r"\bthe\s+(next|same|following|previous)\s+one\b(?!\s+(?!(?:is|was|will|in|on|at|for|with|to|and|too|then|be)\b)[a-z])",
    re.IGNORECASE,
)  # "the next one direction reunion" names its own thing
#: Occasions that recur, as a chat names them.
_OCCASION = re.compile(
    r"\b((?:book|running|supper|dinner|chess|film|board\s+game|quiz)\s+club"
    r"|(?:1:1|one-on-one|1-1|catch-?up)(?:\s+with\s+(?-i:[A-Z])[\w'-]+)?"
    r"|stand-?up|retro(?:spective)?|(?:sprint|release)\s+planning|(?:team|weekly|monthly)\s+(?:sync|meeting)"
    r"|(?:yoga|pilates|spin|swimming|dance|piano|guitar|french|spanish|cooking|art|pottery)\s+(?:class|lesson)"
    r"|(?:five-a-side|football|tennis|squash|netball)\s+(?:match|game)|meetup|quiz\s+night"
    r"|offsite|off-site|all-hands|town\s+hall|check-?up|physio\s+session|therapy\s+session)\b",
    re.IGNORECASE,
)


def series_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of "the next one" when the chat names a recurring occasion."""
    found = SERIES_REF.search(query)
    if found is None or _OCCASION.search(context_text) is None:
        return []
    if find_list([{"content": line} for line in context_text.split("\n")]):
        return []  # "the next one" of a list is the item after, which the ordinal rules read
    return [(found.start(), found.end(), found.group(1).lower())]


def series_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the next book club", "the same 1:1 with Ravi": the reference with the occasion for "one"."""
    for message in reversed(list(context)):
        found = list(_OCCASION.finditer(str(message.get("content") or "")))
        if found:
            return cached_re.sub(r"\bone\b", found[-1].group(1), reference, count=1, flags=re.IGNORECASE)
    return None
