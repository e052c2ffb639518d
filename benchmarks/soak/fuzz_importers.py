"""Soak part: fuzz the importers target (see benchmarks/soak/fuzz_targets.py) for the time budget."""

from __future__ import annotations

from pathlib import Path

from benchmarks.soak.fuzz_harness import run_fuzz


def run(budget_seconds: float, workdir: Path) -> dict[str, int | float]:
    return run_fuzz("importers", budget_seconds, workdir)
