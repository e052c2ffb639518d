"""Speed and stability of mnemo as a service: the MCP server over stdio and the HTTP API.

1. recall over stdio against the 100k-item store once warm: client-side round trip p50/p95
   (target: p95 <= 50 ms), with the real MiniLM model embedding every query;
2. 1,000 consecutive mixed tool calls on the same server: errors, per-tool p95, server RSS
   before and after (flat memory);
3. 10 concurrent HTTP clients against `mnemo serve` on the same store: errors, p50/p95, RSS.

The store is a copy of the one ``benchmarks/speed.py`` builds (real LoCoMo turns, MiniLM-like
vectors; see there), so this benchmark's writes never touch that one.

Run: ``python -m benchmarks.mcp_speed [--n 100000] [--recalls 300] [--mixed 1000] [--http-calls 50]``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client, StdioServerParameters

from benchmarks.common import ROOT, markdown_table, write_results
from benchmarks.speed import corpus
from mnemo import Memory

WORK = ROOT / "benchmarks" / "work"


def prepare_store(n: int) -> Path:
    """A private copy of the speed benchmark's store (and its saved vector index)."""
    source = WORK / f"store-{n}.db"
    if not source.exists():
        raise SystemExit(f"{source} is missing; build it with: python -m benchmarks.speed --sizes {n}")
    target = WORK / f"mcp-{n}.db"
    for stale in WORK.glob(f"mcp-{n}.db*"):
        stale.unlink()
    # SQLite's backup API: a consistent snapshot even while another process has the store open
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    for index in WORK.glob(f"store-{n}.db.*.hnsw*"):  # named <db>.<store id>.<dim>.hnsw[.json]
        shutil.copyfile(index, WORK / index.name.replace(f"store-{n}.db", f"mcp-{n}.db", 1))
    return target


def settle_store(db: Path) -> float:
    """Bring the copy to the state a store in use is in: migrated and its categories evolved.

    The speed store was built before categories existed; left as is, the first write a server
    receives would classify all of it inline (auto-evolve) - a one-off measured and reported
    here rather than mixed into the per-call figures.
    """
    started = time.perf_counter()
    with Memory(str(db), embedder="minilm") as memory:
        memory.evolve_categories()
    return round(time.perf_counter() - started, 1)


def percentiles(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))], 2)

    return {"p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "mean": round(sum(ordered) / len(ordered), 2)}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def child_server_pid() -> int:
    """The `mnemo mcp` process the stdio client started (a child of this process)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and b"mcp" in cmdline:
            return int(entry.name)
    raise RuntimeError("could not find the MCP server process")


def mixed_call(number: int, questions: list[str], rng: random.Random, stored: list[str]) -> tuple[str, dict[str, Any]]:
    roll = rng.random()
    question = rng.choice(questions)
    if roll < 0.40:
        return "recall", {"query": question, "limit": 10}
    if roll < 0.55:
        return "context", {"query": question, "max_tokens": 800}
    if roll < 0.70:
        return "remember", {"content": f"benchmark note {number}: {question}", "session_id": "bench"}
    if roll < 0.80 and stored:
        return "get", {"id": rng.choice(stored)}
    if roll < 0.90:
        return "search_sessions", {"query": question, "limit": 3}
    if roll < 0.95 and stored:
        return "forget", {"id": stored.pop()}
    return "stats", {}


async def stdio_run(db: Path, questions: list[str], recalls: int, mixed: int) -> dict[str, Any]:
    env = {**os.environ, "MNEMO_EMBEDDER": "minilm"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "mnemo", "--db", str(db), "mcp"], env=env)
    started = time.perf_counter()
    async with Client(params, read_timeout_seconds=600) as client:
        ready_s = time.perf_counter() - started
        pid = child_server_pid()
        for question in questions[:20]:  # warm: caches, allocator, the first queries' code paths
            await client.call_tool("recall", {"query": question})
        latencies, direct, overhead = [], [], []
        with Memory(str(db), embedder="minilm") as local:  # the same search, in this process, no MCP
            local.search("warm up", limit=1)
            for question in questions[20 : 20 + recalls]:
                # paired and back to back, so load from elsewhere on the machine hits both alike
                t0 = time.perf_counter()
                local.search(question, limit=10)
                t1 = time.perf_counter()
                result = await client.call_tool("recall", {"query": question, "limit": 10})
                t2 = time.perf_counter()
                assert not result.is_error, result.content[0].text
                direct.append((t1 - t0) * 1000)
                latencies.append((t2 - t1) * 1000)
                overhead.append((t2 - t1 - (t1 - t0)) * 1000)
        recall = {
            "calls": len(latencies),
            **percentiles(latencies),
            "ready_s": round(ready_s, 2),
            "direct_search": percentiles(direct),
            "mcp_overhead": percentiles(overhead),
        }

        rng = random.Random(11)
        stored: list[str] = []
        per_tool: dict[str, list[float]] = {}
        errors: list[str] = []
        rss_before = rss_mb(pid)
        checkpoints: list[float] = []
        for number in range(mixed):
            name, arguments = mixed_call(number, questions, rng, stored)
            t0 = time.perf_counter()
            result = await client.call_tool(name, arguments)
            per_tool.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
            if result.is_error:
                errors.append(f"{name}: {result.content[0].text[:200]}")
            elif name == "remember":
                stored.append(result.structured_content["id"])
            if (number + 1) % 250 == 0:  # growth that levels off is warm-up; growth that keeps on is a leak
                checkpoints.append(round(rss_mb(pid), 1))
        rss_after = rss_mb(pid)
    mixed_result = {
        "calls": mixed,
        "errors": len(errors),
        "error_samples": errors[:5],
        "rss_before_mb": round(rss_before, 1),
        "rss_after_mb": round(rss_after, 1),
        "rss_every_250_calls_mb": checkpoints,
        "per_tool": {name: {"calls": len(v), **percentiles(v)} for name, v in sorted(per_tool.items())},
    }
    return {"recall": recall, "mixed": mixed_result}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_run(db: Path, questions: list[str], clients: int, calls: int) -> dict[str, Any]:
    port = free_port()
    env = {**os.environ, "MNEMO_EMBEDDER": "minilm"}
    command = [sys.executable, "-m", "mnemo", "--db", str(db), "serve", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base, server)
        for question in questions[:20]:
            httpx.post(f"{base}/v1/recall", json={"query": question}, timeout=60)
        rss_before = rss_mb(server.pid)
        latencies: list[float] = []
        failures: list[str] = []
        lock = threading.Lock()

        def client(number: int) -> None:
            rng = random.Random(number)
            with httpx.Client(base_url=base, timeout=60) as session:
                for turn in range(calls):
                    body = {"query": rng.choice(questions), "limit": 10}
                    path = "/v1/remember" if turn % 10 == 9 else "/v1/recall"
                    if path == "/v1/remember":
                        body = {"content": f"client {number} turn {turn}: {body['query']}"}
                    t0 = time.perf_counter()
                    reply = session.post(path, json=body)
                    elapsed = (time.perf_counter() - t0) * 1000
                    with lock:
                        latencies.append(elapsed)
                        if reply.status_code != 200:
                            failures.append(f"{reply.status_code}: {reply.text[:200]}")

        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started
        rss_after = rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return {
        "clients": clients,
        "calls": len(latencies),
        "errors": len(failures),
        "error_samples": failures[:5],
        "throughput_per_s": round(len(latencies) / wall, 1),
        **percentiles(latencies),
        "rss_before_mb": round(rss_before, 1),
        "rss_after_mb": round(rss_after, 1),
    }


def _wait_for(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"server exited: {server.stderr.read().decode() if server.stderr else ''}")
        try:
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--recalls", type=int, default=300)
    parser.add_argument("--mixed", type=int, default=1000)
    parser.add_argument("--http-clients", type=int, default=10)
    parser.add_argument("--http-calls", type=int, default=50, help="calls per HTTP client")
    args = parser.parse_args()
    _texts, questions = corpus()
    random.Random(5).shuffle(questions)
    load_before = os.getloadavg()[0]  # the machine is shared: say how busy it was
    db = prepare_store(args.n)
    settle_s = settle_store(db)
    stdio = anyio.run(stdio_run, db, questions, args.recalls, args.mixed)
    http = http_run(db, questions, args.http_clients, args.http_calls)
    recall, mixed = stdio["recall"], stdio["mixed"]
    table = "\n\n".join(
        [
            markdown_table(
                [
                    "items",
                    "stdio recall p50 ms",
                    "p95 ms",
                    "p99 ms",
                    "same search in-process p50 / p95 ms",
                    "MCP overhead p50 / p95 ms",
                    "calls",
                    "server ready s",
                ],
                [
                    [
                        args.n,
                        recall["p50"],
                        recall["p95"],
                        recall["p99"],
                        f"{recall['direct_search']['p50']} / {recall['direct_search']['p95']}",
                        f"{recall['mcp_overhead']['p50']} / {recall['mcp_overhead']['p95']}",
                        recall["calls"],
                        recall["ready_s"],
                    ]
                ],
            ),
            markdown_table(
                ["mixed calls", "errors", "RSS before MB", "RSS after MB", "RSS every 250 calls MB"],
                [
                    [
                        mixed["calls"],
                        mixed["errors"],
                        mixed["rss_before_mb"],
                        mixed["rss_after_mb"],
                        " / ".join(map(str, mixed["rss_every_250_calls_mb"])),
                    ]
                ],
            ),
            markdown_table(
                ["tool", "calls", "p50 ms", "p95 ms"],
                [[name, v["calls"], v["p50"], v["p95"]] for name, v in mixed["per_tool"].items()],
            ),
            markdown_table(
                ["HTTP clients", "calls", "errors", "p50 ms", "p95 ms", "calls/s", "RSS before MB", "RSS after MB"],
                [
                    [
                        http["clients"],
                        http["calls"],
                        http["errors"],
                        http["p50"],
                        http["p95"],
                        http["throughput_per_s"],
                        http["rss_before_mb"],
                        http["rss_after_mb"],
                    ]
                ],
            ),
        ]
    )
    payload = {
        "n": args.n,
        "evolve_before_run_s": settle_s,
        "load_average_1m": {"start": round(load_before, 2), "end": round(os.getloadavg()[0], 2)},
        "stdio": stdio,
        "http": http,
    }
    write_results("mcp_speed", payload, table)


if __name__ == "__main__":
    main()
