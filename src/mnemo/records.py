"""Plain, immutable records passed between mnemo's stages.

Nothing here does I/O; everything here is safe to share between threads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    """What an item is; search and context can filter on it."""

    MESSAGE = "message"
    FACT = "fact"
    DOCUMENT = "document"
    NOTE = "note"
    SUMMARY = "summary"
    INSIGHT = "insight"


KINDS: frozenset[str] = frozenset(k.value for k in Kind)

#: The fields that place an item in someone's memory; search filters on all of them in SQL.
SCOPE_FIELDS: tuple[str, ...] = ("user_id", "agent_id", "session_id", "project", "task_id")
#: The subset that owns an item: the same external id under another owner is another item.
OWNER_FIELDS: tuple[str, ...] = ("user_id", "agent_id", "project")


@dataclass(frozen=True, slots=True)
class Scope:
    """Who and where a memory belongs to. ``None`` means "not set" (and "any" in a filter)."""

    user_id: str | None = None
    agent_id: str | None = None
    session_id: str | None = None
    project: str | None = None
    task_id: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {name: getattr(self, name) for name in SCOPE_FIELDS}

    def merged(self, other: Scope) -> Scope:
        """Fields set in ``other`` win; unset ones keep this scope's value."""
        values = self.as_dict()
        values.update({k: v for k, v in other.as_dict().items() if v is not None})
        return Scope(**values)


@dataclass(frozen=True, slots=True)
class Item:
    """One remembered thing: a chat turn, a fact, a document section, a note."""

    id: str
    content: str
    kind: str = Kind.MESSAGE.value
    role: str | None = None
    source: str | None = None
    scope: Scope = field(default_factory=Scope)
    timestamp: datetime | None = None
    ingested_at: datetime | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    content_hash: str = ""

    @property
    def session_id(self) -> str | None:
        return self.scope.session_id

    @property
    def user_id(self) -> str | None:
        return self.scope.user_id


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the item plus the evidence of why it ranked where it did.

    ``ranks`` and ``signals`` are keyed by strategy name (``lexical``, ``semantic``, ``recency``,
    ``keyword``); a strategy that did not find the item is absent from both.
    """

    id: str
    score: float
    content: str
    kind: str
    role: str | None
    session_id: str | None
    timestamp: datetime | None
    metadata: Mapping[str, Any]
    item: Item
    ranks: Mapping[str, int] = field(default_factory=dict)
    signals: Mapping[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form used by the CLI and the MCP server."""
        return {
            "id": self.id,
            "score": round(self.score, 6),
            "content": self.content,
            "kind": self.kind,
            "role": self.role,
            "source": self.item.source,
            **self.item.scope.as_dict(),
            "timestamp": self.timestamp.isoformat() if self.timestamp else None,
            "metadata": dict(self.metadata),
            "ranks": dict(self.ranks),
            "signals": {k: round(v, 6) for k, v in self.signals.items()},
        }


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """Everything that restricts a search; applied inside the store's SQL, never afterwards."""

    scope: Scope = field(default_factory=Scope)
    kinds: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did; malformed input is counted here instead of raising."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    errors: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": self.skipped,
            "errors": list(self.errors),
        }
