"""Verify a copy: per-table row counts and an order-independent checksum computed on both sides.

The checksum of a table is the sum, modulo 2**64, of a 64-bit hash of each row's identifying
fields (for items: owner, id, content hash and the vector's bytes). A sum does not depend on the
order rows are read in, and unlike XOR a row present twice does not cancel out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mnemo.store.transfer_rows import TABLES, Row, TransferStore

#: The fields each table's checksum covers: what identifies a row and what a copy must not change.
CHECKED: dict[str, tuple[str, ...]] = {
    "items": ("user_id", "agent_id", "project", "id", "content_hash", "vector_key", "embedding"),
    "facts": ("key", "subject", "relation", "object", "status", "provenance"),
    "sessions": ("session_id", "project", "title", "message_count", "user_message_count"),
    "sources": ("path", "kind", "size", "offset", "line", "head_hash"),
    "subcategories": ("id", "user_id", "category", "name", "count", "centroid"),
    "category_history": ("id", "user_id", "category", "action", "old_names", "new_names"),
}
_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class TableCheck:
    table: str
    source_rows: int
    target_rows: int
    source_sum: str
    target_sum: str

    @property
    def ok(self) -> bool:
        return self.source_rows == self.target_rows and self.source_sum == self.target_sum

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "source_rows": self.source_rows,
            "target_rows": self.target_rows,
            "source_checksum": self.source_sum,
            "target_checksum": self.target_sum,
            "ok": self.ok,
        }


@dataclass(frozen=True, slots=True)
class VerifyReport:
    tables: tuple[TableCheck, ...]

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.tables)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "tables": [t.as_dict() for t in self.tables]}


def row_hash(table: str, row: Row) -> int:
    """A 64-bit hash of the checked fields; each is framed with its length so fields cannot blur."""
    digest = hashlib.blake2b(digest_size=8)
    for name in CHECKED[table]:
        value = row[name]
        data = value if isinstance(value, bytes) else ("\x00" if value is None else str(value)).encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return int.from_bytes(digest.digest(), "little")


def table_checksum(store: TransferStore, table: str, batch: int = 2000) -> tuple[int, str]:
    """(rows, checksum) of one table, streamed a page at a time."""
    rows, total, after = 0, 0, None
    key = next(t.key for t in TABLES if t.name == table)
    while page := store.export_rows(table, after, batch):
        rows += len(page)
        total = (total + sum(row_hash(table, row) for row in page)) & _MASK
        after = page[-1][key]
    return rows, f"{total:016x}"


def verify_stores(
    source: TransferStore, target: TransferStore, progress: Callable[[str], None] | None = None
) -> VerifyReport:
    checks = []
    for table in TABLES:
        if progress:
            progress(table.name)
        source_rows, source_sum = table_checksum(source, table.name)
        target_rows, target_sum = table_checksum(target, table.name)
        checks.append(TableCheck(table.name, source_rows, target_rows, source_sum, target_sum))
    return VerifyReport(tuple(checks))
