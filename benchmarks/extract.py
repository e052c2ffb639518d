"""Fact extraction quality and speed on a gold set of user turns in five languages.

Precision/recall/F1 per language and overall (positive facts only; friend_of compared in either
direction), the share of no-fact turns (questions, reactions, plans) that yield nothing, the share
of negated gold facts that leak out as positive ones, language-detection accuracy, and p50/p95
milliseconds per turn with the models loaded once.
Run: ``python -m benchmarks.extract [--data PATH] [--given-lang] [--errors]``.

``--locomo`` instead measures fact keys on LoCoMo retrieval: hybrid recall@10 of the turns, once as
stored today and once with extraction run on every turn (each speaker treated as the user), whose
facts become index keys of the turn and fact items of their own (kept out of the ranking here, so
the comparison is about the keys: hits are turns in both runs).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, markdown_table, write_results
from mnemo.extract.pipeline import Extractor

LANGS = ("en", "es", "fr", "de", "it")
_SPACE = re.compile(r"\s+")

Triple = tuple[str, str, str]


def norm(triple: list[str] | tuple[str, ...]) -> Triple:
    s, r, o = (_SPACE.sub(" ", part.strip().lower()).replace("' ", "'") for part in triple)
    if r == "friend_of" and s > o:
        s, o = o, s
    return (s, r, o)


def run(items: list[dict[str, Any]], given_lang: bool) -> dict[str, Any]:
    for item in items:  # warm-up: load every model once, outside the timings
        Extractor().analyse(item["text"], item["lang"])
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    timings: list[float] = []
    errors: list[dict[str, Any]] = []
    for item in items:
        extractor = Extractor()
        lang = item["lang"] if given_lang else None
        extractor.observe(item.get("context", []), lang)
        started = time.perf_counter()
        analysis = extractor.analyse(item["text"], lang)
        timings.append(time.perf_counter() - started)
        predicted = {norm(f.triple) for f in analysis.facts if not f.negated}
        gold = {norm(t) for t in item.get("facts", item.get("triples", []))}
        negated = {norm(t) for t in item.get("negated", item.get("negated_triples", []))}
        for group in (item["lang"], "all"):
            c = counts[group]
            c["tp"] += len(predicted & gold)
            c["fp"] += len(predicted - gold)
            c["fn"] += len(gold - predicted)
            c["negated"] += len(negated)
            c["leaked"] += len(negated & predicted)
            c["turns"] += 1
            c["lang_ok"] += int(analysis.lang == item["lang"])
            if not gold and not negated:
                c["no_fact_turns"] += 1
                c["no_fact_clean"] += int(not predicted)
        if predicted != gold:
            errors.append({"id": item["id"], "text": item["text"], "missing": sorted(gold - predicted),
                           "extra": sorted(predicted - gold)})  # fmt: skip
    return {"counts": counts, "timings": timings, "errors": errors}


def summarise(counts: dict[str, dict[str, int]]) -> dict[str, dict[str, float]]:
    summary: dict[str, dict[str, float]] = {}
    for group, c in counts.items():
        precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 1.0
        recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        summary[group] = {
            "turns": c["turns"],
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "no_fact_clean": c["no_fact_clean"] / c["no_fact_turns"] if c["no_fact_turns"] else 1.0,
            "negation_leak": c["leaked"] / c["negated"] if c["negated"] else 0.0,
            "lang_accuracy": c["lang_ok"] / c["turns"],
        }
    return summary


def locomo(data_path: Path, embedder: str, limit: int | None) -> dict[str, Any]:
    """Recall@10 of LoCoMo turns with and without fact keys (see the module docstring)."""
    import tempfile
    from dataclasses import replace as replace_record

    from benchmarks.locomo import CATEGORIES, evidence_ids, turns
    from mnemo import Memory
    from mnemo.extract.learn import FactLearner

    data = json.loads(data_path.read_text())[:limit]
    recalls: dict[str, list[float]] = {"plain": [], "fact_keys": []}
    keyed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for number, sample in enumerate(data):
            records = list(turns(sample["conversation"]))
            known = {r["id"] for r in records}
            for variant in recalls:
                with Memory(str(Path(tmp) / f"{variant}{number}.db"), embedder=embedder) as memory:
                    memory.add_many(records, extract_facts=False)
                    if variant == "fact_keys":
                        items = [replace_record(memory.get(r["id"]), role="user") for r in records]
                        keyed += FactLearner().learn(memory.store, memory._embed, items, alpha=0.3, model=None)
                    for question in sample["qa"]:
                        relevant = evidence_ids(question.get("evidence", []), known)
                        if question.get("category") not in CATEGORIES or not relevant:
                            continue
                        hits = memory.search(question["question"], limit=10, kind="message")
                        recalls[variant].append(len(relevant & {h.id for h in hits}) / len(relevant))
    return {
        "questions": len(recalls["plain"]),
        "facts_stored": keyed,
        **{f"recall@10_{k}": sum(v) / len(v) for k, v in recalls.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=ROOT / "benchmarks" / "data" / "extract_dev.jsonl")
    parser.add_argument("--given-lang", action="store_true", help="Pass the gold language instead of detecting it.")
    parser.add_argument("--errors", action="store_true", help="Print every turn whose facts differ from gold.")
    parser.add_argument("--rules", action="store_true", help="As on the core install: spaCy and simplemma hidden.")
    parser.add_argument(
        "--locomo", type=Path, nargs="?", const=ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
    )
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--conversations", type=int, default=None, help="Only the first N LoCoMo conversations.")
    args = parser.parse_args()
    if args.locomo:
        figures = locomo(args.locomo, args.embedder, args.conversations)
        table = markdown_table(list(figures), [list(figures.values())])
        write_results("extract_locomo", {"data": args.locomo.name, "embedder": args.embedder, **figures}, table)
        return
    if args.rules:  # the extractor checks for its optional packages on every call; hide them
        sys.modules["spacy"] = None  # type: ignore[assignment]
        sys.modules["simplemma"] = None  # type: ignore[assignment]
    items = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    result = run(items, args.given_lang)
    summary = summarise(result["counts"])
    timings = sorted(result["timings"])
    latency = {
        "p50_ms": 1000 * timings[len(timings) // 2],
        "p95_ms": 1000 * timings[min(len(timings) - 1, int(len(timings) * 0.95))],
        "max_ms": 1000 * timings[-1],
    }
    if args.errors:
        for error in result["errors"]:
            print(json.dumps(error, ensure_ascii=False))
    metrics = ("turns", "precision", "recall", "f1", "no_fact_clean", "negation_leak", "lang_accuracy")
    rows = [[group, *(summary[group][m] for m in metrics)] for group in (*LANGS, "all") if group in summary]
    table = markdown_table(["lang", "turns", "P", "R", "F1", "no-fact clean", "negation leak", "lang acc"], rows)
    table += (
        f"\n\nper turn: p50 {latency['p50_ms']:.1f} ms, p95 {latency['p95_ms']:.1f} ms, max {latency['max_ms']:.1f} ms"
    )
    # results are named after the data set, so the held-out run does not overwrite the dev figures
    suffix = "" if args.data.stem == "extract_dev" else "_" + args.data.stem.removeprefix("extract_")
    write_results(
        ("extract_rules" if args.rules else "extract") + suffix,
        {"data": args.data.name, "given_lang": args.given_lang, "rules_only": args.rules, "summary": summary,
         "latency": latency},
        table,
    )  # fmt: skip


if __name__ == "__main__":
    main()
