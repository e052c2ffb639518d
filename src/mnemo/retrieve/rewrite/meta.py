"""References to the conversation itself: "my first question", "your last answer".

"what was my first question" asks for the user's opening message, and "repeat your last answer" for
the assistant's latest one; no noun phrase of the chat stands for either. Pure functions over the
query and the messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.wordfind import sentences

#: The user's opening turn: "the first thing I asked", "my first question", "what I originally asked for".
_FIRST = re.compile(
    r"\b(?:the\s+first\s+thing\s+I\s+(?:asked|said|mentioned)(?:\s+(?:you|about|for))?"
    r"|my\s+(?:first|original|initial|opening)\s+(?:question|request|message)"
    r"|what\s+I\s+(?:first|originally|initially)\s+(?:asked|said|wanted)(?:\s+(?:you|for|about))?"
    r"|what\s+did\s+I\s+(?:first|originally|initially)\s+(?:ask|say|want)(?:\s+(?:you|for|about))?)\b",
    re.IGNORECASE,
)
#: The assistant's latest turn: "your last answer", "your previous reply".
_LAST = re.compile(r"\byour\s+(?:last|previous|latest)\s+(?:answer|reply|message|response)\b", re.IGNORECASE)
_MAX_WORDS = 16


def meta_spans(query: str) -> list[tuple[int, int, str]]:
    """The query's references to the conversation's own turns, as (start, end, "meta:first|last")."""
    return [(m.start(), m.end(), "meta:first") for m in _FIRST.finditer(query)] + [
        (m.start(), m.end(), "meta:last") for m in _LAST.finditer(query)
    ]


def meta_text(reference: str, which: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "my first question (I'm planning a trip to Kyoto in April ...)": the turn's first sentence."""
    role = "user" if which == "first" else "assistant"
    turns = [str(m.get("content") or "") for m in context if str(m.get("role") or "").lower() == role]
    if not turns:
        return None
    turn = turns[0] if which == "first" else turns[-1]
    sentence = sentences(turn.strip())[0].rstrip(".!?")
    return f"{reference} ({' '.join(sentence.split()[:_MAX_WORDS])})" if sentence else None
