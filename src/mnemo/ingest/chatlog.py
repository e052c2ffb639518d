"""Generic chat logs: JSONL or JSON of ``{role, content, timestamp}`` messages, OpenAI-style lists too.

One file is one session unless its messages carry a session id (``session_id``, ``sessionId``,
``conversation_id``). Tool messages (role ``tool``/``function``) are folded into the assistant turn
that called the tool, out of ``content``, like Claude Code tool results. Pure over parsed values.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mnemo.ingest import noise
from mnemo.ingest.conversation import FileState, Parsed, Turn, finish, fold_tool_turns
from mnemo.ingest.lines import NOT_OBJECT, Line, parse_object

SOURCE = "chat"
NO_CONTENT = "no_content"
UNKNOWN_ROLE = "unknown_role"
_ROLES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "model": "assistant",
    "system": "system",
    "developer": "system",
}
_TOOL_ROLES = frozenset({"tool", "function"})
_SESSION_KEYS = ("session_id", "sessionId", "conversation_id", "session")
MESSAGE_KEYS = frozenset({"role", "content"})


def default_session(path: Path) -> str:
    """A file's own session id: stable for the file's location."""
    return "chat-" + hashlib.blake2b(str(path.resolve()).encode(), digest_size=6).hexdigest()


def looks_like_chat(value: dict[str, Any]) -> bool:
    return "role" in value and ("content" in value or "tool_calls" in value or "text" in value)


def parse_lines(path: Path, lines: Sequence[Line], state: FileState, counted_from: int, end: int) -> list[Parsed]:
    """A JSONL chat log's lines, one ``Parsed`` per session found in them."""
    dropped: Counter[str] = Counter()
    entries: list[tuple[Line, dict[str, Any]]] = []
    for line in lines:
        if not line.raw.strip():
            continue
        value = parse_object(line.raw)
        if isinstance(value, str):
            if line.offset >= counted_from:
                dropped[value] += 1
            continue
        entries.append((line, value))
    return _sessions(path, entries, state, dropped, counted_from, end)


def parse_document(path: Path, value: Any, state: FileState) -> list[Parsed]:
    """A whole JSON chat file: a list of messages, ``{"messages": [...]}``, or a list of those."""
    dropped: Counter[str] = Counter()
    conversations = value if isinstance(value, list) and value and all(_is_conversation(v) for v in value) else [value]
    entries: list[tuple[Line, dict[str, Any]]] = []
    position = 0
    for conversation in conversations:
        session = conversation.get("session_id") or conversation.get("id") if isinstance(conversation, dict) else None
        messages = conversation.get("messages") if isinstance(conversation, dict) else conversation
        if not isinstance(messages, list):
            dropped["not_a_chat"] += 1
            continue
        for message in messages:
            position += 1
            if not isinstance(message, dict):
                dropped[NOT_OBJECT] += 1
                continue
            if session and not any(k in message for k in _SESSION_KEYS):
                message = {**message, "session_id": str(session)}
            entries.append((Line(position, position, b""), message))
    return _sessions(path, entries, state, dropped, 0, position + 1)


def _is_conversation(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("messages"), list)


def _sessions(
    path: Path,
    entries: Iterable[tuple[Line, dict[str, Any]]],
    state: FileState,
    dropped: Counter[str],
    counted_from: int,
    end: int,
) -> list[Parsed]:
    by_session: dict[str, list[Turn]] = {}
    fallback = state.session_id or default_session(path)
    for line, value in entries:
        turn = _turn(path, line, value, fallback, by_session, dropped, counted_from)
        if turn is not None:
            by_session.setdefault(turn.metadata.pop("session"), []).append(turn)
    results: list[Parsed] = []
    for session, turns in by_session.items() or [(fallback, [])]:
        session_state = FileState.from_dict({**state.as_dict(), "session_id": session, "title": None})
        folded, orphans = fold_tool_turns(turns, counted_from)
        counts = Counter({noise.TOOL_ONLY: orphans} if orphans else {})
        results.append(finish(folded, counts, session_state, source=SOURCE, counted_from=counted_from, end=end))
    results[0].dropped.update(dropped)
    return results


def _turn(
    path: Path,
    line: Line,
    value: dict[str, Any],
    fallback: str,
    by_session: dict[str, list[Turn]],
    dropped: Counter[str],
    counted_from: int,
) -> Turn | None:
    counted = line.offset >= counted_from
    role = str(value.get("role") or "").lower()
    session = next((str(value[k]) for k in _SESSION_KEYS if value.get(k)), fallback)
    text = _text(value.get("content", value.get("text")))
    if role in _TOOL_ROLES:  # a tool's answer belongs to the assistant turn that called it
        previous = next((t for t in reversed(by_session.get(session, [])) if t.role == "assistant"), None)
        if previous is not None:
            previous.add_tool_output(text)
        if counted:
            dropped[noise.TOOL_RESULT] += 1
        return None
    if role not in _ROLES:
        if counted:
            dropped[UNKNOWN_ROLE] += 1
        return None
    calls = value.get("tool_calls") if isinstance(value.get("tool_calls"), list) else []
    if not text.strip() and not calls:
        if counted:
            dropped[NO_CONTENT] += 1
        return None
    stamp = value.get("timestamp") or value.get("created_at") or value.get("time")
    digest = hashlib.blake2b(
        "\x1f".join((_ROLES[role], str(stamp or ""), text, str(line.number if not stamp else ""))).encode(),
        digest_size=10,
    ).hexdigest()
    turn = Turn(key=f"chat:{session}:{digest}", role=_ROLES[role], offset=line.offset, line=line.number, text=text)
    turn.timestamp = stamp if isinstance(stamp, (str, int, float)) and not isinstance(stamp, bool) else None
    turn.metadata = {"file": str(path), "line": line.number, "session": session}
    _add_calls(turn, calls)
    return turn  # one without text only calls tools: fold_tool_turns joins it to the reply


def _add_calls(turn: Turn, calls: list[Any]) -> None:
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            name = str(function.get("name") or "tool")
            turn.tools.append(name)
            turn.recall_call |= noise.is_recall_command(name, str(function.get("arguments") or "")[:1000])


def _text(content: Any) -> str:
    """Text of a message: a string, or the text parts of an OpenAI-style content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") if isinstance(p, dict) else p for p in content]
        return "\n\n".join(p for p in parts if isinstance(p, str) and p.strip())
    if content is None:
        return ""
    return json.dumps(content, ensure_ascii=False, default=str)
