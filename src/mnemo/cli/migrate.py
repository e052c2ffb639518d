"""`mnemo migrate --from SRC --to DST`: copy a whole store between backends, resumable, verified."""

from __future__ import annotations

import sys
from typing import Any

import click

from mnemo.cli.common import json_option
from mnemo.cli.output import emit_json, fail, handle_errors
from mnemo.store.transfer_rows import TABLES
from mnemo.transfer import copy_store, verify_stores
from mnemo.transfer.stores import describe, open_end


@click.command()
@click.option("--from", "source", help="The store to copy (a file path or postgresql:// URL; default: --db).")
@click.option("--to", "target", required=True, help="The store to copy into: empty, or an unfinished copy.")
@click.option("--batch", default=1000, show_default=True, type=int, help="Rows per transaction.")
@click.option(
    "--resume/--restart",
    default=True,
    show_default=True,
    help="Continue an interrupted copy where it stopped, or copy every table from the start again.",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@json_option
@click.pass_context
@handle_errors
def migrate(
    ctx: click.Context, source: str | None, target: str, batch: int, resume: bool, quiet: bool, as_json: bool
) -> None:
    """Copy every memory, vector, fact, session, source and category from one store to another.

    Vectors are copied, not recomputed. Afterwards both stores are compared table by table (row
    counts and checksums); a mismatch exits with status 1.
    """
    source = source or ctx.obj.get("db")
    if not source:
        raise click.UsageError("give --from (or --db / MNEMO_DB)")
    src = open_end(source, must_exist=True)
    try:
        dst = open_end(target, must_exist=False)
        try:
            report, check = _run(src, dst, batch, not resume, hidden=quiet or as_json)
        finally:
            dst.close()
    finally:
        src.close()
    summary: dict[str, Any] = {"from": describe(source), "to": describe(target), **report.as_dict()}
    summary["verify"] = check.as_dict()
    if as_json:
        emit_json(summary)
    else:
        _print_summary(summary)
    if not check.ok:
        fail("verification failed: the destination differs from the source (see the table above)", 1)


def _run(src: Any, dst: Any, batch: int, restart: bool, *, hidden: bool) -> tuple[Any, Any]:
    total = sum(src.count_rows(t.name) for t in TABLES)
    positions: dict[str, int] = {}
    with click.progressbar(length=total, label="copying", file=sys.stderr, hidden=hidden) as bar:

        def advance(table: str, done: int, _rows: int) -> None:
            step = done - positions.get(table, 0)
            positions[table] = done
            bar.label = f"copying {table}"
            bar.update(max(0, step))

        report = copy_store(src, dst, batch=batch, restart=restart, progress=advance)
    with click.progressbar(length=len(TABLES), label="verifying", file=sys.stderr, hidden=hidden) as bar:
        check = verify_stores(src, dst, progress=lambda _table: bar.update(1))
    return report, check


def _print_summary(summary: dict[str, Any]) -> None:
    resumed = " (resumed)" if summary["resumed"] else ""
    click.echo(f"migrated {summary['from']} -> {summary['to']}{resumed}")
    click.echo(f"{'table':<18}{'copied':>9}{'source':>9}{'dest':>9}  checksum")
    for row in summary["verify"]["tables"]:
        state = "ok" if row["ok"] else f"MISMATCH {row['source_checksum']} != {row['target_checksum']}"
        copied = summary["copied"][row["table"]]
        click.echo(f"{row['table']:<18}{copied:>9}{row['source_rows']:>9}{row['target_rows']:>9}  {state}")


COMMANDS = [migrate]
