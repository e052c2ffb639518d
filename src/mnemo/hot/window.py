"""The rotating memory message: bullets of the last N turns, deduplicated, under one stable header."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from mnemo.hot.records import Bullet

#: Marks the memory message inside a messages list, so the next turn replaces it.
MARKER = "[mnemo]"


class InjectWindow:
    """Bullets injected in the last ``turns`` turns of one conversation."""

    def __init__(self, turns: int) -> None:
        self._turns: deque[tuple[int, tuple[Bullet, ...]]] = deque(maxlen=max(1, turns))

    def push(self, turn: int, bullets: Sequence[Bullet]) -> None:
        if bullets:
            self._turns.append((turn, tuple(bullets)))

    def bullets(self, cap: int) -> list[Bullet]:
        """Newest turn first, best score first within a turn, one bullet per fact, at most ``cap``."""
        seen: set[str] = set()
        out: list[Bullet] = []
        for _, bullets in reversed(self._turns):
            for bullet in sorted(bullets, key=lambda b: -b.score):
                if bullet.fact_id not in seen and len(out) < cap:
                    seen.add(bullet.fact_id)
                    out.append(bullet)
        return out


def render(header: str, window_turns: int, stamp: str, bullets: Sequence[Bullet]) -> str:
    lines = [f"{MARKER} {header}", f"Context from the last {window_turns} conversational turns (updated: {stamp})"]
    return "\n".join(lines + [f"- {b.text}" for b in bullets])


def inject_messages(messages: Sequence[dict[str, Any]], system_message: dict[str, str] | None) -> list[dict[str, Any]]:
    """OpenAI-style messages with the memory message right before the latest user message.

    An earlier memory message (recognised by its marker) is removed, so there is only ever one.
    With ``system_message`` None the list comes back unchanged (as a new list).
    """
    if system_message is None:
        return list(messages)
    kept = [m for m in messages if not _is_memory(m)]
    last_user = max((i for i, m in enumerate(kept) if m.get("role") == "user"), default=len(kept))
    return [*kept[:last_user], dict(system_message), *kept[last_user:]]


def _is_memory(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, str) and content.startswith(MARKER)
