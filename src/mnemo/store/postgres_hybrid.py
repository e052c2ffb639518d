"""Hybrid candidates on PostgreSQL in one statement: BM25 top-N, pgvector top-N and the pool's times.

A hybrid search needs three things from the store before it can fuse: the lexical ranking, the
semantic ranking, and the time of every candidate (for the recency signal). Asked one by one that
is four or five round trips (statistics, BM25, nearest, times); here it is one statement with the
two rankings as CTEs, the times of their union, and the item statistics the BM25 formula used.
Fusion stays in Python (retrieve/fuse.py), so the ranking is the SQLite backend's.

The BM25 statement inlines idf and the average length, which depend on the item statistics. They
are cached from the previous statement, and the statement reports the statistics it ran against:
when they moved (a write in between), the candidates are computed again with the new ones, so a
result never mixes old statistics with new rows. Without writes a search is one round trip.

When the query still has to be embedded, ``hybrid_candidates_embedding`` overlaps the two: the
server ranks the BM25 half (the costlier half at 1M items) on a worker thread's connection while
this process runs the embedding model, then one more statement brings the nearest vectors and the
times of both rankings. That needs a core for each: a server on another machine, or one on this
machine when it has two cores or more, the query being embedded on one BLAS thread
(``Config.blas_threads``). At 1M items on two vCPUs with the server on loopback, overlapping took
the search from 26 ms p50 / 33 ms p95 to 20 / 27 (docs/postgres.md); when the embedding still used
both cores, it had measured ~2 ms slower. Only a single-core machine with the server on it computes
the vector first and uses the one statement. ``overlap`` can be set either way after opening.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from mnemo.records import SearchFilter
from mnemo.store import postgres_vectors
from mnemo.store.postgres_filters import pg_where
from mnemo.store.postgres_lexical import STATS_SQL

Ranking = list[tuple[int, float]]
#: Row tags of the one result set.
_LEXICAL, _SEMANTIC, _TIME, _STATS_ROW = 0, 1, 2, 3
_NO_LEXICAL = "SELECT NULL::bigint AS rowid, NULL::float8 AS score WHERE FALSE"
_LOCAL_HOSTS = frozenset({"", "localhost", "127.0.0.1", "::1"})
#: (docs, tokens, seq) of the store, as item_stats and meta hold them.
Stats = tuple[int, int, int]


def server_is_local(url: str) -> bool:
    """Whether the URL's server runs on this machine (no host, a socket directory, loopback)."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        host = str(conninfo_to_dict(url).get("host") or os.environ.get("PGHOST") or "")
    except Exception:  # an unparsable URL fails with a clear error when the pool connects
        return True
    hosts = [h.strip().strip("[]").lower() for h in host.split(",")] if host else [""]
    return all(h in _LOCAL_HOSTS or h.startswith("/") for h in hosts)


def hybrid_sql(lexical: str, semantic: str, where: str) -> str:
    """The one statement: parameters are the lexical part's, the semantic part's, then the filter's."""
    return (
        f"WITH lex AS MATERIALIZED ({lexical}), sem AS MATERIALIZED ({semantic}) "
        f"SELECT {_LEXICAL}, rowid, score FROM lex "
        f"UNION ALL SELECT {_SEMANTIC}, * FROM sem "
        f"UNION ALL SELECT {_TIME}, items.rowid, items.ts FROM items "
        f"WHERE items.rowid IN (SELECT rowid FROM lex UNION SELECT rowid FROM sem) AND {where} "
        f"UNION ALL SELECT {_STATS_ROW}, s.docs, s.tokens::float8 FROM item_stats AS s "
        f"UNION ALL SELECT {_STATS_ROW + 1}, (SELECT value::bigint FROM meta WHERE key = 'seq'), NULL"
    )


class PgHybrid:
    """Mixed into PostgresStore (after PgLexical, whose caches it shares): ``hybrid_candidates``."""

    _read: Any
    _lexemes_of: Any
    _rank_statement: Any
    lexical: Any
    nearest: Any
    times: Any

    def _init_hybrid(self, url: str) -> None:
        self._stats_lock = threading.Lock()
        self._stats: Stats | None = None
        self._background: ThreadPoolExecutor | None = None
        #: The server runs on this machine: a search embeds its query on one BLAS thread
        #: (``embed.inputs.query_blas_threads``) to leave the server a core.
        self.shares_cores = server_is_local(url)
        #: Rank full text on the server while this process embeds the query (module docstring).
        self.overlap = not self.shares_cores or (os.cpu_count() or 1) > 1

    def _close_hybrid(self) -> None:
        with self._stats_lock:
            background, self._background = self._background, None
        if background is not None:
            background.shutdown(wait=True)

    def hybrid_candidates_embedding(
        self, terms: Sequence[str], embed: Callable[[], np.ndarray], flt: SearchFilter, n: int
    ) -> tuple[Ranking, Ranking, dict[int, float | None]]:
        """``hybrid_candidates`` for a query vector still to be computed by ``embed()``.

        The BM25 ranking runs on the server while ``embed()`` runs here; two statements in all,
        the first hidden behind the embedding. The rankings are those of ``lexical`` and ``nearest``;
        they come from two snapshots, as on SQLite, and a candidate deleted in between drops out
        with its missing time.
        """
        pending = self.lexical_later(terms, flt, n)
        if pending is None:
            return self.hybrid_candidates(terms, embed(), flt, n)
        try:
            vector = np.asarray(embed(), dtype=np.float32).reshape(-1)
        finally:
            lexical = pending.result()  # never leave the worker's query running past this call
        semantic, times = self._semantic_with_times(vector, flt, n, [key for key, _ in lexical])
        return lexical, semantic, times

    def lexical_later(self, terms: Sequence[str], flt: SearchFilter, n: int) -> Future[Ranking] | None:
        """``lexical(terms, flt, n)`` started on a worker thread: the server ranks while the caller
        does other work (embedding the query); ``.result()`` gives the ranking or raises its error.
        None when ``overlap`` is off: the caller ranks when it needs the result."""
        if not self.overlap:
            return None
        return self._worker().submit(self.lexical, list(terms), flt, n)

    def _worker(self) -> ThreadPoolExecutor:
        with self._stats_lock:
            if self._background is None:
                # one thread per concurrent search is plenty: each runs one BM25 statement at a time
                self._background = ThreadPoolExecutor(max_workers=4, thread_name_prefix="mnemo-pg-lexical")
            return self._background

    def _semantic_with_times(
        self, vector: np.ndarray, flt: SearchFilter, n: int, lexical_keys: list[int]
    ) -> tuple[Ranking, dict[int, float | None]]:
        """The nearest ``n`` vectors and the times of them and of ``lexical_keys``, in one statement."""
        if 2 * n > postgres_vectors.EF_SEARCH:  # nearest() widens the HNSW scan for this query, a setting of its own
            semantic = self.nearest(vector, n, flt)
            return semantic, self.times(sorted({*lexical_keys, *(k for k, _ in semantic)}), flt)
        where, params = pg_where(flt)
        semantic_params = postgres_vectors.nearest_params(vector, where, params, n)
        statement = (
            f"WITH sem AS MATERIALIZED ({postgres_vectors.nearest_sql(int(vector.shape[0]), where)}) "
            f"SELECT {_SEMANTIC}, * FROM sem "
            f"UNION ALL SELECT {_TIME}, items.rowid, items.ts FROM items "
            f"WHERE items.rowid IN (SELECT rowid FROM sem UNION SELECT unnest(%s::bigint[])) AND {where}"
        )
        semantic: Ranking = []
        times: dict[int, float | None] = {}
        for tag, key, value in self._read(statement, [*semantic_params, lexical_keys, *params]):
            if tag == _SEMANTIC:
                semantic.append((int(key), float(value)))
            else:
                times[int(key)] = value
        semantic.sort(key=lambda pair: (-pair[1], pair[0]))
        return semantic, times

    def hybrid_candidates(
        self, terms: Sequence[str], query_vector: np.ndarray, flt: SearchFilter, n: int
    ) -> tuple[Ranking, Ranking, dict[int, float | None]]:
        """BM25 top-``n`` for ``terms``, cosine top-``n`` for ``query_vector`` and the times of both.

        The same rankings as ``lexical(terms, flt, n)`` and ``nearest(query_vector, n, flt)`` and the
        same times as ``times(union, flt)``, in (usually) one round trip.
        """
        vector = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        if 2 * n > postgres_vectors.EF_SEARCH:  # nearest() widens the HNSW scan for this query, a setting of its own
            lexical, semantic = self.lexical(terms, flt, n), self.nearest(vector, n, flt)
            return lexical, semantic, self.times(sorted({k for k, _ in lexical + semantic}), flt)
        lexemes = self._lexemes_of(terms)
        with self._stats_lock:
            stats = self._stats
        if stats is None:
            stats = self._fresh_stats()
        for attempt in range(2):
            lexical, semantic, times, seen = self._candidates(lexemes, vector, flt, n, stats)
            with self._stats_lock:
                self._stats = seen
            # a write moved the statistics the BM25 part was built with: once more, with the new ones
            if seen == stats or attempt == 1 or not lexemes:
                break
            stats = seen
        return lexical, semantic, times

    def _fresh_stats(self) -> Stats:
        docs, tokens, seq = self._read(STATS_SQL)[0]
        return int(docs), int(tokens), int(seq)

    def _candidates(
        self, lexemes: list[str], vector: np.ndarray, flt: SearchFilter, n: int, stats: Stats
    ) -> tuple[Ranking, Ranking, dict[int, float | None], Stats]:
        where, params = pg_where(flt)
        lexical_sql, lexical_params = self._rank_statement(lexemes, stats, where, params, n) or (_NO_LEXICAL, [])
        semantic_sql = postgres_vectors.nearest_sql(int(vector.shape[0]), where)
        semantic_params = postgres_vectors.nearest_params(vector, where, params, n)
        rows = self._read(hybrid_sql(lexical_sql, semantic_sql, where), [*lexical_params, *semantic_params, *params])
        lexical: Ranking = []
        semantic: Ranking = []
        times: dict[int, float | None] = {}
        docs = tokens = seq = 0
        for tag, key, value in rows:
            if tag == _LEXICAL:
                lexical.append((int(key), float(value)))
            elif tag == _SEMANTIC:
                semantic.append((int(key), float(value)))
            elif tag == _TIME:
                times[int(key)] = value
            elif tag == _STATS_ROW:
                docs, tokens = int(key), int(value)
            else:
                seq = int(key)
        # the orders of lexical() and nearest(): UNION ALL keeps no order
        lexical.sort(key=lambda pair: (-pair[1], pair[0]))
        semantic.sort(key=lambda pair: (-pair[1], pair[0]))
        return lexical, semantic, times, (docs, tokens, seq)
