"""Row-level statements of the SQLite store: connecting, upserting, converting rows to records.

Module-level functions over a connection, kept apart from ``sqlite.py`` (the store's public
operations) so each file stays one job.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mnemo.errors import ConfigError, StoreError
from mnemo.records import OWNER_FIELDS, Item, Scope
from mnemo.store.base import Embedding, WriteOutcome
from mnemo.store.sql import placeholders
from mnemo.timeutil import from_epoch, to_epoch

#: Columns compared to decide whether a re-added item really changed.
MUTABLE_COLUMNS = ("session_id", "task_id", "content", "kind", "role", "source", "ts", "metadata", "content_hash")
#: Columns derived from the content (category, subcategory): written with the item, but a re-add
#: that changes only them is not an update, so a later re-evolve is not undone by re-importing.
DERIVED_COLUMNS = ("category", "subcategory")


def connect(path: str, busy_timeout_ms: int) -> sqlite3.Connection:
    if path != ":memory:":
        _create_private(Path(path).expanduser())
    try:
        conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        # deleted rows are overwritten with zeros, so a forgotten memory leaves no bytes in the file
        conn.execute("PRAGMA secure_delete = ON")
        if path != ":memory:":
            conn.execute("PRAGMA journal_mode = WAL")
        # NORMAL is durable across application crashes in WAL mode; only power loss can drop
        # the last commits, and never corrupts the file.
        conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the store at {path}: {exc}") from exc
    return conn


def _create_private(path: Path) -> None:
    """Create a new store's directory (0700) and file (0600) before SQLite does.

    SQLite gives the -wal and -shm files the database file's permissions, so they are owner-only
    too. An existing file keeps the permissions its owner chose.
    """
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise StoreError(f"cannot create the store at {path}: {exc}") from exc


def claim_model(conn: sqlite3.Connection, model: str) -> None:
    row = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    if row is None:
        conn.execute("INSERT INTO meta (key, value) VALUES ('embedder', ?)", (model,))
    elif row[0] != model:
        raise ConfigError(
            f"this store's vectors were made by '{row[0]}', not '{model}'; "
            "open it with that embedder, or re-embed it with `mnemo reindex`"
        )


def bump_seq(conn: sqlite3.Connection) -> int:
    row = conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'seq' RETURNING value")
    return int(row.fetchone()[0])


def owner_values(scope: Scope) -> list[str]:
    return [getattr(scope, name) or "" for name in OWNER_FIELDS]


def row_values(item: Item) -> dict[str, Any]:
    return {
        "session_id": item.scope.session_id,
        "task_id": item.scope.task_id,
        "content": item.content,
        "kind": item.kind,
        "role": item.role,
        "source": item.source,
        "ts": to_epoch(item.timestamp),
        "metadata": json.dumps(dict(item.metadata), sort_keys=True, ensure_ascii=False, default=str),
        "content_hash": item.content_hash,
    }


def upsert(
    conn: sqlite3.Connection, item: Item, vector: Embedding | None, seq: int, stamp: float | None
) -> WriteOutcome:
    owner = owner_values(item.scope)
    values = row_values(item)
    key = None if vector is None else vector.key
    existing = conn.execute(
        f"SELECT rowid, {', '.join(MUTABLE_COLUMNS)}, (SELECT vector_key FROM vectors WHERE item_rowid = items.rowid) "
        "FROM items WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ?",
        [*owner, item.id],
    ).fetchone()
    if existing is None:
        columns = ["id", *OWNER_FIELDS, *values, "ingested_at", "seq", *DERIVED_COLUMNS]
        rowid = conn.execute(
            f"INSERT INTO items ({', '.join(columns)}) VALUES ({placeholders(len(columns))}) RETURNING rowid",
            [item.id, *owner, *values.values(), stamp, seq, item.category, item.subcategory],
        ).fetchone()[0]
        put_vector(conn, rowid, vector)
        return WriteOutcome(item.id, "added")
    rowid, *old, old_key = existing
    if list(old) == list(values.values()) and (old_key == key or key is None):
        return WriteOutcome(item.id, "unchanged")
    assignments = ", ".join(f"{name} = ?" for name in (*values, *DERIVED_COLUMNS))
    conn.execute(
        f"UPDATE items SET {assignments}, seq = ? WHERE rowid = ?",
        [*values.values(), item.category, item.subcategory, seq, rowid],
    )
    if key != old_key:
        put_vector(conn, rowid, vector)
    return WriteOutcome(item.id, "updated")


def put_vector(conn: sqlite3.Connection, rowid: int, vector: Embedding | None) -> None:
    if vector is None:
        conn.execute("DELETE FROM vectors WHERE item_rowid = ?", (rowid,))
        return
    blob = np.asarray(vector.values, dtype=np.float32).tobytes()
    conn.execute(
        "INSERT OR REPLACE INTO vectors (item_rowid, vector_key, embedding) VALUES (?, ?, ?)",
        (rowid, vector.key, blob),
    )


def to_item(row: tuple[Any, ...]) -> Item:
    (
        _,
        item_id,
        user_id,
        agent_id,
        project,
        session_id,
        task_id,
        content,
        kind,
        role,
        source,
        ts,
        ingested_at,
        metadata,
        content_hash,
    ) = row[:15]
    # derived columns (migration 0004) follow the item's own; a shorter row reads as unclassified
    category, subcategory = (*row[15:17], None, None)[:2]
    return Item(
        id=item_id,
        content=content,
        kind=kind,
        role=role,
        source=source,
        scope=Scope(
            user_id=user_id or None,
            agent_id=agent_id or None,
            session_id=session_id,
            project=project or None,
            task_id=task_id,
        ),
        timestamp=from_epoch(ts),
        ingested_at=from_epoch(ingested_at),
        metadata=json.loads(metadata) if metadata else {},
        content_hash=content_hash,
        category=category,
        subcategory=subcategory,
    )


def unpack(rows: list[tuple[int, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    keys = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    return keys, vectors


def create_stem_scratch(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.stem_scratch USING fts5 "
        "(text, tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.stem_vocab USING fts5vocab (temp, stem_scratch, 'instance')")


def stems(conn: sqlite3.Connection, terms: Sequence[str]) -> dict[str, list[str]]:
    """Each term as FTS5's own tokenizer indexes it (porter stem), via a scratch temp table."""
    conn.executemany("INSERT INTO temp.stem_scratch (rowid, text) VALUES (?, ?)", list(enumerate(terms, start=1)))
    stems: dict[str, list[str]] = {}
    for stem, doc in conn.execute("SELECT term, doc FROM temp.stem_vocab"):
        stems.setdefault(terms[doc - 1], []).append(stem)
    return stems
