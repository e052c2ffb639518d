"""Render retrieved memories grouped under one heading per category, within the token budget."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from mnemo.context.budget import TokenCounter, estimate_tokens
from mnemo.context.render import HEADER, ContextPack, bullet, deduplicate
from mnemo.records import CATEGORIES, Hit

#: Headings in this order; memories not yet classified come last.
ORDER = (*CATEGORIES, "other")
TITLES = {
    "facts": "Facts",
    "preferences": "Preferences",
    "skills": "Skills",
    "rules": "Rules",
    "context": "Current context",
    "other": "Other",
}


def heading(category: str) -> str:
    return f"## {TITLES[category]}"


def render_grouped(hits: Sequence[Hit], max_tokens: int, count: TokenCounter = estimate_tokens) -> ContextPack:
    """Like ``render`` (best-first while they fit, oldest first within a group), with headings.

    A heading's cost is paid by the first hit of its category, so the block never exceeds
    ``max_tokens``; a hit whose bullet (plus heading) does not fit is skipped, not cut.
    """
    unique = deduplicate(hits)
    remaining = max_tokens - (count(HEADER) + 1)
    groups: dict[str, list[tuple[Hit, str]]] = {}
    for hit in unique:
        category = hit.item.category if hit.item.category in CATEGORIES else "other"
        line = bullet(hit)
        cost = count(line) + 1 + (0 if category in groups else count(heading(category)) + 1)
        if cost > remaining:
            continue
        groups.setdefault(category, []).append((hit, line))
        remaining -= cost
    if not groups:
        return ContextPack("", 0, max_tokens, (), len(hits))
    lines = [HEADER]
    used: list[Hit] = []
    for category in ORDER:
        chosen = sorted(
            groups.get(category, []), key=lambda p: (p[0].timestamp is None, p[0].timestamp or datetime.min)
        )
        if chosen:
            lines.append(heading(category))
            lines += [line for _, line in chosen]
            used += [hit for hit, _ in chosen]
    text = "\n".join(lines)
    return ContextPack(text, count(text), max_tokens, tuple(used), len(hits))
