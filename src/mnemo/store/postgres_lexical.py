"""BM25 full-text ranking on PostgreSQL, scored like SQLite's FTS5 ``bm25(items_fts, 1.0, 0.5)``.

PostgreSQL's own ranks (ts_rank, ts_rank_cd) have no inverse document frequency, so ranking with
them would differ from the SQLite backend and so would recall. This module computes FTS5's formula
instead: for each query term, ``idf · f·(k1+1) / (f + k1·(1 − b + b·len/avglen))`` with k1 = 1.2,
b = 0.75, ``f`` the term's count in content and keys plus half its count in the role (tsvector
weights A, C and B), ``len`` the item's token count, and ``idf = ln((N − n + 0.5)/(n + 0.5))``
(at least 1e-6) from the item count N and the term's document count n.

N and the token total come from ``item_stats`` (kept by triggers); n is counted through the GIN
index and cached: exactly per store sequence on small stores, per ±10% of size on large ones,
where (as on SQLite) terms too common to rank by are dropped so a query scores a bounded number
of matches.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any

from mnemo.records import SearchFilter
from mnemo.store.postgres_filters import pg_where
from mnemo.store.postgres_schema import TEXT_CONFIG
from mnemo.store.sql import affordable_terms

K1 = 1.2
B = 0.75
#: Stores larger than this leave the most common query terms out (see store/sqlite.py), so that
#: at most about ``LEXICAL_ROW_BUDGET`` matches are scored. Scoring costs ~3 µs per match here
#: (two ts_rank_cd calls and a heap visit) against FTS5's ~0.3 µs, so the budget is half SQLite's:
#: ~10 ms of scoring at worst.
LEXICAL_PRUNE_ABOVE = 50_000
LEXICAL_ROW_BUDGET = 3_000

_STATS = "SELECT docs, tokens, (SELECT value::bigint FROM meta WHERE key = 'seq') FROM item_stats"
_LEXEMES = f"SELECT t, ARRAY(SELECT lexeme FROM unnest(to_tsvector('{TEXT_CONFIG}', t))) FROM unnest(%s::text[]) AS t"
_COUNTS = (
    "SELECT q.lexeme, (SELECT count(*) FROM items WHERE items.tsv @@ q.query::tsquery) "
    "FROM unnest(%s::text[], %s::text[]) AS q(lexeme, query)"
)
#: ts_rank_cd weights for tsvector labels {D, C, B, A}: keys (C) and content (A) count fully, the
#: role (B) half. For a one-lexeme query, ts_rank_cd without normalisation is the sum of these
#: weights over the lexeme's positions (each occurrence is a cover of length one): exactly the
#: weighted term frequency FTS5 uses, computed in C (an unnest of the tsvector per row in SQL
#: measured 9x slower).
_TF_WEIGHTS = "{1, 1, 0.5, 1}"


def rank_sql(count: int, idfs: Sequence[float], avg_length: float, where: str) -> str:
    """The BM25 query for ``count`` lexemes; parameters: each lexeme's tsquery, the OR-ed tsquery,
    then the filter's parameters and the limit. idf and average length are inlined as literals.

    ``OFFSET 0`` keeps the inner query from being flattened into the outer one, which would
    evaluate each ts_rank_cd twice; all arithmetic is float8 (numeric literals measured 2x slower).
    """
    frequencies = ", ".join(
        f"ts_rank_cd('{_TF_WEIGHTS}', items.tsv, %s::tsquery)::float8 AS f{i}" for i in range(count)
    )
    norm = f"{K1}::float8 * ({1 - B}::float8 + {B}::float8 * items.doc_len / {float(avg_length)!r}::float8)"
    terms = " + ".join(f"{float(idfs[i])!r}::float8 * f{i} * {K1 + 1}::float8 / (f{i} + norm)" for i in range(count))
    return (
        f"SELECT rowid, {terms} AS score FROM (SELECT items.rowid, {norm} AS norm, {frequencies} FROM items "
        f"WHERE items.tsv @@ %s::tsquery AND {where} OFFSET 0) AS matched ORDER BY score DESC, rowid LIMIT %s"
    )


def tsquery_literal(lexemes: Sequence[str]) -> str:
    """Lexemes OR-ed as tsquery text, each quoted so no user text is parsed as query syntax."""
    return " | ".join("'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes)


def idf(docs: int, hits: int) -> float:
    value = math.log((docs - hits + 0.5) / (hits + 0.5))
    return value if value > 0 else 1e-6


class PgLexical:
    """Mixed into PostgresStore: ``lexical`` and the caches it keeps."""

    _read: Any

    def _init_lexical(self) -> None:
        self._lexical_lock = threading.Lock()
        self._stems: dict[str, tuple[str, ...]] = {}
        self._df: dict[str, int] = {}
        self._df_basis: tuple[str, int] = ("", 0)

    def lexical(self, terms: Sequence[str], flt: SearchFilter, limit: int) -> list[tuple[int, float]]:
        """BM25 over content, keys and (weighted lower) the speaker for any of ``terms``; higher is better."""
        lexemes = self._lexemes_of(terms)
        if not lexemes:
            return []
        docs, tokens, seq = self._read(_STATS)[0]
        if docs <= 0:
            return []
        counts = self._document_frequencies(lexemes, int(docs), int(seq))
        if docs > LEXICAL_PRUNE_ABOVE:
            lexemes = affordable_terms(counts, LEXICAL_ROW_BUDGET)
            kept = set(lexemes)
            counts = [(lexeme, n) for lexeme, n in counts if lexeme in kept]
        idfs = [idf(int(docs), n) for _, n in counts]
        where, params = pg_where(flt)
        singles = [tsquery_literal([lexeme]) for lexeme in lexemes]
        rows = self._read(
            rank_sql(len(lexemes), idfs, max(float(tokens) / docs, 1e-9), where),
            [*singles, tsquery_literal(lexemes), *params, limit],
        )
        return [(int(key), float(score)) for key, score in rows]

    def _lexemes_of(self, terms: Sequence[str]) -> list[str]:
        """The index's stems of the query terms, in order, without repeats (cached per word)."""
        with self._lexical_lock:
            missing = [t for t in dict.fromkeys(terms) if t and t not in self._stems]
        if missing:
            found = {t: tuple(stems) for t, stems in self._read(_LEXEMES, [missing])}
            with self._lexical_lock:
                self._stems.update(found)
        with self._lexical_lock:
            return list(dict.fromkeys(s for t in terms if t for s in self._stems.get(t, ())))

    def _document_frequencies(self, lexemes: list[str], docs: int, seq: int) -> list[tuple[str, int]]:
        """How many items hold each lexeme: exact on small stores, within ~10% on large ones."""
        with self._lexical_lock:
            kind, value = self._df_basis
            if docs <= LEXICAL_PRUNE_ABOVE:
                fresh = kind == "seq" and value == seq
                basis = ("seq", seq)
            else:
                fresh = kind == "size" and value <= docs <= value * 1.1
                basis = ("size", value) if fresh else ("size", docs)
            if not fresh:
                self._df = {}
                self._df_basis = basis
            missing = [lexeme for lexeme in lexemes if lexeme not in self._df]
        if missing:
            rows = self._read(_COUNTS, [missing, [tsquery_literal([m]) for m in missing]])
            with self._lexical_lock:
                self._df.update({lexeme: int(n) for lexeme, n in rows})
        with self._lexical_lock:
            return [(lexeme, self._df.get(lexeme, 0)) for lexeme in lexemes]
