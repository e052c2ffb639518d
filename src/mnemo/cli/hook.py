"""`mnemo hook claude-code`: the command Claude Code runs on UserPromptSubmit, Stop and SessionEnd.

A hook must never break the user's session: whatever goes wrong (bad payload, locked store,
missing model, server error) the command exits 0, prints nothing, and writes the reason to
$MNEMO_HOME/hook.log.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from mnemo.cli.common import json_option
from mnemo.cli.output import emit_json
from mnemo.config import load_config
from mnemo.hooks.claude_code import HOOK_BUSY_TIMEOUT_MS, HookOutcome, handle
from mnemo.hooks.payload import HookEvent
from mnemo.hooks.runner import run_logged


@click.group()
def hook() -> None:
    """Commands for assistants' hooks (read a JSON payload on stdin, always exit 0)."""


@hook.command("claude-code")
@click.option("--max-tokens", type=int, help="Token budget of the injected block (default: hook_max_tokens, 600).")
@json_option
@click.pass_context
def claude_code(ctx: click.Context, max_tokens: int | None, as_json: bool) -> None:
    """Record a prompt and print its memories (UserPromptSubmit), or import the transcript (Stop, SessionEnd).

    Uses a running `mnemo serve` (MNEMO_SERVER_URL, default http://127.0.0.1:8765) when one
    answers, else works in-process without models (lexical search, no fact extraction).
    """
    db = (ctx.obj or {}).get("db")

    def work(event: HookEvent) -> HookOutcome:
        config = load_config({"db": db})
        budget = max_tokens if max_tokens is not None else config.hook_max_tokens
        return handle(event, budget, lambda: _open_lexical(config.db_target))

    outcome = run_logged(sys.stdin.read(), work)
    if outcome is None:
        return
    if as_json:
        emit_json({**outcome.as_dict(), "text": outcome.text})
    elif outcome.text:
        click.echo(outcome.text)


def _open_lexical(db: str) -> Any:
    """The store without models: no embedder, and no fact extraction (loading spaCy alone takes
    seconds); a running server does both with its models warm."""
    from mnemo.api import Memory

    return Memory(db, embedder="none", extract_facts=False, busy_timeout_ms=HOOK_BUSY_TIMEOUT_MS)


COMMANDS = [hook]
