"""20 concurrent clients against `mnemo serve` over loopback for ~10 s: no errors, bounded latency, flat RSS."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("mcp")

from tests.reliability.load import run_load, seed_store

SECONDS = 10.0
WARMUP = 3.0
#: RSS may wobble with the allocator; growth beyond this over the run would be a leak.
RSS_SLACK_MB = 25.0


def test_twenty_clients_for_ten_seconds(db_path: str, tmp_path: Path) -> None:
    seed_store(db_path, tmp_path)
    figures = run_load(db_path, clients=20, seconds=SECONDS, warmup=WARMUP)
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["hangs"] == 0
    assert figures["requests"] >= 100, figures  # it really was under load
    assert figures["p95_ms"] < 5_000, figures  # generous: CI machines are slow, the soak reports the real figure
    assert figures["rss_end_mb"] <= figures["rss_warm_mb"] + RSS_SLACK_MB, figures
