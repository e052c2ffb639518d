"""One session read back in order: what `mnemo sessions show` prints and `Memory.session` returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from mnemo.errors import InputError
from mnemo.records import Item, SearchFilter

#: A short id must have at least this many characters to be looked up by prefix.
MIN_PREFIX = 4


@dataclass(frozen=True, slots=True)
class SessionView:
    """A session's details and its messages in time order."""

    session_id: str
    project: str | None
    title: str | None
    started_at: datetime | None
    ended_at: datetime | None
    git_branch: str | None
    is_fork: bool
    messages: tuple[Item, ...]
    #: Messages left out because they are noise (sub-agent or memory-recall messages) unless ``--all``.
    hidden: int = 0

    def as_dict(self, *, with_tool_output: bool = False) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "project": self.project,
            "title": self.title,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "ended_at": self.ended_at.isoformat() if self.ended_at else None,
            "git_branch": self.git_branch,
            "is_fork": self.is_fork,
            "hidden": self.hidden,
            "messages": [_message(m, with_tool_output) for m in self.messages],
        }


def resolve_session_id(store: Any, given: str, flt: SearchFilter) -> str | None:
    """The full session id for ``given`` (itself or a unique prefix of it) within the scope."""
    text = given.strip() if isinstance(given, str) else ""
    if not text:
        raise InputError("give a session id (or the short id search results print)")
    if store.session_rowids(text, flt, counted_only=False):
        return text
    if len(text) < MIN_PREFIX:
        return None
    found = store.session_ids_with_prefix(text, flt, limit=5)
    if len(found) > 1:
        raise InputError(f"'{text}' is the start of several sessions ({', '.join(found)}); give more of the id")
    return found[0] if found else None


def load_session(store: Any, session_id: str, flt: SearchFilter, *, all_messages: bool = False) -> SessionView:
    every = store.session_rowids(session_id, flt, counted_only=False)
    counted = every if all_messages else store.session_rowids(session_id, flt, counted_only=True)
    items = store.fetch(counted, flt)
    messages = tuple(items[k] for k in counted if k in items)
    getter = getattr(store, "get_session", None)
    session = getter(session_id, flt.scope) if getter is not None else None  # scoped, see SQLiteSources
    first = messages[0] if messages else None
    times = [m.timestamp for m in messages if m.timestamp is not None]
    return SessionView(
        session_id=session_id,
        project=getattr(session, "project", None) or (first.scope.project if first else None),
        title=getattr(session, "title", None),
        started_at=getattr(session, "started_at", None) or (min(times) if times else None),
        ended_at=getattr(session, "ended_at", None) or (max(times) if times else None),
        git_branch=getattr(session, "git_branch", None) or _branch(messages),
        is_fork=bool(getattr(session, "is_fork", False)),
        messages=messages,
        hidden=len(every) - len(counted),
    )


def _branch(messages: tuple[Item, ...]) -> str | None:
    return next((str(m.metadata["git_branch"]) for m in messages if m.metadata.get("git_branch")), None)


def _message(item: Item, with_tool_output: bool) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": item.id,
        "role": item.role,
        "timestamp": item.timestamp.isoformat() if item.timestamp else None,
        "content": item.content,
    }
    meta: Mapping[str, Any] = item.metadata
    if meta.get("tools"):
        record["tools"] = list(meta["tools"])
    if with_tool_output:
        record["sidechain"] = bool(meta.get("sidechain"))
        record["recall_exchange"] = bool(meta.get("recall_exchange"))
        if meta.get("tool_output"):
            record["tool_output"] = meta["tool_output"]
    return record
