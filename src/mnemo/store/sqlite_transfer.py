"""Row-level export and import of the SQLite store for ``mnemo migrate`` (format: transfer_rows.py).

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`. Imports write
through the tables' own triggers (full-text index, vectors), with explicit keys, and bump the
sequence so derived vector indexes see every copied row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mnemo.store.sql import placeholders
from mnemo.store.sqlite_rows import bump_seq
from mnemo.store.transfer_rows import ITEMS, Row, TableSpec, spec

#: The items columns as SQLite names them (its key is the rowid, its vectors live in `vectors`).
_ITEM_SELECT = (
    "items.rowid, items.id, items.user_id, items.agent_id, items.project, items.session_id, items.task_id, "
    "items.content, items.kind, items.role, items.source, items.ts, items.ingested_at, items.metadata, "
    "items.content_hash, items.keys, items.category, items.subcategory, vectors.vector_key, vectors.embedding"
)
_ITEM_COLUMNS = ITEMS.columns[1:-2]  # what the items table stores beside its key
_FACT_KEY = "item_rowid"


class SQLiteTransfer:
    """Mixed into SQLiteStore; see the module docstring."""

    _read: Any
    _transaction: Any

    def export_rows(self, table: str, after: Any, limit: int) -> list[Row]:
        table_spec = spec(table)
        if table_spec is ITEMS:
            where = "WHERE items.rowid > ?" if after is not None else ""
            sql = (
                f"SELECT {_ITEM_SELECT} FROM items LEFT JOIN vectors ON vectors.item_rowid = items.rowid "
                f"{where} ORDER BY items.rowid LIMIT ?"
            )
        else:
            key = _column(table_spec, table_spec.key)
            where = f"WHERE {key} > ?" if after is not None else ""
            columns = ", ".join(_column(table_spec, c) for c in table_spec.columns)
            sql = f"SELECT {columns} FROM {table} {where} ORDER BY {key} LIMIT ?"
        params = [after, limit] if after is not None else [limit]
        return [_as_row(table_spec, row) for row in self._read(sql, params)]

    def count_rows(self, table: str) -> int:
        return int(self._read(f"SELECT count(*) FROM {spec(table).name}")[0][0])

    def finish_import(self) -> None:
        """Nothing to build: SQLite's indexes were kept up to date row by row."""

    def replace_rows(self, table: str, after: Any, upto: Any, rows: Sequence[Row]) -> None:
        """Make the keys in (``after``, ``upto``] hold exactly ``rows``, in one transaction.

        ``after`` None means from the first key, ``upto`` None means to the last: rows of the
        range that the source no longer has are deleted (items with a tombstone, so vector
        indexes drop them too), the others are upserted by key.
        """
        table_spec = spec(table)
        key = "rowid" if table_spec is ITEMS else _column(table_spec, table_spec.key)
        bounds, params = _range(key, after, upto)
        keep = {row[table_spec.key] for row in rows}
        with self._transaction() as conn:
            present = [r[0] for r in conn.execute(f"SELECT {key} FROM {table} WHERE {bounds}", params)]
            gone = [k for k in present if k not in keep]
            if table_spec is ITEMS:
                _import_items(conn, rows, gone)
                return
            conn.executemany(f"DELETE FROM {table} WHERE {key} = ?", [(k,) for k in gone])
            columns = [_column(table_spec, c) for c in table_spec.columns]
            # REPLACE also clears a row that holds the same unique name under another key
            conn.executemany(
                f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({placeholders(len(columns))})",
                [[row[c] for c in table_spec.columns] for row in rows],
            )


def _range(key: str, after: Any, upto: Any) -> tuple[str, list[Any]]:
    parts, params = ["1"], []
    if after is not None:
        parts.append(f"{key} > ?")
        params.append(after)
    if upto is not None:
        parts.append(f"{key} <= ?")
        params.append(upto)
    return " AND ".join(parts), params


def _import_items(conn: Any, rows: Sequence[Row], gone: Sequence[int]) -> None:
    seq = bump_seq(conn)
    # the same owner and id under another key (deleted and re-added in the source) goes first,
    # so the upsert below cannot trip over the (owner, id) uniqueness
    removed = list(gone)
    for r in rows:
        removed += [
            found[0]
            for found in conn.execute(
                "DELETE FROM items WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ? AND rowid != ? "
                "RETURNING rowid",
                (r["user_id"], r["agent_id"], r["project"], r["id"], r["key"]),
            )
        ]
    conn.executemany("DELETE FROM items WHERE rowid = ?", [(k,) for k in gone])
    conn.executemany("INSERT OR REPLACE INTO tombstones (item_rowid, seq) VALUES (?, ?)", [(k, seq) for k in removed])
    conn.executemany("DELETE FROM tombstones WHERE item_rowid = ?", [(r["key"],) for r in rows])  # a key in use again
    # an upsert, not INSERT OR REPLACE: REPLACE deletes without firing the delete triggers, which
    # would leave the old text in the full-text index
    names = ", ".join(_ITEM_COLUMNS)
    updates = ", ".join(f"{c} = excluded.{c}" for c in (*_ITEM_COLUMNS, "seq"))
    conn.executemany(
        f"INSERT INTO items (rowid, {names}, seq) VALUES ({placeholders(len(_ITEM_COLUMNS) + 2)}) "
        f"ON CONFLICT (rowid) DO UPDATE SET {updates}",
        [[row["key"], *(row[c] for c in _ITEM_COLUMNS), seq] for row in rows],
    )
    with_vectors = [(r["key"], r["vector_key"], r["embedding"]) for r in rows if r["embedding"] is not None]
    conn.executemany(
        "INSERT OR REPLACE INTO vectors (item_rowid, vector_key, embedding) VALUES (?, ?, ?)", with_vectors
    )
    without = [(r["key"],) for r in rows if r["embedding"] is None]
    conn.executemany("DELETE FROM vectors WHERE item_rowid = ?", without)


def _column(table_spec: TableSpec, column: str) -> str:
    if table_spec.name == "facts" and column == "key":
        return _FACT_KEY
    return '"offset"' if column == "offset" else column


def _as_row(table_spec: TableSpec, values: Sequence[Any]) -> Row:
    row = dict(zip(table_spec.columns, values, strict=True))
    if "embedding" in row and row["embedding"] is not None:
        row["embedding"] = bytes(row["embedding"])
    if "centroid" in row and row["centroid"] is not None:
        row["centroid"] = bytes(row["centroid"])
    return row
