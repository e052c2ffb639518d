"""The told time of the person a query is about: "did she check his hip that day" after "My grandad
fell on Sunday and the GP came out on Tuesday", once "she" is the GP, is the GP's Tuesday.

A chat that dates several happenings leaves "that day", "at the time", "back then" open between
them; when the query's "he" or "she" was resolved to someone only one dated clause names (or its
"that push" to "the bad config push" that only one names), that clause is the time meant.
Anything less certain is left to the message-level anchor (temporal.py): weighing all of the
query's words this way lost as many rows as it won. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from mnemo.retrieve.rewrite.quoting import quoted
from mnemo.retrieve.rewrite.told_sequence import dated_clauses

from . import cached_re

#: Pointers at one told time: "at the time", "back then", "that day", "at that point", "then".
_POINTERS = re.compile(
    r"(?:at|by)\s+the\s+time|back\s+then|(?:at\s+)?that\s+(?:day|time|point|moment|stage|year)|then",
    re.IGNORECASE,
)
_MAX_WORDS = 14


def their_time(reference: str, people: Collection[str], context: Sequence[Mapping[str, str]]) -> str | None:
    """ "that day (the GP came out on Tuesday)": the one dated clause that names a person (or a thing
    pointed at) the query's other references became, or None."""
    if not people or not _POINTERS.fullmatch(reference.strip()):
        return None
    dated = dated_clauses([str(m.get("content") or "") for m in context])
    if len(dated) < 2:
        return None
    names = [_bare(p) for p in people if _bare(p)]
    theirs = [c for c in dated if any(cached_re.search(rf"\b{re.escape(n)}\b", c, re.IGNORECASE) for n in names)]
    return quoted(reference, theirs[0], _MAX_WORDS) if len(theirs) == 1 else None


def _bare(person: str) -> str:
    """ "my grandad's" -> "grandad", "the GP" -> "GP", "Mr Hale" -> "Mr Hale"."""
    words = person.split(" (")[0].removesuffix("'s").removesuffix("’s").split()
    return " ".join(w for w in words if w.lower() not in ("my", "the", "our", "his", "her", "their"))
