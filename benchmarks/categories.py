"""Categories: classification accuracy, subcategory quality and evolve speed.

1. Category accuracy and macro-F1 on benchmarks/data/categories_dev.jsonl (no LLM), with the real
   MiniLM model and with the hashing embedder; classification ms/item excludes the embedding
   (Memory.add reuses the vector it already made). Accuracy also on categories_fresh.jsonl, 50
   memories written after the cues were and never used for tuning.
2. How well subcategories recover the labelled topics: V-measure and adjusted Rand index, per
   category on the gold categories (clustering alone) and end to end through a real store
   (classify at ingestion, then evolve), plus the number of subcategories per category and their
   names; and the clustering methods compared on the same vectors.
3. Evolve time on 100k synthetic memories: texts from templates, vectors = a topic centre plus
   seeded noise (embedding 100k texts with MiniLM would take an hour on 2 cores, and clustering
   cost does not depend on how the vectors were made), then an incremental evolve after 5k more.

Run: ``python -m benchmarks.categories [--evolve-size 100000] [--skip-evolve]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import ROOT, markdown_table, write_results
from mnemo import Memory
from mnemo.categories import cluster
from mnemo.categories.classify import Classifier
from mnemo.categories.evolve import EvolveSettings, evolve_group
from mnemo.embed.base import Embedder, normalise_rows
from mnemo.embed.registry import make_embedder
from mnemo.records import CATEGORIES
from mnemo.store.sqlite_categories import Member

DEV = ROOT / "benchmarks" / "data" / "categories_dev.jsonl"
#: 50 more memories (category only), written after the cues and never used to tune anything.
FRESH = ROOT / "benchmarks" / "data" / "categories_fresh.jsonl"


def load(path: Path = DEV) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ---------------------------------------------------------------- metrics (plain numpy)


def macro_f1(gold: Sequence[str], predicted: Sequence[str | None]) -> tuple[float, dict[str, float]]:
    scores = {}
    for category in CATEGORIES:
        tp = sum(g == category and p == category for g, p in zip(gold, predicted, strict=True))
        fp = sum(g != category and p == category for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == category and p != category for g, p in zip(gold, predicted, strict=True))
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        scores[category] = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return float(np.mean(list(scores.values()))), scores


def _contingency(a: Sequence[Any], b: Sequence[Any]) -> np.ndarray:
    _, ai = np.unique(np.asarray(a, dtype=object).astype(str), return_inverse=True)
    _, bi = np.unique(np.asarray(b, dtype=object).astype(str), return_inverse=True)
    table = np.zeros((ai.max() + 1, bi.max() + 1))
    np.add.at(table, (ai, bi), 1)
    return table


def _entropy(counts: np.ndarray) -> float:
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log(p)).sum())


def v_measure(gold: Sequence[Any], predicted: Sequence[Any]) -> float:
    table = _contingency(gold, predicted)
    n = table.sum()
    h_c, h_k = _entropy(table.sum(axis=1)), _entropy(table.sum(axis=0))
    nz = table > 0
    joint = table[nz] / n
    outer = np.outer(table.sum(axis=1), table.sum(axis=0))[nz] / n**2
    mutual = float((joint * np.log(joint / outer)).sum())
    homogeneity = 1.0 if h_c == 0 else mutual / h_c
    completeness = 1.0 if h_k == 0 else mutual / h_k
    total = homogeneity + completeness
    return 0.0 if total == 0 else 2 * homogeneity * completeness / total


def adjusted_rand(gold: Sequence[Any], predicted: Sequence[Any]) -> float:
    table = _contingency(gold, predicted)

    def pairs(x: np.ndarray) -> float:
        return float((x * (x - 1) / 2).sum())

    index, rows, cols = pairs(table), pairs(table.sum(axis=1)), pairs(table.sum(axis=0))
    total = table.sum() * (table.sum() - 1) / 2
    expected = rows * cols / total if total else 0.0
    maximum = (rows + cols) / 2
    return 1.0 if maximum == expected else (index - expected) / (maximum - expected)


def unassigned_as_own(labels: Sequence[str | None]) -> list[str]:
    """Unassigned memories each count as their own cluster (no credit for leaving them out)."""
    return [label if label else f"-{i}" for i, label in enumerate(labels)]


# ---------------------------------------------------------------- 1. classification


def classification(rows: list[dict[str, Any]], embedder_name: str) -> dict[str, Any]:
    texts = [r["text"] for r in rows]
    embedder = make_embedder(embedder_name)
    vectors = embedder.embed(texts)
    classifier = Classifier(embedder)
    classifier.classify_many(texts[:2], vectors[:2])  # prototypes embedded once, outside the timing
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        predicted = [classifier.classify(t, v).category for t, v in zip(texts, vectors, strict=True)]
        timings.append((time.perf_counter() - started) / len(texts) * 1000)
    gold = [r["category"] for r in rows]
    f1, per_category = macro_f1(gold, predicted)
    errors = [
        {"text": r["text"], "gold": r["category"], "predicted": p}
        for r, p in zip(rows, predicted, strict=True)
        if p != r["category"]
    ]
    border = [i for i, r in enumerate(rows) if r.get("borderline")]
    return {
        "embedder": embedder.name,
        "items": len(rows),
        "accuracy": float(np.mean([g == p for g, p in zip(gold, predicted, strict=True)])),
        "macro_f1": f1,
        "f1": per_category,
        "borderline_accuracy": float(np.mean([predicted[i] == gold[i] for i in border])) if border else None,
        "ms_per_item": min(timings),
        "errors": errors,
    }


# ---------------------------------------------------------------- 2. subcategories


def clustering_on_gold(rows: list[dict[str, Any]], vectors: np.ndarray, method: Callable[..., Any]) -> dict[str, Any]:
    """Topic recovery within each gold category; ``method`` maps (members, category) to labels."""
    per_category = {}
    for category in CATEGORIES:
        positions = [i for i, r in enumerate(rows) if r["category"] == category]
        gold = [rows[i]["topic"] for i in positions]
        labels = unassigned_as_own(method([Member(i, rows[i]["text"], None, vectors[i]) for i in positions], category))
        per_category[category] = {
            "v_measure": v_measure(gold, labels),
            "ari": adjusted_rand(gold, labels),
            "subcategories": len({label for label in labels if not label.startswith("-")}),
            "topics": len(set(gold)),
        }
    return {
        "v_measure": float(np.mean([c["v_measure"] for c in per_category.values()])),
        "ari": float(np.mean([c["ari"] for c in per_category.values()])),
        "per_category": per_category,
    }


def evolve_method(settings: EvolveSettings) -> Callable[[list[Member], str], list[str | None]]:
    def run(members: list[Member], category: str) -> list[str | None]:
        grouping = evolve_group("", category, members, [], settings)
        names = dict(grouping.assignments)
        return [names.get(m.key) for m in members]

    return run


def raw_method(fit: Callable[[np.ndarray], cluster.Clustering]) -> Callable[[list[Member], str], list[str | None]]:
    def run(members: list[Member], category: str) -> list[str | None]:
        labels = fit(np.vstack([m.vector for m in members])).labels
        return [None if label < 0 else str(label) for label in labels]

    return run


def method_comparison(rows: list[dict[str, Any]], vectors: np.ndarray) -> dict[str, Any]:
    methods = {
        "evolve (linkage, centred, silhouette k 3-10; chosen)": evolve_method(EvolveSettings()),
        "average linkage, centred, silhouette k 3-10": raw_method(lambda x: cluster.linkage_auto(x, 3, 10)),
        "spherical k-means, silhouette k 3-10": raw_method(lambda x: cluster.kmeans_auto(x, 3, 10)),
    }
    try:
        import sklearn  # noqa: F401 - only to know whether the comparison can run

        methods["sklearn agglomerative, cosine distance < 0.8"] = raw_method(lambda x: cluster.agglomerative(x, 0.8))
        methods["sklearn HDBSCAN, min size 3"] = raw_method(lambda x: cluster.hdbscan(x, 3))
    except ImportError:
        pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: clustering_on_gold(rows, vectors, run) for name, run in methods.items()}


def end_to_end(rows: list[dict[str, Any]], embedder_name: str) -> dict[str, Any]:
    """Ingest the dev set into a real store, evolve, and compare (category, subcategory) to (category, topic)."""
    with tempfile.TemporaryDirectory() as tmp, Memory(str(Path(tmp) / "dev.db"), embedder=embedder_name) as memory:
        memory.add_many({"id": r["id"], "content": r["text"]} for r in rows)
        started = time.perf_counter()
        memory.evolve_categories()
        seconds = time.perf_counter() - started
        items = {r["id"]: memory.get(r["id"]) for r in rows}
        tree = memory.categories()
    predicted = unassigned_as_own(
        [
            f"{items[r['id']].category}/{items[r['id']].subcategory}" if items[r["id"]].subcategory else None
            for r in rows
        ]
    )
    gold = [f"{r['category']}/{r['topic']}" for r in rows]
    names = {c: list(node["subcategories"]) for c, node in tree["categories"].items()}
    return {
        "v_measure": v_measure(gold, predicted),
        "ari": adjusted_rand(gold, predicted),
        "evolve_s": seconds,
        "subcategories": {c: len(n) for c, n in names.items()},
        "names": names,
        "unassigned": {c: node["unassigned"] for c, node in tree["categories"].items()},
    }


# ---------------------------------------------------------------- 3. evolve at scale

TEMPLATES = {
    "facts": "The {a} service stores {b} data in {c} and is owned by the {d} team.",
    "preferences": "I really prefer {a} and {b} over {c} when I work on {d}.",
    "skills": "To fix {a} in {b}, run {c} --{d} and check the output.",
    "rules": "Never change {a} or {b} without asking me; always keep {c} for {d}.",
    "context": "I'm currently working on {a} and {b}; right now the {c} {d} is failing.",
}
TOPICS_PER_CATEGORY = 8
VOCABULARY = 40  # words per topic


class SyntheticEmbedder(Embedder):
    """Topic centre + seeded noise, read from the "#<topic>:<number>" tag each synthetic text ends with."""

    name = "synthetic-topics-384"
    dim = 384
    batch_size = 4096

    def __init__(self, topics: int, noise: float = 0.9) -> None:
        rng = np.random.default_rng(11)
        self.centres = normalise_rows(rng.standard_normal((topics, self.dim)).astype(np.float32))
        self.noise = noise

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        rows = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            tag = text.rsplit("#", 1)[-1] if "#" in text else "0:0"
            topic, _, number = tag.partition(":")
            topic_index = int(topic) if topic.isdigit() else 0
            seed = int(number) if number.isdigit() else 0
            noise = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            rows[row] = self.centres[topic_index % len(self.centres)] + self.noise * noise / np.sqrt(self.dim)
        return normalise_rows(rows)


def synthetic_records(start: int, n: int) -> list[dict[str, Any]]:
    rng = np.random.default_rng(start + 5)
    records = []
    for number in range(start, start + n):
        category_index = number % len(CATEGORIES)
        topic = int(rng.integers(TOPICS_PER_CATEGORY))
        global_topic = category_index * TOPICS_PER_CATEGORY + topic
        words = [f"w{global_topic}x{int(i)}" for i in rng.integers(0, VOCABULARY, 4)]
        text = TEMPLATES[CATEGORIES[category_index]].format(a=words[0], b=words[1], c=words[2], d=words[3])
        records.append({"id": f"s{number}", "content": f"{text} #{global_topic}:{number}"})
    return records


def evolve_at_scale(n: int) -> dict[str, Any]:
    embedder = SyntheticEmbedder(len(CATEGORIES) * TOPICS_PER_CATEGORY)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "evolve.db")
        with Memory(path, embedder=embedder, category_evolve_after=0) as memory:
            started = time.perf_counter()
            for start in range(0, n, 20_000):
                memory.add_many(synthetic_records(start, min(20_000, n - start)))
            ingest = time.perf_counter() - started
            started = time.perf_counter()
            first = memory.evolve_categories()
            first_s = time.perf_counter() - started
            memory.add_many(synthetic_records(n, 5_000))
            started = time.perf_counter()
            second = memory.evolve_categories()
            second_s = time.perf_counter() - started
            tree = memory.categories()
    return {
        "memories": n,
        "ingest_s": ingest,
        "classify_and_ingest_items_per_s": n / ingest,
        "first_evolve_s": first_s,
        "incremental_evolve_s_after_5k": second_s,
        "subcategories": {c: len(node["subcategories"]) for c, node in tree["categories"].items()},
        "unassigned": {c: node["unassigned"] for c, node in tree["categories"].items()},
        "history_first": len(first.history),
        "history_incremental": [(h["action"], h["old"], h["new"]) for h in second.history],
    }


def ingest_overhead(n: int = 10_000) -> dict[str, Any]:
    """add_many of the same synthetic memories with classification on and off (best of two each)."""
    embedder = SyntheticEmbedder(len(CATEGORIES) * TOPICS_PER_CATEGORY)
    records = synthetic_records(0, n)
    embedder.embed(["warm-up #0:0"])
    best: dict[bool, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for attempt in range(2):
            for on in (False, True):
                path = str(Path(tmp) / f"ingest-{on}-{attempt}.db")
                with Memory(path, embedder=embedder, categorize=on, category_evolve_after=0) as memory:
                    started = time.perf_counter()
                    memory.add_many(records)
                    best[on] = min(best.get(on, np.inf), time.perf_counter() - started)
    return {
        "memories": n,
        "add_many_s_without": best[False],
        "add_many_s_with": best[True],
        "classification_ms_per_item": (best[True] - best[False]) / n * 1000,
    }


# ---------------------------------------------------------------- main


def classify_only(path: Path) -> None:
    """Accuracy and macro-F1 on another labelled file (e.g. the held-out set), both embedders."""
    rows = load(path)
    results = {name: classification(rows, name) for name in ("minilm", "hashing")}
    table = markdown_table(
        ["embedder", "items", "accuracy", "macro-F1"],
        [[r["embedder"], r["items"], r["accuracy"], r["macro_f1"]] for r in results.values()],
    )
    write_results(f"categories_{path.stem.removeprefix('categories_')}", {"data": path.name, **results}, table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evolve-size", type=int, default=100_000)
    parser.add_argument("--skip-evolve", action="store_true")
    parser.add_argument("--classify-only", type=Path, help="Only score classification on this labelled file.")
    args = parser.parse_args()
    if args.classify_only:
        classify_only(args.classify_only)
        return
    rows = load()
    payload: dict[str, Any] = {"dev_set": str(DEV.relative_to(ROOT)), "items": len(rows)}
    table_rows = []
    for name in ("minilm", "hashing"):
        result = classification(rows, name)
        fresh = classification(load(FRESH), name)
        vectors = make_embedder(name).embed([r["text"] for r in rows])
        methods = method_comparison(rows, vectors)
        chosen = next(iter(methods.values()))
        e2e = end_to_end(rows, name)
        payload[name] = {
            "classification": result,
            "classification_fresh": fresh,
            "clustering_methods": methods,
            "end_to_end": e2e,
        }
        subs = ", ".join(f"{c} {e2e['subcategories'][c]}" for c in CATEGORIES)
        table_rows.append(
            [
                result["embedder"],
                result["accuracy"],
                result["macro_f1"],
                fresh["accuracy"],
                f"{result['ms_per_item']:.3f}",
                chosen["v_measure"],
                chosen["ari"],
                e2e["v_measure"],
                subs,
            ]
        )
    headers = [
        "embedder",
        "accuracy",
        "macro-F1",
        "accuracy (fresh 50)",
        "classify ms/item",
        "topic V (gold cats)",
        "topic ARI (gold cats)",
        "V end to end",
        "subcategories per category",
    ]
    table = markdown_table(headers, table_rows)
    method_rows = [[m, r["v_measure"], r["ari"]] for m, r in payload["minilm"]["clustering_methods"].items()]
    table += "\n\nClustering methods (MiniLM vectors, gold categories):\n\n"
    table += markdown_table(["method", "V-measure", "ARI"], method_rows)
    if not args.skip_evolve:
        scale = evolve_at_scale(args.evolve_size)
        payload["evolve_at_scale"] = scale
        overhead = ingest_overhead()
        payload["ingest_overhead"] = overhead
        table += "\n\nEvolve at scale (synthetic vectors):\n\n" + markdown_table(
            ["memories", "first evolve s", "incremental evolve s (after 5k more)", "ingest items/s"],
            [
                [
                    scale["memories"],
                    scale["first_evolve_s"],
                    scale["incremental_evolve_s_after_5k"],
                    round(scale["classify_and_ingest_items_per_s"]),
                ]
            ],
        )
        table += "\n\nClassification at ingestion (add_many of 10k synthetic memories):\n\n" + markdown_table(
            ["add_many s without", "add_many s with", "added ms/item"],
            [[overhead["add_many_s_without"], overhead["add_many_s_with"], overhead["classification_ms_per_item"]]],
        )
    write_results("categories", payload, table)


if __name__ == "__main__":
    main()
