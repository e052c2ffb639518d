"""PostgreSQL write path: ``Memory.add_many`` throughput beside SQLite, and what the HNSW index costs.

Measured, each into a fresh store with replayed MiniLM vectors (``benchmarks.speed.ReplayEmbedder``:
embedding cost left out, only the store timed), ``--items`` synthetic turns in batches of 1,000:

- **sqlite**: the embedded default (a SQLite file, its vector index saved on close).
- **postgres**: the same import into PostgreSQL, HNSW index kept up to date by every batch (so a
  search right after ``add_many`` sees every item).
- **postgres, into a big store** (``--prefill N``): the same import into a store that already holds N
  items, where each HNSW insert walks a larger graph.
- **postgres, no HNSW** (``--no-index-run``): the rows and vectors written with the index dropped, to
  show how much of the cost is the index (a search then scans every vector; not a mode mnemo offers).

PostgreSQL comes from ``tests.pg_server.start_postgres(durable=True)`` (fsync on) or ``--url``.
Run: ``python -m benchmarks.pg_write [--items 20000] [--prefill 100000] [--no-index-run]``.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.backends import base_vectors, postgres
from benchmarks.common import ROOT, markdown_table, write_results
from benchmarks.speed import ReplayEmbedder, corpus, synthetic_records
from mnemo import Memory

BATCH = 1000


def timed_import(target: str, base: Any, texts: list[str], n: int, *, first: int = 0) -> dict[str, float]:
    """``add_many`` of items ``first``..``first+n`` into ``target``; the store's open and close are not timed."""
    records = list(synthetic_records(texts, first + n))[first:]
    with Memory(target, embedder=ReplayEmbedder(base), batch_size=BATCH) as memory:
        memory.add_many(records[:1])  # opens the pool and creates the vector index outside the timing
        started = time.perf_counter()
        report = memory.add_many(records[1:])
        seconds = time.perf_counter() - started
    assert report.added == n - 1, report
    return {"items": n - 1, "seconds": round(seconds, 2), "items_per_s": round((n - 1) / seconds, 1)}


def drop_vector_index(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP INDEX IF EXISTS items_embedding_384")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--prefill", type=int, default=0, help="also import into a store already holding N items")
    parser.add_argument("--no-index-run", action="store_true", help="also import with the HNSW index dropped")
    parser.add_argument("--url", help="a PostgreSQL server to use instead of starting one (databases are created)")
    parser.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work" / "backends")
    parser.add_argument("--name", default="pg_write")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args.workdir.mkdir(parents=True, exist_ok=True)
    texts, _ = corpus()
    base = base_vectors(args.workdir, texts)
    rows: dict[str, dict[str, Any]] = {}
    with postgres(args.url) as server:
        with tempfile.TemporaryDirectory() as tmp:
            rows["sqlite"] = timed_import(str(Path(tmp) / "import.db"), base, texts, args.items)
        print(json.dumps(rows), flush=True)
        rows["postgres"] = timed_import(server.create_database("write"), base, texts, args.items)
        print(json.dumps(rows), flush=True)
        if args.no_index_run:
            url = server.create_database("noindex")
            with Memory(url, embedder=ReplayEmbedder(base)) as memory:
                memory.add_many(list(synthetic_records(texts, 1)))
            drop_vector_index(url)
            rows["postgres_no_hnsw"] = _import_without_index(url, base, texts, args.items)
        if args.prefill:
            url = server.create_database("big")
            with Memory(url, embedder=ReplayEmbedder(base), batch_size=5000) as memory:
                memory.add_many(synthetic_records(texts, args.prefill))
            rows[f"postgres_into_{args.prefill}"] = timed_import(url, base, texts, args.items, first=args.prefill)
        print(json.dumps(rows), flush=True)
    table = markdown_table(
        ["store", "items", "seconds", "add_many items/s"],
        [[name, r["items"], r["seconds"], r["items_per_s"]] for name, r in rows.items()],
    )
    write_results(args.name, {"batch": BATCH, "import": rows}, table)


def _import_without_index(url: str, base: Any, texts: list[str], n: int) -> dict[str, float]:
    with Memory(url, embedder=ReplayEmbedder(base), batch_size=BATCH) as memory:
        # keep the store from recreating the index: at the first write, and at the end of the bulk session
        memory.store._indexed_dims.add(384)
        memory.store._build_vector_index = lambda dim: None
        records = list(synthetic_records(texts, n + 2))[1:]
        memory.add_many(records[:1])  # warm-up, as in timed_import
        started = time.perf_counter()
        memory.add_many(records[1:])
        seconds = time.perf_counter() - started
    return {"items": n, "seconds": round(seconds, 2), "items_per_s": round(n / seconds, 1)}


if __name__ == "__main__":
    main()
