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
    #: Top-level category (one of CATEGORIES) and evolving subcategory name; derived from the
    #: content at ingestion, None until classified / assigned.
    category: str | None = None
    subcategory: str | None = None

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
    #: When the query was rewritten from conversation context: original, expanded, confidence, resolved.
    rewrite: Mapping[str, Any] | None = None

    @classmethod
    def of(cls, item: Item, score: float, ranks: Mapping[str, int], signals: Mapping[str, float]) -> Hit:
        """A hit for a stored item, with the evidence each strategy gave for it."""
        return cls(
            id=item.id,
            score=score,
            content=item.content,
            kind=item.kind,
            role=item.role,
            session_id=item.scope.session_id,
            timestamp=item.timestamp,
            metadata=item.metadata,
            item=item,
            ranks=dict(ranks),
            signals=dict(signals),
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form used by the CLI and the MCP server."""
        extra = {"rewrite": dict(self.rewrite)} if self.rewrite else {}
        return extra | {
            "id": self.id,
            "score": round(self.score, 6),
            "content": self.content,
            "kind": self.kind,
            "role": self.role,
            "source": self.item.source,
            **self.item.scope.as_dict(),
            "timestamp": self.timestamp.isoformat() if self.timestamp else None,
            "metadata": dict(self.metadata),
            "category": self.item.category,
            "subcategory": self.item.subcategory,
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
    #: A top-level category ("skills") or a subcategory path ("skills/python_testing").
    category: str | None = None
    #: The store's category-assignment version when the filter was made: part of the filter's
    #: identity only, so a cached key list of a category filter never outlives a re-evolve.
    category_version: int = 0


#: The fixed top-level categories every memory is classified into.
CATEGORIES: tuple[str, ...] = ("facts", "preferences", "skills", "rules", "context")


@dataclass(frozen=True, slots=True)
class Subcategory:
    """An evolving subcategory: a cluster of one user's memories within one top-level category."""

    id: str
    category: str
    name: str
    keywords: tuple[str, ...] = ()
    count: int = 0
    user_id: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @property
    def path(self) -> str:
        return f"{self.category}/{self.name}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "name": self.name,
            "path": self.path,
            "keywords": list(self.keywords),
            "count": self.count,
            "user_id": self.user_id,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "updated_at": self.updated_at.isoformat() if self.updated_at else None,
        }


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


@dataclass(frozen=True, slots=True)
class Snippet:
    """A matching message of a session, cut around its best match; ``highlights`` are [start, end) offsets."""

    message_id: str
    role: str | None
    timestamp: datetime | None
    text: str
    score: float
    highlights: tuple[tuple[int, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "message_id": self.message_id,
            "role": self.role,
            "timestamp": self.timestamp.isoformat() if self.timestamp else None,
            "text": self.text,
            "score": round(self.score, 6),
            "highlights": [list(span) for span in self.highlights],
        }


@dataclass(frozen=True, slots=True)
class SessionHit:
    """A session found by session search, with its best matching messages and near-duplicates."""

    session_id: str
    project: str | None
    score: float
    started_at: datetime | None
    ended_at: datetime | None
    title: str
    snippets: tuple[Snippet, ...]
    total_matches: int
    message_count: int
    also_in: tuple[str, ...] = ()
    signals: Mapping[str, float] = field(default_factory=dict)

    @property
    def more_matches(self) -> int:
        return max(0, self.total_matches - len(self.snippets))

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "project": self.project,
            "score": round(self.score, 6),
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "ended_at": self.ended_at.isoformat() if self.ended_at else None,
            "title": self.title,
            "snippets": [s.as_dict() for s in self.snippets],
            "total_matches": self.total_matches,
            "more_matches": self.more_matches,
            "message_count": self.message_count,
            "also_in": list(self.also_in),
            "signals": {k: round(v, 6) for k, v in self.signals.items()},
        }


@dataclass(frozen=True, slots=True)
class Session:
    """One conversation (a Claude Code session, a chat log) as imported; counts are of stored messages."""

    session_id: str
    project: str | None = None
    source: str | None = None
    path: str | None = None
    title: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    message_count: int = 0
    user_message_count: int = 0
    git_branch: str | None = None
    is_fork: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "project": self.project,
            "source": self.source,
            "path": self.path,
            "title": self.title,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "ended_at": self.ended_at.isoformat() if self.ended_at else None,
            "message_count": self.message_count,
            "user_message_count": self.user_message_count,
            "git_branch": self.git_branch,
            "is_fork": self.is_fork,
        }


@dataclass(frozen=True, slots=True)
class SourceFile:
    """An imported file and how far it was read, so a re-run reads only what is new.

    ``offset``/``line`` is where the next run continues (it may re-read a few lines on purpose);
    ``bytes_read`` is how far this file has been read; ``state`` is what the importer must remember
    about the lines before ``offset`` (session id, project, first event type, ...).
    """

    path: str
    kind: str
    root: str | None = None
    size: int = 0
    mtime: float = 0.0
    offset: int = 0
    line: int = 1
    bytes_read: int = 0
    head_hash: str = ""
    session_id: str | None = None
    messages: int = 0
    dropped: int = 0
    imported_at: datetime | None = None
    state: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind,
            "root": self.root,
            "size": self.size,
            "mtime": self.mtime,
            "offset": self.offset,
            "line": self.line,
            "bytes_read": self.bytes_read,
            "session_id": self.session_id,
            "messages": self.messages,
            "dropped": self.dropped,
            "imported_at": self.imported_at.isoformat() if self.imported_at else None,
        }


@dataclass(frozen=True, slots=True)
class Fact:
    """A (subject, relation, object) triple about the user's world, as extracted or as stored.

    Extraction fills the first group of fields; the store adds id, status, weight, the times
    and provenance (the ids of the messages that stated it).
    """

    subject: str
    relation: str
    object: str
    confidence: float = 0.9
    negated: bool = False
    hedged: bool = False
    lang: str | None = None
    correction: bool = False
    id: str | None = None
    status: str | None = None
    weight: float | None = None
    first_seen: datetime | None = None
    last_seen: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    provenance: tuple[str, ...] = ()
    scope: Scope = field(default_factory=Scope)

    @property
    def triple(self) -> tuple[str, str, str]:
        return (self.subject, self.relation, self.object)

    @property
    def text(self) -> str:
        """The fact as one line, e.g. "you lives_in seattle"; the content of its item."""
        return f"{self.subject} {self.relation} {self.object}"

    def as_dict(self) -> dict[str, Any]:
        def when(value: datetime | None) -> str | None:
            return value.isoformat() if value else None

        return {
            "subject": self.subject,
            "relation": self.relation,
            "object": self.object,
            "confidence": round(self.confidence, 4),
            "negated": self.negated,
            "hedged": self.hedged,
            "lang": self.lang,
            "correction": self.correction,
            "id": self.id,
            "status": self.status,
            "weight": None if self.weight is None else round(self.weight, 4),
            "first_seen": when(self.first_seen),
            "last_seen": when(self.last_seen),
            "valid_from": when(self.valid_from),
            "valid_to": when(self.valid_to),
            "provenance": list(self.provenance),
            **{k: v for k, v in self.scope.as_dict().items() if k in OWNER_FIELDS},
        }
