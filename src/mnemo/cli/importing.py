"""`mnemo import`: stream files into Memory.add_many, counting what was skipped and why."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from mnemo.api import Memory
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
