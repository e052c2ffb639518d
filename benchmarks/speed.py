"""Speed of the whole Memory path: add_many vs raw embedding, search latency, RSS, cold start.

Stores of 10k/100k/1M items are built from real chat turns (LoCoMo) with a few random words added
so each item is distinct; their vectors are the real MiniLM vectors of the base turn plus seeded
noise (embedding a million texts would take hours on 2 cores, and search cost does not depend on
how the stored vectors were made). Queries are real questions, embedded by the real model inside
``Memory.search``, so the latency figures include query embedding.
Each size runs in its own subprocess so peak RSS is that size's alone.

Run: ``python -m benchmarks.speed [--sizes 10000,100000,1000000] [--workdir DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import ROOT, SHARED, markdown_table, write_results
from benchmarks.locomo import turns
from mnemo import Memory
from mnemo.embed.base import Embedder, normalise_rows
from mnemo.embed.registry import make_embedder

LOCOMO = SHARED / "data" / "locomo" / "locomo_dev.json"
NOISE = 0.35
_NUMBERED = re.compile(r"#(\d+)$")
QUERIES = 200


def corpus() -> tuple[list[str], list[str]]:
    data = json.loads(LOCOMO.read_text())
    texts = [t["content"] for sample in data for t in turns(sample["conversation"])]
    questions = [q["question"] for sample in data for q in sample["qa"]]
    return list(dict.fromkeys(texts)), questions


class ReplayEmbedder(Embedder):
    """Stands in for MiniLM while *building* a large store: base vector of the turn + seeded noise.

    It carries the real model's name, so the store records it and a later ``Memory`` opens the
    store with the real model for querying.
    """

    name = "all-MiniLM-L6-v2"
    dim = 384
    batch_size = 1024

    def __init__(self, base: np.ndarray) -> None:
        self.base = base

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        # stored texts end in "#<number>"; anything else (the warm-up query, a session summary that
        # quotes such texts) gets a stable number too
        numbers = [int(m.group(1)) if (m := _NUMBERED.search(t)) else zlib.crc32(t.encode()) for t in texts]
        rows = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, number in enumerate(numbers):
            noise = np.random.default_rng(number).standard_normal(self.dim).astype(np.float32)
            rows[row] = self.base[number % len(self.base)] + NOISE * noise / np.sqrt(self.dim)
        return normalise_rows(rows)


def synthetic_records(texts: list[str], n: int) -> Iterator[dict[str, Any]]:
    words = sorted({w for t in texts for w in t.lower().split() if w.isalpha() and len(w) > 3})
    rng = np.random.default_rng(7)
    for number in range(n):
        extra = " ".join(words[i] for i in rng.integers(0, len(words), 3))
        yield {
            "id": f"i{number}",
            "content": f"{texts[number % len(texts)]} {extra} #{number}",
            "role": "user" if number % 2 else "assistant",
            "session_id": f"s{number // 500}",
            "user_id": f"u{number % 10}",
            "timestamp": 1_600_000_000 + number * 60,
        }


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": 1000 * ordered[len(ordered) // 2],
        "p95_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
        # the slowest search too: a p95 hides a plan that takes seconds one time in fifty
        "max_ms": 1000 * ordered[-1],
    }


# ---------------------------------------------------------------- workers (one per subprocess)


def worker_ingest(workdir: Path, rounds: int = 3) -> dict[str, Any]:
    """add_many throughput against the raw embedder on the same 2,000 real turns.

    Raw and add_many runs alternate and the best of each is kept, so a burst of load from
    elsewhere on the machine does not land on one side only.
    """
    texts, _ = corpus()
    texts = texts[:2000]
    model = make_embedder("minilm")
    model.embed(texts[:64])  # load the weights outside the timings
    records = [{"id": f"t{i}", "content": t, "session_id": "s", "role": "user"} for i, t in enumerate(texts)]
    raw_times, add_times = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        model.embed([f"user: {t}" for t in texts])  # the same texts add_many embeds
        raw_times.append(time.perf_counter() - started)
        for stale in workdir.glob("ingest.db*"):  # a reused store would serve every vector from cache
            stale.unlink()
        with Memory(str(workdir / "ingest.db"), embedder=model) as memory:
            started = time.perf_counter()
            memory.add_many(records)
            add_times.append(time.perf_counter() - started)
    raw, total = min(raw_times), min(add_times)
    return {
        "items": len(texts),
        "rounds": rounds,
        "raw_embed_s": raw,
        "add_many_s": total,
        "raw_items_per_s": len(texts) / raw,
        "add_many_items_per_s": len(texts) / total,
        "overhead_pct": 100 * (total / raw - 1),
    }


def worker_build(workdir: Path, n: int) -> dict[str, Any]:
    """Build the store of ``n`` items and its persisted vector index; timings and RSS of the build."""
    texts, _ = corpus()
    base = make_embedder("minilm").embed(texts)
    path = workdir / f"store-{n}.db"
    started = time.perf_counter()
    with Memory(str(path), embedder=ReplayEmbedder(base), batch_size=2000) as memory:
        memory.add_many(synthetic_records(texts, n))
        inserted = time.perf_counter() - started
        memory.search("warm up the vector index", limit=1)  # builds the derived index
        indexed = time.perf_counter() - started - inserted
    return {"n": n, "insert_s": inserted, "index_build_s": indexed, "build_peak_rss_mb": peak_rss_mb()}


def worker_search(workdir: Path, n: int) -> dict[str, Any]:
    """Latency of Memory.search (query embedding included) on the built store, plus RSS."""
    _, questions = corpus()
    queries = questions[:QUERIES]
    started = time.perf_counter()
    memory = Memory(str(workdir / f"store-{n}.db"), embedder="minilm")
    memory.search(queries[0], limit=10)
    open_s = time.perf_counter() - started
    embed_times, search_times, scoped_times = [], [], []
    for query in queries:
        t0 = time.perf_counter()
        memory.embedder.embed_one(query)
        t1 = time.perf_counter()
        memory.search(query, limit=10)
        t2 = time.perf_counter()
        memory.search(query, limit=10, user_id="u3")
        t3 = time.perf_counter()
        embed_times.append(t1 - t0)
        search_times.append(t2 - t1)
        scoped_times.append(t3 - t2)
    index_kind = memory.stats()["vector_index"]
    memory.close()
    return {
        "n": n,
        "index": index_kind,
        "first_search_s": open_s,
        "search": percentiles(search_times),
        "search_user_scoped": percentiles(scoped_times),
        "query_embedding": percentiles(embed_times),
        "search_peak_rss_mb": peak_rss_mb(),
    }


def worker_numpy(workdir: Path, n: int) -> dict[str, Any]:
    """The baseline: exact top-50 over an n×384 float32 matrix with one matrix-vector product."""
    texts, questions = corpus()
    model = make_embedder("minilm")
    base = model.embed(texts)
    replay = ReplayEmbedder(base)
    matrix = np.vstack(
        [replay.embed_batch([f"x #{i}" for i in range(s, min(n, s + 10_000))]) for s in range(0, n, 10_000)]
    )
    queries = model.embed(questions[:QUERIES])
    times = []
    for q in queries:
        t0 = time.perf_counter()
        scores = matrix @ q
        top = np.argpartition(-scores, 50)[:50]
        top[np.argsort(-scores[top])]
        times.append(time.perf_counter() - t0)
    return {"n": n, "numpy_exact": percentiles(times)}


def cold_start(workdir: Path, n: int, runs: int = 5) -> dict[str, float]:
    """Wall time of `mnemo search` in a fresh process on an existing store (model load included)."""
    mnemo = Path(sys.executable).with_name("mnemo")
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(
            [str(mnemo), "--db", str(workdir / f"store-{n}.db"), "search", "what did she paint?"],
            check=True,
            capture_output=True,
            env={**os.environ, "MNEMO_EMBEDDER": "minilm"},
        )
        times.append(time.perf_counter() - t0)
    times.sort()
    return {"median_s": times[len(times) // 2], "max_s": times[-1]}


WORKERS = {"ingest": worker_ingest, "build": worker_build, "search": worker_search, "numpy": worker_numpy}


def in_subprocess(kind: str, workdir: Path, n: int = 0) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.speed", "--worker", kind, "--n", str(n), "--workdir", str(workdir)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work")
    parser.add_argument("--worker", choices=sorted(WORKERS))
    parser.add_argument("--n", type=int, default=0)
    parser.add_argument("--rebuild", action="store_true", help="rebuild stores that already exist")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.worker:
        worker = WORKERS[args.worker]
        result = worker(args.workdir) if args.worker == "ingest" else worker(args.workdir, args.n)
        print(json.dumps(result))
        return
    report: dict[str, Any] = {"ingest": in_subprocess("ingest", args.workdir), "sizes": []}
    print(f"ingest: {report['ingest']}", file=sys.stderr)
    for n in (int(s) for s in args.sizes.split(",") if s):
        row: dict[str, Any] = {"n": n}
        if args.rebuild or not (args.workdir / f"store-{n}.db").exists():
            row.update(in_subprocess("build", args.workdir, n))
        row.update(in_subprocess("search", args.workdir, n))
        row.update(in_subprocess("numpy", args.workdir, n))
        row["cold_start"] = cold_start(args.workdir, n)
        print(f"n={n}: {row}", file=sys.stderr)
        report["sizes"].append(row)
    write_results("speed", report, render(report))


def render(report: dict[str, Any]) -> str:
    ingest = report["ingest"]
    lines = [
        markdown_table(
            ["items", "raw embed items/s", "add_many items/s", "add_many overhead"],
            [
                [
                    ingest["items"],
                    round(ingest["raw_items_per_s"], 1),
                    round(ingest["add_many_items_per_s"], 1),
                    f"{ingest['overhead_pct']:.1f}%",
                ]
            ],
        ),
        "",
        markdown_table(
            [
                "n",
                "search p50 ms",
                "search p95 ms",
                "user-scoped p95 ms",
                "query embed p50 ms",
                "numpy exact p50 ms",
                "numpy exact p95 ms",
                "peak RSS MB (search)",
                "cold start s",
            ],
            [
                [
                    r["n"],
                    round(r["search"]["p50_ms"], 2),
                    round(r["search"]["p95_ms"], 2),
                    round(r["search_user_scoped"]["p95_ms"], 2),
                    round(r["query_embedding"]["p50_ms"], 2),
                    round(r["numpy_exact"]["p50_ms"], 2),
                    round(r["numpy_exact"]["p95_ms"], 2),
                    round(r["search_peak_rss_mb"]),
                    round(r["cold_start"]["median_s"], 2),
                ]
                for r in report["sizes"]
            ],
        ),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
