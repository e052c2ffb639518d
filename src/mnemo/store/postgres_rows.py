"""Row-level statements of the PostgreSQL store: the sequence, the model claim, batched upserts.

Functions over a psycopg connection inside a transaction (the caller's ``with`` block). Every
writing transaction bumps the sequence first: that row lock orders writers, so the pre-read of a
batch below cannot go stale before its upsert and sequence numbers commit in order (which the
vector catch-up of readers relies on). ``INSERT … ON CONFLICT`` still guards the unique key.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from mnemo.errors import ConfigError
from mnemo.records import OWNER_FIELDS, Item
from mnemo.store.base import Embedding, WriteOutcome
from mnemo.store.sqlite_rows import DERIVED_COLUMNS, MUTABLE_COLUMNS, owner_values, row_values

#: The columns ``sqlite_rows.to_item`` reads, in its order (metadata as JSON text).
ITEM_COLUMNS = (
    "items.rowid, items.id, items.user_id, items.agent_id, items.project, items.session_id, items.task_id, "
    "items.content, items.kind, items.role, items.source, items.ts, items.ingested_at, items.metadata::text, "
    "items.content_hash, items.category, items.subcategory"
)
_OWNER_KEY = "(user_id, agent_id, project, id)"
_EXISTING = (
    f"SELECT user_id, agent_id, project, id, {', '.join(MUTABLE_COLUMNS[:-2])}, metadata::text, content_hash, "
    f"vector_key FROM items WHERE {_OWNER_KEY} IN "
    "(SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[]))"
)
_INSERT_COLUMNS = ("id", *OWNER_FIELDS, *MUTABLE_COLUMNS, "ingested_at", "seq", *DERIVED_COLUMNS, "vector_key")
_UPDATED = (*MUTABLE_COLUMNS, "seq", *DERIVED_COLUMNS, "vector_key", "embedding")
#: Per-row columns of the batch upsert, each sent as one array (the batch's stamp and sequence
#: number are single parameters); metadata travels as text and becomes JSONB in the statement.
_ARRAY_COLUMNS = tuple(c for c in _INSERT_COLUMNS if c not in ("ingested_at", "seq"))
_SELECTED = {"metadata": "r.metadata::jsonb", "ingested_at": "%(stamp)s::float8", "seq": "%(seq)s::bigint"}
_ARRAYS = ", ".join(f"%({c})s::{'float8' if c == 'ts' else 'text'}[]" for c in _ARRAY_COLUMNS)
#: One statement for the whole batch: a row-by-row INSERT costs a server round of parse, plan and
#: execute per item (measured twice the time of this one on 1,000 items). The vectors travel as one
#: binary vector[] array, each in the row it belongs to.
UPSERT = (
    f"INSERT INTO items ({', '.join(_INSERT_COLUMNS)}, embedding) "
    f"SELECT {', '.join(_SELECTED.get(c, f'r.{c}') for c in _INSERT_COLUMNS)}, r.embedding "
    f"FROM unnest({_ARRAYS}, %(embedding)b::vector[]) AS r({', '.join(_ARRAY_COLUMNS)}, embedding) "
    f"ON CONFLICT {_OWNER_KEY} DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _UPDATED)}"
)


def bump_seq(conn: Any) -> int:
    row = conn.execute("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'seq' RETURNING value")
    return int(row.fetchone()[0])


def claim_model(conn: Any, model: str) -> None:
    row = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    if row is None:
        conn.execute("INSERT INTO meta (key, value) VALUES ('embedder', %s)", (model,))
    elif row[0] != model:
        raise ConfigError(
            f"this store's vectors were made by '{row[0]}', not '{model}'; "
            "open it with that embedder, or re-embed it with `mnemo reindex`"
        )


def _comparable(values: Sequence[Any]) -> tuple[Any, ...]:
    """Mutable column values in a form where stored and new compare equal when unchanged
    (JSONB normalises key order and spacing, so metadata compares as parsed JSON)."""
    *plain, metadata, content_hash = values
    return (*plain, json.loads(metadata) if metadata else {}, content_hash)


def upsert_batch(
    conn: Any, items: Sequence[Item], vectors: Sequence[Embedding | None], seq: int, stamp: float
) -> list[WriteOutcome]:
    """Insert or update a batch with SQLite's outcomes: an item is unchanged when its columns and
    vector key are (a missing vector never deletes one); a repeated id within the batch is
    judged against its earlier occurrence, and the last occurrence is what gets stored."""
    owners = [owner_values(item.scope) for item in items]
    columns = [[o[i] for o in owners] for i in range(len(OWNER_FIELDS))]
    state: dict[tuple[str, ...], tuple[tuple[Any, ...], str | None]] = {
        tuple(row[:4]): (_comparable(row[4:-1]), row[-1])
        for row in conn.execute(_EXISTING, [*columns, [item.id for item in items]]).fetchall()
    }
    outcomes: list[WriteOutcome] = []
    final: dict[tuple[str, ...], tuple[Item, Embedding | None]] = {}
    for item, vector, owner in zip(items, vectors, owners, strict=True):
        key = (*owner, item.id)
        values = _comparable(list(row_values(item).values()))
        vector_key = None if vector is None else vector.key
        known = state.get(key)
        if known is not None and known[0] == values and (vector_key is None or known[1] == vector_key):
            outcomes.append(WriteOutcome(item.id, "unchanged"))
            continue
        outcomes.append(WriteOutcome(item.id, "added" if known is None else "updated"))
        state[key] = (values, vector_key)
        final[key] = (item, vector)
    if final:
        know_vector_arrays(conn)
        conn.execute(UPSERT, _params(list(final.values()), seq, stamp))
    return outcomes


def know_vector_arrays(conn: Any) -> None:
    """Teach the connection pgvector's array type, so a list of vectors is sent as one vector[]."""
    if conn.adapters.types.get("vector") is None:
        from psycopg.types import TypeInfo

        info = TypeInfo.fetch(conn, "vector")
        if info is None:
            raise ConfigError("the pgvector extension is missing from this database: CREATE EXTENSION vector;")
        info.register(conn)


def _params(rows: Sequence[tuple[Item, Embedding | None]], seq: int, stamp: float) -> dict[str, Any]:
    """The batch column by column (the arrays UPSERT unnests)."""
    columns: dict[str, list[Any]] = {name: [] for name in (*_ARRAY_COLUMNS, "embedding")}
    for item, vector in rows:
        values = {
            "id": item.id,
            **dict(zip(OWNER_FIELDS, owner_values(item.scope), strict=True)),
            **row_values(item),
            "category": item.category,
            "subcategory": item.subcategory,
            "vector_key": None if vector is None else vector.key,
            "embedding": None if vector is None else np.asarray(vector.values, dtype=np.float32),
        }
        for name, column in columns.items():
            column.append(values[name])
    return {**columns, "seq": seq, "stamp": stamp}


def tombstone(conn: Any, keys: Sequence[int], seq: int) -> None:
    """Record deleted keys, so vector indexes and copies elsewhere catch up without a rebuild."""
    if keys:
        conn.execute(
            "INSERT INTO tombstones (item_rowid, seq) SELECT unnest(%s::bigint[]), %s "
            "ON CONFLICT (item_rowid) DO UPDATE SET seq = excluded.seq",
            (list(keys), seq),
        )
        count_deletes_at_commit(conn)


def count_deletes_at_commit(conn: Any) -> None:
    """Have the server's statistics count this transaction's deleted rows as it commits.

    A session adds its row counts to the statistics at most once a second, so without this a
    delete could be counted after the VACUUM of the hard forget that follows it; the dead-row
    count VACUUM leaves (0) would then go back up by the deleted rows and ``mnemo doctor`` would
    report rows that are no longer there. The function exists from PostgreSQL 15 on.
    """
    if conn.info.server_version >= 150000:
        conn.execute("SELECT pg_stat_force_next_flush()")
