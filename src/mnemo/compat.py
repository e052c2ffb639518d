"""Seed 002's functional API (store_memory / search_memories / get_memory_context).

Thin wrappers over one process-wide :class:`Memory` on the default store (``MNEMO_DB`` or the
data directory), opened on first use — never at import time.
"""

from __future__ import annotations

import threading
from typing import Any

from mnemo.api import Memory
from mnemo.records import Hit, Item

#: The seed's context types and the item kinds they map to; mnemo's own kinds pass through.
_CONTEXT_TYPES = {"conversation": "message"}

_default: Memory | None = None
_lock = threading.Lock()


def default_memory() -> Memory:
    global _default
    with _lock:
        if _default is None:
            _default = Memory()
        return _default


def set_default_memory(memory: Memory | None) -> None:
    """Point the functional API at a given Memory (or back to the lazily opened default)."""
    global _default
    with _lock:
        _default = memory


def _kind(context_type: str | None) -> str | None:
    return None if context_type is None else _CONTEXT_TYPES.get(context_type, context_type)


def store_memory(
    content: str,
    source: str,
    context_type: str = "conversation",
    agent_id: str | None = None,
    task_id: str | None = None,
    session_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Item:
    return default_memory().add(
        content,
        source=source,
        kind=_kind(context_type) or "message",
        agent_id=agent_id,
        task_id=task_id,
        session_id=session_id,
        metadata=metadata,
    )


def search_memories(
    query: str,
    agent_id: str | None = None,
    context_type: str | None = None,
    limit: int = 10,
    session_id: str | None = None,
) -> list[Hit]:
    return default_memory().search(
        query, limit=limit, kind=_kind(context_type), agent_id=agent_id, session_id=session_id
    )


def get_memory_context(query: str, max_tokens: int = 1000, agent_id: str | None = None) -> str:
    return default_memory().context(query, max_tokens=max_tokens, agent_id=agent_id)
