"""Conversation-level tools: find past sessions about something, then read one.

Plain functions over Memory returning JSON-ready dicts, sized like every other listing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mnemo.api import Memory
from mnemo.context.budget import truncate_to_tokens
from mnemo.errors import InputError
from mnemo.mcp.sizing import budget, fit_entries, json_tokens
from mnemo.mcp.tools import compact, set_fields
from mnemo.records import SessionHit

#: A snippet never takes more than this share of a session search answer.
SNIPPET_SHARE = 8


def session_entry(hit: SessionHit, snippet_tokens: int) -> dict[str, Any]:
    """A found session with its best matching messages, each cut to ``snippet_tokens``."""
    record = hit.as_dict()
    record["score"] = round(hit.score, 4)
    record["snippets"] = [
        compact(
            {
                "message_id": s.message_id,
                "role": s.role,
                "timestamp": s.timestamp.isoformat() if s.timestamp else None,
                "text": truncate_to_tokens(s.text, snippet_tokens),
            }
        )
        for s in hit.snippets
    ]
    del record["signals"]
    if not record["more_matches"]:
        del record["more_matches"]
    return compact(record)


def search_sessions(
    memory: Memory,
    query: str,
    *,
    require: Sequence[str] = (),
    exclude: Sequence[str] = (),
    project: str | None = None,
    current_project: str | None = None,
    exclude_session: str | None = None,
    limit: int = 5,
    max_tokens: int | None = None,
    **scope: str | None,
) -> dict[str, Any]:
    """Past conversations about ``query`` best first, each with its best matching messages."""
    cap = budget(max_tokens)
    hits = memory.search_sessions(
        query,
        require=tuple(require or ()),
        exclude=tuple(exclude or ()),
        project=project,
        current_project=current_project,
        exclude_session=exclude_session,
        limit=limit,
        **set_fields(**scope),
    )
    entries = [session_entry(hit, max(24, cap // SNIPPET_SHARE)) for hit in hits]
    kept, omitted = fit_entries(entries, cap, field="title")
    return {"sessions": kept, "returned": len(kept), "omitted": omitted, "max_tokens": cap}


def read_session(
    memory: Memory,
    session_id: str,
    *,
    offset: int = 0,
    max_tokens: int | None = None,
    **scope: str | None,
) -> dict[str, Any]:
    """One conversation's messages in order from ``offset``, as many as fit ``max_tokens``;
    ``next_offset`` says where to continue."""
    cap = budget(max_tokens)
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise InputError(f"offset must be a non-negative integer, got {offset!r}")
    view = memory.session(session_id, **set_fields(**scope))
    if view is None:
        raise InputError(f"no session {session_id!r} in this scope")
    record = view.as_dict()
    messages = [compact(m) for m in record.pop("messages")[offset:]]
    header = compact(record)
    kept, omitted = fit_entries(messages, cap, reserve=40 + json_tokens(header))
    if messages and not kept:  # an answer with nothing in it and no way forward helps no one
        raise InputError(f"max_tokens={cap} is too small to show one message of this session; ask for more")
    result = {**header, "messages": kept, "offset": offset, "returned": len(kept), "max_tokens": cap}
    if omitted:
        result["next_offset"] = offset + len(kept)
    return result
