"""Soak part: fuzz the query target (see benchmarks/soak/fuzz_targets.py) for the time budget."""

from __future__ import annotations

from pathlib import Path

from benchmarks.soak.fuzz_harness import run_fuzz


def run(budget_seconds: float, workdir: Path) -> dict[str, int | float]:
    return run_fuzz("query", budget_seconds, workdir)
