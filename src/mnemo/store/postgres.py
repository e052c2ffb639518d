"""The scale-out store: PostgreSQL with pgvector, behind the same contract as the SQLite store.

Selected by a ``postgresql://`` or ``postgres://`` URL (store/factory.py). Connections come from a
psycopg_pool pool; each ``with self._pool.connection() as conn:`` block is one transaction. The
schema and its migrations are in postgres_schema.py, full-text ranking in postgres_lexical.py.
Besides SQLiteStore's methods it offers ``nearest`` (pgvector HNSW search with the scope filter in
the same statement), which Memory uses instead of an in-process vector index, and ``bulk_writes``
(postgres_bulk.py: a large import builds the HNSW index once at its end), which ``add_many`` enters.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from mnemo.errors import StoreError
from mnemo.records import Item, Scope, SearchFilter
from mnemo.store import postgres_vectors
from mnemo.store.base import Embedding, Traits, WriteOutcome
from mnemo.store.postgres_bulk import PgBulk
from mnemo.store.postgres_categories import PgCategories
from mnemo.store.postgres_errors import ATTEMPTS, connect_error, redact, require_psycopg, store_error, with_retry
from mnemo.store.postgres_facts import PgFacts
from mnemo.store.postgres_filters import pg_where
from mnemo.store.postgres_hybrid import PgHybrid
from mnemo.store.postgres_lexical import PgLexical
from mnemo.store.postgres_rows import ITEM_COLUMNS, bump_seq, claim_model, tombstone, upsert_batch
from mnemo.store.postgres_schema import (
    ADVISORY_LOCK,
    DEFAULT_TEXT_LANGUAGE,
    apply_migrations,
    vector_index_ddl,
    vector_index_name,
)
from mnemo.store.postgres_scrub import vacuum_after_delete
from mnemo.store.postgres_session_search import PgSessionSearch
from mnemo.store.postgres_sources import PgSources
from mnemo.store.postgres_transfer import PgTransfer
from mnemo.store.sqlite_rows import owner_values, to_item
from mnemo.timeutil import now_utc, to_epoch

T = TypeVar("T")
DEFAULT_POOL_SIZE = 8
#: Seconds to wait for a connection: at open (server down → a clear error) and from the pool.
CONNECT_TIMEOUT_S = 10
EF_SEARCH = postgres_vectors.EF_SEARCH
#: Tables a hard forget deletes text from: items (and their vectors), facts, the session-search vocabulary.
SCRUB_TABLES = ("items", "facts", "items_vocab", "items_vocab_delta")
_GROUPABLE = frozenset({"kind", "role", "user_id", "agent_id", "project", "session_id", "source"})


class PostgresStore(PgSources, PgSessionSearch, PgCategories, PgFacts, PgHybrid, PgLexical, PgTransfer, PgBulk):
    """A thread-safe store over a connection pool; any number of processes may share the database."""

    def __init__(
        self, url: str, *, pool_size: int = DEFAULT_POOL_SIZE, text_language: str | None = DEFAULT_TEXT_LANGUAGE
    ) -> None:
        psycopg = require_psycopg()
        from psycopg_pool import ConnectionPool

        self.path = url
        self._url = url
        self._indexed_dims: set[int] = set()
        self._dims_lock = threading.Lock()
        self._init_lexical()
        self._init_hybrid(url)
        self._init_bulk()
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S) as conn:
                apply_migrations(conn, text_language)
        except psycopg.OperationalError as exc:
            raise connect_error(url, exc) from exc
        except psycopg.ProgrammingError as exc:  # an unparsable URL or unknown option
            raise connect_error(url, exc) from exc
        except psycopg.Error as exc:
            raise StoreError(f"cannot prepare the PostgreSQL store at {redact(url)}: {exc}") from exc
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            open=True,
            # no check on every checkout (a round trip each): a connection that died is caught by
            # the retry in _read/_write, and the pool drops a broken connection when it comes back
            configure=_configure,
            reset=_reset,
            timeout=CONNECT_TIMEOUT_S,
            kwargs={"connect_timeout": CONNECT_TIMEOUT_S},
            name="mnemo",
        )
        self.store_id = str(self.get_meta("store_id"))
        #: The language items.tsv and query terms are stemmed in (TEXT_CONFIG), fixed at creation.
        self.text_language = str(self.get_meta("text_language"))

    # -- writing ---------------------------------------------------------------------------

    def write(
        self, items: Sequence[Item], vectors: Sequence[Embedding | None], model: str | None = None
    ) -> list[WriteOutcome]:
        """Insert or update items in one transaction (idempotent: retried on a dropped connection)."""
        if not items:
            return []
        # in a bulk session a large import drops the HNSW index and rebuilds it at the end (postgres_bulk.py)
        self._defer_indexes(_dims_of(vectors), len(items))
        self._ensure_vector_indexes(vectors)

        def run(conn: Any) -> list[WriteOutcome]:
            seq = bump_seq(conn)  # first: this row lock orders concurrent writers
            if model is not None:
                claim_model(conn, model)
            return upsert_batch(conn, items, vectors, seq, to_epoch(now_utc()) or 0.0)

        return self._write(run, "writing items")

    def write_vectors(self, pairs: Sequence[tuple[Item, Embedding]]) -> None:
        """Replace the vectors of existing items (re-embedding with another model)."""
        self._ensure_vector_indexes([vector for _, vector in pairs])

        def run(conn: Any) -> None:
            seq = bump_seq(conn)
            conn.cursor().executemany(
                "UPDATE items SET seq = %s, vector_key = %s, embedding = %b "
                "WHERE user_id = %s AND agent_id = %s AND project = %s AND id = %s",
                [(seq, v.key, v.values, *owner_values(item.scope), item.id) for item, v in pairs],
            )

        self._write(run, "writing vectors")

    def delete(self, item_id: str, scope: Scope) -> int:
        where, params = pg_where(SearchFilter(scope=scope))
        if not self._read(f"SELECT 1 FROM items WHERE id = %s AND {where} LIMIT 1", [item_id, *params]):
            return 0

        def run(conn: Any) -> int:
            seq = bump_seq(conn)
            gone = conn.execute(f"DELETE FROM items WHERE id = %s AND {where} RETURNING rowid", [item_id, *params])
            keys = [row[0] for row in gone.fetchall()]
            tombstone(conn, keys, seq)
            return len(keys)

        return self._write(run, "deleting an item")

    def scrub(self) -> None:
        """After a hard delete or forget: VACUUM the tables whose rows held the text (SCRUB_TABLES).

        A deleted row's bytes stay in its table's pages, and its entries in the full-text and
        vector indexes stay, until VACUUM removes them; ``INDEX_CLEANUP ON`` makes it clean the
        indexes even when few rows died (by default it may skip them). It first waits, up to
        SNAPSHOT_WAIT_S, for sessions whose snapshots may still see the deleted rows
        (postgres_scrub.py). It runs outside a transaction (VACUUM cannot run in one) and does not
        block readers or writers. The server's WAL still holds the text until its segments are
        recycled (docs/postgres.md).
        """

        def run() -> None:
            with self._pool.connection() as conn:
                conn.autocommit = True  # the pool's reset (_reset) turns it off again on return
                vacuum_after_delete(conn, SCRUB_TABLES)

        with_retry(run, "vacuuming after a forget")

    def set_meta(self, key: str, value: str) -> None:
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            ),
            "writing store metadata",
        )

    # -- reading ---------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = %s", (key,))
        return rows[0][0] if rows else None

    def sequence(self) -> int:
        return int(self.get_meta("seq") or 0)

    def cached_vectors(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Vectors already computed for an identical text, so no text is embedded twice."""
        unique = list(dict.fromkeys(keys))
        if not unique:
            return {}
        rows = self._read(
            "SELECT DISTINCT ON (vector_key) vector_key, embedding FROM items "
            "WHERE vector_key = ANY(%s) AND embedding IS NOT NULL",
            [unique],
            binary=True,
        )
        return {digest: vector for digest, vector in rows}

    def get(self, item_id: str, scope: Scope) -> Item | None:
        where, params = pg_where(SearchFilter(scope=scope))
        rows = self._read(
            f"SELECT {ITEM_COLUMNS} FROM items WHERE id = %s AND {where} ORDER BY ingested_at DESC LIMIT 1",
            [item_id, *params],
        )
        return to_item(rows[0]) if rows else None

    def nearest(self, query: np.ndarray, k: int, flt: SearchFilter) -> list[tuple[int, float]]:
        """The ``k`` items closest to ``query`` by cosine within the filter, as (key, similarity)."""
        vector = np.asarray(query, dtype=np.float32).reshape(-1)
        dim = int(vector.shape[0])
        where, params = pg_where(flt)
        sql = postgres_vectors.nearest_sql(dim, where)
        args = postgres_vectors.nearest_params(vector, where, params, k)

        def deep() -> list[tuple[Any, ...]]:  # a larger k needs a wider scan, set for this query only
            with self._pool.connection() as conn:
                conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(min(1000, 2 * k)),))
                return conn.execute(sql, args).fetchall()

        # the connections' own ef_search (_configure) suffices for most k: then one round trip
        rows = self._read(sql, args) if 2 * k <= EF_SEARCH else with_retry(deep, "vector search")
        # relaxed order: the scan may return neighbours slightly out of order
        return sorted(((int(key), float(score)) for key, score in rows), key=lambda pair: (-pair[1], pair[0]))

    def vector_count(self) -> int:
        return int(self._read("SELECT count(*) FROM items WHERE embedding IS NOT NULL")[0][0])

    def allowed_keys(self, flt: SearchFilter) -> np.ndarray | None:
        """Keys a filtered search may return (sorted); None when the filter allows all."""
        where, params = pg_where(flt)
        if where == "TRUE":
            return None
        rows = self._read(f"SELECT rowid FROM items WHERE {where} ORDER BY rowid", params)
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def fetch(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, Item]:
        """Items for the given keys that also pass the filter (the scope is checked again here)."""
        return {row[0]: to_item(row) for row in self._rows_for_keys(ITEM_COLUMNS, keys, flt)}

    def times(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, float | None]:
        return {int(key): ts for key, ts in self._rows_for_keys("items.rowid, items.ts", keys, flt)}

    def traits(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, Traits]:
        """Time, role and session of the given keys that pass the filter: a ``fetch`` without the text."""
        rows = self._rows_for_keys("items.rowid, items.ts, items.role, items.session_id", keys, flt)
        return {int(key): Traits(ts, role, session) for key, ts, role, session in rows}

    def _rows_for_keys(self, columns: str, keys: Sequence[int], flt: SearchFilter) -> list[tuple[Any, ...]]:
        unique = list(dict.fromkeys(int(k) for k in keys))
        if not unique:
            return []
        where, params = pg_where(flt)
        return self._read(f"SELECT {columns} FROM items WHERE items.rowid = ANY(%s) AND {where}", [unique, *params])

    def vector_pages(self, since_seq: int, page: int = 20_000) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(keys, vectors) of items written after ``since_seq``, a page at a time in key order."""
        last = -1
        while rows := self._read(
            "SELECT rowid, embedding FROM items WHERE rowid > %s AND seq > %s AND embedding IS NOT NULL "
            "ORDER BY rowid LIMIT %s",
            (last, since_seq, page),
            binary=True,
        ):
            keys = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            yield keys, np.stack([r[1] for r in rows])
            last = int(keys[-1])

    def removed_since(self, since_seq: int) -> np.ndarray:
        """Keys deleted, or left without a vector, after ``since_seq``."""
        rows = self._read(
            "SELECT item_rowid FROM tombstones WHERE seq > %s "
            "UNION SELECT rowid FROM items WHERE seq > %s AND embedding IS NULL",
            (since_seq, since_seq),
        )
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def iter_items(self, flt: SearchFilter) -> Iterator[Item]:
        """Every matching item in insertion order, read in pages so memory stays bounded."""
        where, params = pg_where(flt)
        last = 0
        while rows := self._read(
            f"SELECT {ITEM_COLUMNS} FROM items WHERE items.rowid > %s AND {where} ORDER BY items.rowid LIMIT 1000",
            [last, *params],
        ):
            yield from (to_item(row) for row in rows)
            last = rows[-1][0]

    def newest(self, flt: SearchFilter, limit: int) -> list[Item]:
        """The newest matching items: by when they happened, else by when they were stored."""
        where, params = pg_where(flt)
        rows = self._read(
            f"SELECT {ITEM_COLUMNS} FROM items WHERE {where} "
            "ORDER BY coalesce(items.ts, items.ingested_at) DESC, items.rowid DESC LIMIT %s",
            [*params, limit],
        )
        return [to_item(row) for row in rows]

    def count(self, flt: SearchFilter) -> int:
        where, params = pg_where(flt)
        return int(self._read(f"SELECT count(*) FROM items WHERE {where}", params)[0][0])

    def exists(self, flt: SearchFilter) -> bool:
        """Whether anything matches: stops at the first row, where ``count`` reads every match."""
        where, params = pg_where(flt)
        return bool(self._read(f"SELECT 1 FROM items WHERE {where} LIMIT 1", params))

    def grouped_counts(self, column: str, flt: SearchFilter) -> dict[str, int]:
        if column not in _GROUPABLE:
            raise ValueError(f"cannot group by {column!r}")
        where, params = pg_where(flt)
        rows = self._read(f"SELECT {column}, count(*) FROM items WHERE {where} GROUP BY {column}", params)
        return {str(key if key is not None else ""): int(n) for key, n in rows}

    def close(self) -> None:
        self._close_hybrid()  # its worker thread may hold a pool connection
        self._pool.close()

    # -- plumbing --------------------------------------------------------------------------

    def _ensure_vector_indexes(self, vectors: Sequence[Embedding | None]) -> None:
        """Create the HNSW index for each new vector dimension (once per database, under a lock)."""
        deferred = self.deferred_dims()  # dropped until this process's bulk session ends
        with self._dims_lock:
            missing = _dims_of(vectors) - self._indexed_dims - deferred
        for dim in sorted(missing):

            def run(conn: Any, dim: int = dim) -> None:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))
                if conn.execute("SELECT to_regclass(%s)", (vector_index_name(dim),)).fetchone()[0] is None:
                    conn.execute(vector_index_ddl(dim))

            self._write(run, "creating the vector index")
            with self._dims_lock:
                self._indexed_dims.add(dim)

    def _read(self, sql: str, params: Sequence[Any] = (), *, binary: bool = False) -> list[tuple[Any, ...]]:
        """One read-only statement, retried if the connection drops.

        Run outside a transaction: one round trip instead of three (BEGIN, the query, COMMIT),
        which is most of a small query's cost. The pool's connections stay transactional for
        everyone else (mixins rely on a ``with`` block being one transaction).
        """

        def run() -> list[tuple[Any, ...]]:
            with self._pool.connection() as conn:
                conn.autocommit = True  # the pool's reset (_reset) turns it off again on return
                return conn.execute(sql, params, binary=binary).fetchall()

        return with_retry(run, "reading the store")

    def _write(self, body: Callable[[Any], T], what: str, *, attempts: int = ATTEMPTS) -> T:
        """Run a write in one transaction, retried if the connection drops (idempotent writes only)."""

        def run() -> T:
            with self._pool.connection() as conn:
                return body(conn)

        return with_retry(run, what, attempts=attempts)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction (no retry: the body is not known to be idempotent)."""
        import psycopg

        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            raise store_error(exc, "store write (rolled back)") from exc


def _dims_of(vectors: Sequence[Embedding | None]) -> set[int]:
    return {int(np.asarray(v.values).reshape(-1).shape[0]) for v in vectors if v is not None}


def _configure(conn: Any) -> None:
    """Per pooled connection: the vector type adapters and search settings, left idle.

    Plans are made for each execution's own values (``force_custom_plan``): psycopg prepares a
    statement after five runs, and PostgreSQL's generic plan for a time-filtered nearest search
    guesses the window at 0.5% of the items, sorts it by distance instead of walking the HNSW
    index, and took 4-11 s at 1M items where the custom plan takes 10 ms (docs/postgres.md).
    No parallel workers: a search's scans are index lookups, and starting workers for the filtered
    search's exact branch cost 5-9 ms even when its one-time condition skipped the branch.
    """
    postgres_vectors.register(conn)
    conn.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
    conn.execute("SET hnsw.iterative_scan = relaxed_order")
    conn.execute("SET plan_cache_mode = force_custom_plan")
    conn.execute("SET max_parallel_workers_per_gather = 0")
    conn.commit()


def _reset(conn: Any) -> None:
    """Every connection goes back to the pool transactional, whatever a read did with it."""
    conn.autocommit = False
