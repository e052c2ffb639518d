"""Vector index speed: build time, search latency, recall@10 and peak RSS per size.

Data is clustered like real embeddings (2000 gaussian centroids, anisotropic noise,
unit length), generated in chunks so memory stays bounded. Each (size, index) pair
runs in its own subprocess so peak RSS is that configuration's alone.
Run: ``python -m benchmarks.index_speed [--sizes 10000,100000] [--skip-exact-above N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import RESULTS, ROOT, markdown_table, write_results
from mnemo.index import ExactIndex, HnswIndex, HnswParams, VectorIndex

DIM = 384
CENTROIDS = 2000
NOISE = 0.75  # total noise norm: a point's cosine to its centroid is about 0.8
CHUNK = 50_000
K = 50
RECALL_AT = 10
SCOPES = (0.01, 0.05, 0.25)  # fractions of the index a caller's `allowed` set covers
EFS_SWEEP = (64, 128, 256, 512)
ALL_DTYPES = "f32,f16,i8"


# ---------------------------------------------------------------- data


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (rows / norms).astype(np.float32)


def clustered_chunks(n: int, stream: int = 1, seed: int = 0, chunk: int = CHUNK) -> Iterator[np.ndarray]:
    """n unit vectors in chunks; the same (seed, stream) always yields the same data.

    The noise has a decaying spectrum in a random basis: sentence embeddings have a
    low intrinsic dimension, and isotropic noise in 384-d would make every point of a
    cluster equidistant, a much harder (and less realistic) problem for HNSW.
    """
    rng = np.random.default_rng(seed)
    centroids = _unit(rng.standard_normal((CENTROIDS, DIM)))
    basis, _ = np.linalg.qr(rng.standard_normal((DIM, DIM)))
    spectrum = np.arange(1, DIM + 1) ** -0.5
    noise = ((spectrum / np.linalg.norm(spectrum) * NOISE)[:, None] * basis.T).astype(np.float32)
    for start in range(0, n, chunk):
        size = min(chunk, n - start)
        draw = np.random.default_rng([seed, stream, start])
        labels = draw.integers(CENTROIDS, size=size)
        yield _unit(centroids[labels] + draw.standard_normal((size, DIM), dtype=np.float32) @ noise)


def queries(count: int) -> np.ndarray:
    return np.vstack(list(clustered_chunks(count, stream=2)))


# ---------------------------------------------------------------- one worker run


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def build(index: VectorIndex, n: int, on_chunk: Callable[[int, np.ndarray], None]) -> float:
    """Add n vectors chunk by chunk (as a growing store would); returns seconds spent adding."""
    spent = 0.0
    start = 0
    for chunk in clustered_chunks(n):
        on_chunk(start, chunk)
        began = time.perf_counter()
        index.add(np.arange(start, start + len(chunk)), chunk)
        spent += time.perf_counter() - began
        start += len(chunk)
    return spent


class TrueTop:
    """Exact top-k of every query, merged chunk by chunk, so no full matrix is kept.

    Queries go in blocks so the temporaries stay small next to the index being measured.
    """

    BLOCK = 25

    def __init__(self, qs: np.ndarray, k: int) -> None:
        self.qs, self.k = qs, k
        self.keys = np.empty((len(qs), 0), dtype=np.int64)
        self.scores = np.empty((len(qs), 0), dtype=np.float32)

    def update(self, start: int, chunk: np.ndarray) -> None:
        keys, scores = [], []
        for first in range(0, len(self.qs), self.BLOCK):
            block = self.qs[first : first + self.BLOCK] @ chunk.T
            best = np.argpartition(-block, self.k - 1, axis=1)[:, : self.k]
            keys.append(best + start)
            scores.append(np.take_along_axis(block, best, axis=1))
        merged_keys = np.hstack([self.keys, np.vstack(keys)])
        merged_scores = np.hstack([self.scores, np.vstack(scores)])
        order = np.argsort(-merged_scores, axis=1)[:, : self.k]
        self.keys = np.take_along_axis(merged_keys, order, axis=1)
        self.scores = np.take_along_axis(merged_scores, order, axis=1)


def latency_ms(
    index: VectorIndex, qs: np.ndarray, allowed: Callable[[], np.ndarray] | None = None
) -> tuple[float, float]:
    """p50 and p95 of single-query search; allowed() is built outside the timed region."""
    for q in qs[:5]:  # warm caches and lazy allocations
        index.search(q, K, allowed() if allowed else None)
    times = []
    for q in qs:
        subset = allowed() if allowed else None
        began = time.perf_counter()
        index.search(q, K, subset)
        times.append((time.perf_counter() - began) * 1000)
    return float(np.percentile(times, 50)), float(np.percentile(times, 95))


def scoped_latencies(index: VectorIndex, n: int, qs: np.ndarray) -> dict[str, list[float]]:
    """p50/p95 with an `allowed` set of random keys covering each fraction of the index.

    Sets are made one at a time: holding them all would add to the peak RSS measured.
    """
    out = {}
    for fraction in SCOPES:
        size = max(1, int(n * fraction))
        subsets = partial(random_subset, np.random.default_rng(3), n, size)
        out[f"{fraction:g}"] = list(latency_ms(index, qs[: len(qs) // 2], subsets))
    return out


def random_subset(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    # Sorted, as an SQL query on rowids would return them.
    return np.sort(rng.choice(n, size=size, replace=False))


def recall_at(index: VectorIndex, qs: np.ndarray, truth: np.ndarray) -> float:
    hits = 0
    for q, true_keys in zip(qs, truth, strict=True):
        found = index.search(q, RECALL_AT)[0]
        hits += len(set(found.tolist()) & set(true_keys[:RECALL_AT].tolist()))
    return hits / (RECALL_AT * len(qs))


def efs_sweep(index: HnswIndex, qs: np.ndarray, truth: np.ndarray) -> dict[str, dict[str, float]]:
    """Recall and latency at other expansion_search values, on the same graph."""
    default = index.expansion_search
    out = {}
    for efs in EFS_SWEEP:
        index.expansion_search = efs
        p50, p95 = latency_ms(index, qs)
        out[str(efs)] = {"recall_at_10": recall_at(index, qs, truth), "p50_ms": p50, "p95_ms": p95}
    index.expansion_search = default
    return out


def run_exact(n: int, n_queries: int) -> dict[str, Any]:
    index = ExactIndex(DIM)
    build_s = build(index, n, lambda start, chunk: None)
    qs = queries(n_queries)
    p50, p95 = latency_ms(index, qs)
    return {"build_s": build_s, "p50_ms": p50, "p95_ms": p95, "scoped_ms": scoped_latencies(index, n, qs)}


def run_hnsw(n: int, n_queries: int, params: HnswParams) -> dict[str, Any]:
    qs = queries(n_queries)
    truth = TrueTop(qs, RECALL_AT)
    index = HnswIndex(DIM, params)
    build_s = build(index, n, truth.update)
    p50, p95 = latency_ms(index, qs)
    result = {
        "build_s": build_s,
        "p50_ms": p50,
        "p95_ms": p95,
        "recall_at_10": recall_at(index, qs, truth.keys),
        "scoped_ms": scoped_latencies(index, n, qs),
        "efs_sweep": efs_sweep(index, qs, truth.keys),
        "usearch_mb": index.memory_usage / 2**20,
        "rss_mb": peak_rss_mb(),
        "params": asdict(params),
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.usearch"
        began = time.perf_counter()
        index.save(path)
        result["save_s"] = time.perf_counter() - began
        result["file_mb"] = path.stat().st_size / 2**20
        del index  # free it first, as a restarting process would have nothing loaded
        began = time.perf_counter()
        loaded = HnswIndex.load(path, DIM, params)
        result["load_s"] = time.perf_counter() - began
        result["loaded_ok"] = loaded is not None and len(loaded) == n
    return result


def worker(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    if args.worker == "exact":
        result = run_exact(args.n, args.queries)
        result["rss_mb"] = peak_rss_mb()
    else:
        result = run_hnsw(args.n, args.queries, hnsw_params(args, args.worker.split(":", 1)[1]))
    result["wall_s"] = time.perf_counter() - began
    print(json.dumps(result))


# ---------------------------------------------------------------- driver


def hnsw_params(args: argparse.Namespace, dtype: str) -> HnswParams:
    return replace(
        HnswParams(),
        dtype=dtype,
        connectivity=args.connectivity,
        expansion_add=args.expansion_add,
        expansion_search=args.expansion_search,
    )


def spawn(kind: str, n: int, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.index_speed", "--worker", kind, "--n", str(n)]
    command += ["--queries", str(args.queries), "--connectivity", str(args.connectivity)]
    command += ["--expansion-add", str(args.expansion_add), "--expansion-search", str(args.expansion_search)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    print(f"running {kind} at n={n} ...", file=sys.stderr, flush=True)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return {"kind": kind, "n": n, "error": done.stderr.strip().splitlines()[-1:] or ["failed"]}
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"  done in {result['wall_s']:.0f}s", file=sys.stderr, flush=True)
    return {"kind": kind, "n": n, **result}


def merged(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """New runs replace saved runs of the same (n, index); the others are kept."""
    path = RESULTS / "index_speed.json"
    saved = json.loads(path.read_text())["runs"] if path.exists() else []
    fresh = {(run.get("n"), run.get("kind")) for run in runs}
    kept = [run for run in saved if (run.get("n"), run.get("kind")) not in fresh]
    return sorted(kept + runs, key=lambda run: (run.get("n", 0), run.get("kind", "")))


def table(runs: list[dict[str, Any]]) -> str:
    headers = ["n", "index", "build s", "p50 ms", "p95 ms", "recall@10", "peak RSS MB"]
    headers += [f"p95 ms allowed={f:g}" for f in SCOPES]
    rows = []
    for run in runs:
        if "error" in run:
            continue
        scoped = [run["scoped_ms"][f"{f:g}"][1] for f in SCOPES]
        recall = run.get("recall_at_10", "exact")
        row = [run["n"], run["kind"], run["build_s"], run["p50_ms"], run["p95_ms"], recall, round(run["rss_mb"])]
        rows.append(row + scoped)
    return markdown_table(headers, rows)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    defaults = HnswParams()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated index sizes")
    parser.add_argument("--skip-exact-above", type=int, default=None, help="no exact run above this size")
    parser.add_argument("--dtypes", default=defaults.dtype, help="HNSW dtypes to run, e.g. f32,f16,i8 ('' for none)")
    parser.add_argument("--dtype-sweep-at", default="100000", help=f"sizes at which to run all of {ALL_DTYPES}")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--merge", action="store_true", help="keep saved runs of other (size, index) pairs")
    parser.add_argument("--connectivity", type=int, default=defaults.connectivity)
    parser.add_argument("--expansion-add", type=int, default=defaults.expansion_add)
    parser.add_argument("--expansion-search", type=int, default=defaults.expansion_search)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.worker:
        worker(args)
        return
    runs = []
    sweep_sizes = {int(size) for size in args.dtype_sweep_at.split(",") if size}
    for n in (int(size) for size in args.sizes.split(",")):
        if args.skip_exact_above is None or n <= args.skip_exact_above:
            runs.append(spawn("exact", n, args))
        dtypes = ALL_DTYPES if n in sweep_sizes else args.dtypes
        runs.extend(spawn(f"hnsw:{dtype}", n, args) for dtype in dtypes.split(",") if dtype)
    if args.merge:
        runs = merged(runs)
    payload = {"dim": DIM, "k": K, "queries": args.queries, "runs": runs, "scopes": list(SCOPES)}
    write_results("index_speed", payload, table(runs))


if __name__ == "__main__":
    main()
