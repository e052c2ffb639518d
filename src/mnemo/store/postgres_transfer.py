"""Row-level export and import of the PostgreSQL store for ``mnemo migrate`` (format: transfer_rows.py).

A mixin of PostgresStore: methods here use the store's `_read`, `_write` and its vector-index
helper. Rows leave in the neutral form (metadata as sorted JSON text, vectors as little-endian
float32 bytes, booleans as 0/1) and come back in with their keys; the identity sequences are moved
past the copied keys so later inserts never collide. Text keys are paged in byte order.

The HNSW index is built once after the load (``finish_import``) rather than kept up to date row by
row: building it over a full table is much faster than maintaining it during the load (figures in
benchmarks/results/backends.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from mnemo.store.postgres_rows import bump_seq, know_vector_arrays, tombstone
from mnemo.store.postgres_schema import ADVISORY_LOCK, vector_index_ddl, vector_index_name
from mnemo.store.transfer_rows import ITEMS, Row, TableSpec, spec

_C = 'COLLATE "C"'
_ITEM_COLUMNS = ITEMS.columns[1:-2]  # what the items table stores beside its key and vector
_ITEM_SELECT = ", ".join(
    ["rowid", *("metadata::text" if c == "metadata" else c for c in _ITEM_COLUMNS), "vector_key", "embedding"]
)
#: Columns stored as BOOLEAN here and as 0/1 in the neutral form (and in SQLite).
_BOOLEANS = {"facts": "hedged", "sessions": "is_fork"}
#: Tables whose integer key is an identity column, and whether it is GENERATED ALWAYS.
_IDENTITIES = {"items": ("rowid", False), "category_history": ("id", True)}
#: maintenance_work_mem for the one HNSW build after a load (this transaction only).
INDEX_BUILD_MEMORY = "2GB"
_TEXT_KEYED = frozenset({"sessions", "sources", "subcategories"})
_FLOATS = frozenset({"ts", "ingested_at"})
#: A page of items in one statement, each column one array and the vectors one binary vector[]:
#: row by row, the server parses, plans and executes once per item (537 items/s on a 1M load).
_ITEM_NAMES = ", ".join(_ITEM_COLUMNS)
_ITEM_ARRAYS = ", ".join(f"%({c})s::{'float8' if c in _FLOATS else 'text'}[]" for c in _ITEM_COLUMNS)
_ITEM_VALUES = ", ".join("r.metadata::jsonb" if c == "metadata" else f"r.{c}" for c in _ITEM_COLUMNS)
_ITEM_UPDATES = ", ".join(f"{c} = excluded.{c}" for c in (*_ITEM_COLUMNS, "seq", "vector_key", "embedding"))
_IMPORT_ITEMS = (
    f"INSERT INTO items (rowid, {_ITEM_NAMES}, seq, vector_key, embedding) "
    f"SELECT r.key, {_ITEM_VALUES}, %(seq)s::bigint, r.vector_key, r.embedding "
    f"FROM unnest(%(key)s::bigint[], {_ITEM_ARRAYS}, %(vector_key)s::text[], %(embedding)b::vector[]) "
    f"AS r(key, {_ITEM_NAMES}, vector_key, embedding) ON CONFLICT (rowid) DO UPDATE SET {_ITEM_UPDATES}"
)


class PgTransfer:
    """Mixed into PostgresStore; see the module docstring."""

    _read: Any
    _write: Any
    _dims_lock: Any
    _indexed_dims: set[int]

    def export_rows(self, table: str, after: Any, limit: int) -> list[Row]:
        table_spec = spec(table)
        if table_spec is ITEMS:
            where = "WHERE rowid > %s" if after is not None else ""
            sql = f"SELECT {_ITEM_SELECT} FROM items {where} ORDER BY rowid LIMIT %s"
        else:
            key = _column(table_spec, table_spec.key)
            collate = _C if table in _TEXT_KEYED else ""
            where = f"WHERE {key} {collate} > %s" if after is not None else ""
            columns = ", ".join(_column(table_spec, c) for c in table_spec.columns)
            sql = f"SELECT {columns} FROM {table} {where} ORDER BY {key} {collate} LIMIT %s"
        params = [after, limit] if after is not None else [limit]
        return [_as_row(table_spec, row) for row in self._read(sql, params, binary=table_spec is ITEMS)]

    def count_rows(self, table: str) -> int:
        return int(self._read(f"SELECT count(*) FROM {spec(table).name}")[0][0])

    def replace_rows(self, table: str, after: Any, upto: Any, rows: Sequence[Row]) -> None:
        """Make the keys in (``after``, ``upto``] hold exactly ``rows``, in one transaction.

        ``after`` None means from the first key, ``upto`` None means to the last: rows of the
        range the source no longer has are deleted (items with a tombstone), the others upserted.
        Idempotent, so a dropped connection is retried.
        """
        table_spec = spec(table)
        self._write(lambda conn: _replace(conn, table_spec, after, upto, rows), f"copying {table}")

    def finish_import(self) -> None:
        """Build the HNSW index of every vector dimension the copied items have, then ANALYZE.

        The build gets ``INDEX_BUILD_MEMORY`` for this transaction only: pgvector builds the graph
        in memory and slows down many times once it no longer fits (1M × 384-d needs about 2 GB).
        """
        rows = self._read("SELECT DISTINCT vector_dims(embedding) FROM items WHERE embedding IS NOT NULL")
        for dim in sorted(int(r[0]) for r in rows):

            def build(conn: Any, dim: int = dim) -> None:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))
                if conn.execute("SELECT to_regclass(%s)", (vector_index_name(dim),)).fetchone()[0] is None:
                    conn.execute(f"SET LOCAL maintenance_work_mem = '{INDEX_BUILD_MEMORY}'")
                    conn.execute(vector_index_ddl(dim))

            self._write(build, "building the vector index")
            with self._dims_lock:
                self._indexed_dims.add(dim)
        self._write(lambda conn: conn.execute("ANALYZE items"), "analysing the copied items")


def _replace(conn: Any, table_spec: TableSpec, after: Any, upto: Any, rows: Sequence[Row]) -> None:
    table = table_spec.name
    key = _column(table_spec, table_spec.key)
    collate = _C if table in _TEXT_KEYED else ""
    parts, params = ["TRUE"], []
    if after is not None:
        parts.append(f"{key} {collate} > %s")
        params.append(after)
    if upto is not None:
        parts.append(f"{key} {collate} <= %s")
        params.append(upto)
    keep = [row[table_spec.key] for row in rows]
    array = "text[]" if table in _TEXT_KEYED else "bigint[]"
    bounds = " AND ".join(parts)
    if table_spec is ITEMS:
        _import_items(conn, rows, bounds, params)
        return
    conn.execute(f"DELETE FROM {table} WHERE {bounds} AND NOT ({key} = ANY(%s::{array}))", [*params, keep])
    if table == "subcategories" and rows:  # the same name under another id would break uniqueness
        conn.execute(
            "DELETE FROM subcategories s USING unnest(%s::text[], %s::text[], %s::text[], %s::text[]) "
            "AS n(u, c, name, id) WHERE s.user_id = n.u AND s.category = n.c AND s.name = n.name AND s.id <> n.id",
            [[r[c] for r in rows] for c in ("user_id", "category", "name", "id")],
        )
    if rows:
        _import_plain(conn, table_spec, rows)


def _import_items(conn: Any, rows: Sequence[Row], bounds: str, params: list[Any]) -> None:
    seq = bump_seq(conn)
    keys = [row["key"] for row in rows]
    gone = conn.execute(
        f"DELETE FROM items WHERE {bounds} AND NOT (rowid = ANY(%s::bigint[])) RETURNING rowid", [*params, keys]
    ).fetchall()
    # the same owner and id under another key (deleted and re-added in the source) goes first,
    # so the upsert below cannot trip over the (owner, id) uniqueness
    clashes = conn.execute(
        "DELETE FROM items i USING unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::bigint[]) "
        "AS n(u, a, p, id, k) WHERE i.user_id = n.u AND i.agent_id = n.a AND i.project = n.p AND i.id = n.id "
        "AND i.rowid <> n.k RETURNING i.rowid",
        [[r[c] for r in rows] for c in ("user_id", "agent_id", "project", "id", "key")],
    ).fetchall()
    tombstone(conn, [r[0] for r in (*gone, *clashes)], seq)
    if not rows:
        return
    conn.execute("DELETE FROM tombstones WHERE item_rowid = ANY(%s::bigint[])", [keys])  # keys in use again
    know_vector_arrays(conn)
    columns: dict[str, list[Any]] = {c: [row[c] for row in rows] for c in _ITEM_COLUMNS}
    vectors = [None if row["embedding"] is None else np.frombuffer(row["embedding"], dtype="<f4") for row in rows]
    conn.execute(
        _IMPORT_ITEMS,
        {**columns, "key": keys, "vector_key": [row["vector_key"] for row in rows], "embedding": vectors, "seq": seq},
    )
    _advance_identity(conn, "items")


def _import_plain(conn: Any, table_spec: TableSpec, rows: Sequence[Row]) -> None:
    table = table_spec.name
    columns = [_column(table_spec, c) for c in table_spec.columns]
    key = columns[0]
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns[1:])
    overriding = "OVERRIDING SYSTEM VALUE" if _IDENTITIES.get(table, ("", False))[1] else ""
    flag = _BOOLEANS.get(table)
    conn.cursor().executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) {overriding} VALUES ({', '.join('%s' for _ in columns)}) "
        f"ON CONFLICT ({key}) DO UPDATE SET {updates}",
        [[bool(row[c]) if c == flag else row[c] for c in table_spec.columns] for row in rows],
    )
    if table in _IDENTITIES:
        _advance_identity(conn, table)


def _advance_identity(conn: Any, table: str) -> None:
    column = _IDENTITIES[table][0]
    conn.execute(
        f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
        f"greatest((SELECT max({column}) FROM {table}), 1))"
    )


def _column(table_spec: TableSpec, column: str) -> str:
    if column == "key":
        return "item_rowid" if table_spec.name == "facts" else "rowid"
    return '"offset"' if column == "offset" else column


def _as_row(table_spec: TableSpec, values: Sequence[Any]) -> Row:
    row = dict(zip(table_spec.columns, values, strict=True))
    flag = _BOOLEANS.get(table_spec.name)
    if flag is not None:
        row[flag] = int(bool(row[flag]))
    if table_spec is ITEMS:
        # the same JSON text the SQLite store writes, so a copy back compares equal on re-import
        row["metadata"] = json.dumps(json.loads(row["metadata"]), sort_keys=True, ensure_ascii=False, default=str)
        if row["embedding"] is not None:
            row["embedding"] = np.asarray(row["embedding"], dtype="<f4").tobytes()
    if table_spec.name == "subcategories" and row["centroid"] is not None:
        row["centroid"] = bytes(row["centroid"])
    return row
