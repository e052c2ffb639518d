"""Progressive vs every-tier search on LoCoMo conversations inside a long history of the same user.

On a LoCoMo-sized store (about 600 turns) every tier search costs the same few milliseconds of
fixed work, and the shared query embedding is half of the total, so stopping early can save
little (``python -m benchmarks.query locomo``). Progressive search is meant for the store a user
ends up with: months of earlier sessions with their summaries and facts. This benchmark builds
that store for each conversation: the *other* conversations' turns and observations (as facts)
are written ``--copies`` times as the same user's earlier history (each copy its own sessions, a
year further back per copy, two random words added so no text repeats), then the conversation
itself; session summaries are built at ingestion throughout. The history's vectors are replayed
as in ``benchmarks/speed.py`` (the real MiniLM vector of the base text plus seeded noise:
embedding tens of thousands of texts per store would take an hour on 2 cores); the conversation
and every query are embedded by the real model. Each scored question of the conversation is then
searched through every tier and progressively (limit 10): recall of its evidence turns, and time;
and once more scoped to one of the conversation's sessions (the cost of a search within a session).

Run: ``python -m benchmarks.progressive_history [--copies 12] [--conversations 0,1,2,3,4]``
(stores are kept in ``--workdir`` and reused; about a minute to build each at 12 copies).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import ROOT, markdown_table, write_results
from benchmarks.locomo import CATEGORIES, turns
from benchmarks.query import LOCOMO, TierPair, locomo_questions, observations, percentile, time_tier_pair
from benchmarks.speed import ReplayEmbedder
from mnemo import Memory
from mnemo.embed.registry import make_embedder


def history_records(data: list[dict[str, Any]], skip: int) -> list[dict[str, Any]]:
    """The turns and observations of every conversation but ``skip``, with ids and sessions made
    unique per conversation (LoCoMo's ids repeat across conversations)."""
    records = []
    for number, sample in enumerate(data):
        if number == skip:
            continue
        for record in [*turns(sample["conversation"]), *observations(number, sample)]:
            tag = f"h{number}"
            records.append(record | {"id": f"{tag}:{record['id']}", "session_id": f"{tag}-{record['session_id']}"})
    return records


def history(records: list[dict[str, Any]], copies: int) -> Iterator[dict[str, Any]]:
    """``copies`` replays of the records, each in sessions of its own and a year further back.

    Each text ends in ``#<index of its base record>``: the replay embedder's key to its vector.
    """
    words = sorted({w for r in records for w in r["content"].lower().split() if w.isalpha() and len(w) > 3})
    rng = np.random.default_rng(7)
    for copy in range(copies):
        for index, record in enumerate(records):
            extra = " ".join(words[i] for i in rng.integers(0, len(words), 2))
            replayed = record | {
                "id": f"c{copy}:{record['id']}",
                "content": f"{record['content']} {extra} #{index}",
                "session_id": f"c{copy}-{record['session_id']}",
            }
            if record.get("timestamp") is not None:  # observations carry none
                replayed["timestamp"] = record["timestamp"] - timedelta(days=366 * (copy + 1))
            yield replayed


def build(path: Path, data: list[dict[str, Any]], number: int, copies: int) -> None:
    records = history_records(data, number)
    base = make_embedder("minilm").embed([r["content"] for r in records])
    with Memory(str(path), embedder=ReplayEmbedder(base), summaries_on_ingest=True, batch_size=2000) as memory:
        memory.add_many(history(records, copies))
    sample = data[number]
    with Memory(str(path), embedder="minilm", summaries_on_ingest=True) as memory:
        memory.add_many(list(turns(sample["conversation"])))
        memory.add_many(observations(number, sample))


def session_search_times(memory: Memory, questions: list[str], sample: dict[str, Any]) -> list[float]:
    """Milliseconds of ``Memory.search`` scoped to one of the conversation's sessions (each question
    in the next session), the query vector embedded beforehand: the cost of the scoped search."""
    sessions = sorted({t["session_id"] for t in turns(sample["conversation"])})
    engine = memory._engine()
    times = []
    for n, question in enumerate(questions):
        engine._embed(question)
        started = time.perf_counter()
        memory.search(question, limit=10, session_id=sessions[n % len(sessions)])
        times.append(1000 * (time.perf_counter() - started))
    return times


def spread(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": percentile(ms, 0.5), "p95_ms": percentile(ms, 0.95)}


def summarise(pair: TierPair) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for variant in ("all-tiers", "progressive"):
        rows = pair.scores[variant]["all"]
        times = pair.timings[variant]
        out[variant] = {
            "n": len(rows),
            "recall@5": sum(r["recall@5"] for r in rows) / len(rows),
            "recall@10": sum(r["recall@10"] for r in rows) / len(rows),
            "p50_ms": 1000 * percentile(times, 0.5),
            "p95_ms": 1000 * percentile(times, 0.95),
            "mean_ms": 1000 * sum(times) / len(times),
            "mean_tier_search_ms": 1000 * pair.tier_time[variant] / len(times),
        }
    every, progressive = sum(pair.timings["all-tiers"]), sum(pair.timings["progressive"])
    out["time_saved"] = 1 - progressive / every
    out["tier_search_time_saved"] = 1 - pair.tier_time["progressive"] / pair.tier_time["all-tiers"]
    out["average_tiers"] = sum(pair.tiers) / len(pair.tiers)
    out["average_tier_equivalents"] = sum(pair.shares) / len(pair.shares)
    out["tier_ms"] = {" ".join(key): sum(ms) / len(ms) for key, ms in sorted(pair.tier_ms.items())}
    out["tier_searches"] = {" ".join(key): len(ms) for key, ms in sorted(pair.tier_ms.items())}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=12, help="Replays of the other conversations as history.")
    parser.add_argument("--conversations", default="0,1,2,3,4", help="LoCoMo dev conversations to search.")
    parser.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work" / "history")
    args = parser.parse_args()
    data = json.loads(LOCOMO.read_text())
    args.workdir.mkdir(parents=True, exist_ok=True)
    everything = TierPair()
    session_ms: list[float] = []
    per_conversation: dict[str, Any] = {}
    for number in [int(n) for n in args.conversations.split(",")]:
        path = args.workdir / f"history{number}-x{args.copies}.db"
        if not path.exists():
            build(path, data, number, args.copies)
        with Memory(str(path), embedder="minilm") as memory:
            items = memory.stats()["items"]
            memory.search("warm up the index", limit=1)
            questions = locomo_questions(data[number])
            pair = time_tier_pair(memory, questions, {})
            within = session_search_times(memory, [q["question"] for q, _, _ in questions], data[number])
        session_ms.extend(within)
        per_conversation[str(number)] = {"items": items, **summarise(pair), "session_search": spread(within)}
        everything.absorb(pair)
    summary = summarise(everything) | {"session_search": spread(session_ms)}
    rows = []
    for name, numbers in [*per_conversation.items(), ("all", summary)]:
        for variant in ("all-tiers", "progressive"):
            v = numbers[variant]
            measures = ("n", "recall@5", "recall@10", "p50_ms", "p95_ms", "mean_ms", "mean_tier_search_ms")
            rows.append([name, numbers.get("items", ""), variant, *(v[m] for m in measures)])
    table = markdown_table(
        ["conversation", "items", "variant", "n", "R@5", "R@10", "p50 ms", "p95 ms", "mean ms", "tier search ms"], rows
    )
    table += "\n\n" + markdown_table(
        ["conversation", "time saved", "tier search time saved", "tiers searched", "tier equivalents"],
        [
            [name, n["time_saved"], n["tier_search_time_saved"], n["average_tiers"], n["average_tier_equivalents"]]
            for name, n in [*per_conversation.items(), ("all", summary)]
        ],
    )
    table += "\n\n" + markdown_table(
        ["variant tier how", "searches", "mean ms"],
        [[key, summary["tier_searches"][key], ms] for key, ms in summary["tier_ms"].items()],
    )
    table += "\n\nsearch within one session of the conversation (query vector given): "
    table += f"p50 {summary['session_search']['p50_ms']:.2f} ms, p95 {summary['session_search']['p95_ms']:.2f} ms"
    payload = {"copies": args.copies, "categories": sorted(set(CATEGORIES.values()))}
    write_results("progressive_history", payload | {"summary": summary, "conversations": per_conversation}, table)


if __name__ == "__main__":
    main()
