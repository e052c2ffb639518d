"""Session search's full-text queries on PostgreSQL, with the semantics of store/sqlite_session_search.py.

A mixin of PostgresStore (methods use its ``_read`` and ``_write``). The session searcher hands the
store FTS5 match strings (quoted phrases joined by ``OR``, see ``query_language.fts_any``); each phrase
becomes ``phraseto_tsquery`` over the items' ``tsv`` column, stemmed with the same text search
configuration that built it. Message scores are BM25 computed as FTS5 does (content and keys count,
the speaker does not; k1 = 1.2, b = 0.75; idf over every item).

The term vocabulary (what FTS5's ``fts5vocab`` table gives SQLite) is kept from the ``tsv`` column:
triggers append each changed item's terms to ``items_vocab_delta`` (an append-only log, so concurrent
writers never wait on each other's hot term rows). The log is folded into ``items_vocab`` under a
non-blocking advisory lock by a writer now and then (which keeps it short) and by readers before they
read the totals plus whatever the log still holds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from mnemo.records import SearchFilter
from mnemo.store.postgres_filters import pg_where
from mnemo.store.postgres_schema import TEXT_CONFIG
from mnemo.store.sql import KIND_TAG_TOKENS
from mnemo.store.sqlite_session_search import MessageMatch

#: Advisory lock key of the vocabulary fold ("vocab" in ASCII); only one transaction folds at a time.
_VOCAB_LOCK = 0x766F636162
#: Writers fold the vocabulary's log about once per this many changed items.
_FOLD_EVERY = 500

#: Idempotent DDL, run by PostgresStore's schema runner after the core items table exists.
SCHEMA: tuple[str, ...] = (
    # byte-ordered terms, so a prefix lookup is an index range scan whatever the database's collation
    'CREATE TABLE IF NOT EXISTS items_vocab (term TEXT COLLATE "C" PRIMARY KEY, doc BIGINT NOT NULL)',
    # finds the terms a fold emptied without scanning the vocabulary
    "CREATE INDEX IF NOT EXISTS items_vocab_empty ON items_vocab (term) WHERE doc <= 0",
    # one row per changed item: its distinct terms and +1 (added) or -1 (removed)
    "CREATE TABLE IF NOT EXISTS items_vocab_delta (terms TEXT[] NOT NULL, sign SMALLINT NOT NULL)",
    # Folds the log into the totals unless another transaction is folding (then it returns false).
    # Rows appended after this statement's snapshot stay in the log for the next fold, and readers
    # add what is left in the log to the totals, so nothing is counted twice or lost.
    f"""
    CREATE OR REPLACE FUNCTION mnemo_fold_vocabulary() RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
        IF NOT pg_try_advisory_xact_lock({_VOCAB_LOCK}) THEN
            RETURN FALSE;
        END IF;
        WITH moved AS (DELETE FROM items_vocab_delta RETURNING terms, sign)
        INSERT INTO items_vocab (term, doc)
        SELECT t.term, sum(moved.sign) FROM moved, unnest(moved.terms) AS t (term) GROUP BY t.term ORDER BY t.term
        ON CONFLICT (term) DO UPDATE SET doc = items_vocab.doc + excluded.doc;
        -- a term no item holds any more is gone, as from FTS5's vocabulary (forgotten words leave no row)
        DELETE FROM items_vocab WHERE doc <= 0;
        RETURN TRUE;
    END $$
    """,
    # Logs an item's terms as it is added, re-worded or deleted, and folds the log about once per
    # {_FOLD_EVERY} logged items (at random, so writers share no counter), which keeps it short.
    f"""
    CREATE OR REPLACE FUNCTION mnemo_items_vocab() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            INSERT INTO items_vocab_delta (terms, sign) VALUES (tsvector_to_array(OLD.tsv), -1);
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
            INSERT INTO items_vocab_delta (terms, sign) VALUES (tsvector_to_array(NEW.tsv), 1);
        END IF;
        IF random() * {_FOLD_EVERY} < 1 THEN
            PERFORM mnemo_fold_vocabulary();
        END IF;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER items_vocab_insert AFTER INSERT ON items FOR EACH ROW EXECUTE FUNCTION mnemo_items_vocab()",
    "CREATE TRIGGER items_vocab_delete AFTER DELETE ON items FOR EACH ROW EXECUTE FUNCTION mnemo_items_vocab()",
    # category updates and unchanged re-imports leave the text, and so the vocabulary, alone
    "CREATE TRIGGER items_vocab_update AFTER UPDATE ON items FOR EACH ROW "
    "WHEN (OLD.tsv IS DISTINCT FROM NEW.tsv) EXECUTE FUNCTION mnemo_items_vocab()",
)

#: Words whose stems a store remembers (about 100 bytes each).
_STEM_CACHE_MAX = 100_000
#: FTS5's BM25 constants.
_K1 = 1.2
_B = 0.75
#: Metadata flags (set by the importers) of messages that never count for session search; JSON
#: true or 1, as SQLite's json_extract(...) IS NOT 1 reads them.
_NOISE = (
    "coalesce(items.metadata->>'recall_exchange', '') NOT IN ('true', '1') "
    "AND coalesce(items.metadata->>'sidechain', '') NOT IN ('true', '1')"
)
#: Fork sessions never count; the planner runs this as an anti-join against the few fork rows.
_FORK = "NOT EXISTS (SELECT 1 FROM sessions WHERE sessions.session_id = items.session_id AND sessions.is_fork)"
_PHRASE = re.compile(r'"((?:[^"]|"")*)"')
#: Time order of a session's messages; SQLite sorts a missing time first.
_TIME_ORDER = "items.ts NULLS FIRST, items.rowid"
_C = 'COLLATE "C"'
# BM25 of one matching row: each phrase counts by the occurrences of its rarest stem (the phrase's own
# count for a single word; an upper bound for several), in content and keys only (weight B, the
# speaker, counts nothing, as bm25(items_fts, 1.0, 0.0) weighs it). The row's lexemes are filtered
# against the query's and weighted by array lookup: no join or grouping per row. A row's length
# counts the kind token SQLite's index adds to each row.
_BM25 = f"""
(SELECT coalesce(sum((%s::float8[])[array_position(%s::text[], t.lexeme)]
                     * t.tf * {_K1 + 1}
                     / (t.tf + {_K1} * ({1 - _B} + {_B} * (items.doc_len + {KIND_TAG_TOKENS}) / %s))), 0)
 FROM (SELECT u.lexeme, cardinality(array_remove(u.weights, 'B')) AS tf
       FROM unnest(items.tsv) AS u WHERE u.lexeme = ANY(%s::text[])) AS t)
"""


class PgSessionSearch:
    """Mixed into PostgresStore; see the module docstring."""

    _read: Any
    _write: Any

    def session_message_matches(
        self, match: str, flt: SearchFilter, exclude_session: str | None, limit: int
    ) -> list[MessageMatch]:
        """The best ``limit`` counted messages matching the FTS5 expression ``match``, best first."""
        phrases = fts_phrases(match)
        if not phrases:
            return []
        query, query_params = tsquery_sql(phrases)
        scoring = self._bm25_parameters(phrases)
        where, params = self._session_where(flt, exclude_session)
        rows = self._read(
            f"SELECT items.rowid, items.session_id, items.role, items.ts, {_BM25} AS score "
            f"FROM items WHERE items.tsv @@ ({query}) AND {where} ORDER BY score DESC, items.rowid LIMIT %s",
            [*scoring, *query_params, *params, limit],
        )
        return [MessageMatch(int(r[0]), r[1], r[2], r[3], float(r[4])) for r in rows]

    def session_message_rows(
        self, rowids: Sequence[int], flt: SearchFilter, exclude_session: str | None
    ) -> list[MessageMatch]:
        """The given rows that are counted messages in scope (found some other way, e.g. by vector)."""
        where, params = self._session_where(flt, exclude_session)
        keys = list(dict.fromkeys(int(k) for k in rowids))
        if not keys:
            return []
        rows = self._read(
            "SELECT items.rowid, items.session_id, items.role, items.ts FROM items "
            f"WHERE items.rowid = ANY(%s) AND {where}",
            [keys, *params],
        )
        return [MessageMatch(int(r[0]), r[1], r[2], r[3], 0.0) for r in rows]

    def session_corpus_size(self) -> int:
        """An upper bound on the number of items (the largest row key), for term weights."""
        return int(self._read("SELECT coalesce(max(rowid), 0) FROM items")[0][0])

    def session_match_counts(
        self, match: str, flt: SearchFilter, exclude_session: str | None, session_ids: Iterable[str]
    ) -> dict[str, int]:
        """How many counted messages of each given session match ``match`` (absent: none)."""
        phrases, sessions = fts_phrases(match), list(dict.fromkeys(session_ids))
        if not phrases or not sessions:
            return {}
        query, query_params = tsquery_sql(phrases)
        where, params = self._session_where(flt, exclude_session)
        rows = self._read(
            f"SELECT items.session_id, count(*) FROM items WHERE items.session_id = ANY(%s) AND {where} "
            f"AND items.tsv @@ ({query}) GROUP BY items.session_id",
            [sessions, *params, *query_params],
        )
        return {sid: int(n) for sid, n in rows}

    def session_presence(
        self, match: str, flt: SearchFilter, exclude_session: str | None, session_ids: Iterable[str]
    ) -> set[str]:
        """Which of the given sessions have a counted message matching ``match`` (for +term / -term)."""
        phrases, sessions = fts_phrases(match), list(dict.fromkeys(session_ids))
        if not phrases or not sessions:
            return set()
        query, query_params = tsquery_sql(phrases)
        where, params = self._session_where(flt, exclude_session)
        rows = self._read(
            f"SELECT DISTINCT items.session_id FROM items WHERE items.session_id = ANY(%s) AND {where} "
            f"AND items.tsv @@ ({query})",
            [sessions, *params, *query_params],
        )
        return {r[0] for r in rows}

    def session_overview(
        self, session_ids: Iterable[str], flt: SearchFilter, exclude_session: str | None = None
    ) -> dict[str, dict[str, Any]]:
        """Project, first/last time, counted message and user-message counts, and first user message."""
        sessions = list(dict.fromkeys(session_ids))
        if not sessions:
            return {}
        where, params = self._session_where(flt, exclude_session)
        inside = "items.session_id = ANY(%s)"
        found: dict[str, dict[str, Any]] = {}
        for sid, project, first, last, count, users in self._read(
            f"SELECT items.session_id, max(items.project {_C}), min(items.ts), max(items.ts), count(*), "
            f"count(*) FILTER (WHERE items.role = 'user') FROM items WHERE {where} AND {inside} "
            "GROUP BY items.session_id",
            [*params, sessions],
        ):
            found[sid] = {
                "project": project or None,
                "started_at": first,
                "ended_at": last,
                "message_count": int(count),
                "user_message_count": int(users or 0),
                "first_user_message": None,
            }
        for sid, content in self._read(
            f"SELECT DISTINCT ON (items.session_id) items.session_id, items.content FROM items "
            f"WHERE {where} AND {inside} AND items.role = 'user' ORDER BY items.session_id, {_TIME_ORDER}",
            [*params, sessions],
        ):
            found[sid]["first_user_message"] = content
        return found

    def session_openings(
        self, session_ids: Iterable[str], flt: SearchFilter, exclude_session: str | None, per_session: int = 6
    ) -> dict[str, list[str]]:
        """The first ``per_session`` counted messages of each session (text cut to 1,000 characters)."""
        sessions = list(dict.fromkeys(session_ids))
        if not sessions:
            return {}
        where, params = self._session_where(flt, exclude_session)
        found: dict[str, list[str]] = {}
        rows = self._read(
            "SELECT session_id, text FROM (SELECT items.session_id, substr(items.content, 1, 1000) AS text, "
            f"row_number() OVER (PARTITION BY items.session_id ORDER BY {_TIME_ORDER}) AS n "
            f"FROM items WHERE {where} AND items.session_id = ANY(%s)) AS firsts "
            f"WHERE n <= %s ORDER BY session_id {_C}, n",
            [*params, sessions, per_session],
        )
        for sid, text in rows:
            found.setdefault(sid, []).append(text)
        return found

    def session_rowids(self, session_id: str, flt: SearchFilter, *, counted_only: bool = True) -> list[int]:
        """Row keys of a session's messages in time order (all of them when ``counted_only`` is off)."""
        where, params = self._session_where(flt, None) if counted_only else pg_where(flt)
        rows = self._read(
            f"SELECT items.rowid FROM items WHERE items.session_id = %s AND {where} ORDER BY {_TIME_ORDER}",
            [session_id, *params],
        )
        return [int(r[0]) for r in rows]

    def session_ids_with_prefix(self, prefix: str, flt: SearchFilter, limit: int = 10) -> list[str]:
        """Session ids in scope that start with ``prefix`` (a short id as search results print it)."""
        if not prefix:
            return []
        where, params = pg_where(flt)
        rows = self._read(
            f"SELECT DISTINCT items.session_id {_C} FROM items WHERE starts_with(items.session_id, %s) "
            f"AND {where} ORDER BY 1 LIMIT %s",
            [prefix, *params, limit],
        )
        return [r[0] for r in rows]

    def vocabulary_near(self, first: str, min_len: int, max_len: int) -> list[tuple[str, int]]:
        """Indexed (stemmed) terms starting with ``first`` whose length is in range, with document counts."""
        if not first:
            return []
        upper = first[:-1] + chr(ord(first[-1]) + 1)
        return self._vocabulary(
            f"term {_C} >= %s AND term {_C} < %s AND length(term) BETWEEN %s AND %s", [first, upper, min_len, max_len]
        )

    def vocabulary_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """Document counts of the given (stemmed) terms; absent terms count 0."""
        counts = dict.fromkeys(terms, 0)
        wanted = list(dict.fromkeys(terms))
        if wanted:
            counts.update(self._vocabulary("term = ANY(%s)", [wanted]))
        return counts

    def stem_words(self, words: Sequence[str]) -> dict[str, list[str]]:
        """Each word as the full-text index stores it (its stems, in term order), by the index's configuration.

        Stems depend only on the word and the configuration, so they are remembered per store: one
        search stems the same query and message words several times.
        """
        cache: dict[str, list[str]] = self.__dict__.setdefault("_stem_cache", {})
        missing = [w for w in dict.fromkeys(words) if w not in cache]
        if missing:
            if len(cache) + len(missing) > _STEM_CACHE_MAX:
                cache.clear()
            rows = self._read(
                f"SELECT w, tsvector_to_array(to_tsvector('{TEXT_CONFIG}', w)) FROM unnest(%s::text[]) AS w",
                [missing],
            )
            cache.update((word, list(found or ())) for word, found in rows)
        return {w: list(cache[w]) for w in words if cache.get(w)}

    # -- plumbing --------------------------------------------------------------------------

    def _vocabulary(self, condition: str, params: Sequence[Any]) -> list[tuple[str, int]]:
        """(term, documents) of the terms meeting ``condition``: the totals plus what the log holds.

        The same statement folds the log first (when no one else is folding). Its read sees the
        state from before the fold, totals and log alike, so the sum is right either way.
        """

        def run(conn: Any) -> list[tuple[Any, ...]]:
            return conn.execute(
                "WITH folded AS MATERIALIZED (SELECT mnemo_fold_vocabulary()) "
                "SELECT term, sum(doc) FROM folded, ("
                f"SELECT term, doc FROM items_vocab WHERE {condition} UNION ALL "
                "SELECT t.term, d.sign FROM items_vocab_delta AS d, unnest(d.terms) AS t (term) "
                f"WHERE {condition}) AS v GROUP BY term HAVING sum(doc) > 0 ORDER BY term {_C}",
                [*params, *params],
            ).fetchall()

        return [(str(t), int(d)) for t, d in self._write(run, "reading the term vocabulary")]

    def _bm25_parameters(self, phrases: Sequence[str]) -> list[Any]:
        """The parameters of ``_BM25``: idf per representative stem, the stems, the average length, the stems."""
        stems = self.stem_words(sorted({w for p in phrases for w in p.split()}))
        lexemes = {p: sorted({s for w in p.split() for s in stems.get(w, [])}) for p in phrases}
        docs = self.vocabulary_counts(sorted({s for found in lexemes.values() for s in found}))
        total, tokens = self._read("SELECT docs, tokens FROM item_stats")[0]
        weights: dict[str, float] = {}
        for phrase, found in lexemes.items():
            if not found:
                continue
            hits = docs.get(found[0], 0)
            if len(found) > 1:  # a phrase's documents: those holding it, not each of its words
                hits = int(
                    self._read(
                        f"SELECT count(*) FROM items WHERE tsv @@ phraseto_tsquery('{TEXT_CONFIG}', %s)", [phrase]
                    )[0][0]
                )
            rarest = min(found, key=lambda stem: (docs.get(stem, 0), stem))
            # two phrases represented by one stem add up, as two matching phrases do in FTS5
            weights[rarest] = weights.get(rarest, 0.0) + bm25_idf(int(total), hits)
        average = (int(tokens) / int(total) if total else 0.0) + KIND_TAG_TOKENS  # as SQLite's index counts
        chosen = list(weights)
        return [[weights[s] for s in chosen], chosen, average, chosen]

    def _session_where(self, flt: SearchFilter, exclude_session: str | None) -> tuple[str, list[Any]]:
        where, params = pg_where(replace(flt, kinds=()))
        parts = [where, "items.kind = 'message'", "items.session_id IS NOT NULL", _NOISE, _FORK]
        if exclude_session is not None:
            parts.append("items.session_id <> %s")
            params = [*params, exclude_session]
        return " AND ".join(parts), params


def fts_phrases(match: str) -> list[str]:
    """The phrases of an FTS5 match string made by ``fts_any`` (quoted, joined by OR); empty ones dropped."""
    phrases = [m.group(1).replace('""', '"') for m in _PHRASE.finditer(match)]
    return list(dict.fromkeys(p.strip() for p in phrases if p.strip()))


def tsquery_sql(phrases: Sequence[str]) -> tuple[str, list[str]]:
    """A tsquery expression matching any of ``phrases`` (each one's words next to each other, in order)."""
    parts = [f"phraseto_tsquery('{TEXT_CONFIG}', %s)" for _ in phrases]
    return " || ".join(parts), list(phrases)


def bm25_idf(total: int, hits: int) -> float:
    """FTS5's idf: log((N - n + 0.5) / (n + 0.5)), floored at a tiny positive value for common terms."""
    value = math.log((total - hits + 0.5) / (hits + 0.5)) if total > 0 else 0.0
    return value if value > 0 else 1e-6
