"""The `mnemo` command: thin commands, each one call into Memory."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from mnemo.api import Memory
from mnemo.cli.common import json_object_option, json_option, jsonl_lines, open_memory, scope_options
from mnemo.cli.importing import import_group
from mnemo.cli.output import emit_json, handle_errors
from mnemo.cli.search import query_options, run_search
from mnemo.errors import InputError
from mnemo.ingest.normalise import item_to_record


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="MNEMO_DB", help="Store path (default: $MNEMO_HOME/mnemo.db).")
@click.option("--embedder", envvar="MNEMO_EMBEDDER", help="auto, minilm, hashing or none.")
@click.version_option(package_name="mnemo")
@click.pass_context
def cli(ctx: click.Context, db: str | None, embedder: str | None) -> None:
    """mnemo — local-first memory for AI agents: remember, search, build context."""
    ctx.obj = {"db": db, "embedder": embedder}


@cli.command()
@click.argument("text")
@click.option("--role", help="Who said it (user, assistant, a name).")
@click.option("--kind", default="message", show_default=True, help="message, fact, document, note, summary, insight.")
@click.option("--id", "item_id", help="Your id for it; re-adding the same id updates the memory.")
@click.option("--timestamp", help="When it happened (ISO-8601); default: unknown.")
@click.option("--metadata", help="A JSON object stored with it.")
@click.option("--source", help="Where it came from.")
@click.option("--task", "task_id", help="Task id.")
@scope_options
@json_option
@click.pass_context
@handle_errors
def add(ctx: click.Context, text: str, metadata: str | None, as_json: bool, item_id: str | None, **fields: Any) -> None:
    """Remember TEXT (use - to read it from standard input)."""
    content = sys.stdin.read() if text == "-" else text
    item = open_memory(ctx).add(content, id=item_id, metadata=json_object_option(metadata), **fields)
    if as_json:
        emit_json(item_to_record(item))
    else:
        click.echo(f"added {item.id}")


# `mnemo import FILE...` and `mnemo import claude-code|sources ...` (see mnemo.cli.importing)
cli.add_command(import_group)


@cli.command()
@click.argument("query")
@click.option("--limit", "-n", default=10, show_default=True, type=int)
@click.option("--kind", multiple=True, help="Only these kinds (repeatable).")
@click.option("--since", help="Only memories at or after this time (ISO-8601).")
@click.option("--until", help="Only memories before this time (ISO-8601).")
@click.option("--explain", is_flag=True, help="Show each strategy's rank and score behind a hit.")
@click.option("--category", help="Only this category (skills) or subcategory (skills/python_testing).")
@query_options
@scope_options
@json_option
@click.pass_context
@handle_errors
def search(ctx: click.Context, query: str, kind: tuple[str, ...], as_json: bool, explain: bool, **options: Any) -> None:
    """Find the memories that best match QUERY (lexical + semantic + recency; --iterative, --progressive)."""
    run_search(ctx, query, kind or None, as_json, explain, options)


@cli.command()
@click.argument("query")
@click.option("--max-tokens", default=1000, show_default=True, type=int)
@click.option("--kind", multiple=True, help="Only these kinds (repeatable).")
@click.option("--category", help="Only this category (skills) or subcategory (skills/python_testing).")
@click.option("--group-by-category", is_flag=True, help="Put the memories under one heading per category.")
@scope_options
@json_option
@click.pass_context
@handle_errors
def context(
    ctx: click.Context,
    query: str,
    max_tokens: int,
    kind: tuple[str, ...],
    category: str | None,
    group_by_category: bool,
    as_json: bool,
    **scope: Any,
) -> None:
    """Print the memories for QUERY as a prompt block of at most --max-tokens tokens."""
    filters = {"category": category} if category else {}
    pack = open_memory(ctx).context_pack(
        query, max_tokens=max_tokens, kind=kind or None, group_by_category=group_by_category, **filters, **scope
    )
    if as_json:
        emit_json(pack.as_dict())
    else:
        click.echo(pack.text or "(no relevant memories)")


@cli.command()
@click.argument("item_id")
@scope_options
@json_option
@click.pass_context
@handle_errors
def get(ctx: click.Context, item_id: str, as_json: bool, **scope: Any) -> None:
    """Show one memory by id."""
    item = open_memory(ctx).get(item_id, **scope)
    if item is None:
        raise InputError(f"no memory with id {item_id!r}")
    record = item_to_record(item)
    if as_json:
        emit_json(record)
    else:
        for key, value in record.items():
            if value not in (None, {}, ""):
                click.echo(f"{key}: {value}")


@cli.command()
@click.argument("item_id")
@scope_options
@json_option
@click.pass_context
@handle_errors
def delete(ctx: click.Context, item_id: str, as_json: bool, **scope: Any) -> None:
    """Forget one memory by id."""
    removed = open_memory(ctx).delete(item_id, **scope)
    if as_json:
        emit_json({"id": item_id, "deleted": removed})
    elif removed:
        click.echo(f"deleted {item_id}")
    else:
        raise InputError(f"no memory with id {item_id!r}")


@cli.command()
@scope_options
@click.option("--turns", is_flag=True, help="Per-turn memory metrics instead: stage p50/p95 and bullet counts.")
@json_option
@click.pass_context
@handle_errors
def stats(ctx: click.Context, turns: bool, as_json: bool, **scope: Any) -> None:
    """Counts of what the store holds."""
    if turns:
        from mnemo.cli.turn import print_turn_stats, turn_stats

        summary = turn_stats(open_memory(ctx))
        emit_json(summary) if as_json else print_turn_stats(summary)
        return
    numbers = open_memory(ctx).stats(**scope)
    if as_json:
        emit_json(numbers)
        return
    for key, value in numbers.items():
        click.echo(f"{key}: {value}")


@cli.command()
@click.option("--output", "-o", type=click.Path(path_type=Path), help="Write here instead of stdout.")
@click.option("--kind", multiple=True, help="Only these kinds (repeatable).")
@scope_options
@click.pass_context
@handle_errors
def export(ctx: click.Context, output: Path | None, kind: tuple[str, ...], **scope: Any) -> None:
    """Write memories as JSONL that `mnemo import` reads back."""
    lines = jsonl_lines(open_memory(ctx).export(kind=kind or None, **scope))
    if output is None:
        for line in lines:
            click.echo(line)
        return
    count = 0
    with output.open("w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(line + "\n")
            count += 1
    click.echo(f"exported {count} memories to {output}", err=True)


@cli.command()
@click.option("--embedder", "model", required=True, help="The model to re-embed every memory with.")
@click.pass_context
@handle_errors
def reindex(ctx: click.Context, model: str) -> None:
    """Re-embed every memory with another embedding model."""
    memory = Memory(ctx.obj["db"], embedder="none")
    ctx.call_on_close(memory.close)
    with click.progressbar(length=memory.stats()["items"], label="re-embedding", file=sys.stderr) as bar:
        count = memory.reindex(model, progress=lambda done, _total: bar.update(done - bar.pos))
    click.echo(f"re-embedded {count} memories with {model}")


# Commands that live in their own modules register here, one line each.
COMMAND_MODULES: tuple[str, ...] = (
    "serve", "sessions", "sources", "facts", "categories", "rewrite", "hook", "turn", "doctor", "migrate",
    "summarise",
)  # fmt: skip


def _register_commands() -> None:
    import importlib

    for name in COMMAND_MODULES:
        module = importlib.import_module(f"mnemo.cli.{name}")
        for command in module.COMMANDS:
            cli.add_command(command)


_register_commands()


def main() -> None:
    cli(prog_name="mnemo")
