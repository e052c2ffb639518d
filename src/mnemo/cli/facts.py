"""`mnemo extract`, `mnemo facts`, `mnemo forget`: fact extraction and the stored facts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from mnemo.cli.common import json_option, open_memory, scope_options
from mnemo.cli.output import emit_json, handle_errors
from mnemo.errors import InputError
from mnemo.records import Fact


def _describe(fact: Fact) -> str:
    flags = [name for name, on in (("negated", fact.negated), ("hedged", fact.hedged)) if on]
    status = f" [{fact.status}]" if fact.status and fact.status != "active" else ""
    extra = f" ({', '.join(flags)})" if flags else ""
    weight = f" w={fact.weight:.2f}" if fact.weight is not None else ""
    return f"{fact.subject} {fact.relation} {fact.object}{extra}{status} conf={fact.confidence:.2f}{weight}"


@click.command()
@click.argument("text", required=False)
@click.option("--file", "path", type=click.Path(path_type=Path), help='JSONL of {"id", "text", "lang"?}.')
@click.option("--lang", help="The language (en, es, fr, de, it); default: detected per turn.")
@json_option
@handle_errors
def extract(text: str | None, path: Path | None, lang: str | None, as_json: bool) -> None:
    """Extract facts from TEXT (a user turn), or from every line of --file."""
    from mnemo.extract.pipeline import Extractor

    if path is not None:
        _extract_file(path, lang)
        return
    if text is None:
        raise InputError("give a TEXT, '-' for standard input, or --file")
    analysis = Extractor().analyse(sys.stdin.read() if text == "-" else text, lang)
    if as_json:
        emit_json(analysis.as_dict())
        return
    click.echo(f"lang: {analysis.lang or 'unknown'}  intent: {analysis.intent.value}")
    for fact in analysis.facts:
        click.echo(_describe(fact))
    if not analysis.facts:
        click.echo("(no facts)")


def _extract_file(path: Path, lang: str | None) -> None:
    """One output line per good input line; bad lines are skipped and counted on stderr."""
    from mnemo.extract.pipeline import Extractor

    if not path.is_file():
        raise InputError(f"{path}: no such file")
    skipped = 0
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            record = _record(line)
            if record is None:
                skipped += 1
                click.echo(f"skipped line {number}: not an object with a text", err=True)
                continue
            extractor = Extractor()
            extractor.observe([c for c in record.get("context", []) if isinstance(c, str)], record.get("lang") or lang)
            analysis = extractor.analyse(record["text"], record.get("lang") or lang)
            out = {"id": record.get("id"), "lang": analysis.lang, "intent": analysis.intent.value}
            out["facts"] = [f.as_dict() for f in analysis.facts]
            click.echo(json.dumps(out, ensure_ascii=False))
    if skipped:
        click.echo(f"skipped {skipped} malformed line(s)", err=True)


def _record(line: str) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        return None
    if record.get("lang") is not None and not isinstance(record["lang"], str):
        return None
    if not isinstance(record.get("context", []), list):
        return None
    return record


@click.command()
@click.option("--subject", help="Only facts about this subject (e.g. you, anna).")
@click.option("--relation", help="Only this relation (e.g. lives_in).")
@click.option("--all", "show_all", is_flag=True, help="Include superseded, stale and forgotten facts (history).")
@click.option("--limit", "-n", default=100, show_default=True, type=click.IntRange(1, 10_000))
@scope_options
@json_option
@click.pass_context
@handle_errors
def facts(
    ctx: click.Context,
    subject: str | None,
    relation: str | None,
    show_all: bool,
    limit: int,
    as_json: bool,
    **scope: Any,
) -> None:
    """List stored facts, strongest first."""
    found = open_memory(ctx).facts(subject, relation, None if show_all else "active", limit, **scope)
    if as_json:
        emit_json({"facts": [f.as_dict() for f in found]})
        return
    if not found:
        click.echo("no facts")
    for fact in found:
        click.echo(f"[{fact.id}] {_describe(fact)}")


@click.command()
@click.option("--subject", help="Forget every fact about this subject.")
@click.option("--relation", help="With --subject: only this relation.")
@click.option("--fact", "fact_id", help="Forget one fact by id.")
@scope_options
@json_option
@click.pass_context
@handle_errors
def forget(
    ctx: click.Context, subject: str | None, relation: str | None, fact_id: str | None, as_json: bool, **scope: Any
) -> None:
    """Hard-forget facts: removed from the store, the full-text and vector indexes, and message keys."""
    if (subject is None) == (fact_id is None):
        raise InputError("give exactly one of --subject or --fact")
    if relation is not None and subject is None:
        raise InputError("--relation needs --subject")
    removed = open_memory(ctx).forget(subject=subject, relation=relation, fact_id=fact_id, **scope)
    if as_json:
        emit_json({"forgotten": removed})
    else:
        click.echo(f"forgot {removed} fact(s)")


COMMANDS = [extract, facts, forget]
