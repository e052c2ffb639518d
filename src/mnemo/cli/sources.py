"""`mnemo sources`: what has been imported, per folder and kind (or per file)."""

from __future__ import annotations

import click

from mnemo.cli.common import json_option, open_memory
from mnemo.cli.output import emit_json, handle_errors


@click.command(name="sources")
@click.option("--files", "per_file", is_flag=True, help="One line per imported file instead of per folder.")
@json_option
@click.pass_context
@handle_errors
def sources(ctx: click.Context, per_file: bool, as_json: bool) -> None:
    """List the imported sources: path, kind, sessions, messages, last import."""
    rows = open_memory(ctx).sources(files=per_file)
    if as_json:
        emit_json({"sources": rows})
        return
    if not rows:
        click.echo("nothing imported yet; try `mnemo import claude-code`")
        return
    for row in rows:
        when = (row.get("last_import") or row.get("imported_at") or "-")[:19].replace("T", " ")
        if per_file:
            click.echo(f"{row['kind']:<12} {row['messages']:>6} msgs  {when}  {row['path']}")
        else:
            click.echo(
                f"{row['kind']:<12} {row['files']:>5} files {row['sessions']:>5} sessions "
                f"{row['messages']:>7} msgs  {when}  {row['path']}"
            )


COMMANDS = [sources]
