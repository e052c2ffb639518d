"""An ordinal over mentions of one noun: "the first db", "the last deploy".

When the conversation made no list of them, "the first X" is the earliest mention of an X (or the
earliest deed the noun names: "the first deploy" after "we deployed v2.14.0 at 14:05 ... the hotfix
v2.14.1? - Deployed at 16:40"), and "the last X" the latest. The mention is a determiner phrase
with X as its head ("the staging db"), the deed a past form of the verb X was made from with the
words after it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from mnemo.retrieve.rewrite.nominal import past_forms

from . import cached_re

#: How much of each message is read: the end of a pasted log or list is where its latest items are.
_WINDOW = 4000


def ordinal_mention(ordinal: str, noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The earliest ("first") or latest ("last") mention of ``noun`` or its deed, or None. A bare
    "the <noun>" says no more than the query; with no second mention it is not counted."""
    if ordinal.lower() not in ("first", "last"):
        return None
    found: list[str] = []
    for message in context:
        text = str(message.get("content") or "")[-_WINDOW:]
        spots = [(m.start(), m.group(0).strip(" ,;.")) for m in _mention(noun).finditer(text)]
        spots += [(m.start(), m.group(0).rstrip(" ,;.:")) for m in _in_path(noun).finditer(text)]
        deed = _deed(noun)
        if deed is not None:
            spots += [(m.start(), m.group(0).strip(" ,;.")) for m in deed.finditer(text)]
        found += [phrase for _, phrase in sorted(spots)]
    if not found:
        return None
    chosen = found[0] if ordinal.lower() == "first" else found[-1]
    bare = cached_re.fullmatch(rf"(?:the|a|an|my|our|your|their)\s+{re.escape(noun)}s?", chosen, re.IGNORECASE)
    return None if bare else chosen


@lru_cache(maxsize=128)
def _mention(noun: str) -> re.Pattern[str]:
    stem = re.escape(noun.lower().removesuffix("s"))
    # with what it is of or for: "the migration on users", "the quote from Roofing Co"
    return cached_re.compile(
        rf"\b(?:the|a|an|my|our|your|their)\s+(?:[\w'.:-]+\s+){{0,2}}?(?i:{stem}s?)\b(?![\w-])"
        r"(?:[^\S\n]+(?:on|of|for|to|from|in|at|with)[^\S\n]+[\w'.:-]+(?:[^\S\n]+(?-i:[A-Z])[\w'.:-]*){0,2})?",
        re.IGNORECASE,
    )


@lru_cache(maxsize=128)
def _in_path(noun: str) -> re.Pattern[str]:
    """A path with the noun as a directory: ".github/workflows/test.yml" is a workflow,
    "migrations/0042_x.py" a migration."""
    stem = re.escape(noun.lower().removesuffix("s"))
    return cached_re.compile(rf"(?<![\w./-])[\w.-]*/?(?i:{stem}s?)/[\w./-]*\w")


@lru_cache(maxsize=128)
def _deed(noun: str) -> re.Pattern[str] | None:
    forms = past_forms(noun)
    if not forms:
        return None
    # "deployed v2.14.0 at 14:05": the verb and the words that say what was done, to the clause's end
    return cached_re.compile(rf"\b(?i:{'|'.join(map(re.escape, forms))})\b(?:[^\S\n]+(?!and\b|but\b)[\w'.:-]+){{1,4}}")
