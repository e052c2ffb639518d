"""`mnemo sessions search|show`: find past conversations and read one back."""

from __future__ import annotations

import os
from typing import Any

import click

from mnemo.cli.common import json_option, open_memory
from mnemo.cli.output import emit_json, handle_errors
from mnemo.errors import InputError
from mnemo.records import SessionHit, Snippet
from mnemo.retrieve.session_view import SessionView
from mnemo.retrieve.sessions import resolve_project

#: Characters of a session id printed as its short id (7, as the recall-output filter expects).
SHORT_ID = 7


@click.group(name="sessions")
def sessions() -> None:
    """Search past conversation sessions (Claude Code transcripts, chat logs) and show one."""


@sessions.command(name="search")
@click.argument("query")
@click.option("--require", multiple=True, help="A term every listed session must mention (repeatable; or +TERM).")
@click.option("--exclude", multiple=True, help="A term no listed session may mention (repeatable; or -TERM).")
@click.option("--project", help="Only sessions of this project (its path).")
@click.option("--current-project", is_flag=True, help="Only sessions of the project of the current directory.")
@click.option("--exclude-session", help="Never list this session (default: $MNEMO_CURRENT_SESSION).")
@click.option("--limit", "-n", default=5, show_default=True, type=int, help="How many sessions to list.")
@click.option("--user", "user_id", help="Only this user's sessions.")
@json_option
@click.pass_context
@handle_errors
def search(
    ctx: click.Context,
    query: str,
    require: tuple[str, ...],
    exclude: tuple[str, ...],
    project: str | None,
    current_project: bool,
    as_json: bool,
    **options: Any,
) -> None:
    """Find the sessions about QUERY: words are OR'ed, +word required, -word excluded, "a phrase" exact.

    Without --project or --current-project, sessions of the current directory's project rank higher.
    """
    if project and current_project:
        raise InputError("give --project or --current-project, not both")
    memory = open_memory(ctx)
    cwd = os.getcwd()
    if current_project:
        project = resolve_project(memory.store, cwd)
    hits = memory.search_sessions(
        query,
        require=require,
        exclude=exclude,
        project=project,
        current_project=None if project else cwd,
        **options,
    )
    if as_json:
        emit_json({"query": query, "sessions": [hit.as_dict() for hit in hits]})
        return
    if not hits:
        click.echo("no matching sessions")
    for rank, hit in enumerate(hits, start=1):
        click.echo(format_session_hit(rank, len(hits), hit))


@sessions.command(name="show")
@click.argument("session_id")
@click.option("--all", "show_all", is_flag=True, help="Also sub-agent and recall messages, with tool output.")
@click.option("--user", "user_id", help="Only this user's messages.")
@json_option
@click.pass_context
@handle_errors
def show(ctx: click.Context, session_id: str, show_all: bool, as_json: bool, user_id: str | None) -> None:
    """Print one session (SESSION_ID, or the short id a search printed)."""
    view = open_memory(ctx).session(session_id, all_messages=show_all, user_id=user_id)
    if view is None:
        raise InputError(f"no session {session_id!r}")
    if as_json:
        emit_json(view.as_dict(with_tool_output=show_all))
    else:
        click.echo(format_session(view, show_all))


def format_session_hit(rank: int, total: int, hit: SessionHit) -> str:
    when = hit.started_at.strftime("%Y-%m-%d") if hit.started_at else "-"
    lines = [f"[{rank}/{total}] {hit.session_id[:SHORT_ID]} • {when} • {hit.project or '-'}", f"    {hit.title}"]
    lines += [f"    > {snippet.role or '?'}: {_highlighted(snippet)}" for snippet in hit.snippets]
    if hit.more_matches:
        lines.append(f"    … and {hit.more_matches} more matches")
    if hit.also_in:
        lines.append("    also in: " + ", ".join(sid[:SHORT_ID] for sid in hit.also_in))
    return "\n".join(lines)


def format_session(view: SessionView, show_all: bool) -> str:
    when = view.started_at.strftime("%Y-%m-%d %H:%M") if view.started_at else "-"
    head = f"session {view.session_id} • {when} • {view.project or '-'}"
    if view.git_branch:
        head += f" • {view.git_branch}"
    lines = [head]
    if view.title:
        lines.append(view.title)
    for message in view.messages:
        stamp = message.timestamp.strftime("%H:%M") if message.timestamp else "--:--"
        lines += ["", click.style(f"{stamp} {message.role or message.kind}:", bold=True), message.content]
        meta = message.metadata
        if show_all and meta.get("tool_output"):
            lines += ["  " + line for line in f"[tool output]\n{meta['tool_output']}".splitlines()]
    if view.hidden and not show_all:
        lines += ["", f"({view.hidden} sub-agent or memory-recall messages hidden; --all shows them)"]
    return "\n".join(lines)


def _highlighted(snippet: Snippet) -> str:
    out, last = [], 0
    for start, end in snippet.highlights:
        out += [snippet.text[last:start], click.style(snippet.text[start:end], bold=True)]
        last = end
    out.append(snippet.text[last:])
    return "".join(out)


COMMANDS = [sessions]
