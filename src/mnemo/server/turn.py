"""``POST /v1/turn``: one assistant prompt through the per-turn path (Memory.prompt_turn).

Not an MCP tool: a model has no use for it (it is what runs *before* the model sees a prompt); a
hook or a chat front end calls it once per user turn. The body is checked here, field by field,
so a client learns exactly what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from mnemo.api import Memory
from mnemo.errors import InputError, MnemoError

PATH = "/v1/turn"
#: Messages of conversation a turn may carry: the rewrite reads the last few.
MAX_CONVERSATION = 20
_TEXT_FIELDS = ("session_id", "user_id", "project")

REQUEST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["text"],
    "additionalProperties": False,
    "properties": {
        "text": {"type": "string", "minLength": 1, "description": "The user's turn (prompt)."},
        "session_id": {"type": "string", "description": "The conversation; novelty and the window are per session."},
        "user_id": {"type": "string", "description": "Whose facts are learnt and recalled."},
        "project": {"type": "string", "description": "Limits the context block to this project."},
        "context_tokens": {
            "type": "integer",
            "minimum": 0,
            "default": 0,
            "description": "Token budget of a context block of other sessions' memories (0 = none).",
        },
        "record": {"type": "object", "description": "Store the prompt as this memory (remember's fields)."},
        "conversation": {
            "type": "array",
            "maxItems": MAX_CONVERSATION,
            "items": {
                "type": "object",
                "required": ["role", "content"],
                "properties": {"role": {"type": "string"}, "content": {"type": "string"}},
            },
            "description": "The session's last messages, oldest first: the prompt's references are resolved "
            "against them before the search.",
        },
    },
}
RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "The block to show the model: facts, then the context."},
        "system_message": {"type": ["object", "null"]},
        "bullets": {"type": "array", "items": {"type": "object"}},
        "intent": {"type": "string"},
        "facts_added": {"type": "array", "items": {"type": "string"}},
        "facts_superseded": {"type": "array", "items": {"type": "string"}},
        "gated": {"type": "boolean"},
        "timings_ms": {"type": "object"},
        "context": {"type": "object"},
        "stored": {"type": ["string", "null"]},
    },
}


def turn_arguments(body: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of Memory.prompt_turn from a request body; ValueError says what is wrong."""
    unknown = sorted(set(body) - set(REQUEST_SCHEMA["properties"]))
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(unknown)}")
    if not isinstance(body.get("text"), str) or not body["text"].strip():
        raise ValueError("text: a non-empty string is required")
    arguments: dict[str, Any] = {"text": body["text"]}
    for name in _TEXT_FIELDS:
        value = body.get(name)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{name}: must be a string")
        arguments[name] = value
    tokens = body.get("context_tokens", 0)
    if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
        raise ValueError("context_tokens: must be a non-negative integer")
    record = body.get("record")
    if record is not None and not isinstance(record, dict):
        raise ValueError("record: must be an object")
    return {**arguments, "context_tokens": tokens, "record": record, "conversation": _conversation(body)}


def _conversation(body: dict[str, Any]) -> list[dict[str, str]] | None:
    messages = body.get("conversation")
    if messages is None:
        return None
    if not isinstance(messages, list) or len(messages) > MAX_CONVERSATION:
        raise ValueError(f"conversation: must be a list of at most {MAX_CONVERSATION} messages")
    for message in messages:
        if not isinstance(message, dict) or not all(isinstance(message.get(k), str) for k in ("role", "content")):
            raise ValueError("conversation: each message must be an object with a text role and content")
    return [{"role": m["role"], "content": m["content"]} for m in messages]


def turn_endpoint(memory: Memory) -> Callable[[Request, dict[str, Any]], Awaitable[Response]]:
    """The handler, given the already parsed JSON body."""

    async def turn(_request: Request, body: dict[str, Any]) -> Response:
        try:
            arguments = turn_arguments(body)
            text = arguments.pop("text")
            result = await anyio.to_thread.run_sync(lambda: memory.prompt_turn(text, **arguments))
        except (ValueError, InputError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except MnemoError as exc:  # a locked store, a model that failed to load: the server's problem
            return JSONResponse({"error": str(exc)}, status_code=500)
        return JSONResponse(result)

    return turn


def openapi_paths() -> dict[str, Any]:
    return {
        PATH: {
            "post": {
                "operationId": "turn",
                "summary": "One user turn: learn its facts, rank the known ones, build the memory message.",
                "requestBody": {"required": True, "content": {"application/json": {"schema": REQUEST_SCHEMA}}},
                "responses": {
                    "200": {"description": "Result", "content": {"application/json": {"schema": RESPONSE_SCHEMA}}},
                    "400": {"description": "Bad arguments"},
                    "500": {"description": "The server failed (store, model)"},
                    "401": {"description": "Missing or wrong API key"},
                },
            }
        }
    }
