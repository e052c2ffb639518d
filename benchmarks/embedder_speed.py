"""Embedding throughput: mnemo's numpy MiniLM vs sentence-transformers (torch), same sentences.

Every measurement runs in a fresh subprocess (one engine, one batch size, one
thread count), and engines are interleaved round by round, so neither gets a
warmer cache or a quieter machine. Wall time and process CPU time are both
recorded: on a shared machine the CPU time is the steadier number.
Run: ``PYTHONPATH=src python -m benchmarks.embedder_speed [--n 2000] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import RESULTS, ROOT, SHARED, markdown_table, write_results

LOCOMO = SHARED / "data" / "locomo" / "locomo_dev.json"
ENGINES = ("numpy", "numpy-unsorted", "sentence-transformers")
COLD_START_NUMPY = "from mnemo.embed.minilm import MiniLMEmbedder; MiniLMEmbedder().embed_one('hello')"
COLD_START_ST = (
    "from sentence_transformers import SentenceTransformer; "
    "from mnemo.embed.minilm import resolve_model_dir; "
    "SentenceTransformer(str(resolve_model_dir()), device='cpu').encode(['hello'])"
)


def load_sentences(n: int) -> list[str]:
    """Chat turns from LoCoMo dev in conversation order, cycled if there are fewer than n."""
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    texts: list[str] = []
    for sample in data:
        conversation = sample["conversation"]
        sessions = sorted(
            (key for key, value in conversation.items() if key.startswith("session_") and isinstance(value, list)),
            key=lambda key: int(key.split("_")[1]),
        )
        texts += [turn["text"] for key in sessions for turn in conversation[key] if turn.get("text")]
    return [texts[i % len(texts)] for i in range(n)]


def _subprocess_env(threads: int | None) -> dict[str, str]:
    env = dict(os.environ)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(ROOT / "src"), str(ROOT)])
    if threads is not None:
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[name] = str(threads)
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    return env


# ---------------------------------------------------------------------------
# Worker side: one engine, timed passes over all sentences
# ---------------------------------------------------------------------------


def _make_encoder(engine: str, batch_size: int, threads: int | None) -> Callable[[list[str]], np.ndarray]:
    from mnemo.embed.minilm import MiniLMEmbedder, resolve_model_dir

    if engine == "sentence-transformers":
        import torch
        from sentence_transformers import SentenceTransformer

        if threads is not None:
            torch.set_num_threads(threads)
        model = SentenceTransformer(str(resolve_model_dir()), device="cpu")
        return lambda texts: np.asarray(model.encode(texts, batch_size=batch_size, convert_to_numpy=True))
    embedder = MiniLMEmbedder(batch_size=batch_size)
    if engine == "numpy-unsorted":
        # The base-class path: consecutive batches in input order, sorted only within a batch.
        return lambda texts: np.vstack(
            [embedder.embed_batch(texts[s : s + batch_size]) for s in range(0, len(texts), batch_size)]
        )
    return embedder.embed


def run_worker(engine: str, n: int, batch_size: int, threads: int | None, passes: int, out: str | None) -> None:
    sentences = load_sentences(n)
    encode = _make_encoder(engine, batch_size, threads)
    encode(sentences[: 2 * batch_size])  # warm-up: weight load, allocator, BLAS buffers
    walls, cpus = [], []
    for _ in range(passes):
        wall, cpu = time.perf_counter(), time.process_time()
        vectors = encode(sentences)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    if out:
        np.save(out, vectors.astype(np.float32))
    print(json.dumps({"wall_s": walls, "cpu_s": cpus}))


# ---------------------------------------------------------------------------
# Parent side
# ---------------------------------------------------------------------------


def _spawn(args: list[str], threads: int | None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "benchmarks.embedder_speed", "--worker", *args]
    done = subprocess.run(cmd, cwd=ROOT, env=_subprocess_env(threads), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"worker {args} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(n: int, batch_size: int, threads: int | None, rounds: int, passes: int) -> list[dict[str, Any]]:
    """Interleave the engines for `rounds` rounds; keep the best pass of each (least disturbed)."""
    walls: dict[str, list[float]] = {engine: [] for engine in ENGINES}
    cpus: dict[str, list[float]] = {engine: [] for engine in ENGINES}
    for round_index in range(rounds):
        order = ENGINES if round_index % 2 == 0 else ENGINES[::-1]
        for engine in order:
            args = ["--engine", engine, "--n", str(n), "--batch-size", str(batch_size), "--passes", str(passes)]
            result = _spawn(args + (["--threads", str(threads)] if threads else []), threads)
            walls[engine] += result["wall_s"]
            cpus[engine] += result["cpu_s"]
    rows = []
    for engine in ENGINES:
        best, median = min(walls[engine]), statistics.median(walls[engine])
        rows.append(
            {
                "engine": engine,
                "batch_size": batch_size,
                "threads": threads or "default",
                "best_sentences_per_s": n / best,
                "median_sentences_per_s": n / median,
                "cpu_ms_per_sentence": 1000 * min(cpus[engine]) / n,
                "wall_s": walls[engine],
                "cpu_s": cpus[engine],
            }
        )
    return rows


def cold_start(code: str, runs: int = 3) -> float:
    """Median wall seconds of a fresh interpreter running `code`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=_subprocess_env(None), check=True, capture_output=True
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def agreement(n: int) -> dict[str, float]:
    """Max abs difference and min cosine between the two engines on the benchmark sentences."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = {engine: str(Path(tmp) / f"{engine}.npy") for engine in ("numpy", "sentence-transformers")}
        for engine, path in paths.items():
            _spawn(["--engine", engine, "--n", str(n), "--batch-size", "64", "--passes", "1", "--out", path], None)
        ours, theirs = (np.load(path) for path in paths.values())
    return {"max_abs_diff": float(np.abs(ours - theirs).max()), "min_cosine": float(np.sum(ours * theirs, 1).min())}


def _table(rows: list[dict[str, Any]]) -> str:
    reference = {(r["batch_size"], r["threads"]): r for r in rows if r["engine"] == "sentence-transformers"}
    body = []
    for r in rows:
        st = reference[(r["batch_size"], r["threads"])]
        body.append(
            [
                r["engine"],
                r["batch_size"],
                r["threads"],
                f"{r['best_sentences_per_s']:.1f}",
                f"{r['median_sentences_per_s']:.1f}",
                f"{r['cpu_ms_per_sentence']:.2f}",
                f"{r['best_sentences_per_s'] / st['best_sentences_per_s']:.0%}",
                f"{r['median_sentences_per_s'] / st['median_sentences_per_s']:.0%}",
            ]
        )
    headers = [
        "engine",
        "batch",
        "threads",
        "best sent/s",
        "median sent/s",
        "CPU ms/sent",
        "vs ST best",
        "vs ST median",
    ]
    return markdown_table(headers, body)


def report(payload: dict[str, Any]) -> str:
    """The markdown summary printed and written next to the JSON."""
    cold = [[engine, f"{seconds:.2f}"] for engine, seconds in payload["cold_start_s"].items()]
    agree = payload["agreement"]
    load = payload["load_average_before_after"]
    return "\n\n".join(
        [
            _table(payload["results"]),
            markdown_table(["cold start (fresh process, embed 'hello')", "seconds"], cold),
            (
                f"numpy vs sentence-transformers on the {payload['sentences']} sentences: "
                f"max abs diff {agree['max_abs_diff']:.1e}, min cosine {agree['min_cosine']:.7f}. "
                f"Load average (1 min) before/after: {load[0][0]:.1f}/{load[1][0]:.1f} on {payload['cpus']} CPUs."
            ),
        ]
    )


def run_all(args: argparse.Namespace) -> dict[str, Any]:
    load_before = os.getloadavg()
    rows = [
        row
        for threads in (None if t == "default" else int(t) for t in args.threads.split(","))
        for batch_size in (int(b) for b in args.batch_sizes.split(","))
        for row in measure(args.n, batch_size, threads, args.rounds, args.passes)
    ]
    return {
        "sentences": args.n,
        "source": str(LOCOMO.relative_to(SHARED)),
        "mean_chars": float(np.mean([len(s) for s in load_sentences(args.n)])),
        "cpus": os.cpu_count(),
        "load_average_before_after": [load_before, os.getloadavg()],
        "results": rows,
        "cold_start_s": {"numpy": cold_start(COLD_START_NUMPY), "sentence-transformers": cold_start(COLD_START_ST)},
        "agreement": agreement(args.n),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--batch-sizes", default="64,32")
    parser.add_argument("--threads", default="default,1", help="comma list; 'default' leaves BLAS/torch alone")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--table-only", action="store_true", help="rebuild the markdown from the saved JSON")
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--engine", choices=ENGINES)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.worker:
        threads = int(args.threads) if args.threads.isdigit() else None
        run_worker(args.engine, args.n, args.batch_size, threads, args.passes, args.out)
        return
    if args.table_only:
        payload = json.loads((RESULTS / "embedder_speed.json").read_text(encoding="utf-8"))
        (RESULTS / "embedder_speed.md").write_text(report(payload) + "\n")
        print(report(payload))
        return
    payload = run_all(args)
    write_results("embedder_speed", payload, report(payload))


if __name__ == "__main__":
    main()
