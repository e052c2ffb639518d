"""`mnemo categorize` (no store needed) and `mnemo categories [tree|evolve|rename|merge|history]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from mnemo.categories.classify import Classifier
from mnemo.categories.service import classify_texts, llm_from, settings_from
from mnemo.cli.common import json_option, open_memory, scope_options
from mnemo.cli.output import emit_json, handle_errors
from mnemo.config import load_config
from mnemo.embed.registry import make_embedder
from mnemo.errors import InputError


@click.command()
@click.argument("text", required=False)
@click.option("--file", "path", type=click.Path(path_type=Path), help='JSONL of {"id", "text"} lines to classify.')
@json_option
@click.pass_context
@handle_errors
def categorize(ctx: click.Context, text: str | None, path: Path | None, as_json: bool) -> None:
    """Classify TEXT (or every line of --file) into facts, preferences, skills, rules or context.

    With --file, subcategories are grown from the file's own memories; output is one line per
    input line, and malformed lines are skipped and counted on stderr. No store is opened.
    """
    if (text is None) == (path is None):
        raise InputError("give either TEXT or --file")
    config = load_config({"embedder": ctx.obj.get("embedder")})
    embedder = None if config.embedder == "none" else make_embedder(config.embedder)
    classifier = Classifier(embedder)
    if path is None:
        content = sys.stdin.read() if text == "-" else str(text)
        if not content.strip():
            raise InputError("the text is empty")
        vector = embedder.embed_one(content) if embedder else None
        result = {"text": content, **classifier.classify(content, vector).as_dict(), "subcategory": None}
        if as_json:
            emit_json(result)
        else:
            click.echo(f"{result['category']} ({result['confidence']:.2f})")
        return
    ids, texts, errors = _read_lines(path)
    results = classify_texts(classifier, texts, settings_from(config), llm_from(config))
    for item_id, (category, sub, confidence) in zip(ids, results, strict=True):
        record = {"id": item_id, "category": category, "subcategory": sub, "confidence": round(confidence, 4)}
        if as_json:
            emit_json(record)
        else:
            click.echo(f"{item_id}\t{category}/{sub or '-'}\t{confidence:.2f}")
    click.echo(f"categorized {len(ids)}, skipped {len(errors)}", err=True)
    for error in errors[:10]:
        click.echo(f"  skipped {error}", err=True)


def _read_lines(path: Path) -> tuple[list[str], list[str], list[str]]:
    """(ids, texts, errors) of a JSONL file; a line without an object with text is an error."""
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    ids: list[str] = []
    texts: list[str] = []
    errors: list[str] = []
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                errors.append(f"line {number}: not valid JSON")
                continue
            body = record.get("text", record.get("content")) if isinstance(record, dict) else None
            if not isinstance(body, str) or not body.strip():
                errors.append(f"line {number}: no text")
                continue
            ids.append(str(record.get("id", number)))
            texts.append(body)
    return ids, texts, errors


@click.group(invoke_without_command=True)
@scope_options
@json_option
@click.pass_context
def categories(ctx: click.Context, as_json: bool, **scope: Any) -> None:
    """The category tree of the store (default), or evolve / rename / merge subcategories."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(tree, as_json=as_json, **scope)


@categories.command()
@scope_options
@json_option
@click.pass_context
@handle_errors
def tree(ctx: click.Context, as_json: bool, **scope: Any) -> None:
    """Categories and subcategories with how many memories each holds."""
    found = open_memory(ctx).categories(**{k: v for k, v in scope.items() if v})
    if as_json:
        emit_json(found)
        return
    click.echo(f"{found['total']} classified memories")
    for category, node in found["categories"].items():
        click.echo(f"{category} ({node['count']})")
        for name, sub in node["subcategories"].items():
            click.echo(f"  {name} ({sub['count']})  {', '.join(sub['keywords'][:5])}")
        if node["unassigned"]:
            click.echo(f"  - unassigned ({node['unassigned']})")


@categories.command()
@click.option("--full", is_flag=True, help="Recluster from scratch instead of evolving the current subcategories.")
@click.option("--user", "user_id", help="Only this user's subcategories.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@json_option
@click.pass_context
@handle_errors
def evolve(ctx: click.Context, full: bool, user_id: str | None, quiet: bool, as_json: bool) -> None:
    """Grow, split, merge and rename subcategories from the memories stored since the last time."""
    memory = open_memory(ctx)
    hidden = quiet or as_json
    with click.progressbar(length=1, label="evolving", file=sys.stderr, hidden=hidden) as bar:

        def step(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        report = memory.evolve_categories(full=full, user_id=user_id, progress=step)
    if as_json:
        emit_json(report.as_dict())
        return
    for category, numbers in report.categories.items():
        click.echo(f"{category}: {numbers['subcategories']} subcategories, {numbers['unassigned']} unassigned")
    for entry in report.history:
        click.echo(f"  {entry['action']}: {', '.join(entry['old']) or '-'} -> {', '.join(entry['new']) or '-'}")
    click.echo(f"done in {report.seconds:.2f}s ({report.backfilled} older memories classified)")


@categories.command()
@click.argument("old")
@click.argument("new")
@click.option("--user", "user_id", help="Only this user's subcategory.")
@json_option
@click.pass_context
@handle_errors
def rename(ctx: click.Context, old: str, new: str, user_id: str | None, as_json: bool) -> None:
    """Rename subcategory OLD (e.g. skills/pytest_test) to NEW (e.g. python_testing)."""
    done = open_memory(ctx).rename_category(old, new, user_id=user_id)
    if as_json:
        emit_json(done)
    else:
        click.echo(f"renamed {done['renamed']} to {done['to']} ({done['items']} memories)")


@categories.command()
@click.argument("source")
@click.argument("target")
@click.option("--user", "user_id", help="Only this user's subcategories.")
@json_option
@click.pass_context
@handle_errors
def merge(ctx: click.Context, source: str, target: str, user_id: str | None, as_json: bool) -> None:
    """Fold subcategory SOURCE into TARGET (both in one category)."""
    done = open_memory(ctx).merge_categories(source, target, user_id=user_id)
    if as_json:
        emit_json(done)
    else:
        click.echo(f"merged {done['merged']} into {done['into']} ({done['items']} memories)")


@categories.command()
@click.option("--limit", "-n", default=50, show_default=True, type=int)
@click.option("--user", "user_id", help="Only this user's history.")
@json_option
@click.pass_context
@handle_errors
def history(ctx: click.Context, limit: int, user_id: str | None, as_json: bool) -> None:
    """Creations, splits, merges, renames and removals of subcategories, newest first."""
    entries = open_memory(ctx).category_history(limit, user_id=user_id)
    if as_json:
        emit_json(entries)
        return
    for entry in entries:
        old, new = ", ".join(entry["old"]) or "-", ", ".join(entry["new"]) or "-"
        click.echo(f"{entry['at'][:19]} {entry['category']}: {entry['action']} {old} -> {new}")


COMMANDS = [categorize, categories]
