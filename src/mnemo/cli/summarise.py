"""`mnemo summarise`: (re)build the session summaries progressive search reads first."""

from __future__ import annotations

import sys
from typing import Any

import click

from mnemo.cli.common import json_option, open_memory, scope_options
from mnemo.cli.output import emit_json, handle_errors
from mnemo.retrieve.summaries import SummaryReport


@click.command(name="summarise")
@click.option(
    "--llm/--no-llm",
    default=None,
    help="Insist on the configured LLM (error if none) or never call it; default: the summaries_llm setting.",
)
@click.option("--max-llm", type=click.IntRange(min=0), help="Most sessions (and topics) to send to the LLM.")
@click.option(
    "--what",
    type=click.Choice(["sessions", "categories", "all"]),
    default="all",
    show_default=True,
    help="Summarise sessions, subcategories (topics) or both.",
)
@click.option("--rebuild", is_flag=True, help="Summarise unchanged sessions and topics again too.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@scope_options
@json_option
@click.pass_context
@handle_errors
def summarise(
    ctx: click.Context,
    llm: bool | None,
    max_llm: int | None,
    what: str,
    rebuild: bool,
    quiet: bool,
    as_json: bool,
    **scope: Any,
) -> None:
    """Write a summary of every session and topic in scope: by the LLM when one is configured, else extractive.

    Sessions and topics that did not change keep their LLM summary; an LLM that fails or answers
    with something the session does not support leaves an extractive summary and the reason.
    Topics (subcategories) belong to users: --user narrows them; with --agent, --project or --session
    only sessions are summarised (unless --what categories asks for the topics too)."""
    memory = open_memory(ctx)
    scope = {k: v for k, v in scope.items() if v}
    options = {"llm": llm, "max_llm": max_llm, "rebuild": rebuild}
    reports: dict[str, SummaryReport] = {}
    narrowed = set(scope) - {"user_id"}  # topics have no agent, project or session
    parts = (what,) if what != "all" else ("sessions",) if narrowed else ("sessions", "categories")
    for part in parts:
        label = f"summarising {part}"
        with click.progressbar(length=1, label=label, file=sys.stderr, hidden=quiet or as_json) as bar:

            def step(done: int, total: int) -> None:
                bar.length = max(total, 1)
                bar.update(done - bar.pos)

            if part == "sessions":
                reports[part] = memory.summarise_sessions(progress=step, **options, **scope)
            else:
                reports[part] = memory.summarise_categories(user_id=scope.get("user_id"), progress=step, **options)
    if as_json:
        emit_json({part: report.as_dict() for part, report in reports.items()})
    else:
        click.echo("\n".join(_describe(part, report) for part, report in reports.items()))


def _describe(part: str, report: SummaryReport) -> str:
    line = (
        f"{report.sessions} {part}: {report.llm} by the LLM, {report.extractive} extractive, "
        f"{report.kept} unchanged, {report.empty} with nothing to summarise"
    )
    if report.fallbacks:
        reasons = ", ".join(f"{code} {n}" for code, n in sorted(report.fallbacks.items()))
        line += f"\nfell back to extractive: {reasons}"
    if report.removed:
        line += f", {report.removed} removed (their topic is gone)"
    if report.pending:
        line += f"\n{report.pending} still wait for the LLM: run `mnemo summarise` again later"
    return line


COMMANDS = [summarise]
