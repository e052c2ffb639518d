"""Full-text (BM25) ranking in the SQLite store: which query FTS5 runs for a filter and a scope.

A mixin of SQLiteStore: methods here use the store's ``_read``, ``_lock``, ``allowed_keys`` and
its key-list cache, and the session mixin's ``stem_words`` and ``vocabulary_counts`` for term
statistics. The query takes one of a few shapes, each ranking exactly as the plain join of
every match to its row would: no join at all when nothing needs the rows; the kinds inside the
match (their tokens in the index); a deeper ranking filtered by the scope's key list on large
stores; or the join, bounded to the scope's span of row keys when that is narrow.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from mnemo.records import KINDS, SearchFilter
from mnemo.store.sql import affordable_terms, fts_match_expression, in_text_columns, kind_tag, where_clause

#: Stores larger than this leave the most common query terms out of the full-text query.
LEXICAL_PRUNE_ABOVE = 50_000
#: How many (document, term) matches a full-text query may score; ~0.3 µs each on this machine.
LEXICAL_ROW_BUDGET = 6_000
#: Scoped full-text search ranks deeper without the item join when the scope holds at least
#: this share of the store, down to at most this many rows.
SCOPE_SHARE_FOR_DEEP_RANKING = 0.01
LEXICAL_MAX_DEPTH = 5_000
#: Content 1, speaker 0.5, fact keys 1, kind tag 0 (it only filters; see KIND_SHARE_FOR_TAGGED_MATCH).
_BM25 = "bm25(items_fts, 1.0, 0.5, 1.0, 0.0)"
_LEXICAL_PLAIN = f"SELECT rowid, {_BM25} AS score FROM items_fts WHERE items_fts MATCH ? ORDER BY score LIMIT ?"
_LEXICAL_JOINED = (
    f"SELECT items.rowid, {_BM25} AS score FROM items_fts "
    "JOIN items ON items.rowid = items_fts.rowid WHERE items_fts MATCH ? AND {where} ORDER BY score LIMIT ?"
)
#: The scope's row-key span as a bound FTS5 itself applies (put before the filter of the joined
#: query): it then reads only that stretch of each term's document list, not every match in the store.
_SPAN_BOUND = "items_fts.rowid BETWEEN ? AND ? AND "
#: A scope whose keys span less than this share of the store's keys gets the bounded query.
SPAN_SHARE_FOR_BOUNDED_RANKING = 0.5
#: A kind filter is applied by FTS5 itself, through the kind-tag column (migration 0006): it
#: intersects the query's matches with the kinds' document lists. When nothing else needs the
#: rows that drops the join altogether, which pays for any kinds (``python -m
#: benchmarks.kind_filter``, 40k items: summaries 4.4 -> 1.1 ms, facts 5.3 -> 2.2, messages
#: 7.6 -> 4.9). When the scope still needs the join it pays only for kinds holding less than
#: this share of the store (scoped to a user: facts 5.3 -> 3.1 ms; messages, two thirds of the
#: store, measured slower, as a longer intersection only adds to the same join).
KIND_SHARE_FOR_TAGGED_MATCH = 0.5


class SQLiteLexical:
    """Mixed into SQLiteStore; see the module docstring."""

    _lock: threading.RLock
    _df_cache: dict[str, int]
    _df_cache_size: int
    _allowed_cache: OrderedDict[SearchFilter, tuple[int, np.ndarray]]
    _read: Any
    allowed_keys: Any
    stem_words: Any
    vocabulary_counts: Any

    def lexical(self, terms: Sequence[str], flt: SearchFilter, limit: int) -> list[tuple[int, float]]:
        """BM25 over content (and, weighted lower, the speaker) for any of ``terms``; higher is better.

        On a large store, terms too common to rank by are left out first (see ``affordable_terms``):
        FTS5 scores every document that matches any term, so one everyday word would cost more
        than the rest of the search together.
        """
        size = self._approximate_size()
        if size > LEXICAL_PRUNE_ABOVE:
            terms = affordable_terms(self._document_frequencies(terms, size), LEXICAL_ROW_BUDGET)
        words = fts_match_expression(terms)
        if words is None:
            return []
        # the rows still to test; the key lists below stay the whole filter's (one kept list each)
        match, rest = self._kind_tagged(in_text_columns(words), flt, size)
        where, params = where_clause(rest)
        if where == "1":  # no filter: no join, which is three times faster on a large store
            return self._bm25(_LEXICAL_PLAIN, [match, limit])
        if size > LEXICAL_PRUNE_ABOVE:
            found = self._lexical_in_scope(match, flt, limit, size)
            if found is not None:
                return found
        span = self._known_span(flt, size)
        if span is not None:
            low, high = span
            if low > high:  # the scope holds nothing
                return []
            return self._bm25(_LEXICAL_JOINED.format(where=_SPAN_BOUND + where), [match, low, high, *params, limit])
        return self._bm25(_LEXICAL_JOINED.format(where=where), [match, *params, limit])

    def _kind_tagged(self, match: str, flt: SearchFilter, size: int) -> tuple[str, SearchFilter]:
        """The match and the filter left to test on the rows: the kinds move into the match
        (``kind_tag : (...) AND (...)``, weighed 0 by bm25, so the ranking is the one the join
        would give) unless a join stays for the rest of the filter and the kinds are most of the
        store (see KIND_SHARE_FOR_TAGGED_MATCH); otherwise both as given."""
        if not flt.kinds or not all(kind in KINDS for kind in flt.kinds):  # tokens only for known kinds
            return match, flt
        rest = replace(flt, kinds=())
        tags = [kind_tag(kind) for kind in flt.kinds]
        if where_clause(rest)[0] != "1":
            held = sum(count for _, count in self._document_frequencies(tags, size))
            if held >= KIND_SHARE_FOR_TAGGED_MATCH * size:
                return match, flt
        return f"kind_tag : ({fts_match_expression(tags)}) AND ({match})", rest

    def _known_span(self, flt: SearchFilter, size: int) -> tuple[int, int] | None:
        """The lowest and highest row key of the filter's scope, when its key list is already kept
        and spans a small part of the store (a session's turns are written together, so their
        keys are close); None otherwise. An empty scope gives (1, 0).

        Only a kept list is used, or a session's (its index lists it in a fraction of a
        millisecond): listing a large scope just for this would cost more than it saves. A row
        another connection commits after the list was brought up to date falls outside the span,
        as it falls outside the allowed keys of the vector search beside it: one search sees its
        scope as listed, and the next one lists it again.
        """
        with self._lock:
            if flt not in self._allowed_cache and flt.scope.session_id is None:
                return None
        keys = self.allowed_keys(flt)  # brought up to date from the rows changed since it was kept
        if keys is None:
            return None
        if len(keys) == 0:
            return 1, 0
        low, high = int(keys[0]), int(keys[-1])
        return (low, high) if high - low < SPAN_SHARE_FOR_BOUNDED_RANKING * size else None

    def _lexical_in_scope(self, match: str, flt: SearchFilter, limit: int, size: int) -> list[tuple[int, float]] | None:
        """The filtered ranking from a deeper unfiltered one, when that is provably the same.

        Joining every match to its item row to test the filter cost up to 75 ms at a million
        items. Instead rank without the join, ``depth`` deep, and keep the keys in the filter's
        (SQL-computed, cached) key list: if at least ``limit`` survive, no item of the scope
        ranked higher can be missing, so the result equals the joined query's. Otherwise (or
        for a scope too small for this to pay) the caller runs the joined query.
        """
        allowed = self.allowed_keys(flt)
        if allowed is None or len(allowed) < size * SCOPE_SHARE_FOR_DEEP_RANKING:
            return None
        depth = min(LEXICAL_MAX_DEPTH, int(limit * size / len(allowed) * 2) + limit)
        ranked = self._read(_LEXICAL_PLAIN, [match, depth])
        keys = np.fromiter((row[0] for row in ranked), dtype=np.int64, count=len(ranked))
        positions = np.searchsorted(allowed, keys)
        inside = (positions < len(allowed)) & (allowed[np.minimum(positions, len(allowed) - 1)] == keys)
        # only the kept rows are converted: the deep ranking is ~20 times longer than the result
        kept = [(int(ranked[i][0]), -float(ranked[i][1])) for i in np.flatnonzero(inside)[:limit].tolist()]
        return kept if len(kept) >= limit or len(ranked) < depth else None

    def _bm25(self, sql: str, params: list[Any]) -> list[tuple[int, float]]:
        return [(int(k), -float(s)) for k, s in self._read(sql, params)]

    def _approximate_size(self) -> int:
        """The largest row key: an upper bound on the item count that costs one index probe."""
        return int(self._read("SELECT coalesce(max(rowid), 0) FROM items")[0][0])

    def _document_frequencies(self, terms: Sequence[str], size: int | None = None) -> list[tuple[str, int]]:
        """How many items each term (stemmed as FTS5 stems it) occurs in, cached per store size."""
        with self._lock:  # the cache is shared by every thread using this store
            size = self._approximate_size() if size is None else size
            if size > self._df_cache_size * 1.1 or size < self._df_cache_size:
                self._df_cache = {}
                self._df_cache_size = size
            missing = [t for t in terms if t not in self._df_cache]
            if missing:
                self._df_cache.update(self._count_documents(missing))
            return [(t, self._df_cache[t]) for t in terms]

    def _count_documents(self, terms: Sequence[str]) -> dict[str, int]:
        stemmed = self.stem_words(terms)
        counts = self.vocabulary_counts([stem for found in stemmed.values() for stem in found])
        return {term: sum(counts[stem] for stem in stemmed.get(term, [])) for term in terms}
