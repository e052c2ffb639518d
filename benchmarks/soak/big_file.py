"""Soak part: a 1 GB Claude Code transcript streamed through the importer with bounded memory.

A transcript of MNEMO_SOAK_BIG_MB megabytes (default 1024; mostly large "progress" lines, as real
transcripts are, with a conversation message every 20th line) is written to disk, then imported
by a child process that reports its own peak RSS (resource.getrusage); a 4 MB import gives the
baseline. Reported: file size, messages, peak and growth in MB, and seconds.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.reliability.big_inputs import import_peak_rss, write_big_transcript


def run(budget_seconds: float, workdir: Path) -> dict[str, int | float]:
    megabytes = float(os.environ.get("MNEMO_SOAK_BIG_MB", "1024"))
    workdir.mkdir(parents=True, exist_ok=True)
    small, small_messages = write_big_transcript(workdir / "small", 4, line_bytes=8000, message_every=20)
    base = import_peak_rss(small, workdir / "small" / "m.db")
    large, messages = write_big_transcript(workdir / "large", megabytes, line_bytes=8000, message_every=20)
    started = time.perf_counter()
    big = import_peak_rss(large, workdir / "large" / "m.db", timeout=max(budget_seconds, 3600))
    seconds = time.perf_counter() - started
    lost = (small_messages - base["added"]) + (messages - big["added"])
    return {
        "inputs": int(big["lines"]),
        "file_mb": megabytes,
        "messages": messages,
        "lost_writes": lost,
        "crashes": 0,
        "peak_rss_mb": round(big["peak_mb"], 1),
        "rss_growth_mb": round(big["peak_mb"] - base["peak_mb"], 1),
        "import_seconds": round(seconds, 1),
    }
