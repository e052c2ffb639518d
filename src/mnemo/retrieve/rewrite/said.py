"""The conversation as one text, a message a line: what the frame rules search."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.store.sql import STOPWORDS

from . import cached_re


def conversation_text(context: Sequence[Mapping[str, str]]) -> str:
    """Every message's content, one message a line (a phrase never runs across two)."""
    return "\n".join(str(m.get("content") or "") for m in context)


def line_messages(context_text: str) -> list[dict[str, str]]:
    """``conversation_text`` back as messages, a line each and with no role, for the detection
    rules that check what the conversation can resolve."""
    return [{"content": line} for line in context_text.splitlines()]


def modifies_next(rest: str, describing: frozenset[str] = frozenset(), any_case: bool = False) -> bool:
    """Whether the word after a noun is a noun it modifies: "the part time job", "the bank holiday".
    A function word, an adverb or participle ("usually", "needed", "running"), a short word or one
    of ``describing`` ("expensive") follows a noun that stands alone; ``any_case`` reads a
    capitalised next word too."""
    found = cached_re.match(r"\s+([a-z][a-z-]*)", rest, re.IGNORECASE if any_case else 0)
    if found is None:
        return False
    word = found.group(1).lower()
    return not (word in STOPWORDS or word in describing or word.endswith(("ly", "ed", "ing")) or len(word) < 3)
