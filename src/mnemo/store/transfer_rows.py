"""The backend-neutral row format ``mnemo migrate`` moves between stores.

Every backend exports and imports these tables with these columns, so a copy between any two
backends is a loop over pages of plain dicts. Values are plain Python: text, int, float (epoch
seconds for times), ``bytes`` (little-endian float32 for vectors and centroids) or None; owner
fields use '' for "unset", JSON columns are JSON text. Item keys are preserved by a copy, so
facts (keyed by their item) and the categories' evolve mark stay valid without a mapping.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One copied table: its name, the column pages are ordered by, and every column."""

    name: str
    key: str
    columns: tuple[str, ...]


ITEMS = TableSpec(
    "items",
    "key",
    (
        "key", "id", "user_id", "agent_id", "project", "session_id", "task_id", "content", "kind", "role",
        "source", "ts", "ingested_at", "metadata", "content_hash", "keys", "category", "subcategory",
        "vector_key", "embedding",
    ),
)  # fmt: skip
FACTS = TableSpec(
    "facts",
    "key",
    (
        "key", "user_id", "agent_id", "project", "subject", "relation", "object", "confidence", "weight",
        "first_seen", "last_seen", "status", "provenance", "valid_from", "valid_to", "lang", "hedged",
    ),
)  # fmt: skip
SESSIONS = TableSpec(
    "sessions",
    "session_id",
    (
        "session_id", "project", "source", "path", "title", "started_at", "ended_at", "message_count",
        "user_message_count", "git_branch", "is_fork", "updated_at",
    ),
)  # fmt: skip
SOURCES = TableSpec(
    "sources",
    "path",
    (
        "path", "kind", "root", "size", "mtime", "offset", "line", "bytes_read", "head_hash", "session_id",
        "messages", "dropped", "imported_at", "state",
    ),
)  # fmt: skip
SUBCATEGORIES = TableSpec(
    "subcategories",
    "id",
    ("id", "user_id", "category", "name", "keywords", "centroid", "count", "created_at", "updated_at"),
)
CATEGORY_HISTORY = TableSpec(
    "category_history",
    "id",
    ("id", "at", "user_id", "category", "action", "old_names", "new_names", "detail"),
)

#: In copy order: facts refer to items by key, so items go first.
TABLES: tuple[TableSpec, ...] = (ITEMS, FACTS, SESSIONS, SOURCES, SUBCATEGORIES, CATEGORY_HISTORY)
BY_NAME: dict[str, TableSpec] = {t.name: t for t in TABLES}

#: Store-level settings that travel with the data (the store id, sequence and schema do not).
COPIED_META: tuple[str, ...] = ("embedder", "vector_inputs", "category_version", "category_evolved_rowid")


def spec(table: str) -> TableSpec:
    try:
        return BY_NAME[table]
    except KeyError:
        raise ValueError(f"no transferable table {table!r}; use one of: {', '.join(BY_NAME)}") from None


class TransferStore(Protocol):
    """What a backend offers ``mnemo migrate``: keyed pages out, idempotent range replacement in."""

    store_id: str

    def export_rows(self, table: str, after: Any, limit: int) -> list[Row]:
        """Up to ``limit`` rows with key greater than ``after`` (None: from the start), in key order."""
        ...

    def replace_rows(self, table: str, after: Any, upto: Any, rows: Sequence[Row]) -> None:
        """Make the key range (``after``, ``upto``] hold exactly ``rows`` (None: unbounded), in one
        transaction: rows the range has beyond them are deleted, they are upserted by key."""
        ...

    def count_rows(self, table: str) -> int: ...

    def finish_import(self) -> None:
        """Build what is cheaper to build once after a load (PostgreSQL: the HNSW index)."""
        ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...
