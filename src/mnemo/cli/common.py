"""Pieces every `mnemo` command module shares: scope options, --json, opening the store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click

from mnemo.api import Memory
from mnemo.errors import InputError

SCOPE_OPTIONS = (
    click.option("--user", "user_id", help="Only this user's memories."),
    click.option("--agent", "agent_id", help="Only this agent's memories."),
    click.option("--project", help="Only this project's memories."),
    click.option("--session", "session_id", help="Only this session's memories."),
)


def scope_options(command: Any) -> Any:
    for option in reversed(SCOPE_OPTIONS):
        command = option(command)
    return command


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


def open_memory(ctx: click.Context) -> Memory:
    memory = Memory(ctx.obj["db"], embedder=ctx.obj["embedder"])
    ctx.call_on_close(memory.close)
    return memory


def jsonl_lines(records: Iterator[dict[str, Any]]) -> Iterator[str]:
    return (json.dumps(record, ensure_ascii=False) for record in records)


def json_object_option(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"--metadata is not valid JSON: {exc.msg}") from exc
    if not isinstance(value, dict):
        raise InputError("--metadata must be a JSON object")
    return value
