"""Sensitivity of progressive search's stop settings on LoCoMo dev, by replay (no timing).

Each question's tiers are searched once on the stores of ``python -m benchmarks.query locomo``
(summaries, facts, messages, and the scoped search of every session a distilled hit points to);
then ``progressive_search`` itself — the real judgement and descent — is replayed over those
hits for each setting, one knob moved at a time from the defaults. Recall@10 counts a fact or
summary hit as the turns it points to, exactly as the benchmark does.

``python -m benchmarks.progressive_sweep`` (run ``benchmarks.query locomo --tiers-only`` first:
it builds the stores). ``--timing N`` times instead: the tier searches of both variants, best of
three runs for each of N questions per conversation.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, markdown_table, write_results
from benchmarks.locomo import CATEGORIES, evidence_ids, turns
from benchmarks.query import LOCOMO, ranked_turns
from mnemo import Memory
from mnemo.embed.inputs import query_input
from mnemo.records import Hit, SearchFilter
from mnemo.retrieve.progressive import TIERS, Sufficiency, progressive_search
from mnemo.retrieve.progressive_descent import scoped_search

SWEEP: dict[str, tuple[Any, ...]] = {
    "min_coverage": (0.5, 0.6, 0.7),
    "min_depth": (0.3, 0.33, 0.36, 0.4),
    "min_quality": (0.5, 0.55, 0.6),
    "min_results": (1, 2, 3),
    "descend_sessions": (0, 1, 2, 3),
    "probe_sessions": (0, 1, 2, 3),
    "probe_coverage": (0.3, 0.4, 0.5, 0.6),
    "probe_depth": (0.2, 0.25, 0.33),
}


def collect(data: list[dict[str, Any]], workdir: Path, embedder: str, limit: int) -> list[dict[str, Any]]:
    """Per question: each tier's hits and each pointed-to session's scoped hits, searched once."""
    rows = []
    for number, sample in enumerate(data):
        path = workdir / f"locomo{number}-tiers.db"
        if not path.exists():
            raise SystemExit(f"{path} is missing: run `python -m benchmarks.query locomo --tiers-only` first")
        known = {r["id"] for r in turns(sample["conversation"])}
        with Memory(str(path), embedder=embedder) as memory:
            engine, flt = memory._engine(), SearchFilter()
            counts = engine._kind_counts(flt)
            for qa in sample["qa"]:
                relevant = evidence_ids(qa.get("evidence", []), known) if CATEGORIES.get(qa.get("category")) else set()
                if not relevant:
                    continue
                question = qa["question"]
                tiers = {kinds: engine.default(question, replace(flt, kinds=kinds), limit) for _, kinds in TIERS}
                pointed = {h.session_id for k in (("summary",), ("fact", "insight")) for h in tiers[k] if h.session_id}
                vector = engine._embed(question)
                sessions = {
                    s: scoped_search(
                        memory.store, engine._vector_search, vector, question, flt, ("message",), [s], limit
                    )
                    for s in pointed
                }
                rows.append(
                    {"q": question, "relevant": relevant, "counts": counts, "tiers": tiers, "sessions": sessions}
                )
    return rows


def replay(rows: list[dict[str, Any]], limit: int, stop: bool = True, **settings: Any) -> dict[str, float]:
    recall = tiers = shares = 0.0
    for row in rows:

        def search(kinds: tuple[str, ...], n: int, row: dict[str, Any] = row) -> list[Hit]:
            return row["tiers"][kinds][:n]

        def descend(sessions: Any, n: int, row: dict[str, Any] = row) -> tuple[list[Hit], int]:
            found = [row["sessions"].get(s, ([], 0)) for s in sessions]
            return [h for hits, _ in found for h in hits], sum(c for _, c in found)

        result = progressive_search(
            search, row["counts"], row["q"], limit, Sufficiency(**settings), stop_when_sufficient=stop, descend=descend
        )
        recall += len(row["relevant"] & set(ranked_turns(result.hits)[:10])) / len(row["relevant"])
        tiers += len(result.tiers_searched)
        shares += result.tier_equivalents
    n = len(rows) or 1
    return {"recall@10": recall / n, "tiers": tiers / n, "tier_equivalents": shares / n}


def best_of_three(data: list[dict[str, Any]], workdir: Path, embedder: str, per_conversation: int) -> dict[str, float]:
    """Tier-search time (query vector given) of progressive vs every tier, best of three runs per
    question: the repeats take out what other load on the machine adds, for both variants alike."""
    spent = {"progressive": 0.0, "all-tiers": 0.0}
    embedding, questions = 0.0, 0
    for number, sample in enumerate(data):
        with Memory(str(workdir / f"locomo{number}-tiers.db"), embedder=embedder) as memory:
            engine = memory._engine()
            asked = [qa["question"] for qa in sample["qa"][:per_conversation]]
            for question in asked:  # all embedded first: the model's threads are idle by the timed runs
                embedding += _best(lambda q=question: memory.embedder.embed_one(query_input(q)))
                # the query vector every tier search then finds cached
                engine._vectors[(memory.embedder.name, question)] = memory.embedder.embed_one(query_input(question))
            for question in asked:
                pair = (("progressive", True), ("all-tiers", False))
                for variant, stop in pair if questions % 2 else pair[::-1]:
                    spent[variant] += _best(
                        lambda q=question, s=stop: memory.progressive_search(q, limit=10, stop_when_sufficient=s)
                    )
                questions += 1
    n = questions or 1
    return {
        "questions": questions,
        "progressive_ms": 1000 * spent["progressive"] / n,
        "all_tiers_ms": 1000 * spent["all-tiers"] / n,
        "embedding_ms": 1000 * embedding / n,
        "tier_search_saved": 1 - spent["progressive"] / spent["all-tiers"] if spent["all-tiers"] else 0.0,
        "total_saved": (spent["all-tiers"] - spent["progressive"]) / (spent["all-tiers"] + embedding) if n else 0.0,
    }


def _best(run: Any) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=LOCOMO)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work" / "query")
    parser.add_argument("--timing", type=int, metavar="N", help="Time N questions per conversation instead.")
    args = parser.parse_args()
    limit = 10
    if args.timing:
        numbers = best_of_three(json.loads(args.data.read_text()), args.workdir, args.embedder, args.timing)
        table = markdown_table(list(numbers), [list(numbers.values())])
        write_results("query_locomo_tiers_timing", {"data": args.data.name, **numbers}, table)
        return
    rows = collect(json.loads(args.data.read_text()), args.workdir, args.embedder, limit)
    results = {"all-tiers": replay(rows, limit, stop=False), "defaults": replay(rows, limit)}
    for knob, values in SWEEP.items():
        for value in values:
            results[f"{knob}={value}"] = replay(rows, limit, **{knob: value})
    table = markdown_table(
        ["setting", "R@10", "tiers searched", "tier-equivalents"],
        [[name, r["recall@10"], r["tiers"], r["tier_equivalents"]] for name, r in results.items()],
    )
    write_results("query_locomo_tiers_sweep", {"data": args.data.name, "questions": len(rows), **results}, table)


if __name__ == "__main__":
    main()
