"""`mnemo hook claude-code`: the command Claude Code runs on UserPromptSubmit, Stop and SessionEnd.

A hook must never break the user's session: whatever goes wrong (bad payload, locked store,
missing model, server error) the command exits 0, prints nothing, and writes the reason to
$MNEMO_HOME/hook.log. The console script (cli/entry.py) runs the same code without building the
rest of the command line; this click command is what `mnemo --help` lists.
"""

from __future__ import annotations

import sys

import click

from mnemo.cli.common import json_option
from mnemo.hooks.command import HookArgs, render, run_claude_code


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
    answers: the prompt then also runs the per-turn path (fact extraction, the rotating memory
    message). Else works in-process without models (lexical search of other sessions).
    """
    args = HookArgs((ctx.obj or {}).get("db"), max_tokens, as_json)
    text = render(run_claude_code(sys.stdin.read(), args), as_json)
    if text is not None:
        click.echo(text)


COMMANDS = [hook]
