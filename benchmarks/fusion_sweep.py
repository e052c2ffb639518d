"""Recall of the default search path on LoCoMo dev as one fusion weight of the fused round moves.

The stores are those of ``python -m benchmarks.query locomo`` (run it first: it builds them);
each question is searched as that benchmark searches it (``limit=25``, recall of the first 5 and
10), once per weight. Per conversation recall@10 shows whether a gain is spread or one
conversation's.

``python -m benchmarks.fusion_sweep --strategy semantic --weights 1,0.9,0.8,0.7,0.6,0.5,0.4``
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import mnemo.retrieve.iterate as iterate
from benchmarks.common import ROOT, markdown_table, write_results
from benchmarks.locomo import CATEGORIES, evidence_ids, turns
from benchmarks.query import LOCOMO
from mnemo import Memory


def questions(sample: dict[str, Any]) -> list[tuple[str, set[str]]]:
    known = {r["id"] for r in turns(sample["conversation"])}
    asked = [
        (q["question"], evidence_ids(q.get("evidence", []), known))
        for q in sample["qa"]
        if CATEGORIES.get(q.get("category"))
    ]
    return [(text, relevant) for text, relevant in asked if relevant]


def sweep(
    data: list[dict[str, Any]], workdir: Path, embedder: str, strategy: str, weights: list[float]
) -> list[dict[str, Any]]:
    stores = [workdir / f"locomo{number}.db" for number in range(len(data))]
    missing = [str(p) for p in stores if not p.exists()]
    if missing:
        raise SystemExit(f"{missing[0]} is missing: run `python -m benchmarks.query locomo` first")
    shipped = dict(iterate.DEFAULT_WEIGHTS)
    rows = []
    try:
        for weight in weights:
            # the fused round reads its weights from DEFAULT_WEIGHTS when no setting gives others
            iterate.DEFAULT_WEIGHTS.update({strategy: weight})
            recall: dict[int, list[float]] = defaultdict(list)
            per_conversation = []
            for path, sample in zip(stores, data, strict=True):
                found = []
                with Memory(str(path), embedder=embedder) as memory:
                    for text, relevant in questions(sample):
                        ranked = [h.id for h in memory.search(text, limit=25)]
                        for k in (5, 10):
                            recall[k].append(len(relevant & set(ranked[:k])) / len(relevant))
                        found.append(len(relevant & set(ranked[:10])) / len(relevant))
                per_conversation.append(sum(found) / len(found))
            rows.append({"weight": weight, **{f"recall@{k}": sum(v) / len(v) for k, v in recall.items()},
                         "recall@10_per_conversation": per_conversation})  # fmt: skip
    finally:
        iterate.DEFAULT_WEIGHTS.clear()
        iterate.DEFAULT_WEIGHTS.update(shipped)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=LOCOMO)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work" / "query")
    parser.add_argument("--strategy", default="semantic", choices=sorted(iterate.DEFAULT_WEIGHTS))
    parser.add_argument("--weights", default="1,0.9,0.8,0.7,0.6,0.5,0.4")
    args = parser.parse_args()
    weights = [float(w) for w in args.weights.split(",")]
    rows = sweep(json.loads(args.data.read_text()), args.workdir, args.embedder, args.strategy, weights)
    table = markdown_table(
        [f"{args.strategy} weight", "R@5", "R@10", "R@10 per conversation"],
        [
            [
                r["weight"],
                r["recall@5"],
                r["recall@10"],
                " / ".join(f"{x:.3f}" for x in r["recall@10_per_conversation"]),
            ]
            for r in rows
        ],
    )
    write_results(
        f"fusion_sweep_{args.strategy}", {"data": args.data.name, "strategy": args.strategy, "rows": rows}, table
    )


if __name__ == "__main__":
    main()
