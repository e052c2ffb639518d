"""What `mnemo hook claude-code` does per event, through a running server or in-process.

UserPromptSubmit: look up the memories for the prompt in other sessions (the current one is in the
model's context window already), record the prompt as a user message, and hand back the block to
inject. Through a server the prompt also runs the per-turn path (Memory.turn: fact extraction,
novelty, the rotating memory message), whose bullets come first in the block, and the session's
last few messages (read from the end of its transcript, hooks/recent.py) go along with it, so
"why does it still fail?" is searched for what "it" is.
Stop / SessionEnd: import the session's transcript; the importer re-reads only what grew.

In-process work opens the store with the embedder "none" and no fact extraction: loading the
model or spaCy would cost more than the whole hook budget, so a hook without a server searches
lexically only, for the prompt as typed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mnemo.errors import InputError
from mnemo.hooks.client import ServerClient, ServerUnavailable, server_address
from mnemo.hooks.payload import PROMPT_EVENT, HookEvent
from mnemo.hooks.recent import recent_messages
from mnemo.ingest.hook_prompts import hook_prompt_id

SERVER = "server"
LOCAL = "in-process-lexical"
#: A pasted log or file can make a prompt huge; its opening says what it is about.
MAX_QUERY_CHARS = 2000
#: Fail fast on a store another process holds: a hook waits for nobody.
HOOK_BUSY_TIMEOUT_MS = 500


@dataclass(frozen=True)
class HookOutcome:
    event: str
    mode: str
    #: What goes to stdout (for UserPromptSubmit, the context Claude Code adds); "" = nothing.
    text: str = ""
    detail: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "mode": self.mode, "injected": bool(self.text), **self.detail}


def prompt_record(event: HookEvent, now: datetime | None = None) -> dict[str, Any]:
    """The prompt as a memory record: a user message of this session and project.

    The id is derived from session and text, so a hook fired twice for one prompt stores it once,
    and the transcript importer later replaces this copy with the transcript's own.
    """
    prompt = event.prompt or ""
    record: dict[str, Any] = {
        "content": prompt,
        "kind": "message",
        "role": "user",
        "source": "claude-code",
        "session_id": event.session_id,
        "timestamp": (now or datetime.now(tz=UTC)).isoformat(),
        "id": hook_prompt_id(event.session_id, prompt),
        "metadata": {"hook": PROMPT_EVENT},
    }
    if event.cwd:
        record["project"] = event.cwd
    return record


def conversation_before(event: HookEvent) -> list[dict[str, str]]:
    """The session's last messages before this prompt ({role, content}, oldest first). Claude Code
    may have written the prompt to the transcript already: then it is not its own context."""
    messages = recent_messages(event.transcript_path)
    prompt = (event.prompt or "").strip()
    if messages and messages[-1]["role"] == "user" and prompt and messages[-1]["content"][:200] == prompt[:200]:
        messages = messages[:-1]
    return messages


def turn_request(event: HookEvent, max_tokens: int, conversation: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The server's `turn` call: the prompt's opening, other sessions' memories of this project within
    budget, the prompt to store, and the recent ``conversation`` its references are resolved against."""
    request: dict[str, Any] = {
        "text": (event.prompt or "")[:MAX_QUERY_CHARS],
        "session_id": event.session_id,
        "context_tokens": max_tokens,
        "record": prompt_record(event),
    }
    if event.cwd:
        request["project"] = event.cwd
    if conversation:
        request["conversation"] = conversation
    return request


def via_server(client: ServerClient, event: HookEvent, max_tokens: int) -> HookOutcome:
    if event.event != PROMPT_EVENT:
        report = client.call("import_sources", {"paths": [event.transcript_path]})
        return HookOutcome(event.event, SERVER, detail={"import": _counts(report)})
    # the conversation serves only the context search: with no budget for a block it is not read
    conversation = conversation_before(event) if max_tokens else []
    answer = client.call("turn", turn_request(event, max_tokens, conversation))
    context = answer.get("context") or {}
    detail = {
        "conversation": len(conversation),
        "searched_for": context.get("searched_for"),
        "stored": answer.get("stored"),
        "intent": answer.get("intent"),
        "bullets": len(answer.get("bullets") or []),
        "facts_added": len(answer.get("facts_added") or []),
        "used": context.get("used", []),
        "tokens": context.get("tokens", 0),
    }
    return HookOutcome(event.event, SERVER, answer.get("text") or "", detail)


def in_process(open_memory: Callable[[], Any], event: HookEvent, max_tokens: int) -> HookOutcome:
    """The same work on a Memory opened without models (``open_memory`` gives a context manager):
    lexical context of other sessions, the prompt stored; no fact extraction, no per-turn bullets."""
    with open_memory() as memory:
        if event.event != PROMPT_EVENT:
            report = memory.import_sources([event.transcript_path]).as_dict()
            return HookOutcome(event.event, LOCAL, detail={"import": _counts(report)})
        scope = {"project": event.cwd} if event.cwd else {}
        query = (event.prompt or "")[:MAX_QUERY_CHARS]
        # the prompt as typed: importing the rule resolver alone would cost 250 ms, a quarter of
        # the budget, so references are resolved only by a server, where it is loaded already
        pack = memory.prompt_context(query, exclude_session=event.session_id, max_tokens=max_tokens, **scope)
        record = prompt_record(event)
        item = memory.add(record.pop("content"), **record)
        used = {"used": [hit.id for hit in pack.used], "tokens": pack.tokens}
        return HookOutcome(event.event, LOCAL, pack.text, {"stored": item.id, **used})


def handle(event: HookEvent, max_tokens: int, open_memory: Callable[[], Any]) -> HookOutcome:
    """Through the server when one listens, else in-process (lexical only)."""
    if event.event != PROMPT_EVENT and not Path(event.transcript_path or "").is_file():
        raise InputError(f"{event.event}: transcript {event.transcript_path!r} is not a file")
    try:
        client = ServerClient(server_address()).connect()
    except ServerUnavailable as exc:
        outcome = in_process(open_memory, event, max_tokens)
        return HookOutcome(outcome.event, outcome.mode, outcome.text, {**outcome.detail, "server": str(exc)})
    try:
        return via_server(client, event, max_tokens)
    finally:
        client.close()


def _counts(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
