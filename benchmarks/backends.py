"""The foundation's speed benchmark on PostgreSQL beside SQLite, plus LoCoMo recall on both.

What is measured, per backend:

- **import**: ``Memory.add_many`` throughput into a fresh store (``--import-items`` synthetic turns;
  their vectors come from ``benchmarks.speed.ReplayEmbedder``: the real MiniLM vector of a LoCoMo
  turn plus seeded Gaussian noise, so embedding cost is left out and only the store is timed). On
  PostgreSQL each batch is one statement, and a large ``add_many`` is a bulk session that builds
  the HNSW index once at its end (store/postgres_bulk.py), both included in the time.
- **load**: building the store of N items. SQLite: ``benchmarks.speed``'s build worker (add_many
  with the same replayed vectors). PostgreSQL: ``mnemo migrate`` of that SQLite store (batched
  upserts, HNSW index built once after the load; load and index build are timed separately).
- **search**: ``Memory.search`` latency (query embedding by the real MiniLM model included), p50
  and p95 over ``--queries`` real LoCoMo questions, unscoped and scoped to one of ten users, in
  ``--search-mode`` (default ``hybrid``: one query embedding, the foundation benchmark's path).
  The same searches are timed once more with the questions' MiniLM vectors computed beforehand
  (``store`` columns): the backend's own share, which a busy machine's model timings do not blur.
- **LoCoMo** (``--locomo``): hybrid recall@5/@10 on the dev set, each conversation in a fresh store
  (a SQLite file; a fresh PostgreSQL database), real MiniLM vectors.

PostgreSQL comes from ``tests.pg_server.start_postgres`` (durable: fsync on, like a real server),
or ``--url`` for a server you run (a database per store is created on it).

Run: ``python -m benchmarks.backends [--sizes 100000 1000000] [--locomo] [--url URL]``.
``--keep-cluster DIR`` keeps the server's data directory (e.g. benchmarks/work/pg-cluster) and
reuses a fully loaded ``bench{N}`` database on the next run, so the 1M load (half an hour on two
busy cores, plus an 11-minute HNSW build) is done once; ``--load-only`` just loads. Start the 1M
load in the background early: ``nohup python -m benchmarks.backends --sizes 1000000
--import-items 0 --load-only --keep-cluster benchmarks/work/pg-cluster --workdir benchmarks/work &``.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from tests.pg_server import PostgresServer, start_postgres

from benchmarks.common import ROOT, SHARED, markdown_table, write_results
from benchmarks.locomo import CATEGORIES, evidence_ids, summarise, turns
from benchmarks.speed import ReplayEmbedder, corpus, in_subprocess, percentiles, synthetic_records
from mnemo import Memory
from mnemo.embed.base import Embedder
from mnemo.embed.inputs import query_input
from mnemo.embed.registry import make_embedder
from mnemo.transfer import copy_store, verify_stores
from mnemo.transfer.stores import open_end

LOCOMO_DEV = SHARED / "data" / "locomo" / "locomo_dev.json"
SEARCH_USER = "u3"


@contextmanager
def postgres(url: str | None, keep_dir: Path | None = None) -> Iterator[PostgresServer]:
    if url:
        yield PostgresServer(port=0, root=None, bin_dir=None, run_as=None, external_url=url)
        return
    server = start_postgres(durable=True, keep_dir=keep_dir)
    try:
        yield server
    finally:
        server.stop()


def base_vectors(workdir: Path, texts: list[str]) -> np.ndarray:
    """MiniLM vectors of the corpus turns, cached beside the stores (embedding them takes minutes)."""
    cache = workdir / f"base-minilm-{len(texts)}.npy"
    if cache.exists():
        return np.load(cache)
    base = make_embedder("minilm").embed(texts)
    np.save(cache, base)
    return base


def import_throughput(target: str, base: Any, texts: list[str], n: int) -> dict[str, float]:
    with Memory(target, embedder=ReplayEmbedder(base), batch_size=1000) as memory:
        started = time.perf_counter()
        memory.add_many(synthetic_records(texts, n))
        seconds = time.perf_counter() - started
    return {"items": n, "seconds": seconds, "items_per_s": n / seconds}


def load_postgres(sqlite_path: Path, url: str) -> dict[str, Any]:
    """``mnemo migrate`` of the SQLite store into PostgreSQL: copy, then the one HNSW build, then verify."""
    source, target = open_end(str(sqlite_path), must_exist=True), open_end(url, must_exist=False)
    try:
        started = time.perf_counter()
        report = copy_store(source, target, batch=5000, build_indexes=False)
        copied = time.perf_counter() - started
        target.finish_import()
        indexed = time.perf_counter() - started - copied
        verified = verify_stores(source, target).ok
    finally:
        source.close()
        target.close()
    items = report.copied["items"]
    return {"load_s": copied, "load_items_per_s": items / copied, "index_build_s": indexed, "verified": verified}


def loaded_database(server: PostgresServer, sqlite_path: Path, n: int) -> str | None:
    """The URL of a kept cluster's ``bench{n}`` database when it already holds the whole store (same
    item count, HNSW index built); otherwise it is dropped and None returned, so it is loaded again."""
    import psycopg

    name = f"bench{n}"
    with psycopg.connect(server.url, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            return None
    url = server.database_url(name)
    with psycopg.connect(url) as conn:
        ready = conn.execute(
            "SELECT to_regclass('items') IS NOT NULL AND to_regclass('items_embedding_384') IS NOT NULL"
        ).fetchone()[0]
        count = conn.execute("SELECT count(*) FROM items").fetchone()[0] if ready else -1
    source = open_end(str(sqlite_path), must_exist=True)
    try:
        expected = source.count_rows("items")
    finally:
        source.close()
    if ready and count == expected:
        return url
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}"')
    return None


def postgres_store(args: argparse.Namespace, server: PostgresServer, sqlite_path: Path, n: int) -> tuple[str, dict]:
    """A PostgreSQL copy of the SQLite store of ``n`` items: reused from a kept cluster, or loaded now."""
    if args.keep_cluster is not None:
        # the load's figures are kept beside the cluster, so a run that reuses it still reports them
        figures = args.keep_cluster / f"bench{n}.load.json"
        url = loaded_database(server, sqlite_path, n)
        if url is not None:
            return url, {**(json.loads(figures.read_text()) if figures.exists() else {}), "reused": True}
        import psycopg

        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "bench{n}"')
        url = server.database_url(f"bench{n}")
        load = load_postgres(sqlite_path, url)
        figures.write_text(json.dumps(load))
        return url, load
    url = server.create_database(f"bench{n}")
    return url, load_postgres(sqlite_path, url)


class PrecomputedQueries(Embedder):
    """The real MiniLM vectors of the benchmark questions, computed once, looked up at search time."""

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, questions: list[str]) -> None:
        texts = [query_input(q) for q in questions]
        self.vectors = dict(zip(texts, make_embedder("minilm").embed(texts), strict=True))

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self.vectors[text] for text in texts])


def search_latency(target: str, questions: list[str], mode: str) -> dict[str, Any]:
    """Steady-state latency after one unmeasured warm-up pass (a 1M store's pages are not in memory
    after its load); the first search of that pass, from a cold open, is kept apart."""
    precomputed = PrecomputedQueries(questions)
    cold = _search_latency(target, questions, mode, precomputed)
    store = _search_latency(target, questions, mode, precomputed)
    timed = _search_latency(target, questions, mode, "minilm")
    return {
        **timed,
        "first_search_s": cold["first_search_s"],
        "store_search": store["search"],
        "store_search_user_scoped": store["search_user_scoped"],
    }


def _search_latency(target: str, questions: list[str], mode: str, embedder: Any) -> dict[str, Any]:
    with Memory(target, embedder=embedder, search_mode=mode) as memory:
        started = time.perf_counter()
        memory.search(questions[0], limit=10)
        first = time.perf_counter() - started
        plain, scoped = [], []
        for question in questions:
            t0 = time.perf_counter()
            memory.search(question, limit=10)
            t1 = time.perf_counter()
            memory.search(question, limit=10, user_id=SEARCH_USER)
            plain.append(t1 - t0)
            scoped.append(time.perf_counter() - t1)
    return {"first_search_s": first, "search": percentiles(plain), "search_user_scoped": percentiles(scoped)}


def locomo_recall(new_target: Callable[[int], str], mode: str) -> dict[str, Any]:
    """Hybrid recall@5/@10 over the dev set; ``new_target(i)`` names a fresh store per conversation."""
    data = json.loads(LOCOMO_DEV.read_text())
    scores: dict[str, list[dict[str, float]]] = defaultdict(list)
    for number, sample in enumerate(data):
        with Memory(new_target(number), embedder="minilm", search_mode=mode) as memory:
            records = list(turns(sample["conversation"]))
            memory.add_many(records)
            known = {r["id"] for r in records}
            for question in sample["qa"]:
                relevant = evidence_ids(question.get("evidence", []), known)
                if question.get("category") not in CATEGORIES or not relevant:
                    continue
                ranked = [h.id for h in memory.search(question["question"], limit=10)]
                row = {f"recall@{k}": len(relevant & set(ranked[:k])) / len(relevant) for k in (5, 10)}
                scores[CATEGORIES[question["category"]]].append(row)
                scores["all"].append(row)
    return summarise({"hybrid": scores})["hybrid"]


def run_sizes(args: argparse.Namespace, server: PostgresServer, questions: list[str]) -> list[dict[str, Any]]:
    rows = []
    for n in args.sizes:
        sqlite_path = args.workdir / f"store-{n}.db"
        row: dict[str, Any] = {"n": n}
        if not sqlite_path.exists():  # speed.py's build worker, in its own process (RSS, model)
            row["sqlite_build"] = in_subprocess("build", args.workdir, n)
        url, row["postgres_load"] = postgres_store(args, server, sqlite_path, n)
        print(f"n={n}: postgres store ready: {json.dumps(row['postgres_load'])}", flush=True)
        if args.load_only:
            rows.append(row)
            continue
        row["sqlite"] = search_latency(str(sqlite_path), questions, args.search_mode)
        row["postgres"] = search_latency(url, questions, args.search_mode)
        print(f"n={n}: {json.dumps(row)}", flush=True)
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--import-items", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--locomo", action="store_true", help="also LoCoMo dev recall@5/@10 on both backends")
    parser.add_argument("--url", help="a PostgreSQL server to use instead of starting one (databases are created)")
    parser.add_argument(
        "--keep-cluster",
        type=Path,
        metavar="DIR",
        help="keep the PostgreSQL cluster in DIR (e.g. benchmarks/work/pg-cluster) and reuse its loaded bench{N} "
        "databases on the next run, so the 1M load and HNSW build are done once",
    )
    parser.add_argument("--load-only", action="store_true", help="only load the PostgreSQL stores, measure nothing")
    parser.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work" / "backends")
    parser.add_argument("--name", default="backends", help="results file name (benchmarks/results/NAME.json)")
    parser.add_argument(
        "--search-mode",
        default="hybrid",
        choices=("hybrid", "fused"),
        help="hybrid: one query embedding, RRF of lexical/semantic/recency (the foundation's path); fused: the "
        "multi-strategy engine (several embeddings per query)",
    )
    args = parser.parse_args()
    # a SIGTERM (timeout, kill) ends the run through the finally blocks, so the server is stopped
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args.workdir.mkdir(parents=True, exist_ok=True)
    texts, questions = corpus()
    report: dict[str, Any] = {"queries": args.queries, "search_mode": args.search_mode, "import": {}, "sizes": []}
    with postgres(args.url, args.keep_cluster) as server:
        if args.import_items:
            base = base_vectors(args.workdir, texts)
            with tempfile.TemporaryDirectory() as tmp:
                sqlite_target = str(Path(tmp) / "import.db")
                report["import"]["sqlite"] = import_throughput(sqlite_target, base, texts, args.import_items)
            postgres_target = server.create_database("import")
            report["import"]["postgres"] = import_throughput(postgres_target, base, texts, args.import_items)
            print(f"import: {json.dumps(report['import'])}", flush=True)
        report["sizes"] = run_sizes(args, server, questions[: args.queries])
        if args.locomo:
            with tempfile.TemporaryDirectory() as tmp:
                report["locomo"] = {
                    "sqlite": locomo_recall(lambda i: str(Path(tmp) / f"conv{i}.db"), args.search_mode),
                    "postgres": locomo_recall(lambda i: server.create_database(f"locomo{i}"), args.search_mode),
                }
    if not args.load_only:
        write_results(args.name, report, render(report))


def render(report: dict[str, Any]) -> str:
    parts = []
    if report["import"]:
        parts.append(
            markdown_table(
                ["backend", "items", "add_many items/s"],
                [[b, r["items"], round(r["items_per_s"], 1)] for b, r in report["import"].items()],
            )
        )
    measured = [r for r in report["sizes"] if "sqlite" in r]
    if measured:
        parts.append(
            markdown_table(
                [
                    "n",
                    "backend",
                    "search p50 ms",
                    "search p95 ms",
                    "user-scoped p50 ms",
                    "user-scoped p95 ms",
                    "slowest ms (plain / scoped)",
                    "store p50/p95 ms",
                    "store scoped p50/p95 ms",
                ],
                [[r["n"], backend, *_latency(r[backend])] for r in measured for backend in ("sqlite", "postgres")],
            )
        )
    if any("load_s" in r["postgres_load"] for r in report["sizes"]):
        parts.append(
            markdown_table(
                ["n", "postgres load items/s (migrate)", "load s", "HNSW build s", "verified"],
                [
                    [
                        r["n"],
                        round(r["postgres_load"]["load_items_per_s"], 1),
                        round(r["postgres_load"]["load_s"], 1),
                        round(r["postgres_load"]["index_build_s"], 1),
                        r["postgres_load"]["verified"],
                    ]
                    for r in report["sizes"]
                    if "load_s" in r["postgres_load"]
                ],
            )
        )
    if "locomo" in report:
        parts.append(
            markdown_table(
                ["backend", "questions", "recall@5", "recall@10"],
                [
                    [b, s["all"]["n"], round(s["all"]["recall@5"], 4), round(s["all"]["recall@10"], 4)]
                    for b, s in report["locomo"].items()
                ],
            )
        )
    return "\n\n".join(parts)


def _latency(row: dict[str, Any]) -> list[Any]:
    store = [
        f"{row[key]['p50_ms']:.2f} / {row[key]['p95_ms']:.2f}" if key in row else "-"
        for key in ("store_search", "store_search_user_scoped")
    ]
    return [
        round(row["search"]["p50_ms"], 2),
        round(row["search"]["p95_ms"], 2),
        round(row["search_user_scoped"]["p50_ms"], 2),
        round(row["search_user_scoped"]["p95_ms"], 2),
        " / ".join(
            f"{row[key]['max_ms']:.0f}" if "max_ms" in row[key] else "-" for key in ("search", "search_user_scoped")
        ),
        *store,
    ]


if __name__ == "__main__":
    main()
