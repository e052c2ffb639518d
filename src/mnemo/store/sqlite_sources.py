"""Source files (path, size, mtime, offset) and conversation sessions: the tables behind incremental
imports and `mnemo sources`.

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mnemo.records import OWNER_FIELDS, Scope, SearchFilter, Session, SourceFile
from mnemo.store.session_sql import session_values as _session_values
from mnemo.store.session_sql import source_values as _source_values
from mnemo.store.session_sql import to_session as _to_session
from mnemo.store.session_sql import to_source as _to_source
from mnemo.store.session_sql import upsert_session_sql
from mnemo.store.sql import placeholders, where_clause
from mnemo.timeutil import now_utc, to_epoch

_SESSION_COLUMNS = (
    "session_id, project, source, path, title, started_at, ended_at, message_count, user_message_count, "
    "git_branch, is_fork"
)
_SOURCE_COLUMNS = (
    "path, kind, root, size, mtime, offset, line, bytes_read, head_hash, session_id, messages, dropped, "
    "imported_at, state"
)
_UPSERT_SESSION = upsert_session_sql("?", "max(sessions.is_fork, excluded.is_fork)")
# Counts come from the stored messages themselves, so re-reading a file can never double them. Only
# the session_id condition is indexable here, so SQLite walks items_by_session (a condition on
# kind would tempt it into scanning every message).
_SESSION_TOTALS = """
SELECT session_id, sum(kind = 'message'), sum(kind = 'message' AND role = 'user'), min(ts), max(ts)
FROM items WHERE session_id IN ({marks}) GROUP BY session_id
"""
_SET_TOTALS = """
UPDATE sessions SET message_count = ?, user_message_count = ?,
    started_at = CASE WHEN started_at IS NULL OR ? < started_at THEN ? ELSE started_at END,
    ended_at = CASE WHEN ended_at IS NULL OR ? > ended_at THEN ? ELSE ended_at END
WHERE session_id = ?
"""


class SQLiteSources:
    """Mixed into SQLiteStore; see the module docstring."""

    _read: Any
    _transaction: Any

    def upsert_sessions(self, sessions: Sequence[Session]) -> None:
        """Insert or widen sessions, then recount their messages from the items table."""
        stamp = to_epoch(now_utc())
        ids = list(dict.fromkeys(s.session_id for s in sessions))
        with self._transaction() as conn:
            for session in sessions:
                conn.execute(_UPSERT_SESSION, [*_session_values(session), stamp])
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                totals = {
                    row[0]: row[1:]
                    for row in conn.execute(_SESSION_TOTALS.format(marks=placeholders(len(chunk))), chunk)
                }
                for sid in chunk:
                    count, users, first, last = totals.get(sid, (0, 0, None, None))
                    conn.execute(_SET_TOTALS, (count or 0, users or 0, first, first, last, last, sid))

    def get_session(self, session_id: str, scope: Scope | None = None) -> Session | None:
        """The session's row; with ``scope``, only when every item of the session is in it."""
        owned, params = _owned_by(scope)
        rows = self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE session_id = ? AND {owned}", (session_id, *params)
        )
        return _to_session(rows[0]) if rows else None

    def list_sessions(self, project: str | None = None, limit: int = 100, scope: Scope | None = None) -> list[Session]:
        """Sessions, newest first; only one project's when ``project`` is given, and only those
        wholly inside ``scope`` when it is given."""
        owned, params = _owned_by(scope)
        if project is not None:
            owned, params = f"project = ? AND {owned}", [project, *params]
        rows = self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {owned} ORDER BY started_at DESC, session_id LIMIT ?",
            [*params, int(limit)],
        )
        return [_to_session(row) for row in rows]

    def record_sources(self, files: Sequence[SourceFile]) -> None:
        with self._transaction() as conn:
            conn.executemany(
                f"INSERT OR REPLACE INTO sources ({_SOURCE_COLUMNS}) VALUES ({placeholders(14)})",
                [_source_values(f) for f in files],
            )

    def get_source(self, path: str) -> SourceFile | None:
        rows = self._read(f"SELECT {_SOURCE_COLUMNS} FROM sources WHERE path = ?", (path,))
        return _to_source(rows[0]) if rows else None

    def list_sources(self, root: str | None = None) -> list[SourceFile]:
        where, params = ("WHERE root = ?", [root]) if root is not None else ("", [])
        rows = self._read(f"SELECT {_SOURCE_COLUMNS} FROM sources {where} ORDER BY root, path", params)
        return [_to_source(row) for row in rows]


def _owned_by(scope: Scope | None) -> tuple[str, list[Any]]:
    """A condition on ``sessions`` rows: the session has items in ``scope`` and none outside it.

    The sessions table is keyed by session id alone (no owner columns), and its title and path
    come from whoever imported the session first; so a session's row is shown to a scope only
    when every item of that session belongs to the scope (checked through items_by_session).
    """
    owner = Scope(**{name: getattr(scope, name) for name in OWNER_FIELDS}) if scope is not None else Scope()
    if owner == Scope():
        return "1", []
    where, params = where_clause(SearchFilter(scope=owner))
    inside = f"EXISTS (SELECT 1 FROM items WHERE items.session_id = sessions.session_id AND {where})"
    outside = f"NOT EXISTS (SELECT 1 FROM items WHERE items.session_id = sessions.session_id AND NOT ({where}))"
    return f"{inside} AND {outside}", [*params, *params]
