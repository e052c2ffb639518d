"""Render retrieved memories into a prompt block that never exceeds its token budget."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from mnemo.context.budget import TokenCounter, estimate_tokens, truncate_to_tokens
from mnemo.records import Hit

HEADER = "Relevant memories (oldest first; date · speaker · source):"
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class ContextPack:
    """A rendered context block and what went into it."""

    text: str
    tokens: int
    max_tokens: int
    used: tuple[Hit, ...]
    considered: int

    @property
    def searched_for(self) -> str | None:
        """The query the block was searched with when a conversation rewrote the one asked (its hits
        carry the rewrite), else None."""
        rewrite = next((hit.rewrite for hit in self.used if hit.rewrite), None)
        return str(rewrite["expanded"]) if rewrite else None

    def as_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "tokens": self.tokens,
            "max_tokens": self.max_tokens,
            "considered": self.considered,
            "used": [hit.as_dict() for hit in self.used],
        }


def deduplicate(hits: Sequence[Hit]) -> list[Hit]:
    """Drop hits whose text (case and spacing aside) repeats a better-ranked hit."""
    seen: set[str] = set()
    kept: list[Hit] = []
    for hit in hits:
        key = _SPACE.sub(" ", hit.content).strip().lower()
        if key not in seen:
            seen.add(key)
            kept.append(hit)
    return kept


def bullet(hit: Hit) -> str:
    labels = [_date(hit.timestamp)] if hit.timestamp else []
    if hit.role:
        labels.append(hit.role)
    where = hit.item.source or (f"session {hit.session_id}" if hit.session_id else None)
    if where:
        labels.append(where)
    prefix = f"[{' · '.join(labels)}] " if labels else ""
    return f"- {prefix}{_SPACE.sub(' ', hit.content).strip()}"


def render(hits: Sequence[Hit], max_tokens: int, count: TokenCounter = estimate_tokens) -> ContextPack:
    """Greedy by relevance: take hits best-first while they fit, then print them oldest first.

    A hit too long to fit whole is cut to the space left, so one huge memory cannot crowd out
    the block entirely; the result is never over ``max_tokens`` as measured by ``count``.
    """
    unique = deduplicate(hits)
    header_cost = count(HEADER) + 1
    if max_tokens <= header_cost or not unique:
        return ContextPack("", 0, max_tokens, (), len(hits))
    remaining = max_tokens - header_cost
    chosen: list[tuple[Hit, str]] = []
    for hit in unique:
        line = bullet(hit)
        cost = count(line) + 1  # the newline
        if cost > remaining:
            if chosen or remaining < 16:
                continue  # something smaller further down may still fit
            line = truncate_to_tokens(line, remaining - 1, count)
            cost = count(line) + 1
            if not line:
                continue
        chosen.append((hit, line))
        remaining -= cost
    chosen.sort(key=lambda pair: (pair[0].timestamp is None, pair[0].timestamp or datetime.min))
    text = "\n".join([HEADER, *(line for _, line in chosen)]) if chosen else ""
    return ContextPack(text, count(text), max_tokens, tuple(h for h, _ in chosen), len(hits))


def _date(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")
