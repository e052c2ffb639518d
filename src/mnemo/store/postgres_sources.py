"""Source files and conversation sessions on PostgreSQL: the tables behind incremental imports and
`mnemo sources`, with the semantics of store/sqlite_sources.py.

A mixin of PostgresStore: methods here use the store's ``_read`` (retried reads) and ``_write``
(retried idempotent writes, one transaction each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mnemo.records import OWNER_FIELDS, Scope, SearchFilter, Session, SourceFile
from mnemo.store.postgres_filters import pg_where
from mnemo.store.session_sql import (
    SESSION_FIELDS,
    SOURCE_FIELDS,
    session_values,
    source_values,
    to_session,
    to_source,
    upsert_session_sql,
)
from mnemo.timeutil import now_utc, to_epoch

#: Idempotent DDL, run by PostgresStore's schema runner (mirrors SQLite migration 0002).
SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE IF NOT EXISTS sessions (
        session_id TEXT PRIMARY KEY,
        project TEXT,
        source TEXT,
        path TEXT,
        title TEXT,
        started_at DOUBLE PRECISION,
        ended_at DOUBLE PRECISION,
        message_count BIGINT NOT NULL DEFAULT 0,
        user_message_count BIGINT NOT NULL DEFAULT 0,
        git_branch TEXT,
        is_fork BOOLEAN NOT NULL DEFAULT FALSE,
        updated_at DOUBLE PRECISION NOT NULL
    )
    """,
    "CREATE INDEX IF NOT EXISTS sessions_by_project ON sessions (project, started_at)",
    "CREATE INDEX IF NOT EXISTS sessions_by_start ON sessions (started_at)",
    # fork sessions are few: a partial index lets session search list them without a scan
    "CREATE INDEX IF NOT EXISTS sessions_forks ON sessions (session_id) WHERE is_fork",
    """
    CREATE TABLE IF NOT EXISTS sources (
        path TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        root TEXT,
        size BIGINT NOT NULL DEFAULT 0,
        mtime DOUBLE PRECISION NOT NULL DEFAULT 0,
        "offset" BIGINT NOT NULL DEFAULT 0,
        line BIGINT NOT NULL DEFAULT 1,
        bytes_read BIGINT NOT NULL DEFAULT 0,
        head_hash TEXT NOT NULL DEFAULT '',
        session_id TEXT,
        messages BIGINT NOT NULL DEFAULT 0,
        dropped BIGINT NOT NULL DEFAULT 0,
        imported_at DOUBLE PRECISION,
        state TEXT NOT NULL DEFAULT '{}'
    )
    """,
    "CREATE INDEX IF NOT EXISTS sources_by_root ON sources (root)",
)

_SESSION_COLUMNS = ", ".join(SESSION_FIELDS)
# "offset" is a reserved word in PostgreSQL
_SOURCE_COLUMNS = ", ".join(f'"{name}"' if name == "offset" else name for name in SOURCE_FIELDS)
_MARKS_12 = ", ".join(["%s"] * 12)
_MARKS_14 = ", ".join(["%s"] * 14)
_UPSERT_SESSION = upsert_session_sql("%s", "sessions.is_fork OR excluded.is_fork")
# Counts come from the stored messages themselves, so re-reading a file never doubles them; one
# statement recounts every session of the batch (sessions without items get zero counts).
_SET_TOTALS = """
UPDATE sessions SET
    message_count = coalesce(t.messages, 0),
    user_message_count = coalesce(t.users, 0),
    started_at = CASE WHEN sessions.started_at IS NULL OR t.first < sessions.started_at
                      THEN t.first ELSE sessions.started_at END,
    ended_at = CASE WHEN sessions.ended_at IS NULL OR t.last > sessions.ended_at
                    THEN t.last ELSE sessions.ended_at END
FROM (
    SELECT ids.sid,
           count(*) FILTER (WHERE items.kind = 'message') AS messages,
           count(*) FILTER (WHERE items.kind = 'message' AND items.role = 'user') AS users,
           min(items.ts) AS first, max(items.ts) AS last
    FROM unnest(%s::text[]) AS ids (sid) LEFT JOIN items ON items.session_id = ids.sid
    GROUP BY ids.sid
) AS t
WHERE sessions.session_id = t.sid
"""


class PgSources:
    """Mixed into PostgresStore; see the module docstring."""

    _read: Any
    _write: Any

    def upsert_sessions(self, sessions: Sequence[Session]) -> None:
        """Insert or widen sessions, then recount their messages from the items table."""
        if not sessions:
            return
        stamp = to_epoch(now_utc())
        ids = sorted({s.session_id for s in sessions})
        # rows in key order, so two importers upserting overlapping sessions lock them in the same order
        ordered = sorted(sessions, key=lambda s: s.session_id)
        rows = [[*_pg_session_values(s), stamp] for s in ordered]

        def run(conn: Any) -> None:
            with conn.cursor() as cur:
                cur.executemany(_UPSERT_SESSION, rows)
                for start in range(0, len(ids), 500):
                    cur.execute(_SET_TOTALS, [ids[start : start + 500]])

        self._write(run, "recording sessions")

    def get_session(self, session_id: str, scope: Scope | None = None) -> Session | None:
        """The session's row; with ``scope``, only when every item of the session is in it."""
        owned, params = _owned_by(scope)
        rows = self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE session_id = %s AND {owned}", [session_id, *params]
        )
        return to_session(rows[0]) if rows else None

    def list_sessions(self, project: str | None = None, limit: int = 100, scope: Scope | None = None) -> list[Session]:
        """Sessions, newest first (unknown start last, as SQLite sorts NULL lowest); only one project's
        when ``project`` is given, and only those wholly inside ``scope`` when it is given."""
        owned, params = _owned_by(scope)
        if project is not None:
            owned, params = f"project = %s AND {owned}", [project, *params]
        rows = self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {owned} "
            'ORDER BY started_at DESC NULLS LAST, session_id COLLATE "C" LIMIT %s',
            [*params, int(limit)],
        )
        return [to_session(row) for row in rows]

    def record_sources(self, files: Sequence[SourceFile]) -> None:
        if not files:
            return
        updates = ", ".join(f"{c} = excluded.{c}" for c in _SOURCE_COLUMNS.split(", ") if c != "path")
        sql = f"INSERT INTO sources ({_SOURCE_COLUMNS}) VALUES ({_MARKS_14}) ON CONFLICT (path) DO UPDATE SET {updates}"
        rows = [source_values(f) for f in sorted(files, key=lambda f: f.path)]

        def run(conn: Any) -> None:
            with conn.cursor() as cur:
                cur.executemany(sql, rows)

        self._write(run, "recording sources")

    def get_source(self, path: str) -> SourceFile | None:
        rows = self._read(f"SELECT {_SOURCE_COLUMNS} FROM sources WHERE path = %s", [path])
        return to_source(rows[0]) if rows else None

    def list_sources(self, root: str | None = None) -> list[SourceFile]:
        where, params = ("WHERE root = %s", [root]) if root is not None else ("", [])
        rows = self._read(
            f'SELECT {_SOURCE_COLUMNS} FROM sources {where} ORDER BY root COLLATE "C" NULLS FIRST, path COLLATE "C"',
            params,
        )
        return [to_source(row) for row in rows]


def _owned_by(scope: Scope | None) -> tuple[str, list[Any]]:
    """A condition on ``sessions`` rows: the session has items in ``scope`` and none outside it.

    As on SQLite: the sessions table has no owner columns and its title and path come from whoever
    imported the session first, so a scope sees a session's row only when all its items are in scope.
    """
    owner = Scope(**{name: getattr(scope, name) for name in OWNER_FIELDS}) if scope is not None else Scope()
    if owner == Scope():
        return "TRUE", []
    where, params = pg_where(SearchFilter(scope=owner))
    inside = f"EXISTS (SELECT 1 FROM items WHERE items.session_id = sessions.session_id AND {where})"
    outside = f"NOT EXISTS (SELECT 1 FROM items WHERE items.session_id = sessions.session_id AND NOT ({where}))"
    return f"{inside} AND {outside}", [*params, *params]


def _pg_session_values(session: Session) -> list[Any]:
    values = session_values(session)
    values[-1] = bool(values[-1])  # is_fork is a boolean column here
    return values
