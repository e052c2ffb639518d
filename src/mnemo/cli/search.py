"""Options and output of `mnemo search` for iterative, progressive and context-aware search.

The search command itself stays in cli/main.py; it takes these options with ``@query_options``
and hands over to ``run_search``.
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import shorten
from typing import Any

import click

from mnemo.cli.common import open_memory
from mnemo.cli.output import emit_json, format_hit
from mnemo.errors import InputError
from mnemo.retrieve.tiers import parse_weights

_OPTIONS = (
    click.option("--iterative", is_flag=True, help="Multi-round search: strategies, expansions, fusion."),
    click.option("--max-iter", type=int, help="Most rounds of iterative search (default 2)."),
    click.option(
        "--strategies",
        help="Iterative strategies: exact (alias lexical),semantic,concept,temporal,neighbours,speaker.",
    ),
    click.option("--expansion", help="Iterative expansions: synonyms,hierarchical,context,feedback."),
    click.option("--stop-confidence", type=float, help="Stop iterating once the best match is this good (0-1)."),
    click.option("--fusion-mode", type=click.Choice(["weighted", "rrf"]), help="How rankings are fused."),
    click.option("--progressive", is_flag=True, help="Search tiers from summaries to raw items, stop when enough."),
    click.option(
        "--federated", is_flag=True, help="Search each source (kind) on its own; fuse by source weight and routing."
    ),
    click.option(
        "--source-weight",
        "source_weights",
        multiple=True,
        metavar="KIND=NUMBER",
        help="With --federated: a source's weight, e.g. fact=1.5 (repeatable; 0 leaves it out).",
    ),
    click.option("--no-routing", is_flag=True, help="With --federated: no boost for the source the query names."),
    click.option(
        "--context",
        "context_file",
        type=click.Path(path_type=Path),
        help="JSON file of recent messages [{role, content}] to resolve the query's references.",
    ),
)
_ITERATE_KEYS = ("max_iter", "strategies", "expansion", "stop_confidence", "fusion_mode")


def query_options(command: Any) -> Any:
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def read_context(path: Path | None) -> list[dict[str, Any]] | None:
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the context file {path}: {exc}") from exc
    if isinstance(data, dict) and "context" in data:
        data = data["context"]
    if not isinstance(data, list):
        raise InputError("the context file must hold a JSON list of {role, content} messages")
    return data


def run_search(
    ctx: click.Context, query: str, kind: tuple[str, ...] | None, as_json: bool, explain: bool, options: dict[str, Any]
) -> None:
    memory = open_memory(ctx)
    iterative, progressive = options.pop("iterative", False), options.pop("progressive", False)
    federation = _federation(options, iterative or progressive)
    context = read_context(options.pop("context_file", None))
    tuning = {k: options.pop(k) for k in _ITERATE_KEYS if options.get(k) is not None}
    for key in _ITERATE_KEYS:
        options.pop(key, None)
    if options.get("category") is None:
        options.pop("category", None)
    elif iterative or progressive or federation is not None:
        raise InputError("--category works with the default search, not with --iterative, --progressive or --federated")
    if tuning and not iterative:
        raise InputError(f"--{next(iter(tuning)).replace('_', '-')} needs --iterative")
    report: dict[str, Any] = {}
    if context is not None and not iterative and not progressive:
        rewritten = memory.rewrite(query, context)
        report["rewrite"] = rewritten.as_dict()
    if federation is not None:
        text = report["rewrite"]["expanded"] if context is not None else query
        found = memory.federated_search(text, kind=kind, **federation, **options)
        hits = found.hits
        report.update({k: v for k, v in found.as_dict().items() if k not in ("hits", "query")})
    elif progressive:
        text = memory.rewrite(query, context).expanded if context is not None else query
        result = memory.progressive_search(text, kind=kind, iterative=iterative, **options)
        hits = result.hits
        report.update({k: v for k, v in result.as_dict().items() if k != "hits"})
    elif iterative:
        if "expansion" in tuning:
            tuning["expansions"] = tuning.pop("expansion")
        text = memory.rewrite(query, context).expanded if context is not None else query
        result = memory.iterative_search(text, kind=kind, context=context, **tuning, **options)
        hits = result.hits
        report.update({k: v for k, v in result.as_dict().items() if k not in ("hits", "query")})
    else:
        hits = memory.search(query, kind=kind, context=context, **options)
    notes = [note.as_dict() for note in memory.query_notes(query, context)]
    if as_json:
        emit_json({"query": query, **report, "notes": notes, "hits": [hit.as_dict() for hit in hits]})
        return
    for note in notes:  # on stderr: the hits on stdout stay the same whether or not a note is printed
        click.echo(f"note: {note['message']}", err=True)
    _print(hits, report, explain)


def _federation(options: dict[str, Any], other_mode: bool) -> dict[str, Any] | None:
    """The federated search's weights and routing from the options (None: not a federated search)."""
    federated = options.pop("federated", False)
    pairs, no_routing = options.pop("source_weights", ()), options.pop("no_routing", False)
    if not federated:
        if pairs or no_routing:
            raise InputError(f"{'--source-weight' if pairs else '--no-routing'} needs --federated")
        return None
    if other_mode:
        raise InputError("--federated is a search of its own: leave out --iterative and --progressive")
    return {"weights": parse_weights(pairs), "routing": not no_routing}


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _print(hits: list[Any], report: dict[str, Any], explain: bool) -> None:
    rewrite = report.get("rewrite")
    if rewrite and rewrite.get("was_rewritten"):
        click.echo(f"(searched for: {rewrite['expanded']})")
    if explain and "rounds" in report:
        for round_ in report["rounds"]:
            queries = "; ".join(f"{name}: {text}" for name, text in round_["queries"].items())
            added = ", ".join(f"{name} {count}" for name, count in round_["contributions"].items())
            click.echo(f"round {round_['round']}: {queries}")
            click.echo(f"  in top: {added}; new {round_['new_in_top']}; confidence {round_['confidence']}")
        click.echo(f"stopped: {report['stop_reason']}")
    if explain and "sources" in report:
        routed = set(report["routed_to"])
        shown = [
            f"{kind} x{n['weight']:g}{' (routed)' if kind in routed else ''}: {_count(int(n['hits']), 'hit')}"
            for kind, n in report["sources"].items()
        ]
        click.echo(f"sources: {'; '.join(shown) or 'none in this scope'}")
    if explain and "tiers_searched" in report:
        click.echo(f"tiers searched: {', '.join(report['tiers_searched'])} ({report['stop_reason']})")
        for guide in report.get("guides", [])[:3]:  # summaries rank after what they lead to
            click.echo(f"  guided by {guide['id']}: {shorten(guide['content'], 80)}")
    if not hits:
        click.echo("no matching memories")
    for rank, hit in enumerate(hits, start=1):
        click.echo(format_hit(rank, hit, explain))
