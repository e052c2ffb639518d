"""LoCoMo turn retrieval: recall@5/10/25 and nDCG@10 for hybrid, BM25-only and dense-only.

Each conversation goes into a fresh store, one item per turn (id = dia_id, role = speaker,
session_id = session number, timestamp = the session's date). Every question of categories 1-4
with evidence is searched. Run: ``python -m benchmarks.locomo [--data PATH] [--embedder NAME]``.
"""

from __future__ import annotations

import argparse
import math
import re
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.common import SHARED, markdown_table, write_results
from mnemo import Memory

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10, 25)
#: Fusion weights of each variant; the single-strategy rows switch the other signals off.
VARIANTS = {
    "hybrid": None,
    "hybrid-score": {"fusion": "score"},
    "bm25": {"weight_semantic": 0.0, "weight_recency": 0.0},
    "dense": {"weight_lexical": 0.0, "weight_recency": 0.0},
}
_SESSION = re.compile(r"^session_(\d+)$")


def session_time(text: str) -> datetime:
    """LoCoMo dates look like '1:56 pm on 8 May, 2023'."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")


def turns(conversation: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key, value in conversation.items():
        match = _SESSION.match(key)
        if not match or not isinstance(value, list):
            continue
        start = session_time(conversation[f"{key}_date_time"])
        for offset, turn in enumerate(value):
            text = turn["text"]
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            yield {
                "id": turn["dia_id"],
                "content": text,
                "role": turn["speaker"],
                "session_id": match.group(1),
                "timestamp": start + timedelta(seconds=30 * offset),
            }


def evidence_ids(raw: list[str], known: set[str]) -> set[str]:
    """Evidence lists hold a few malformed entries ("D8:6; D9:17") and ids of missing turns."""
    ids = {part for entry in raw for part in re.split(r"[;,\s]+", entry) if part}
    return ids & known


def ndcg(ranked: list[str], relevant: set[str], k: int) -> float:
    gain = sum(1 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return gain / ideal if ideal else 0.0


def evaluate(data: list[dict[str, Any]], embedder: str) -> dict[str, Any]:
    scores: dict[str, dict[str, list[dict[str, float]]]] = {v: defaultdict(list) for v in VARIANTS}
    timings: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for number, sample in enumerate(data):
            with Memory(str(Path(tmp) / f"conv{number}.db"), embedder=embedder) as memory:
                records = list(turns(sample["conversation"]))
                memory.add_many(records)
                known = {r["id"] for r in records}
                base = memory.config
                for question in sample["qa"]:
                    category = question.get("category")
                    relevant = evidence_ids(question.get("evidence", []), known)
                    if category not in CATEGORIES or not relevant:
                        continue
                    for variant, weights in VARIANTS.items():
                        # the weights are the single pass's: the default fused round ignores them
                        memory.config = replace(base, search_mode="hybrid", **(weights or {}))
                        started = time.perf_counter()
                        ranked = [h.id for h in memory.search(question["question"], limit=max(KS))]
                        if variant == "hybrid":
                            timings.append(time.perf_counter() - started)
                        row = {f"recall@{k}": len(relevant & set(ranked[:k])) / len(relevant) for k in KS}
                        row["ndcg@10"] = ndcg(ranked, relevant, 10)
                        scores[variant][CATEGORIES[category]].append(row)
                        scores[variant]["all"].append(row)
                memory.config = base
    return {"scores": scores, "timings": timings}


def summarise(scores: dict[str, dict[str, list[dict[str, float]]]]) -> dict[str, dict[str, dict[str, float]]]:
    summary: dict[str, dict[str, dict[str, float]]] = {}
    for variant, groups in scores.items():
        summary[variant] = {
            group: {metric: sum(r[metric] for r in rows) / len(rows) for metric in rows[0]} | {"n": len(rows)}
            for group, rows in groups.items()
        }
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=SHARED / "data" / "locomo" / "locomo_dev.json")
    parser.add_argument("--embedder", default="minilm")
    args = parser.parse_args()
    import json

    data = json.loads(args.data.read_text())
    result = evaluate(data, args.embedder)
    summary = summarise(result["scores"])
    groups = ["all", *CATEGORIES.values()]
    rows = [
        [
            variant,
            group,
            summary[variant][group]["n"],
            *(summary[variant][group][m] for m in ("recall@5", "recall@10", "recall@25", "ndcg@10")),
        ]
        for variant in VARIANTS
        for group in groups
        if group in summary[variant]
    ]
    timings = sorted(result["timings"])
    latency = {"p50_ms": 1000 * timings[len(timings) // 2], "p95_ms": 1000 * timings[int(len(timings) * 0.95)]}
    table = markdown_table(["variant", "questions", "n", "R@5", "R@10", "R@25", "nDCG@10"], rows)
    table += f"\n\nhybrid search latency: p50 {latency['p50_ms']:.1f} ms, p95 {latency['p95_ms']:.1f} ms"
    write_results(
        "locomo",
        {"data": str(args.data.name), "embedder": args.embedder, "summary": summary, "search_latency": latency},
        table,
    )


if __name__ == "__main__":
    main()
