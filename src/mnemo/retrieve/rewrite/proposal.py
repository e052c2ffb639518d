"""An idea by what it proposes: "that idea" after "Dana's proposal is to freeze all merges to main"
is the freeze, which the chat wrote as a verb phrase, not as a noun any candidate holds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_IDEA_NOUNS = frozenset("idea proposal suggestion plan approach".split())
#: "the proposal is to freeze ...", "my plan was to move ...", "Dana suggested we freeze ...".
_PROPOSED = re.compile(
    r"\b(?:proposal|idea|suggestion|plan)\s+(?:is|was)\s+to\s+([a-z][^.!?\n;]{3,100})"
    # a course of action: "suggested moving ...", "proposed we freeze ..." - not a claim ("suggested prices will fall")
    r"|\b(?:suggested|suggests|proposed|proposes)\s+(?:that\s+)?(?:(?:we|I|you)\s+(?!might|may|could|will|would|should)"
    r"([a-z]+(?<!ed)\s[^.!?\n;]{3,100})|([a-z]+ing\b[^.!?\n;]{3,100}))",
    re.IGNORECASE,
)


def proposed(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the idea to freeze all merges to main during migration week", or None."""
    if noun.lower() not in _IDEA_NOUNS:
        return None
    for message in reversed(list(context)):
        found = list(_PROPOSED.finditer(str(message.get("content") or "")))
        if found:
            deed = (found[-1].group(1) or found[-1].group(2) or found[-1].group(3)).strip(" ,")
            link = "of" if deed.split()[0].lower().endswith("ing") else "to"  # "suggested splitting ...": of
            return f"the {noun.lower()} {link} {deed}"
    return None
