"""`mnemo hook claude-code` minus the command-line framework: read the payload, do the work, log.

Shared by the click command (cli/hook.py), the console script's fast lane (cli/entry.py) and the
file entry (hooks/fast.py). Importing it loads only the standard library and the hook modules;
the engine (Memory, numpy, SQLite search) is imported only when no server answers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mnemo.config import load_config
from mnemo.hooks.claude_code import HOOK_BUSY_TIMEOUT_MS, HookOutcome, handle
from mnemo.hooks.payload import HookEvent
from mnemo.hooks.runner import run_logged


@dataclass(frozen=True)
class HookArgs:
    db: str | None = None
    max_tokens: int | None = None
    as_json: bool = False


def run_claude_code(raw: str, args: HookArgs) -> HookOutcome | None:
    """The outcome to print (None: nothing, the reason is in the hook log)."""

    def work(event: HookEvent) -> HookOutcome:
        config = load_config({"db": args.db})
        budget = args.max_tokens if args.max_tokens is not None else config.hook_max_tokens
        return handle(event, budget, lambda: open_lexical(config.db_target))

    return run_logged(raw, work)


def render(outcome: HookOutcome | None, as_json: bool) -> str | None:
    """What to print on stdout (Claude Code adds it to the prompt's context), or None."""
    if outcome is None:
        return None
    if as_json:
        return json.dumps({**outcome.as_dict(), "text": outcome.text}, ensure_ascii=False, default=str)
    return outcome.text or None


def open_lexical(db: str) -> Any:
    """The store without models: no embedder, and no fact extraction (loading spaCy alone takes
    seconds); a running server does both with its models warm."""
    from mnemo.api import Memory

    return Memory(db, embedder="none", extract_facts=False, busy_timeout_ms=HOOK_BUSY_TIMEOUT_MS)


def parse_argv(argv: list[str]) -> HookArgs | None:
    """``[--db X] [--embedder X] hook claude-code [--max-tokens N] [--json]`` → HookArgs; anything
    else (another command, --help, an unknown option) → None, for the full command line to handle."""
    db: str | None = None
    rest = list(argv)
    while rest and rest[0].startswith("--"):
        name, value, rest = _option(rest)
        if name == "--db" and value is not None:
            db = value
        elif name != "--embedder" or value is None:  # the hook never loads a model: --embedder is moot
            return None
    if rest[:2] != ["hook", "claude-code"]:
        return None
    rest = rest[2:]
    max_tokens: int | None = None
    as_json = False
    while rest:
        if rest[0] == "--json":
            as_json, rest = True, rest[1:]
            continue
        name, value, rest = _option(rest)
        if name != "--max-tokens" or value is None or not value.isdigit():
            return None
        max_tokens = int(value)
    return HookArgs(db, max_tokens, as_json)


def _option(args: list[str]) -> tuple[str, str | None, list[str]]:
    """``--name=value`` or ``--name value`` at the head of ``args``: (name, value, the rest)."""
    head = args[0]
    if "=" in head:
        name, _, value = head.partition("=")
        return name, value, args[1:]
    return head, (args[1] if len(args) > 1 else None), args[2:]
