"""`mnemo turn`: run one user turn through the per-turn memory and print what it would inject."""

from __future__ import annotations

from typing import Any

import click

from mnemo.cli.common import json_option, open_memory
from mnemo.cli.output import emit_json, handle_errors
from mnemo.hot.metrics import META_KEY, summary_of


@click.command()
@click.argument("text")
@click.option("--session", "session_id", help="Conversation id (novelty and the rotating window are per session).")
@click.option("--user", "user_id", help="Whose memory: facts are stored and recalled for this user only.")
@click.option("--role", type=click.Choice(["user", "assistant"]), default="user", show_default=True)
@json_option
@click.pass_context
@handle_errors
def turn(ctx: click.Context, text: str, session_id: str | None, user_id: str | None, role: str, as_json: bool) -> None:
    """Learn from TEXT (one chat turn) and print the memory message to inject before it."""
    memory = open_memory(ctx)
    result = memory.turn(text, session_id=session_id, user_id=user_id, role=role)
    if as_json:
        emit_json(result.as_dict())
        return
    added = f", {len(result.facts_added)} fact(s) learnt" if result.facts_added else ""
    click.echo(f"intent: {result.intent}{added}; {result.timings_ms['total']:.1f} ms", err=True)
    if result.system_message is None:
        click.echo("(nothing to inject)", err=True)
        return
    click.echo(result.system_message["content"])


def turn_stats(memory: Any) -> dict[str, Any]:
    """Turn metrics saved by every process that used this store."""
    return summary_of(memory.store.get_meta(META_KEY))


def print_turn_stats(summary: dict[str, Any]) -> None:
    for name, value in summary["counts"].items():
        click.echo(f"{name}: {value}")
    for stage, numbers in summary["stages"].items():
        click.echo(f"{stage}_ms: p50 {numbers['p50_ms']:.2f}  p95 {numbers['p95_ms']:.2f}")


COMMANDS = [turn]
