"""Full-text search of one tier (a kind filter) in SQLite: inside the FTS5 match vs joined to the rows.

Since migration 0006 each item's kind is a token of the full-text index, and a kind filter is
put into the match (``kind_tag : (...) AND (...)``) instead of joining every match to its row to
test the kind: always when nothing else in the filter needs the rows, and otherwise for kinds
that hold less than ``KIND_SHARE_FOR_TAGGED_MATCH`` of the store. This times
``SQLiteStore.lexical`` the store's way and the old way (the join) on the same stores, for the
three tiers progressive search reads, unscoped and scoped to the stores' user (a filter that
keeps the join), with each LoCoMo question of the conversation, and checks that both ways
return the same ranking.

Run ``python -m benchmarks.progressive_history`` first: it builds the ~40k-item stores this
reads (``--workdir``, the same default). ``python -m benchmarks.kind_filter``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import ROOT, markdown_table, write_results
from benchmarks.query import LOCOMO, locomo_questions, percentile
from mnemo.records import Scope, SearchFilter
from mnemo.store.sql import query_terms
from mnemo.store.sqlite import SQLiteStore

TIERS = {"summaries": ("summary",), "facts": ("fact", "insight"), "messages": ("message",)}
SCOPES = {"unscoped": Scope(), "one user": Scope(user_id="")}  # the stores' items have no user set
Key = tuple[str, str, str]  # (tier, scope, way)
Ranking = list[tuple[int, float]]


def _untagged(match: str, flt: SearchFilter, size: int) -> tuple[str, SearchFilter]:
    return match, flt  # the kinds stay in the filter: the join tests them, as before kind tags


def time_store(path: Path, questions: list[str], limit: int = 30) -> tuple[dict[Key, list[float]], dict[str, float]]:
    """Milliseconds per query for each (tier, scope, way), best of two passes, and each tier's
    share of the store; stops if the two ways rank differently."""
    store = SQLiteStore(str(path))
    times: dict[Key, list[float]] = {}
    shares: dict[str, float] = {}
    try:
        total = store.count(SearchFilter())
        for tier, kinds in TIERS.items():
            shares[tier] = store.count(SearchFilter(kinds=kinds)) / total
            for scope_name, scope in SCOPES.items():
                flt = SearchFilter(kinds=kinds, scope=scope)
                rankings: dict[str, list[Ranking]] = {}
                for way in ("store's way", "joined"):
                    if way == "joined":
                        store._kind_tagged = _untagged  # type: ignore[method-assign]
                    times[(tier, scope_name, way)], rankings[way] = _best_of_two(
                        lambda q, f=flt: store.lexical(query_terms(q), f, limit), questions
                    )
                store.__dict__.pop("_kind_tagged", None)  # the store's own way again
                if rankings["store's way"] != rankings["joined"]:
                    raise SystemExit(f"{path.name} {tier} {scope_name}: the two ways ranked differently")
    finally:
        store.close()
    return times, shares


def _best_of_two(search: Callable[[str], Ranking], questions: list[str]) -> tuple[list[float], list[Ranking]]:
    runs = []
    for _ in range(2):
        found: list[Ranking] = []
        spent: list[float] = []
        for question in questions:
            started = time.perf_counter()
            found.append(search(question))
            spent.append(1000 * (time.perf_counter() - started))
        runs.append((spent, found))
    return min(runs, key=lambda run: sum(run[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work" / "history")
    parser.add_argument("--copies", type=int, default=12)
    args = parser.parse_args()
    data = json.loads(LOCOMO.read_text())
    totals: dict[Key, list[float]] = {}
    shares: dict[str, list[float]] = {}
    for number, sample in enumerate(data):
        path = args.workdir / f"history{number}-x{args.copies}.db"
        if not path.exists():
            raise SystemExit(f"{path} is missing: run `python -m benchmarks.progressive_history` first")
        questions = [q["question"] for q, _, _ in locomo_questions(sample)]
        times, share = time_store(path, questions)
        for key, ms in times.items():
            totals.setdefault(key, []).extend(ms)
        for tier, value in share.items():
            shares.setdefault(tier, []).append(value)
    rows, payload = [], {}
    for tier in TIERS:
        share = sum(shares[tier]) / len(shares[tier])
        for scope_name in SCOPES:
            ours, joined = totals[(tier, scope_name, "store's way")], totals[(tier, scope_name, "joined")]
            figures = {
                "queries": len(ours),
                "joined_mean_ms": sum(joined) / len(joined),
                "store_mean_ms": sum(ours) / len(ours),
                "joined_p95_ms": percentile(joined, 0.95),
                "store_p95_ms": percentile(ours, 0.95),
            }
            payload[f"{tier} {scope_name}"] = {"share_of_store": share, **figures}
            rows.append([tier, share, scope_name, *figures.values()])
    headers = ["tier", "share of store", "filter", "queries", "joined mean ms", "store's way mean ms"]
    table = markdown_table([*headers, "joined p95 ms", "store's way p95 ms"], rows)
    table += "\n\nThe same rankings both ways. Scoped to a user, messages keep the join (most of the store)."
    write_results("kind_filter", {"copies": args.copies, "tiers": payload}, table)


if __name__ == "__main__":
    main()
