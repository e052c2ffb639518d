"""Bulk writes into PostgreSQL: the HNSW index built once after a large import instead of row by row.

Keeping a pgvector HNSW index up to date costs milliseconds per inserted vector (a graph search and
WAL-logged updates of the neighbours' pages); building it over the whole table costs about an
eighth of that per vector (benchmarks/results/pg_write.md). So within a bulk session
(``PostgresStore.bulk_writes()``, which ``Memory.add_many`` enters) the store drops the index of a
dimension once the session has written enough items, writes the rest without it, and builds it
again when the session ends, errors included.

"Enough" bounds the worst case: the index is dropped only once the session's items reach
``BULK_MIN_ITEMS`` and a quarter (``1 / BULK_STORE_RATIO``) of what the store held when the session
began, so the one rebuild costs at most ``(BULK_STORE_RATIO + 1) · build`` per written item, still
less than inserting them. A small ``add_many`` into a big store never drops the index.

Nothing is lost meanwhile: every batch is committed as it is written, and a search while the index
is absent, in this or any process, compares the query with every vector (exact, slower). A process
that dies mid-session leaves the index absent; the next write of any process recreates it, and
``mnemo doctor`` reports and repairs it. Dropping waits at most ``DROP_LOCK_TIMEOUT`` for other
transactions on the items table; if they hold it longer, the session keeps the index and inserts.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mnemo.store.postgres_errors import store_error, with_retry
from mnemo.store.postgres_schema import ADVISORY_LOCK, vector_index_ddl, vector_index_name

#: A session drops an index only once it has written this many items (one full batch).
BULK_MIN_ITEMS = 1000
#: ... and only once it has written at least 1/ratio of the items the store held at its start.
BULK_STORE_RATIO = 4
DROP_LOCK_TIMEOUT = "2s"
#: maintenance_work_mem for the rebuild (this transaction only): pgvector builds the graph in memory.
BUILD_MEMORY = "1GB"


class PgBulk:
    """Mixed into PostgresStore: ``bulk_writes`` and the deferral ``write`` consults."""

    _pool: Any
    _read: Any
    _write: Any
    _dims_lock: threading.Lock
    _indexed_dims: set[int]

    def _init_bulk(self) -> None:
        self._bulk_lock = threading.Lock()
        self._bulk_depth = 0
        self._bulk_written = 0
        self._bulk_base: int | None = None
        self._deferred_dims: set[int] = set()

    @contextmanager
    def bulk_writes(self) -> Iterator[None]:
        """A session of many writes (sessions may nest or overlap across threads: the outermost
        end rebuilds what any of them deferred)."""
        with self._bulk_lock:
            self._bulk_depth += 1
            if self._bulk_depth == 1:
                self._bulk_written, self._bulk_base = 0, None
        try:
            yield
        finally:
            with self._bulk_lock:
                self._bulk_depth -= 1
                dims = sorted(self._deferred_dims) if self._bulk_depth == 0 else []
                if self._bulk_depth == 0:
                    self._deferred_dims.clear()
            for dim in dims:
                self._build_vector_index(dim)

    def deferred_dims(self) -> frozenset[int]:
        """Vector dimensions whose index this process has dropped until its bulk session ends."""
        with self._bulk_lock:
            return frozenset(self._deferred_dims)

    def _defer_indexes(self, dims: set[int], count: int) -> None:
        """Called by ``write`` before a batch of ``count`` items: drop the indexes of ``dims`` when
        the session has grown large enough (see the module docstring)."""
        with self._bulk_lock:
            if self._bulk_depth == 0:
                return
            self._bulk_written += count
            written, base, todo = self._bulk_written, self._bulk_base, dims - self._deferred_dims
        if not todo or written < BULK_MIN_ITEMS:
            return
        if base is None:
            base = int(self._read("SELECT docs FROM item_stats")[0][0]) - (written - count)
            with self._bulk_lock:
                self._bulk_base = base
        if written * BULK_STORE_RATIO < base:
            return
        for dim in sorted(todo):
            if self._drop_vector_index(dim):
                with self._bulk_lock:
                    self._deferred_dims.add(dim)
                with self._dims_lock:
                    self._indexed_dims.discard(dim)

    def _drop_vector_index(self, dim: int) -> bool:
        """Drop one dimension's index; False if other transactions hold the table too long."""
        import psycopg

        try:
            with self._pool.connection() as conn:
                conn.execute(f"SET LOCAL lock_timeout = '{DROP_LOCK_TIMEOUT}'")
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))
                conn.execute(f"DROP INDEX IF EXISTS {vector_index_name(dim)}")
        except psycopg.errors.LockNotAvailable:
            return False
        except psycopg.Error as exc:
            raise store_error(exc, "dropping the vector index for a bulk write") from exc
        return True

    def _build_vector_index(self, dim: int) -> None:
        def run() -> None:
            with self._pool.connection() as conn:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))
                if conn.execute("SELECT to_regclass(%s)", (vector_index_name(dim),)).fetchone()[0] is None:
                    conn.execute(f"SET LOCAL maintenance_work_mem = '{BUILD_MEMORY}'")
                    conn.execute(vector_index_ddl(dim))

        with_retry(run, "building the vector index after a bulk write")
        with self._dims_lock:
            self._indexed_dims.add(dim)
