"""Full-text queries that session search needs beyond plain hybrid search (phrases, required and
excluded terms, per-session aggregation).

A mixin of SQLiteStore: methods here use the store's `_read`, `_lock` and `_conn`. Every query is
restricted in SQL to conversation messages within the caller's scope that count for session
search: not part of a memory-recall exchange, not a sub-agent (sidechain) message, not in a fork
session, not in the session being excluded (the one the user is in).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mnemo.errors import StoreError
from mnemo.records import KINDS, SearchFilter
from mnemo.store.sql import in_text_columns, kind_tag, placeholders, where_clause
from mnemo.store.sqlite_rows import create_stem_scratch, stems

_CHUNK = 500
#: Metadata flags (set by the importers) of messages that never count for session search.
_NOISE = (
    "json_extract(items.metadata, '$.recall_exchange') IS NOT 1 "
    "AND json_extract(items.metadata, '$.sidechain') IS NOT 1"
)
_FORK = "NOT EXISTS (SELECT 1 FROM sessions WHERE sessions.session_id = items.session_id AND sessions.is_fork)"
_FORK_IDS = "SELECT session_id FROM sessions WHERE is_fork LIMIT ?"
#: Up to this many fork sessions are excluded by an id list; more by a per-row lookup.
_FORK_LIST_MAX = 2_000


@dataclass(frozen=True, slots=True)
class MessageMatch:
    """One message that matched the full-text expression, with its BM25 score (higher is better)."""

    rowid: int
    session_id: str
    role: str | None
    ts: float | None
    bm25: float


class SQLiteSessionSearch:
    """Mixed into SQLiteStore; see the module docstring."""

    _read: Any
    _lock: Any
    _conn: sqlite3.Connection

    def session_message_matches(
        self, match: str, flt: SearchFilter, exclude_session: str | None, limit: int
    ) -> list[MessageMatch]:
        """The best ``limit`` counted messages matching the FTS5 expression ``match``, best first."""
        where, params = self._session_where(flt, exclude_session)
        rows = self._read(
            "SELECT items.rowid, items.session_id, items.role, items.ts, bm25(items_fts, 1.0, 0.0, 1.0, 0.0) AS score "
            f"FROM items_fts JOIN items ON items.rowid = items_fts.rowid WHERE items_fts MATCH ? AND {where} "
            "ORDER BY score LIMIT ?",
            [in_text_columns(match), *params, limit],
        )
        return [MessageMatch(int(r[0]), r[1], r[2], r[3], -float(r[4])) for r in rows]

    def session_message_rows(
        self, rowids: Sequence[int], flt: SearchFilter, exclude_session: str | None
    ) -> list[MessageMatch]:
        """The given rows that are counted messages in scope (found some other way, e.g. by vector)."""
        where, params = self._session_where(flt, exclude_session)
        found: list[MessageMatch] = []
        for chunk in _chunks(list(dict.fromkeys(int(k) for k in rowids))):
            rows = self._read(
                "SELECT items.rowid, items.session_id, items.role, items.ts FROM items "
                f"WHERE items.rowid IN ({placeholders(len(chunk))}) AND {where}",
                [*chunk, *params],
            )
            found += [MessageMatch(int(r[0]), r[1], r[2], r[3], 0.0) for r in rows]
        return found

    def session_corpus_size(self) -> int:
        """An upper bound on the number of items (the largest row key), for term weights."""
        return int(self._read("SELECT coalesce(max(rowid), 0) FROM items")[0][0])

    def session_match_counts(
        self, match: str, flt: SearchFilter, exclude_session: str | None, session_ids: Iterable[str]
    ) -> dict[str, int]:
        """How many counted messages of each given session match ``match`` (absent: none).

        Driven by the sessions' rows (a few sessions) against the match's row list, computed once,
        rather than by every match of a common word joined to its row.
        """
        where, params = self._session_where(flt, exclude_session)
        counts: dict[str, int] = {}
        for chunk in _chunks(list(dict.fromkeys(session_ids))):
            rows = self._read(
                "SELECT items.session_id, count(*) FROM items INDEXED BY items_by_session "
                f"WHERE items.session_id IN ({placeholders(len(chunk))}) AND {where} "
                "AND items.rowid IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?) GROUP BY items.session_id",
                [*chunk, *params, in_text_columns(match)],
            )
            counts.update((sid, int(n)) for sid, n in rows)
        return counts

    def session_presence(
        self, match: str, flt: SearchFilter, exclude_session: str | None, session_ids: Iterable[str]
    ) -> set[str]:
        """Which of the given sessions have a counted message matching ``match`` (for +term / -term)."""
        where, params = self._session_where(flt, exclude_session)
        found: set[str] = set()
        for chunk in _chunks(list(dict.fromkeys(session_ids))):
            rows = self._read(
                "SELECT DISTINCT items.session_id FROM items_fts JOIN items ON items.rowid = items_fts.rowid "
                f"WHERE items_fts MATCH ? AND {where} AND items.session_id IN ({placeholders(len(chunk))})",
                [in_text_columns(match), *params, *chunk],
            )
            found.update(r[0] for r in rows)
        return found

    def session_overview(
        self, session_ids: Iterable[str], flt: SearchFilter, exclude_session: str | None = None
    ) -> dict[str, dict[str, Any]]:
        """Project, first/last time, counted message and user-message counts, and first user message."""
        where, params = self._session_where(flt, exclude_session)
        found: dict[str, dict[str, Any]] = {}
        for chunk in _chunks(list(dict.fromkeys(session_ids))):
            inside = f"items.session_id IN ({placeholders(len(chunk))})"
            for sid, project, first, last, count, users in self._read(
                "SELECT items.session_id, max(items.project), min(items.ts), max(items.ts), count(*), "
                f"sum(items.role = 'user') FROM items INDEXED BY items_by_session WHERE {where} AND {inside} "
                "GROUP BY items.session_id",
                [*params, *chunk],
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
                "SELECT session_id, content FROM (SELECT items.session_id, items.content, row_number() OVER "
                "(PARTITION BY items.session_id ORDER BY items.ts, items.rowid) AS n "
                "FROM items INDEXED BY items_by_session "
                f"WHERE {where} AND {inside} AND items.role = 'user') WHERE n = 1",
                [*params, *chunk],
            ):
                found[sid]["first_user_message"] = content
        return found

    def session_openings(
        self, session_ids: Iterable[str], flt: SearchFilter, exclude_session: str | None, per_session: int = 6
    ) -> dict[str, list[str]]:
        """The first ``per_session`` counted messages of each session (text cut to 1,000 characters)."""
        where, params = self._session_where(flt, exclude_session)
        found: dict[str, list[str]] = {}
        for chunk in _chunks(list(dict.fromkeys(session_ids))):
            rows = self._read(
                "SELECT session_id, text FROM (SELECT items.session_id, substr(items.content, 1, 1000) AS text, "
                "row_number() OVER (PARTITION BY items.session_id ORDER BY items.ts, items.rowid) AS n "
                f"FROM items INDEXED BY items_by_session WHERE {where} "
                f"AND items.session_id IN ({placeholders(len(chunk))})) WHERE n <= ? ORDER BY session_id, n",
                [*params, *chunk, per_session],
            )
            for sid, text in rows:
                found.setdefault(sid, []).append(text)
        return found

    def session_rowids(self, session_id: str, flt: SearchFilter, *, counted_only: bool = True) -> list[int]:
        """Row keys of a session's messages in time order (all of them when ``counted_only`` is off)."""
        if counted_only:
            where, params = self._session_where(flt, None)
        else:
            where, params = where_clause(flt)
        rows = self._read(
            "SELECT items.rowid FROM items INDEXED BY items_by_session "
            f"WHERE items.session_id = ? AND {where} ORDER BY items.ts, items.rowid",
            [session_id, *params],
        )
        return [int(r[0]) for r in rows]

    def session_ids_with_prefix(self, prefix: str, flt: SearchFilter, limit: int = 10) -> list[str]:
        """Session ids in scope that start with ``prefix`` (a short id as search results print it)."""
        where, params = where_clause(flt)
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else ""
        rows = self._read(
            f"SELECT DISTINCT items.session_id FROM items WHERE items.session_id >= ? AND items.session_id < ? "
            f"AND {where} LIMIT ?",
            [prefix, upper, *params, limit],
        )
        return [r[0] for r in rows]

    def vocabulary_near(self, first: str, min_len: int, max_len: int) -> list[tuple[str, int]]:
        """Indexed (stemmed) terms starting with ``first`` whose length is in range, with document counts."""
        upper = first[:-1] + chr(ord(first[-1]) + 1)
        rows = self._read(
            "SELECT term, doc FROM items_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
            [first, upper, min_len, max_len],
        )
        found = [(str(t), int(d)) for t, d in rows]
        if first.startswith("k") and any(t.startswith("kind") for t, _ in found):
            found = [(t, d) for t, d in found if t not in self._kind_tag_stems()]
        return found

    def _kind_tag_stems(self) -> frozenset[str]:
        """The index's kind tokens as stored (stemmed): not words anyone wrote. Stemmed once."""
        known = getattr(self, "_tag_stems", None)
        if known is None:
            tags = self.stem_words([kind_tag(kind) for kind in sorted(KINDS)])
            known = self._tag_stems = frozenset(stem for found in tags.values() for stem in found)
        return known

    def vocabulary_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """Document counts of the given (stemmed) terms; absent terms count 0."""
        counts = dict.fromkeys(terms, 0)
        for chunk in _chunks(list(dict.fromkeys(terms))):
            rows = self._read(f"SELECT term, doc FROM items_vocab WHERE term IN ({placeholders(len(chunk))})", chunk)
            counts.update((str(t), int(d)) for t, d in rows)
        return counts

    def stem_words(self, words: Sequence[str]) -> dict[str, list[str]]:
        """Each word as the full-text index stores it (its porter stem), via a scratch temp table."""
        if not words:
            return {}
        with self._lock:
            if not getattr(self, "_scratch_ready", False):
                create_stem_scratch(self._conn)
                self._scratch_ready = True
            try:
                self._conn.execute("BEGIN")
                return stems(self._conn, list(words))
            except sqlite3.Error as exc:
                raise StoreError(f"cannot stem query words: {exc}") from exc
            finally:
                if self._conn.in_transaction:  # the scratch rows are never kept
                    self._conn.execute("ROLLBACK")

    def _session_where(self, flt: SearchFilter, exclude_session: str | None) -> tuple[str, list[Any]]:
        # the kind is fixed here, and the unary + keeps SQLite from reading every message through the
        # kind index when a session or full-text lookup is far more selective
        where, params = where_clause(replace(flt, kinds=()))
        parts = [where, "+items.kind = 'message'", "items.session_id IS NOT NULL", _NOISE]
        if self._sessions_have_forks():
            forks = [
                r[0] for r in self._read("SELECT session_id FROM sessions WHERE is_fork LIMIT ?", [_FORK_LIST_MAX + 1])
            ]
            if len(forks) > _FORK_LIST_MAX:
                parts.append(_FORK)
            elif forks:
                parts.append(f"items.session_id NOT IN ({placeholders(len(forks))})")
                params = [*params, *forks]
        if exclude_session is not None:
            parts.append("items.session_id != ?")
            params = [*params, exclude_session]
        return " AND ".join(parts), params

    def _sessions_have_forks(self) -> bool:
        """Whether the sessions table (written by the transcript importer) exists and marks forks."""
        known = getattr(self, "_fork_column_known", None)
        if known is None:
            columns = {r[1] for r in self._read("PRAGMA table_info(sessions)")}
            known = {"session_id", "is_fork"} <= columns
            self._fork_column_known = known
        return known


def _chunks(values: list[Any]) -> Iterable[list[Any]]:
    for start in range(0, len(values), _CHUNK):
        yield values[start : start + _CHUNK]
