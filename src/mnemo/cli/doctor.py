"""`mnemo doctor`: check (and with --repair, fix) the store's derived indexes against its items."""

from __future__ import annotations

import click

from mnemo.cli.common import json_option, open_memory
from mnemo.cli.output import emit_json, handle_errors
from mnemo.doctor import Check, DoctorReport


@click.command()
@click.option("--repair", is_flag=True, help="Rebuild or drop derived state that disagrees (never an item).")
@click.option("--quick", is_flag=True, help="PRAGMA quick_check instead of the full integrity_check.")
@json_option
@click.pass_context
@handle_errors
def doctor(ctx: click.Context, repair: bool, quick: bool, as_json: bool) -> None:
    """Check the full-text index, vectors, saved vector index, subcategories and facts against the items.

    Exits 0 when the store is clean (after the repair, with --repair), 1 when problems remain.
    """
    report = open_memory(ctx).doctor(repair=repair, quick=quick)
    if as_json:
        emit_json(report.as_dict())
    else:
        click.echo(render(report))
    if not report.ok:
        ctx.exit(1)  # click closes the store on the way out


def render(report: DoctorReport) -> str:
    lines = [f"{report.backend} store: " + ("ok" if report.ok else "problems found")]
    after = {c.name: c for c in report.after}
    for check in report.checks:
        lines.append(_line(check, after.get(check.name)))
    lines += [f"  skipped {reason}" for reason in report.skipped]
    lines += [f"  note: {note}" for note in report.notes]
    if not report.ok and not report.repaired:
        lines.append("run `mnemo doctor --repair` to rebuild the derived indexes")
    return "\n".join(lines)


def _line(check: Check, after: Check | None) -> str:
    mark = "ok " if check.ok else "BAD"
    text = f"  {mark} {check.name}: {check.detail}"
    if after is not None and not check.ok:
        text += f" -> repaired {check.repaired}, now " + ("ok" if after.ok else f"{after.problems} left")
    return text


COMMANDS = [doctor]
