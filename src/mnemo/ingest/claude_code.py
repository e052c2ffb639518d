"""Claude Code transcripts (``~/.claude/projects/<encoded-cwd>/<sessionId>.jsonl``) into message records.

Pure over already-read lines: the caller reads a file from a byte offset and stores where to
continue. Streamed assistant replies (one content block per line, sharing ``message.id``) are merged
into one turn; ``user`` lines that only carry tool results are folded into the turn that called
the tool (kept out of ``content``, a truncated copy in metadata); assistant turns that only call
tools are folded into the nearest assistant turn with text. ``parentUuid`` is not followed: file
order plus ``message.id`` rebuild the turns, so a parent in another file (subagents, compaction)
changes nothing.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnemo.ingest import noise
from mnemo.ingest.conversation import FileState, Parsed, Turn, finish, fold_tool_turns, title_of
from mnemo.ingest.hook_prompts import hook_prompt_id
from mnemo.ingest.lines import Line, parse_object

SOURCE = "claude-code"
MISSING_TIMESTAMP = "missing_timestamp"
MISSING_MESSAGE = "missing_message"
FOREIGN_SESSION = "foreign_session"
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


@dataclass(slots=True)
class _Builder:
    path: Path
    state: FileState
    counted_from: int  # lines before this offset were counted by an earlier run
    turns: list[Turn] = field(default_factory=list)
    by_message: dict[str, Turn] = field(default_factory=dict)
    by_tool: dict[str, Turn] = field(default_factory=dict)
    dropped: Counter[str] = field(default_factory=Counter)

    def drop(self, line: Line, reason: str) -> None:
        if line.offset >= self.counted_from:
            self.dropped[reason] += 1


def decode_project_dir(name: str) -> str:
    """The cwd encoded in a project folder name (``-home-me-app`` → ``/home/me/app``); lossy for dashes."""
    return "/" + name.lstrip("-").replace("-", "/") if name.startswith("-") else name


def project_dir_of(path: Path) -> str:
    """The encoded-cwd folder of a transcript or of a subagent transcript beneath it."""
    parent = path.parent
    if parent.name == "subagents":
        parent = parent.parent.parent
    return parent.name


def parse(path: Path, lines: Sequence[Line], state: FileState, counted_from: int, end: int) -> Parsed:
    """Turn one run's lines into records; ``end`` is where reading stopped."""
    if state.session_id is None:
        state.session_id = _session_from_path(path)
    builder = _Builder(path, state, counted_from)
    for line in lines:
        _read_line(builder, line)
    if state.project is None:
        state.project = decode_project_dir(project_dir_of(path))
    state.session_id = state.session_id or path.stem
    turns, orphans = fold_tool_turns(builder.turns, counted_from)
    if orphans:
        builder.dropped[noise.TOOL_ONLY] += orphans
    fork = noise.is_fork(state.first_type)
    parsed = finish(turns, builder.dropped, state, source=SOURCE, counted_from=counted_from, end=end, fork=fork)
    # `mnemo hook claude-code` stored each prompt when it was submitted: the transcript's copy replaces it
    session = state.session_id
    parsed.retract.extend(hook_prompt_id(session, t.text) for t in turns if t.role == "user" and t.text.strip())
    return parsed


def _read_line(builder: _Builder, line: Line) -> None:
    value = parse_object(line.raw) if line.raw.strip() else None
    if value is None:
        return  # blank lines are not content and not an error
    if isinstance(value, str):
        builder.drop(line, value)
        return
    kind = value.get("type")
    if not isinstance(kind, str | None):  # {"type": {...}} is not a line type; found by the fuzzer
        builder.drop(line, noise.UNKNOWN_TYPE)
        return
    state = builder.state
    if state.first_type is None and kind not in (None, "file-history-snapshot", "summary"):
        state.first_type = str(kind)
    if kind == "summary" and isinstance(value.get("summary"), str) and not state.title:
        state.title = title_of(value["summary"])
    if kind in noise.LINE_TYPE_REASONS:
        builder.drop(line, noise.LINE_TYPE_REASONS[kind])
    elif kind not in ("user", "assistant"):
        builder.drop(line, noise.UNKNOWN_TYPE)
    elif not isinstance(value.get("message"), dict):
        builder.drop(line, MISSING_MESSAGE)
    elif not isinstance(value.get("timestamp"), str):
        builder.drop(line, MISSING_TIMESTAMP)
    elif _foreign(state, value):
        builder.drop(line, FOREIGN_SESSION)
    else:
        _note_session(state, value)
        if kind == "assistant":
            _assistant_line(builder, line, value)
        else:
            _user_line(builder, line, value)


def _session_from_path(path: Path) -> str | None:
    """Claude Code names a transcript by its session id (a subagent's folder too); hand-made files
    may not, and then the lines' own ``sessionId`` is used."""
    name = path.parent.parent.name if path.parent.name == "subagents" else path.stem
    return name if _UUID.match(name) else None


def _foreign(state: FileState, value: dict[str, Any]) -> bool:
    """A line of another session (copied history of a resumed session): stored with its own file."""
    other = value.get("sessionId")
    return isinstance(other, str) and bool(other) and state.session_id is not None and other != state.session_id


def _note_session(state: FileState, value: dict[str, Any]) -> None:
    if not state.session_id and isinstance(value.get("sessionId"), str) and value["sessionId"]:
        state.session_id = value["sessionId"]
    if not state.project and isinstance(value.get("cwd"), str) and value["cwd"]:
        state.project = value["cwd"]
    if isinstance(value.get("gitBranch"), str) and value["gitBranch"]:
        state.git_branch = value["gitBranch"]
    stamp = value["timestamp"]
    state.started_at = min(state.started_at or stamp, stamp)
    state.ended_at = max(state.ended_at or stamp, stamp)


def _new_turn(builder: _Builder, line: Line, value: dict[str, Any], role: str) -> Turn:
    state = builder.state
    session = state.session_id or builder.path.stem
    uid = value.get("uuid") or value["message"].get("id") or f"line{line.number}"
    metadata: dict[str, Any] = {
        "git_branch": value.get("gitBranch") or None,
        "sidechain": bool(value.get("isSidechain")),
        "uuids": [],
        "file": str(builder.path),
        "line": line.number,
    }
    if value.get("agentId"):
        metadata["agent"] = str(value["agentId"])
    turn = Turn(key=f"cc:{session}:{uid}", role=role, offset=line.offset, line=line.number, metadata=metadata)
    if str(value.get("agentId") or "").startswith("acompact"):
        turn.reason = noise.COMPACT_SUMMARY  # the /compact sub-agent: a summary of this same session
    turn.timestamp = value["timestamp"]
    builder.turns.append(turn)
    return turn


def _assistant_line(builder: _Builder, line: Line, value: dict[str, Any]) -> None:
    message = value["message"]
    message_id = message.get("id")
    turn = builder.by_message.get(message_id) if isinstance(message_id, str) else None
    if turn is None:
        turn = _new_turn(builder, line, value, "assistant")
        if isinstance(message_id, str):
            builder.by_message[message_id] = turn
    if value.get("uuid"):
        turn.metadata["uuids"].append(value["uuid"])
    for block in _blocks(message.get("content")):
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            turn.text = f"{turn.text}\n\n{block['text']}" if turn.text.strip() else block["text"]
        elif kind == "tool_use":
            name = str(block.get("name") or "tool")
            turn.tools.append(name)
            if isinstance(block.get("id"), str):
                builder.by_tool[block["id"]] = turn
            arguments = json.dumps(block.get("input"), ensure_ascii=False, default=str)[:1000]
            turn.recall_call = turn.recall_call or noise.is_recall_command(name, arguments)


def _user_line(builder: _Builder, line: Line, value: dict[str, Any]) -> None:
    content = value["message"].get("content")
    texts: list[str] = [content] if isinstance(content, str) else []
    results = 0
    for block in _blocks(content):
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_result":
            results += 1
            target = builder.by_tool.get(str(block.get("tool_use_id")))
            if target is not None:
                target.add_tool_output(_result_text(block.get("content")))
    text = "\n\n".join(t for t in texts if t.strip())
    if not text:
        builder.drop(line, noise.TOOL_RESULT if results else noise.TOO_SHORT)
        return
    turn = _new_turn(builder, line, value, "user")
    turn.text = text
    if value.get("uuid"):
        turn.metadata["uuids"].append(value["uuid"])
    if value.get("isCompactSummary"):
        turn.reason = noise.COMPACT_SUMMARY  # a summary of this same session: a duplicate of it
    elif value.get("isMeta"):
        turn.reason = noise.META  # text injected by the CLI (skills, caveats), not typed


def _blocks(content: Any) -> list[dict[str, Any]]:
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(b["text"] for b in _blocks(content) if isinstance(b.get("text"), str))
