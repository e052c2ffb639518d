"""Session search benchmark: quality on the labelled development set, speed on a synthetic corpus.

    .venv/bin/python -m benchmarks.sessions                      # quality (embedder none) + speed
    .venv/bin/python -m benchmarks.sessions --embedder minilm    # quality with the bundled model
    .venv/bin/python -m benchmarks.sessions --skip-speed

Quality: the development set (benchmarks/data/sessions_dev/, written by benchmarks/sessions_devset.py) is
imported with the real Claude Code importer; each labelled query reports session-level recall@5
(a session listed under "also in" counts as shown), MRR, whether a passing-mention session outranks
every relevant one, and must-not-appear violations (fork, noise-only, sidechain-only, excluded).
Speed: search latency p50/p95 on 1,000 sessions of 100 messages (benchmarks/work/, built once).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, markdown_table, write_results
from mnemo import Memory

DEV = ROOT / "benchmarks" / "data" / "sessions_dev"
WORK = ROOT / "benchmarks" / "work"
K = 5


def evaluate(embedder: str) -> dict[str, Any]:
    WORK.mkdir(parents=True, exist_ok=True)
    db = WORK / f"sessions-dev-{embedder}.db"
    for leftover in WORK.glob(f"{db.name}*"):
        leftover.unlink()
    queries = json.loads((DEV / "queries.json").read_text())
    with Memory(str(db), embedder=embedder) as memory:
        report = memory.import_claude_code(str(DEV / "projects"))
        rows = [_judge(memory, q) for q in queries]
    return {"embedder": embedder, "import": report.as_dict(), "per_query": rows, "summary": _summary(rows)}


def _judge(memory: Memory, query: dict[str, Any]) -> dict[str, Any]:
    hits = memory.search_sessions(
        query["q"],
        require=query.get("require", ()),
        exclude=query.get("exclude", ()),
        project=query.get("project"),
        limit=10,
    )
    shown = [{hit.session_id, *hit.also_in} for hit in hits]
    relevant, passing = set(query.get("relevant", [])), set(query.get("passing", []))
    banned = set(query.get("must_not", []))
    first_relevant = next((i for i, ids in enumerate(shown) if ids & relevant), None)
    first_passing = next((i for i, ids in enumerate(shown) if ids & passing and not ids & relevant), None)
    top = set().union(*shown[:K]) if shown else set()
    return {
        "query": query["q"],
        "kind": query.get("kind", "plain"),
        "source": query["source"],
        "recall@5": len(top & relevant) / len(relevant) if relevant else None,
        "rr": (1.0 / (first_relevant + 1) if first_relevant is not None else 0.0) if relevant else None,
        "passing_outranks": (
            first_passing is not None and (first_relevant is None or first_passing < first_relevant)
            if passing and relevant
            else None
        ),
        "violations": sorted(banned & set().union(*shown)) if shown else [],
        "top": [hit.session_id[:8] for hit in hits[:K]],
        "also_in": {hit.session_id[:8]: [s[:8] for s in hit.also_in] for hit in hits if hit.also_in},
    }


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(key: str, subset: list[dict[str, Any]]) -> float | None:
        values = [r[key] for r in subset if r[key] is not None]
        return round(statistics.fmean(values), 4) if values else None

    kinds = sorted({r["kind"] for r in rows})
    return {
        "queries": len(rows),
        "recall@5": mean("recall@5", rows),
        "mrr": mean("rr", rows),
        "passing_outranks_rate": mean("passing_outranks", rows),
        "must_not_violations": sum(len(r["violations"]) for r in rows),
        "by_kind": {k: {"recall@5": mean("recall@5", [r for r in rows if r["kind"] == k])} for k in kinds},
        "real_files": {"recall@5": mean("recall@5", [r for r in rows if r["source"] == "real"])},
    }


# -- speed ---------------------------------------------------------------------------------

TOPICS = (
    "postgres migration alembic schema|redis cache invalidation ttl|jwt login refresh token|docker image build layer|"
    "kubernetes pod deployment restart|pytest fixture flaky database|react component render state|"
    "webpack bundle size split|terraform state module plan|celery task retry queue|pandas dataframe merge index|"
    "cuda memory training batch|websocket reconnect heartbeat|graphql resolver schema|nginx proxy timeout header|"
    "stripe payment webhook refund|oauth scope consent token|grpc stream deadline proto|s3 bucket upload policy|"
    "elasticsearch mapping analyzer query"
).split("|")
FILLER = (
    "the a we this that it is was then now also check run fix update change add remove file function test "
    "error value config code line works done looks good next step try again see output result need want make"
).split()
SPEED_QUERIES = [
    "flaky fixture",
    "postgres migration",
    "redis cache invalidation",
    "+docker image -kubernetes",
    '"refresh token"',
    "postgress schema",
    "webhook refund stripe",
    "pod restart",
    "why does the training run out of memory",
    "grpc deadline",
]


def build_speed_corpus(path: Path, sessions: int = 1000, per_session: int = 100) -> None:
    rng = random.Random(7)
    with Memory(str(path), embedder="none") as memory:

        def records():
            for s in range(sessions):
                topic = TOPICS[s % len(TOPICS)].split()
                other = TOPICS[rng.randrange(len(TOPICS))].split()
                project = f"/home/dev/project-{s % 12}"
                for n in range(per_session):
                    words = [
                        rng.choice(topic)
                        if rng.random() < 0.12
                        else rng.choice(other)
                        if rng.random() < 0.03
                        else rng.choice(FILLER)
                        for _ in range(rng.randint(12, 70))
                    ]
                    yield {
                        "id": f"cc:s{s:04d}:{n}",
                        "content": " ".join(words),
                        "role": "user" if n % 3 == 0 else "assistant",
                        "session_id": f"s{s:04d}-{rng.randrange(16**8):08x}",
                        "project": project,
                        "timestamp": 1_700_000_000 + s * 86_400 + n * 60,
                        "source": "claude-code",
                        "metadata": {"sidechain": n % 50 == 49, "git_branch": "main"},
                    }

        memory.add_many(_stable_sessions(records()))


def _stable_sessions(records):
    """One session id per session number (the random suffix is drawn per record above)."""
    ids: dict[str, str] = {}
    for record in records:
        key = record["id"].split(":")[1]
        record["session_id"] = ids.setdefault(key, record["session_id"])
        yield record


def measure_speed(embedder: str, repeats: int = 10) -> dict[str, Any]:
    WORK.mkdir(parents=True, exist_ok=True)
    path = WORK / "sessions-speed-1000.db"
    if not path.exists():
        started = time.perf_counter()
        build_speed_corpus(path)
        print(f"built the speed corpus in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    with Memory(str(path), embedder="none") as memory:
        items = memory.stats()["items"]
        memory.search_sessions("warm up the caches")
        timings, cpu = [], []
        for _ in range(repeats):
            for query in SPEED_QUERIES:
                started, started_cpu = time.perf_counter(), time.process_time()
                memory.search_sessions(query, current_project="/home/dev/project-3")
                timings.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
    load = os.getloadavg()[0]
    return {
        "embedder": embedder,
        "items": items,
        "sessions": 1000,
        "searches": len(timings),
        "p50_ms": _percentile(timings, 0.5),
        "p95_ms": _percentile(timings, 0.95),
        # CPU time of the searching process: what the search costs when the machine is not shared
        "cpu_p50_ms": _percentile(cpu, 0.5),
        "cpu_p95_ms": _percentile(cpu, 0.95),
        "load_average": round(load, 2),
    }


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))], 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", default="none", help="none, hashing or minilm (quality run)")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="print every query's result")
    args = parser.parse_args()
    quality = evaluate(args.embedder)
    if args.verbose:
        for row in quality["per_query"]:
            print(json.dumps(row))
    summary = quality["summary"]
    rows = [
        [
            args.embedder,
            summary["queries"],
            summary["recall@5"],
            summary["mrr"],
            summary["passing_outranks_rate"],
            summary["must_not_violations"],
        ]
    ]
    table = markdown_table(["embedder", "queries", "recall@5", "MRR", "passing outranks", "must-not violations"], rows)
    payload: dict[str, Any] = {"quality": quality}
    if not args.skip_speed:
        speed = measure_speed(args.embedder)
        payload["speed"] = speed
        table += "\n\n" + markdown_table(
            ["corpus", "items", "searches", "p50 ms", "p95 ms", "CPU p50 ms", "CPU p95 ms", "load avg"],
            [
                [
                    "1,000 sessions",
                    speed["items"],
                    speed["searches"],
                    speed["p50_ms"],
                    speed["p95_ms"],
                    speed["cpu_p50_ms"],
                    speed["cpu_p95_ms"],
                    speed["load_average"],
                ]
            ],
        )
    write_results(f"sessions_{args.embedder}", payload, table)


if __name__ == "__main__":
    main()
