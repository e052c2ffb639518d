"""Row conversions for the sessions and sources tables, shared by every SQL backend.

Pure functions: a record to the tuple of column values a backend writes, and a row read back to the
record. Column order is the one both backends select: see ``SESSION_FIELDS`` / ``SOURCE_FIELDS``.
"""

from __future__ import annotations

import json
from typing import Any

from mnemo.records import Session, SourceFile
from mnemo.timeutil import from_epoch, to_epoch

SESSION_FIELDS = (
    "session_id",
    "project",
    "source",
    "path",
    "title",
    "started_at",
    "ended_at",
    "message_count",
    "user_message_count",
    "git_branch",
    "is_fork",
)
SOURCE_FIELDS = (
    "path",
    "kind",
    "root",
    "size",
    "mtime",
    "offset",
    "line",
    "bytes_read",
    "head_hash",
    "session_id",
    "messages",
    "dropped",
    "imported_at",
    "state",
)


def session_values(session: Session) -> list[Any]:
    return [
        session.session_id,
        session.project,
        session.source,
        session.path,
        session.title,
        to_epoch(session.started_at),
        to_epoch(session.ended_at),
        session.message_count,
        session.user_message_count,
        session.git_branch,
        int(session.is_fork),
    ]


def to_session(row: tuple[Any, ...]) -> Session:
    sid, project, source, path, title, started, ended, count, users, branch, fork = row
    return Session(
        session_id=sid,
        project=project,
        source=source,
        path=path,
        title=title,
        started_at=from_epoch(started),
        ended_at=from_epoch(ended),
        message_count=int(count),
        user_message_count=int(users),
        git_branch=branch,
        is_fork=bool(fork),
    )


def source_values(f: SourceFile) -> list[Any]:
    return [
        f.path,
        f.kind,
        f.root,
        f.size,
        f.mtime,
        f.offset,
        f.line,
        f.bytes_read,
        f.head_hash,
        f.session_id,
        f.messages,
        f.dropped,
        to_epoch(f.imported_at),
        json.dumps(dict(f.state), ensure_ascii=False, default=str),
    ]


def to_source(row: tuple[Any, ...]) -> SourceFile:
    path, kind, root, size, mtime, offset, line, read, head, sid, messages, dropped, at, state = row
    return SourceFile(
        path=path,
        kind=kind,
        root=root,
        size=int(size),
        mtime=float(mtime),
        offset=int(offset),
        line=int(line),
        bytes_read=int(read),
        head_hash=head,
        session_id=sid,
        messages=int(messages),
        dropped=int(dropped),
        imported_at=from_epoch(at),
        state=json.loads(state) if state else {},
    )


def upsert_session_sql(mark: str, fork_either: str) -> str:
    """The session upsert of both backends, given the placeholder (``?`` or ``%s``) and the
    dialect's "either row is a fork" expression. First writer wins for where a session lives and
    what it is called (its main transcript is read before its subagents); the latest branch wins;
    start and end only widen."""
    columns = ", ".join(SESSION_FIELDS)
    marks = ", ".join([mark] * (len(SESSION_FIELDS) + 1))
    return f"""
INSERT INTO sessions ({columns}, updated_at) VALUES ({marks})
ON CONFLICT (session_id) DO UPDATE SET
    project = coalesce(sessions.project, excluded.project),
    source = coalesce(sessions.source, excluded.source),
    path = coalesce(sessions.path, excluded.path),
    title = coalesce(sessions.title, excluded.title),
    started_at = CASE WHEN sessions.started_at IS NULL OR excluded.started_at < sessions.started_at
                      THEN excluded.started_at ELSE sessions.started_at END,
    ended_at = CASE WHEN sessions.ended_at IS NULL OR excluded.ended_at > sessions.ended_at
                    THEN excluded.ended_at ELSE sessions.ended_at END,
    git_branch = coalesce(excluded.git_branch, sessions.git_branch),
    is_fork = {fork_either},
    updated_at = excluded.updated_at
"""
