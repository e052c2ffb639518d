"""What a thing turned out to be: "tiny black flies around the sink" - "those are almost certainly
drain flies".

A reply often names what the user described: the user's words are a description, the reply's a
diagnosis with the same head noun ("flies" - "drain flies", "a rash" - "a heat rash"). A later
"those" means the diagnosed thing, and the diagnosis is the phrase that finds the right memories,
so it replaces the description when both share the head.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: "X are almost certainly drain flies", "it's probably a heat rash": the diagnosis is the group.
_DIAGNOSED = re.compile(
    r"\b(?:is|are|'s|'re)\s+(?:almost\s+certainly|most\s+likely|very\s+likely|probably|likely|definitely|clearly)"
    r"\s+(?:an?\s+|the\s+)?((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)",
    re.IGNORECASE,
)


def diagnosed(chosen: str, context: Sequence[Mapping[str, str]]) -> str:
    """The diagnosis with the chosen phrase's head noun ("drain flies" for "tiny black flies"), or
    the chosen phrase itself."""
    head = chosen.lower().split()[-1] if chosen.strip() else ""
    for message in reversed(list(context)):
        for match in _DIAGNOSED.finditer(str(message.get("content") or "")):
            words = match.group(1).split()
            if len(words) >= 2 and words[-1].lower() == head and match.group(1).lower() not in chosen.lower():
                return match.group(1)
    return chosen


#: What a reply says the described thing is: "That sounds like mealybugs", "looks like a heat rash".
_SOUNDS_LIKE = re.compile(
    r"\b(?:sounds|looks|seems|sound|look)\s+like\s+((?:an?\s+|the\s+)?(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*?)"
    r"(?=\s*(?:[,;!?]|\.\B|$|\s+(?:to\s+me|which|that|but|and|or|from|on|in|to)\b))",
    re.IGNORECASE,
)
#: A verb of ridding or treating before the pronoun: what is treated is the diagnosis, not the host.
_REMEDY = re.compile(
    r"\b(?:get\s+rid\s+of|rid\s+(?:the\s+\w+\s+)?of|treat|kill|prevent|cure|stop|deal\s+with|eliminate|fix)\s+$",
    re.IGNORECASE,
)


def remedied(before: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "how do i get rid of those" after "That sounds like mealybugs": the diagnosis, or None."""
    if not _REMEDY.search(before):
        return None
    for message in reversed(list(context)):
        found = _SOUNDS_LIKE.findall(str(message.get("content") or ""))
        if found:
            return found[-1]
    return None
