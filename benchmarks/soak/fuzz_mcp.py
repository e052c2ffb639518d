"""Soak part: fuzz the mcp target (see benchmarks/soak/fuzz_targets.py) for the time budget."""

from __future__ import annotations

from pathlib import Path

from benchmarks.soak.fuzz_harness import run_fuzz


def run(budget_seconds: float, workdir: Path) -> dict[str, int | float]:
    return run_fuzz("mcp", budget_seconds, workdir)
