"""`mnemo import`: files into Memory.add_many (the default), or conversation sources incrementally.

``mnemo import FILE...`` imports JSONL/JSON messages and markdown documents as it always did;
``mnemo import claude-code`` and ``mnemo import sources PATH...`` run the incremental importers of
``mnemo.ingest.sources`` (a re-run reads only new or grown files).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import click

from mnemo.api import Memory
from mnemo.cli.common import json_option, open_memory, scope_options
from mnemo.cli.output import emit_json, handle_errors
from mnemo.errors import InputError
from mnemo.ingest.files import JSON_SUFFIXES, JSONL_SUFFIXES, TEXT_SUFFIXES, Rejected, count_entries, read_file

_SUPPORTED = JSONL_SUFFIXES | JSON_SUFFIXES | TEXT_SUFFIXES


def expand(paths: Sequence[Path]) -> list[Path]:
    """Files named directly, plus every supported file under named directories."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in _SUPPORTED))
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or directory")
    return files


def import_paths(
    memory: Memory, paths: Sequence[Path], scope: Mapping[str, Any], show_progress: bool
) -> dict[str, Any]:
    totals: dict[str, Any] = {"files": 0, "added": 0, "updated": 0, "unchanged": 0, "skipped": 0, "errors": []}
    for path in expand(paths):
        report = _import_file(memory, path, {k: v for k, v in scope.items() if v}, show_progress)
        totals["files"] += 1
        for key in ("added", "updated", "unchanged", "skipped"):
            totals[key] += report[key]
        totals["errors"].extend(report["errors"])
    totals["errors"] = totals["errors"][:100]
    return totals


def _import_file(memory: Memory, path: Path, scope: Mapping[str, Any], show_progress: bool) -> dict[str, Any]:
    rejected: list[str] = []

    def records() -> Iterator[Mapping[str, Any]]:
        for entry in read_file(path, scope):
            if isinstance(entry, Rejected):
                rejected.append(str(entry))
            else:
                yield entry

    total = count_entries(path)
    show = show_progress and sys.stderr.isatty()
    with click.progressbar(length=total or 0, label=path.name, file=sys.stderr, hidden=not show) as bar:
        report = memory.add_many(
            records(), skip_invalid=True, total=total, progress=lambda done, _t: bar.update(done - bar.pos)
        )
    result = report.as_dict()
    result["errors"] = [*rejected, *(f"{path.name} {e}" for e in result["errors"])]
    result["skipped"] += len(rejected)
    return result


# -- the `import` command group ---------------------------------------------------------------

#: The subcommand run when the first argument names none (``mnemo import FILE...``).
DEFAULT_SUBCOMMAND = "files"


class ImportGroup(click.Group):
    """A group whose arguments, when they do not start with a subcommand name, go to ``files``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = [DEFAULT_SUBCOMMAND, *args]
        return super().parse_args(ctx, args)


@click.group(name="import", cls=ImportGroup)
def import_group() -> None:
    """Import memories: FILE... (JSONL/JSON messages, markdown), or `claude-code` / `sources` incrementally."""


@import_group.command(name=DEFAULT_SUBCOMMAND)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@scope_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@json_option
@click.pass_context
@handle_errors
def import_files(ctx: click.Context, paths: tuple[Path, ...], quiet: bool, as_json: bool, **scope: Any) -> None:
    """Import JSONL/JSON messages and markdown/text documents; malformed lines are skipped and counted."""
    report = import_paths(open_memory(ctx), paths, scope, show_progress=not quiet and not as_json)
    if as_json:
        emit_json(report)
        return
    click.echo(
        f"added {report['added']}, updated {report['updated']}, unchanged {report['unchanged']}, "
        f"skipped {report['skipped']}"
    )
    for error in report["errors"][:10]:
        click.echo(f"  skipped {error}", err=True)


_SOURCE_OPTIONS = (
    click.option("--watch", is_flag=True, help="Keep importing new lines every --interval seconds until Ctrl-C."),
    click.option("--interval", default=30.0, show_default=True, type=click.FloatRange(min=0.1), help="Seconds."),
    click.option(
        "--exclude-session",
        "exclude_sessions",
        multiple=True,
        help="A session not to import yet (default: $MNEMO_CURRENT_SESSION or $CLAUDE_SESSION_ID).",
    ),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary line."),
    json_option,
)


def source_options(command: Any) -> Any:
    for option in reversed(_SOURCE_OPTIONS):
        command = option(command)
    return command


@import_group.command(name="claude-code")
@click.option("--path", "root", type=click.Path(path_type=Path), help="Projects folder (default ~/.claude/projects).")
@source_options
@click.pass_context
@handle_errors
def import_claude_code(ctx: click.Context, root: Path | None, **options: Any) -> None:
    """Import Claude Code transcripts incrementally (only new or grown files are read)."""
    memory = open_memory(ctx)
    _run_sources(lambda **kw: memory.import_claude_code(str(root) if root else None, **kw), **options)


@import_group.command(name="sources")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@source_options
@click.pass_context
@handle_errors
def import_sources(ctx: click.Context, paths: tuple[Path, ...], **options: Any) -> None:
    """Import transcripts, chat logs, markdown notes and facts.jsonl, detected per file, incrementally."""
    memory = open_memory(ctx)
    _run_sources(lambda **kw: memory.import_sources([str(p) for p in paths], **kw), **options)


def _run_sources(
    run: Callable[..., Any],
    *,
    watch: bool,
    interval: float,
    exclude_sessions: tuple[str, ...],
    quiet: bool,
    as_json: bool,
) -> None:
    current = os.environ.get("MNEMO_CURRENT_SESSION") or os.environ.get("CLAUDE_SESSION_ID")
    excluded = exclude_sessions or ((current,) if current else ())
    show = not quiet and not as_json and sys.stderr.isatty()
    try:
        _loop(run, excluded, watch, interval, show, quiet, as_json)
    except KeyboardInterrupt:  # the way to stop --watch; committed work stays committed
        if not watch:
            raise


def _loop(
    run: Callable[..., Any],
    excluded: Sequence[str],
    watch: bool,
    interval: float,
    show: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    with _stop_between_passes() if watch else nullcontext(lambda: False) as stop_requested:
        while True:
            with click.progressbar(length=0, label="importing", file=sys.stderr, hidden=not show) as bar:

                def progress(done: int, total: int) -> None:
                    bar.length = total
                    bar.update(done - bar.pos)

                report = run(progress=progress, exclude_sessions=excluded).as_dict()
            if as_json:
                emit_json(report)
            elif not quiet:
                click.echo(_summary(report))
            if not watch:
                return
            ends = time.monotonic() + interval  # a Ctrl-C during the pass skips this wait at once
            while not stop_requested() and time.monotonic() < ends:
                time.sleep(min(0.1, max(0.0, ends - time.monotonic())))
            if stop_requested():
                return


@contextmanager
def _stop_between_passes() -> Iterator[Callable[[], bool]]:
    """Ctrl-C during ``--watch`` ends the loop after the pass in progress, not inside it.

    Why: an interrupt raised in the middle of a pass can land anywhere in the import (inside a
    write, between a lock's acquire and its release). Once, under CI load, a watching process did
    not exit within 30 s of Ctrl-C; ending only between passes leaves no such window. A second
    Ctrl-C still interrupts at once, for a pass that takes too long.
    """
    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield lambda: False
        return
    requested = threading.Event()

    def on_interrupt(signum: int, frame: object) -> None:
        if requested.is_set():
            raise KeyboardInterrupt
        requested.set()

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield requested.is_set
    finally:
        signal.signal(signal.SIGINT, previous)


def _summary(report: Mapping[str, Any]) -> str:
    dropped = sum(report["dropped"].values())
    return (
        f"{report['files']} files ({report['read_files']} read, {report['unchanged_files']} unchanged), "
        f"{report['sessions']} sessions: added {report['added']}, updated {report['updated']}, "
        f"unchanged {report['unchanged']}, filtered {dropped}, skipped {report['skipped']}"
    )
