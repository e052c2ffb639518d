"""Per-stage timings (p50/p95) and injection counts, kept in memory and saved as JSON in the store's meta."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from typing import Any

META_KEY = "turn_metrics"
STAGES = ("intent", "extraction", "update", "retrieval", "total")
COUNTS = ("turns", "computed", "injected", "gated", "pruned")
#: Timing samples kept per stage; enough for a stable p95, small enough to save each flush.
SAMPLES = 1000
#: Seconds between saves: a busy conversation does not write the meta row every turn.
FLUSH_EVERY = 2.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class TurnMetrics:
    def __init__(self, saved: str | None = None) -> None:
        self._lock = threading.Lock()
        data: dict[str, Any] = json.loads(saved) if saved else {}
        self.samples = {s: deque(data.get("samples", {}).get(s, []), maxlen=SAMPLES) for s in STAGES}
        self.counts = {c: int(data.get("counts", {}).get(c, 0)) for c in COUNTS}
        self._saved_at = time.monotonic()
        self.dirty = False

    def record(self, timings: dict[str, float], **counts: int) -> None:
        with self._lock:
            for stage in STAGES:
                self.samples[stage].append(round(timings.get(stage, 0.0), 3))
            for name, value in counts.items():
                self.counts[name] += value
            self.dirty = True

    def due(self) -> bool:
        return self.dirty and time.monotonic() - self._saved_at >= FLUSH_EVERY

    def dump(self) -> str:
        with self._lock:
            self._saved_at = time.monotonic()
            self.dirty = False
            return json.dumps({"samples": {s: list(v) for s, v in self.samples.items()}, "counts": self.counts})

    def summary(self) -> dict[str, Any]:
        with self._lock:
            stages = {s: {"p50_ms": percentile(list(v), 0.5), "p95_ms": percentile(list(v), 0.95)}
                      for s, v in self.samples.items()}  # fmt: skip
            return {"counts": dict(self.counts), "stages": stages}


def summary_of(saved: str | None) -> dict[str, Any]:
    """The summary of metrics saved by any process (what `mnemo stats --turns` prints)."""
    return TurnMetrics(saved).summary()
