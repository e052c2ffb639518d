"""The last few things said in a Claude Code session, read from the end of its transcript.

A prompt like "why does it still fail?" names nothing; the messages just before it say what "it"
is. The hook passes them along, so the search for other sessions' memories can resolve the
prompt's references first (query rewriting, docs/search.md). Only the transcript's tail is read,
and only lines that can be conversation are parsed: a long session's file runs to megabytes, most
of it tool output and progress events. It needs only the standard library and the importer's
noise rules (themselves plain regular expressions): this runs in the hook's fast lane, before any
engine is loaded. What the importer does in full (mnemo/ingest/claude_code.py) is done
here only as far as a handful of recent messages needs: typed prompts and replies' text, streamed
replies merged by message id; tool results, meta lines and sub-agents left out, and what the
importer counts as noise (slash commands, interruptions, "ok thanks", mnemo/ingest/noise.py) too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mnemo.ingest.noise import strip_markup, text_noise

#: Bytes read from the end of the transcript: several turns even when tool output is bulky.
TAIL_BYTES = 262_144
#: Messages handed on: the rewrite resolves against the last few turns.
MAX_MESSAGES = 6
#: Characters kept of one message (its start, which names what it is about, and its end, which
#: is nearest the prompt): a pasted log must not make the request or the rewrite slow.
MAX_CHARS = 1_200

_CONVERSATION = re.compile(rb'"type"\s*:\s*"(?:user|assistant)"')


def recent_messages(path: str | Path | None, limit: int = MAX_MESSAGES, tail: int = TAIL_BYTES) -> list[dict[str, str]]:
    """The last ``limit`` messages of the transcript at ``path`` as {role, content}, oldest first;
    [] when there is no such file (the hook goes on without them)."""
    if not path:
        return []
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, 2)
            start = max(0, size - tail)
            handle.seek(start)
            data = handle.read(size - start)
    except OSError:
        return []
    lines = data.split(b"\n")
    if start:
        lines = lines[1:]  # the first line read is the end of a line cut in two
    return conversation_tail(lines, limit)


def conversation_tail(lines: Iterable[bytes], limit: int = MAX_MESSAGES) -> list[dict[str, str]]:
    """The last ``limit`` typed prompts and replies among transcript ``lines``."""
    messages: list[dict[str, str]] = []
    replies: dict[str, dict[str, str]] = {}  # message id -> its entry: a streamed reply spans lines
    for raw in lines:
        if not _CONVERSATION.search(raw):
            continue
        value = _object(raw)
        message = value.get("message") if value else None
        if not value or not isinstance(message, dict) or _aside(value):
            continue
        role = str(value.get("type"))
        text = strip_markup(_text(message.get("content")))
        if not text or text_noise(text, role):
            continue
        message_id = message.get("id") if role == "assistant" else None
        if isinstance(message_id, str) and message_id in replies:
            replies[message_id]["content"] += "\n\n" + text
            continue
        entry = {"role": role, "content": text}
        messages.append(entry)
        if isinstance(message_id, str):
            replies[message_id] = entry
    return [{"role": m["role"], "content": _clip(m["content"])} for m in messages[-limit:]] if limit > 0 else []


def _object(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw)
    except ValueError:  # not JSON, or not UTF-8
        return None
    return value if isinstance(value, dict) else None


def _aside(value: dict[str, Any]) -> bool:
    """Lines that are not the conversation itself: sub-agents, injected notes, the /compact summary."""
    return bool(value.get("isSidechain") or value.get("isMeta") or value.get("isCompactSummary"))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        return ""
    texts = [
        b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    return "\n\n".join(t.strip() for t in texts if t.strip())


def _clip(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    half = MAX_CHARS // 2
    return f"{text[:half]} … {text[-half:]}"
