"""`mnemo rewrite`: resolve a query's references against recent conversation, one or many."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from mnemo.cli.common import json_option, open_memory
from mnemo.cli.output import emit_json, handle_errors
from mnemo.cli.search import read_context
from mnemo.errors import InputError, MnemoError


@click.command(name="rewrite")
@click.argument("query", required=False)
@click.option(
    "--context",
    "context_file",
    type=click.Path(path_type=Path),
    help="JSON file of recent messages [{role, content}], most recent last.",
)
@click.option(
    "--file",
    "in_file",
    type=click.Path(path_type=Path),
    help='JSONL of {"id", "context", "query"} lines; prints one result line per input line.',
)
@json_option
@click.pass_context
@handle_errors
def rewrite(
    ctx: click.Context, query: str | None, context_file: Path | None, in_file: Path | None, as_json: bool
) -> None:
    """Rewrite QUERY so it stands alone: pronouns and "that"/"there"/"the bug" resolved from --context."""
    if (query is None) == (in_file is None):
        raise InputError("give a QUERY or --file IN.jsonl (not both)")
    memory = open_memory(ctx)
    if in_file is not None:
        _rewrite_file(memory, in_file)
        return
    assert query is not None
    result = memory.rewrite(query, read_context(context_file))
    if as_json:
        emit_json(result.as_dict())
    else:
        click.echo(result.expanded)
        if not result.was_rewritten:
            click.echo(f"(unchanged: {result.reason})", err=True)


def _rewrite_file(memory: Any, path: Path) -> None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from exc
    problems: list[str] = []  # said after the bar, which they would otherwise break up
    rewritten = 0
    show = sys.stderr.isatty() and not sys.stdout.isatty()  # a bar only when the lines go elsewhere
    with click.progressbar(
        enumerate(lines, start=1), length=len(lines), label="rewriting", file=sys.stderr, hidden=not show
    ) as bar:
        for number, line in bar:
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if not isinstance(row, dict) or not isinstance(row.get("query"), str):
                    raise InputError("needs a text 'query'")
                result = memory.rewrite(row["query"], row.get("context") or [])
            except (json.JSONDecodeError, MnemoError) as exc:
                problems.append(f"line {number} skipped: {exc}")
                continue
            rewritten += result.was_rewritten
            data = result.as_dict()
            emit_json(
                {
                    "id": row.get("id"),
                    **{k: data[k] for k in ("original", "expanded", "was_rewritten", "confidence", "resolved")},
                }
            )
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        click.echo(f"{len(problems)} line(s) skipped", err=True)
    if show:
        click.echo(f"{rewritten} rewritten", err=True)


COMMANDS = [rewrite]
