"""Soak part: 20 concurrent clients against `mnemo serve` over loopback for the whole budget.

``inputs`` counts requests; the extra figures are throughput, latency quantiles and the server's
RSS after warm-up and at the end (writes update a bounded set of ids, so the data stays the same
size and RSS should stay flat).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.reliability.load import run_load, seed_store


def run(budget_seconds: float, workdir: Path) -> dict[str, Any]:
    workdir.mkdir(parents=True, exist_ok=True)
    db = str(workdir / "load.db")
    seed_store(db, workdir)
    seconds = max(5.0, budget_seconds - 10)  # leave time to seed the store and start the server
    figures = run_load(db, clients=20, seconds=seconds, warmup=min(10.0, seconds / 4))
    return {
        "inputs": figures["requests"],
        "hangs": figures["hangs"],
        "errors": figures["errors"],
        "throughput_rps": figures["throughput_rps"],
        "p50_ms": figures["p50_ms"],
        "p95_ms": figures["p95_ms"],
        "p99_ms": figures["p99_ms"],
        "rss_warm_mb": figures["rss_warm_mb"],
        "rss_end_mb": figures["rss_end_mb"],
        "rss_growth_mb": round(figures["rss_end_mb"] - figures["rss_warm_mb"], 1),
    }
