"""BM25 full-text ranking on PostgreSQL, scored like SQLite's FTS5 ``bm25(items_fts, 1.0, 0.5, 1.0, 0.0)``.

PostgreSQL's own ranks (ts_rank, ts_rank_cd) have no inverse document frequency, so ranking with
them would differ from the SQLite backend and so would recall. This module computes FTS5's formula
instead: for each query term, ``idf · f·(k1+1) / (f + k1·(1 − b + b·len/avglen))`` with k1 = 1.2,
b = 0.75, ``f`` the term's count in content and keys plus half its count in the role (tsvector
weights A, C and B), ``len`` the item's token count (plus the kind token SQLite's index adds),
and ``idf = ln((N − n + 0.5)/(n + 0.5))`` (at least 1e-6) from the item count N and the term's
document count n.

N and the token total come from ``item_stats`` (kept by triggers); n is counted through the GIN
index and cached: exactly per store sequence on small stores, per ±10% of size on large ones,
where (as on SQLite) terms too common to rank by are dropped so a query scores a bounded number
of matches. On large stores a term among the column's most common elements (``pg_stats``, kept
by ANALYZE) takes its n from those statistics instead of a count: counting a term that 0.5% of a
million items hold visits 5,000 rows (tens of milliseconds) for an idf that a ±10% error barely
moves, and such terms are the ones the row budget leaves out anyway.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Sequence
from typing import Any

from mnemo.records import SCOPE_FIELDS, SearchFilter
from mnemo.store.postgres_filters import pg_where
from mnemo.store.postgres_schema import TEXT_CONFIG
from mnemo.store.sql import KIND_TAG_TOKENS, affordable_terms

K1 = 1.2
B = 0.75
#: Stores larger than this leave the most common query terms out (see store/sqlite_lexical.py), so that
#: at most about ``LEXICAL_ROW_BUDGET`` matches are scored. Scoring costs ~3 µs per match here
#: (two ts_rank_cd calls and a heap visit) against FTS5's ~0.3 µs, so the budget is half SQLite's:
#: ~10 ms of scoring at worst.
LEXICAL_PRUNE_ABOVE = 50_000
LEXICAL_ROW_BUDGET = 3_000
#: On those stores at most this many matches are read at all. The budget cannot bound a query
#: whose rarest term is common ("when did Caroline go to the LGBTQ support group?": 9,600
#: matches at 1M items, 20,000 for others, 50-120 ms): such a query ranks the first matches the
#: index yields; a term that common says little anyway.
LEXICAL_MATCH_CAP = LEXICAL_ROW_BUDGET
#: What the capped scan reads of each match: the key and what BM25 needs, then what a filter can test.
_RANK_COLUMNS = ("rowid", "doc_len", "tsv")
_FILTER_COLUMNS = (*SCOPE_FIELDS, "kind", "ts", "category", "subcategory")

STATS_SQL = "SELECT docs, tokens, (SELECT value::bigint FROM meta WHERE key = 'seq') FROM item_stats"
_LEXEMES = f"SELECT t, ARRAY(SELECT lexeme FROM unnest(to_tsvector('{TEXT_CONFIG}', t))) FROM unnest(%s::text[]) AS t"
_COUNTS = (
    "SELECT q.lexeme, (SELECT count(*) FROM items WHERE items.tsv @@ q.query::tsquery) "
    "FROM unnest(%s::text[], %s::text[]) AS q(lexeme, query)"
)
#: The full-text column's most common lexemes and the share of items holding each (ANALYZE's
#: sample); the element frequencies array ends with the minimum and maximum, which are dropped.
_COMMON = (
    "SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats "
    "WHERE schemaname = current_schema() AND tablename = 'items' AND attname = 'tsv'"
)
#: ts_rank_cd weights for tsvector labels {D, C, B, A}: keys (C) and content (A) count fully, the
#: role (B) half. For a one-lexeme query, ts_rank_cd without normalisation is the sum of these
#: weights over the lexeme's positions (each occurrence is a cover of length one): exactly the
#: weighted term frequency FTS5 uses, computed in C (an unnest of the tsvector per row in SQL
#: measured 9x slower).
_TF_WEIGHTS = "{1, 1, 0.5, 1}"


def rank_sql(count: int, idfs: Sequence[float], avg_length: float, where: str, match_cap: int | None = None) -> str:
    """The BM25 query for ``count`` lexemes; parameters: each lexeme's tsquery, the OR-ed tsquery,
    then the filter's parameters and the limit. idf and average length are inlined as literals.

    ``OFFSET 0`` keeps the inner query from being flattened into the outer one, which would
    evaluate each ts_rank_cd twice; all arithmetic is float8 (numeric literals measured 2x slower).

    ``match_cap`` (large stores) reads at most that many matches, and applies the scope filter to
    them rather than through its own index: intersecting the full-text matches with a 100,000-item
    scope's B-tree (the planner's choice) measured 30 ms at 1M items, filtering 3,000 rows ~1 ms.
    """
    frequencies = ", ".join(
        f"ts_rank_cd('{_TF_WEIGHTS}', items.tsv, %s::tsquery)::float8 AS f{i}" for i in range(count)
    )
    # each length counts SQLite's kind-tag token too (KIND_TAG_TOKENS): the same BM25 on both backends
    length = f"(items.doc_len + {KIND_TAG_TOKENS})::float8"
    norm = f"{K1}::float8 * ({1 - B}::float8 + {B}::float8 * {length} / {float(avg_length)!r}::float8)"
    terms = " + ".join(f"{float(idfs[i])!r}::float8 * f{i} * {K1 + 1}::float8 / (f{i} + norm)" for i in range(count))
    if match_cap is None:
        source = f"items WHERE items.tsv @@ %s::tsquery AND {where}"
    else:
        capped = f"SELECT {match_columns(where)} FROM items WHERE items.tsv @@ %s::tsquery LIMIT {int(match_cap)}"
        source = f"({capped}) AS items WHERE {where}"
    return (
        f"SELECT rowid, {terms} AS score FROM (SELECT items.rowid, {norm} AS norm, {frequencies} FROM {source} "
        "OFFSET 0) AS matched ORDER BY score DESC, rowid LIMIT %s"
    )


def match_columns(where: str) -> str:
    """The columns the capped scan passes on: BM25's, plus only those the filter tests.

    Copying every scope column of 3,000 matches that an unscoped search never looks at measured
    a quarter of the lexical query's time at 1M items (7.9 -> 5.7 ms p50).
    """
    tested = [column for column in _FILTER_COLUMNS if re.search(rf"\bitems\.{column}\b", where)]
    return ", ".join([*_RANK_COLUMNS, *tested])


def tsquery_literal(lexemes: Sequence[str]) -> str:
    """Lexemes OR-ed as tsquery text, each quoted so no user text is parsed as query syntax."""
    return " | ".join("'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes)


def idf(docs: int, hits: int) -> float:
    # with concurrent writers a term's count can be newer than the item count (or an estimate
    # above it): more hits than documents is a very common term, not a math domain error
    ratio = (docs - hits + 0.5) / (hits + 0.5)
    return math.log(ratio) if ratio > 1 else 1e-6


class PgLexical:
    """Mixed into PostgresStore: ``lexical`` and the caches it keeps."""

    _read: Any

    def _init_lexical(self) -> None:
        self._lexical_lock = threading.Lock()
        self._stems: dict[str, tuple[str, ...]] = {}
        self._df: dict[str, int] = {}
        self._df_basis: tuple[str, int] = ("", 0)
        self._common: dict[str, float] | None = None  # lexeme -> share of items, for this basis

    def lexical(self, terms: Sequence[str], flt: SearchFilter, limit: int) -> list[tuple[int, float]]:
        """BM25 over content, keys and (weighted lower) the speaker for any of ``terms``; higher is better."""
        lexemes = self._lexemes_of(terms)
        if not lexemes:
            return []
        docs, tokens, seq = self._read(STATS_SQL)[0]
        where, params = pg_where(flt)
        statement = self._rank_statement(lexemes, (int(docs), int(tokens), int(seq)), where, params, limit)
        if statement is None:
            return []
        return [(int(key), float(score)) for key, score in self._read(*statement)]

    def _rank_statement(
        self, lexemes: list[str], stats: tuple[int, int, int], where: str, params: list[Any], limit: int
    ) -> tuple[str, list[Any]] | None:
        """The BM25 statement and its parameters for the store's (docs, tokens, seq); None when
        nothing can match. Shared with the one-statement hybrid search (postgres_hybrid.py)."""
        docs, tokens, seq = stats
        if not lexemes or docs <= 0:
            return None
        counts = self._document_frequencies(lexemes, docs, seq)
        if docs > LEXICAL_PRUNE_ABOVE:
            lexemes = affordable_terms(counts, LEXICAL_ROW_BUDGET)
            kept = set(lexemes)
            counts = [(lexeme, n) for lexeme, n in counts if lexeme in kept]
        idfs = [idf(docs, n) for _, n in counts]
        cap = LEXICAL_MATCH_CAP if docs > LEXICAL_PRUNE_ABOVE else None
        sql = rank_sql(len(lexemes), idfs, float(tokens) / docs + KIND_TAG_TOKENS, where, cap)
        singles = [tsquery_literal([lexeme]) for lexeme in lexemes]
        return sql, [*singles, tsquery_literal(lexemes), *params, limit]

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
                self._common = None
            missing = [lexeme for lexeme in lexemes if lexeme not in self._df]
            common = self._common
        if missing and docs > LEXICAL_PRUNE_ABOVE:
            if common is None:
                common = self._common_lexemes()
            estimated = {lexeme: round(common[lexeme] * docs) for lexeme in missing if lexeme in common}
            missing = [lexeme for lexeme in missing if lexeme not in estimated]
            with self._lexical_lock:
                self._common = common
                self._df.update(estimated)
        if missing:
            rows = self._read(_COUNTS, [missing, [tsquery_literal([m]) for m in missing]])
            with self._lexical_lock:
                self._df.update({lexeme: int(n) for lexeme, n in rows})
        with self._lexical_lock:
            return [(lexeme, self._df.get(lexeme, 0)) for lexeme in lexemes]

    def _common_lexemes(self) -> dict[str, float]:
        """ANALYZE's most common lexemes of ``items.tsv`` with their shares; empty before any ANALYZE."""
        rows = self._read(_COMMON)
        if not rows or rows[0][0] is None:
            return {}
        elements, shares = rows[0]
        return dict(zip(elements, (float(share) for share in shares[: len(elements)]), strict=True))
