"""The embedded default store: one SQLite file in WAL mode, FTS5 for words, vectors in the rows."""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from mnemo.errors import StoreError
from mnemo.records import Item, Scope, SearchFilter
from mnemo.store.base import Embedding, Traits, WriteOutcome
from mnemo.store.migrations import apply_migrations
from mnemo.store.sql import placeholders, where_clause
from mnemo.store.sqlite_categories import SQLiteCategories
from mnemo.store.sqlite_facts import SQLiteFacts
from mnemo.store.sqlite_lexical import SQLiteLexical
from mnemo.store.sqlite_rows import (
    bump_seq,
    claim_model,
    connect,
    owner_values,
    put_vector,
    to_item,
    unpack,
    upsert,
)
from mnemo.store.sqlite_session_search import SQLiteSessionSearch
from mnemo.store.sqlite_sources import SQLiteSources
from mnemo.store.sqlite_transfer import SQLiteTransfer
from mnemo.timeutil import now_utc, to_epoch

_COLUMNS = (
    "rowid, id, user_id, agent_id, project, session_id, task_id, content, kind, role, source, "
    "ts, ingested_at, metadata, content_hash, category, subcategory"
)
_CHUNK = 500  # SQLite's default limit on bound parameters is generous, but keep IN lists modest
#: Filters whose allowed-key lists are kept up to date in memory (about 8 bytes per key).
ALLOWED_CACHE_SIZE = 16


class SQLiteStore(SQLiteLexical, SQLiteSources, SQLiteSessionSearch, SQLiteFacts, SQLiteCategories, SQLiteTransfer):
    """A thread-safe store over one SQLite connection; writers elsewhere are serialised by SQLite."""

    def __init__(self, path: str, *, busy_timeout_ms: int = 10_000) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._conn = connect(path, busy_timeout_ms)
        self._df_cache: dict[str, int] = {}
        self._df_cache_size = 0
        self._scratch_ready = False
        self._allowed_cache: OrderedDict[SearchFilter, tuple[int, np.ndarray]] = OrderedDict()
        try:
            apply_migrations(self._conn)
            self.store_id = self._ensure_store_id()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(f"cannot prepare the store at {path}: {exc}") from exc

    def _ensure_store_id(self) -> str:
        """A random id minted once per store, naming files derived from it (vector indexes)."""
        return str(self._conn.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()[0])

    # -- writing ---------------------------------------------------------------------------

    def write(
        self, items: Sequence[Item], vectors: Sequence[Embedding | None], model: str | None = None
    ) -> list[WriteOutcome]:
        """Insert or update items in one transaction; unchanged items are left untouched.

        ``model`` names the embedder of ``vectors``; it is recorded by the first write and checked
        by every later one inside the same transaction, so two processes with different models
        cannot mix their vectors in one store.
        """
        outcomes: list[WriteOutcome] = []
        with self._transaction() as conn:
            if model is not None:
                claim_model(conn, model)
            seq = bump_seq(conn)
            stamp = to_epoch(now_utc())
            for item, vector in zip(items, vectors, strict=True):
                outcomes.append(upsert(conn, item, vector, seq, stamp))
        return outcomes

    def write_vectors(self, pairs: Sequence[tuple[Item, Embedding]]) -> None:
        """Replace the vectors of existing items (re-embedding with another model)."""
        with self._transaction() as conn:
            seq = bump_seq(conn)
            for item, vector in pairs:
                row = conn.execute(
                    "UPDATE items SET seq = ? WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ? "
                    "RETURNING rowid",
                    (seq, *owner_values(item.scope), item.id),
                ).fetchone()
                if row is not None:
                    put_vector(conn, row[0], vector)

    def delete(self, item_id: str, scope: Scope) -> int:
        flt = SearchFilter(scope=scope)
        where, params = where_clause(flt)
        with self._transaction() as conn:
            rows = conn.execute(f"SELECT rowid FROM items WHERE id = ? AND {where}", [item_id, *params]).fetchall()
            if not rows:
                return 0
            seq = bump_seq(conn)
            keys = [row[0] for row in rows]
            conn.executemany("DELETE FROM items WHERE rowid = ?", [(k,) for k in keys])
            conn.executemany(
                "INSERT OR REPLACE INTO tombstones (item_rowid, seq) VALUES (?, ?)", [(k, seq) for k in keys]
            )
        return len(keys)

    def scrub(self) -> None:
        """Leave no copy of deleted rows' text: merge the full-text index (its segments still hold
        deleted terms until merged), then checkpoint and truncate the WAL (it holds old page
        images). ``secure_delete`` (see ``connect``) zeroes the freed pages. A checkpoint that
        readers block is retried by SQLite's next automatic one."""
        with self._transaction() as conn:
            conn.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")
        with self._lock:
            self._df_cache, self._df_cache_size = {}, 0
            self._allowed_cache.clear()
            # TRUNCATE waits for readers through the busy handler: bounded here, so a forget under
            # load never stalls for the full busy timeout (a busy WAL is truncated by a later one)
            timeout = self._conn.execute("PRAGMA busy_timeout").fetchone()[0]
            try:
                self._conn.execute("PRAGMA busy_timeout = 500")
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"cannot checkpoint {self.path}: {exc}") from exc
            finally:
                self._conn.execute(f"PRAGMA busy_timeout = {int(timeout)}")

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # -- reading ---------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0][0] if row else None

    def sequence(self) -> int:
        return int(self.get_meta("seq") or 0)

    def cached_vectors(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Vectors already computed for an identical text, so no text is embedded twice."""
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        for start in range(0, len(unique), _CHUNK):
            chunk = unique[start : start + _CHUNK]
            rows = self._read(
                f"SELECT vector_key, embedding FROM vectors WHERE vector_key IN ({placeholders(len(chunk))})",
                chunk,
            )
            for digest, blob in rows:
                found.setdefault(digest, np.frombuffer(blob, dtype=np.float32))
        return found

    def get(self, item_id: str, scope: Scope) -> Item | None:
        where, params = where_clause(SearchFilter(scope=scope))
        rows = self._read(
            f"SELECT {_COLUMNS} FROM items WHERE id = ? AND {where} ORDER BY ingested_at DESC LIMIT 1",
            [item_id, *params],
        )
        return to_item(rows[0]) if rows else None

    def allowed_keys(self, flt: SearchFilter) -> np.ndarray | None:
        """Row keys a filtered vector search may return (sorted); None when the filter allows all.

        A scope with many items costs tens of milliseconds to list at a million rows, and the
        same user searches again and again; so the list is kept per filter and brought up to
        date from the rows changed since (the sequence-number index), like the vector index.
        """
        where, params = where_clause(flt)
        if where == "1":
            return None
        with self._lock:
            latest = self.sequence()
            cached = self._allowed_cache.pop(flt, None)
            if cached is None:
                # a session holds a few dozen rows; without statistics the planner would walk the
                # kind index instead (every message of the store: 6 ms at 40k items)
                hint = " INDEXED BY items_by_session" if flt.scope.session_id is not None else ""
                rows = self._read(f"SELECT rowid FROM items{hint} WHERE {where}", params)
                # sorted here, not by SQL: an index range (a time window) comes out in time order,
                # and SQLite's sort of 50k keys cost three times the scan
                keys = np.sort(np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)))
            elif cached[0] == latest:
                keys = cached[1]
            else:
                keys = self._update_allowed(cached, where, params)
            self._allowed_cache[flt] = (latest, keys)
            while len(self._allowed_cache) > ALLOWED_CACHE_SIZE:
                self._allowed_cache.popitem(last=False)
            return keys

    def _update_allowed(self, cached: tuple[int, np.ndarray], where: str, params: list[Any]) -> np.ndarray:
        since, keys = cached
        changed = self._read(f"SELECT rowid, ({where}) FROM items WHERE seq > ?", [*params, since])
        gone = [r[0] for r in self._read("SELECT item_rowid FROM tombstones WHERE seq > ?", (since,))]
        entered = np.array(sorted(k for k, passes in changed if passes), dtype=np.int64)
        left = np.array(sorted({k for k, passes in changed if not passes} | set(gone)), dtype=np.int64)
        return np.union1d(np.setdiff1d(keys, left, assume_unique=True), entered)

    def fetch(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, Item]:
        """Items for the given row keys that also pass the filter (the scope is checked again here)."""
        return {row[0]: to_item(row) for row in self._rows_for_keys(_COLUMNS, keys, flt)}

    def times(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, float | None]:
        """Event times (epoch seconds) of the given keys that pass the filter; a light ``fetch``."""
        return {int(key): ts for key, ts in self._rows_for_keys("rowid, ts", keys, flt)}

    def traits(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, Traits]:
        """Time, role and session of the given keys that pass the filter: a ``fetch`` without the text."""
        rows = self._rows_for_keys("rowid, ts, role, session_id", keys, flt)
        return {int(key): Traits(ts, role, session) for key, ts, role, session in rows}

    def _rows_for_keys(self, columns: str, keys: Sequence[int], flt: SearchFilter) -> list[tuple[Any, ...]]:
        where, params = where_clause(flt)
        unique = list(dict.fromkeys(int(k) for k in keys))
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(unique), _CHUNK):
            chunk = unique[start : start + _CHUNK]
            # NOT INDEXED: without statistics the planner walks the scope's index (every row of a
            # user: 3 ms at 100k items, ten times that at 1M) instead of looking the keys up
            rows += self._read(
                f"SELECT {columns} FROM items NOT INDEXED WHERE rowid IN ({placeholders(len(chunk))}) AND {where}",
                [*chunk, *params],
            )
        return rows

    def vector_pages(self, since_seq: int, page: int = 20_000) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(keys, vectors) of items written after ``since_seq``, a page at a time to bound memory.

        Pages are separate reads: a row changed meanwhile carries a newer sequence number, so the
        caller, which read ``sequence()`` before paging, picks it up on its next refresh.
        """
        if since_seq <= 0:  # a full build walks the vectors table in key order, no join needed
            last = -1
            while rows := self._read(
                "SELECT item_rowid, embedding FROM vectors WHERE item_rowid > ? ORDER BY item_rowid LIMIT ?",
                (last, page),
            ):
                yield unpack(rows)
                last = rows[-1][0]
            return
        # catching up: the seq index finds the few changed items, then their vectors by key
        changed = [r[0] for r in self._read("SELECT rowid FROM items WHERE seq > ?", (since_seq,))]
        for start in range(0, len(changed), _CHUNK):
            chunk = changed[start : start + _CHUNK]
            rows = self._read(
                f"SELECT item_rowid, embedding FROM vectors WHERE item_rowid IN ({placeholders(len(chunk))})", chunk
            )
            if rows:
                yield unpack(rows)

    def removed_since(self, since_seq: int) -> np.ndarray:
        """Keys deleted, or left without a vector, after ``since_seq``."""
        rows = self._read(
            "SELECT item_rowid FROM tombstones WHERE seq > ? "
            "UNION SELECT rowid FROM items WHERE seq > ? "
            "AND NOT EXISTS (SELECT 1 FROM vectors WHERE vectors.item_rowid = items.rowid)",
            (since_seq, since_seq),
        )
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def iter_items(self, flt: SearchFilter) -> Iterator[Item]:
        """Every matching item in insertion order, read in pages so memory stays bounded."""
        where, params = where_clause(flt)
        last = 0
        while True:
            rows = self._read(
                f"SELECT {_COLUMNS} FROM items WHERE rowid > ? AND {where} ORDER BY rowid LIMIT 1000",
                [last, *params],
            )
            if not rows:
                return
            yield from (to_item(row) for row in rows)
            last = rows[-1][0]

    def newest(self, flt: SearchFilter, limit: int) -> list[Item]:
        """The newest matching items: by when they happened, else by when they were stored."""
        where, params = where_clause(flt)
        rows = self._read(
            f"SELECT {_COLUMNS} FROM items WHERE {where} ORDER BY coalesce(ts, ingested_at) DESC, rowid DESC LIMIT ?",
            [*params, limit],
        )
        return [to_item(row) for row in rows]

    def count(self, flt: SearchFilter) -> int:
        where, params = where_clause(flt)
        return int(self._read(f"SELECT count(*) FROM items WHERE {where}", params)[0][0])

    def exists(self, flt: SearchFilter) -> bool:
        """Whether anything matches: stops at the first row, where ``count`` reads every match."""
        where, params = where_clause(flt)
        return bool(self._read(f"SELECT 1 FROM items WHERE {where} LIMIT 1", params))

    def grouped_counts(self, column: str, flt: SearchFilter) -> dict[str, int]:
        if column not in {"kind", "role", "user_id", "agent_id", "project", "session_id", "source"}:
            raise ValueError(f"cannot group by {column!r}")
        where, params = where_clause(flt)
        rows = self._read(f"SELECT {column}, count(*) FROM items WHERE {where} GROUP BY {column}", params)
        return {str(key if key is not None else ""): int(n) for key, n in rows}

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- plumbing --------------------------------------------------------------------------

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"store read failed: {exc}") from exc

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot start a write on {self.path}: {exc}") from exc
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(f"store write failed and was rolled back: {exc}") from exc
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")
