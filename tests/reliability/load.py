"""Drive the local HTTP API with concurrent clients over loopback; throughput, latency, errors, RSS.

Shared by ``test_load.py`` (about 10 s) and ``benchmarks/soak/load.py`` (60 s). The server is a real
``mnemo serve`` process; its resident memory is read from ``/proc/<pid>/status``. Writes re-use a
bounded set of ids (a re-added id updates its memory), so the data stops growing and a flat RSS
means the server itself does not leak.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.live_server import mnemo_server
from tests.reliability.conftest import run_mnemo, write_chat_log

WORDS = ("deploy", "budget", "lisbon", "kernel", "garden", "invoice", "piano", "retry", "schema", "coffee", "tax")
#: Ids the writers cycle through: updates after the first pass, so the data set stays the same size.
WRITE_IDS = 200


@dataclass
class LoadResult:
    requests: int = 0
    errors: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    rss_kb: list[tuple[float, int]] = field(default_factory=list)  # (seconds since start, VmRSS)
    error_samples: list[str] = field(default_factory=list)

    def summary(self, warmup: float) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        after_warmup = [kb for at, kb in self.rss_kb if at >= warmup] or [kb for _, kb in self.rss_kb]
        return {
            "requests": self.requests,
            "errors": self.errors,
            "throughput_rps": round(self.requests / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": round(_quantile(ordered, 0.50) * 1000, 1),
            "p95_ms": round(_quantile(ordered, 0.95) * 1000, 1),
            "p99_ms": round(_quantile(ordered, 0.99) * 1000, 1),
            "rss_warm_mb": round(after_warmup[0] / 1024, 1) if after_warmup else 0.0,
            "rss_end_mb": round(after_warmup[-1] / 1024, 1) if after_warmup else 0.0,
            "rss_max_mb": round(max(after_warmup) / 1024, 1) if after_warmup else 0.0,
        }


def seed_store(db: str, workdir: Path, messages_per_session: int = 40) -> int:
    """A store with a few hundred generated messages, imported through the CLI."""
    log = workdir / "seed.jsonl"
    count = write_chat_log(log, sessions=10, turns=messages_per_session, seed=5)
    result = run_mnemo(db, "import", str(log), "--quiet")
    if result.returncode != 0:
        raise AssertionError(f"seeding failed: {result.stderr}")
    return count


def run_load(db: str, *, clients: int = 20, seconds: float = 10.0, warmup: float = 2.0) -> dict[str, Any]:
    """Start ``mnemo serve`` on ``db``, hammer it for ``seconds``, and summarise (RSS after ``warmup``)."""
    with mnemo_server(db) as port:
        pid = server_pid(port)
        result = LoadResult()
        lock = threading.Lock()
        start = time.monotonic()
        stop = start + seconds
        threads = [
            threading.Thread(target=_client, args=(port, n, stop, result, lock), daemon=True) for n in range(clients)
        ]
        for thread in threads:
            thread.start()
        while time.monotonic() < stop:
            result.rss_kb.append((time.monotonic() - start, rss_kb(pid)))
            time.sleep(0.25)
        for thread in threads:
            thread.join(timeout=60)
        result.seconds = time.monotonic() - start
        result.rss_kb.append((result.seconds, rss_kb(pid)))
        hung = sum(1 for thread in threads if thread.is_alive())
    summary = result.summary(warmup)
    summary.update(
        clients=clients, seconds=round(result.seconds, 1), hangs=hung, error_samples=result.error_samples[:5]
    )
    return summary


def _client(port: int, number: int, stop: float, result: LoadResult, lock: threading.Lock) -> None:
    rng = random.Random(number)
    base = f"http://127.0.0.1:{port}/v1"
    latencies: list[float] = []
    errors: list[str] = []
    with httpx.Client(timeout=30) as http:
        while time.monotonic() < stop:
            operation, body = _request(rng)
            began = time.monotonic()
            try:
                response = http.post(f"{base}/{operation}", json=body)
                if response.status_code != 200:
                    errors.append(f"{operation}: HTTP {response.status_code} {response.text[:200]}")
            except httpx.HTTPError as exc:
                errors.append(f"{operation}: {type(exc).__name__}: {exc}")
            latencies.append(time.monotonic() - began)
    with lock:
        result.requests += len(latencies)
        result.errors += len(errors)
        result.latencies += latencies
        result.error_samples += errors[:3]


def _request(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """60% recall, 20% context, 20% remember (updating one of WRITE_IDS)."""
    roll = rng.random()
    words = " ".join(rng.sample(WORDS, 2))
    if roll < 0.6:
        return "recall", {"query": words, "limit": 10}
    if roll < 0.8:
        return "context", {"query": words, "max_tokens": 300}
    text = " ".join(rng.choice(WORDS) for _ in range(10))
    return "remember", {"content": text, "id": f"load-{rng.randrange(WRITE_IDS)}"}


def server_pid(port: int) -> int:
    """The pid of the `mnemo serve` listening on ``port`` (found by its command line)."""
    wanted = ["--port", str(port)]
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv]
        if "serve" in words and any(words[i : i + 2] == wanted for i in range(len(words))):
            return int(entry.name)
    raise AssertionError(f"no server process found for port {port}")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
