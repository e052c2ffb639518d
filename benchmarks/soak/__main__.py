"""Run every soak part and print one table: ``python -m benchmarks.soak [--budget SECONDS] [--only a,b]``.

Each part gets ``--budget`` seconds (default 60) and a fresh work directory. A part whose module
is missing is listed with a note instead of failing the run; a part that raises is counted as one
crash of the harness, with the error in the notes, so one broken part never hides the others.
Results go to benchmarks/results/soak.json and soak.md (through ``benchmarks.common.write_results``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from benchmarks.common import markdown_table, write_results

#: Every part, in the order they run. Each is a module of this package with ``run(budget, workdir)``.
PARTS: tuple[str, ...] = (
    "concurrency",
    "crash",
    "load",
    "fuzz_query",
    "fuzz_importers",
    "fuzz_hook",
    "fuzz_mcp",
    "isolation",
    "privacy",
    "big_file",
)
#: The columns every part reports against; all should be zero but ``inputs``.
COLUMNS: tuple[str, ...] = (
    "inputs",
    "crashes",
    "hangs",
    "lost_writes",
    "duplicates",
    "isolation_violations",
    "bytes_sent",
    "errors",
)
#: Extra figures given a column of their own when any part reports them.
EXTRA: tuple[str, ...] = ("throughput_rps", "p95_ms")
NOT_MEASURED = "–"


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    wanted = _selected(args.only)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="mnemo-soak-") as scratch:
        for name in wanted:
            print(f"soak: {name} ({args.budget:.0f} s budget)...", file=sys.stderr, flush=True)
            results[name] = run_part(name, args.budget, Path(scratch) / name)
    table = render(results)
    name = "soak" if args.only is None else "soak_" + "_".join(wanted)
    write_results(name, {"budget_seconds": args.budget, "parts": results}, table)
    return 0 if all(clean(figures) for figures in results.values()) else 1


def run_part(name: str, budget: float, workdir: Path) -> dict[str, Any]:
    """One part's figures, plus how long it ran; a missing or failing part says so instead."""
    try:
        module = importlib.import_module(f"benchmarks.soak.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"benchmarks.soak.{name}":
            raise  # the part exists but needs something missing: that is a failure to see
        return {"note": "not run: the part's module does not exist yet"}
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        figures = dict(module.run(budget, workdir))
    except Exception:  # one broken part must not hide the others' figures
        figures = {"crashes": 1, "note": "the part itself failed: " + traceback.format_exc(limit=3)[-400:]}
    figures["seconds"] = round(time.monotonic() - started, 1)
    return figures


def clean(figures: dict[str, Any]) -> bool:
    """Every measured count but ``inputs`` is zero."""
    return all(not figures.get(column) for column in COLUMNS[1:])


def render(results: dict[str, dict[str, Any]]) -> str:
    extras = [e for e in EXTRA if any(e in figures for figures in results.values())]
    headers = ["part", *COLUMNS, *extras, "seconds", "notes"]
    rows = []
    for name, figures in results.items():
        known = {*COLUMNS, *extras, "seconds", "note"}
        others = ", ".join(f"{k}={v}" for k, v in figures.items() if k not in known and not isinstance(v, dict))
        notes = "; ".join(filter(None, [str(figures.get("note", "")), others]))
        # a failure report can hold a traceback; the table keeps its first line, the JSON keeps all of it
        notes = " ".join(notes.split())[:300]
        rows.append([name, *(figures.get(c, NOT_MEASURED) for c in (*COLUMNS, *extras, "seconds")), notes])
    legend = f"\n\n{NOT_MEASURED} = not measured by that part."
    return markdown_table(headers, rows) + legend


def _selected(only: str | None) -> list[str]:
    if only is None:
        return list(PARTS)
    wanted = [part.strip() for part in only.split(",") if part.strip()]
    unknown = [part for part in wanted if part not in PARTS]
    if unknown:
        raise SystemExit(f"unknown part(s): {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    return wanted


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0, help="Seconds for each part (default 60).")
    parser.add_argument("--only", help=f"Comma-separated parts to run (default all: {', '.join(PARTS)}).")
    args = parser.parse_args(argv)
    if args.budget <= 0:
        parser.error("--budget must be positive")
    return args


if __name__ == "__main__":
    raise SystemExit(main())
