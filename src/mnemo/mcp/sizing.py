"""Keep every tool answer small enough for a model's context window.

A listing is filled best-first until its JSON would pass ``max_tokens`` (as counted by the same
pessimistic estimate the context builder uses), and any one long text is cut so a single huge
memory cannot take a whole answer. What was left out is counted, never silently dropped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from mnemo.context.budget import TokenCounter, estimate_tokens, truncate_to_tokens
from mnemo.errors import InputError

#: What a listing returns when the caller does not say: a few thousand tokens is a useful answer
#: without crowding a model's context.
DEFAULT_MAX_TOKENS = 2000
#: No single call returns more than this, whatever the caller asks for.
HARD_MAX_TOKENS = 8000
#: Room kept for the envelope around a listing (its counts and flags).
ENVELOPE_TOKENS = 40
#: The smallest useful piece of a cut text; below this an entry is left out instead.
MIN_TEXT_TOKENS = 16


def budget(max_tokens: Any, default: int = DEFAULT_MAX_TOKENS) -> int:
    """The caller's ``max_tokens`` checked and capped at HARD_MAX_TOKENS; ``None`` means the default."""
    if max_tokens is None:
        return default
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise InputError(f"max_tokens must be a positive integer, got {max_tokens!r}")
    return min(max_tokens, HARD_MAX_TOKENS)


def to_json(value: Any) -> str:
    """The compact JSON a client receives; token counts are taken on exactly this text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def json_tokens(value: Any, count: TokenCounter = estimate_tokens) -> int:
    return count(to_json(value))


def cut_text(
    entry: Mapping[str, Any], field: str, tokens: int, count: TokenCounter = estimate_tokens
) -> dict[str, Any]:
    """A copy of ``entry`` whose ``field`` is at most ``tokens`` long, flagged ``truncated`` if cut."""
    out = dict(entry)
    text = out.get(field)
    if isinstance(text, str) and count(text) > tokens:
        out[field] = truncate_to_tokens(text, tokens, count)
        out["truncated"] = True
    return out


def fit_entries(
    entries: Sequence[Mapping[str, Any]],
    max_tokens: int,
    field: str = "content",
    count: TokenCounter = estimate_tokens,
    reserve: int = ENVELOPE_TOKENS,
) -> tuple[list[dict[str, Any]], int]:
    """Entries best-first within ``max_tokens`` of JSON; returns (kept, how many were left out).

    Each entry's text is first capped at a share of the budget (so ten hits share it rather than
    the first taking all); an entry that still does not fit whole is cut to the room left if
    that is worth showing, otherwise the listing stops there, keeping the ranking's order.
    """
    room = max_tokens - reserve
    share = max(MIN_TEXT_TOKENS * 4, room // 3)
    kept: list[dict[str, Any]] = []
    for position, entry in enumerate(entries):
        candidate, cost = shrink_to(cut_text(entry, field, share, count), field, room, count)
        if candidate is None:
            return kept, len(entries) - position
        kept.append(candidate)
        room -= cost
    return kept, 0


def shrink_to(
    entry: dict[str, Any], field: str, room: int, count: TokenCounter = estimate_tokens
) -> tuple[dict[str, Any] | None, int]:
    """``entry`` with its text cut until its JSON (plus a separator) fits ``room``; None if it cannot.

    Counts are not additive (escaping, the flag added by a cut), so this measures and cuts again.
    """
    for _ in range(4):
        cost = json_tokens(entry, count) + 1
        if cost <= room:
            return entry, cost
        text = entry.get(field)
        target = (count(text) if isinstance(text, str) else 0) - (cost - room) - 1
        if target < MIN_TEXT_TOKENS:
            return None, 0
        entry = cut_text(entry, field, target, count)
    return None, 0
