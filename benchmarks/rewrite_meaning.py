"""Can the bundled embedding model judge what a reference means? Two probes on the read sets.

The rule resolver stopped generalising (docs/search.md, "An eleventh pass"), so the obvious next
part was a meaning-based one: all-MiniLM-L6-v2, which every full install already has. This
measures, before building anything, whether the model's similarities carry the signal such a
part would need:

1. **Picking the referent.** For each ambiguous row with one resolved reference, at least two
   candidates of the reference's kind and one candidate holding every wanted word: is the
   candidate most similar to the query the right one, beside the resolver's answer?
2. **Picking by the noun.** The same for "that route", "the garden" (a determiner and a noun):
   the candidate most similar to the noun alone, which leaves out the query's other words.
3. **Telling a follow-up from a new question.** For each row where no reference was detected
   (undetected implicit follow-ups and clear queries alike): the highest similarity between the
   query and the conversation's candidates. A detector of topic-less follow-ups would need the
   follow-ups to score higher than the clear queries.

Only the development sets that have been read are used; the blind ones (``BLIND_SETS``) and the
held-out set are left alone so they stay blind.

``python -m benchmarks.rewrite_meaning`` writes ``benchmarks/results/rewrite_meaning.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import markdown_table, write_results
from benchmarks.query import wanted_words
from mnemo.embed.minilm import MiniLMEmbedder
from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.tidy import without_title_stops

DATA = Path(__file__).parent / "data"
#: Sets written and kept unread as blind measures: never looked at row by row, so not probed here.
BLIND_SETS = frozenset({"dev17", "dev19", "dev24", "dev30", "dev31"})
THRESHOLDS = (0.3, 0.4, 0.5)


def read_rows() -> Iterator[dict[str, Any]]:
    for path in sorted(DATA.glob("rewrite_*.jsonl")):
        if path.stem.removeprefix("rewrite_") in BLIND_SETS:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def holds(text: str, wanted: list[str]) -> bool:
    """Whether ``text`` contains every wanted word (case-insensitive)."""
    low = text.lower()
    return all(word.lower() in low for word in wanted)


_DETERMINERS = frozenset({"the", "that", "this", "those", "these"})


def _count(tally: dict[str, int], resolver_right: bool, model_right: bool) -> None:
    tally["rows"] += 1
    tally["resolver"] += resolver_right
    tally["model"] += model_right
    tally["both"] += resolver_right and model_right
    tally["model_only"] += model_right and not resolver_right


def probe(embedder: MiniLMEmbedder) -> dict[str, Any]:
    rewriter = QueryRewriter(cache_ttl=0)
    pick = {"rows": 0, "resolver": 0, "model": 0, "both": 0, "model_only": 0}
    by_noun = dict(pick)
    follow_up: dict[str, list[float]] = {"ambiguous": [], "clear": []}
    timings: list[float] = []
    for row in read_rows():
        result = rewriter.rewrite(row["query"], row["context"])
        messages = [{**m, "content": without_title_stops(m.get("content", ""))} for m in row["context"]]
        candidates = extract(messages, rewriter.max_context) if messages else []
        if row["ambiguous"] and len(result.resolved) == 1:
            person = result.resolved[0].kind == "person"
            texts = [c.text for c in candidates if (c.kind == "person") == person]
            wanted = wanted_words(row)
            if len(texts) >= 2 and any(holds(t, wanted) for t in texts):
                started = time.perf_counter()
                vectors = embedder.embed([row["query"], *texts])
                timings.append((time.perf_counter() - started) * 1000)
                resolver_right = holds(result.expanded, wanted)
                _count(pick, resolver_right, holds(texts[int(np.argmax(vectors[1:] @ vectors[0]))], wanted))
                first, _, noun = result.resolved[0].reference.partition(" ")
                if noun and first.lower() in _DETERMINERS:
                    vectors = embedder.embed([noun, *texts])
                    _count(by_noun, resolver_right, holds(texts[int(np.argmax(vectors[1:] @ vectors[0]))], wanted))
        if not result.references and candidates:
            texts = [c.text for c in candidates if c.kind != "person"]
            if texts:
                vectors = embedder.embed([row["query"], *texts])
                follow_up["ambiguous" if row["ambiguous"] else "clear"].append(float(np.max(vectors[1:] @ vectors[0])))
    above = {
        group: {str(t): sum(s >= t for s in scores) / max(1, len(scores)) for t in THRESHOLDS}
        for group, scores in follow_up.items()
    }
    return {
        "pick": pick,
        "pick_by_noun": by_noun,
        "follow_up": {
            "rows": {group: len(scores) for group, scores in follow_up.items()},
            "median": {group: float(np.median(scores)) if scores else 0.0 for group, scores in follow_up.items()},
            "share_above": above,
        },
        "embed_ms": {"p50": float(np.percentile(timings, 50)), "p95": float(np.percentile(timings, 95))}
        if timings
        else {},
    }


def _table(found: dict[str, Any]) -> str:
    lines = []
    for label, pick in (("query", found["pick"]), ("noun of 'that N' / 'the N'", found["pick_by_noun"])):
        rows = max(1, pick["rows"])
        lines += [
            (label, "rule resolver", pick["rows"], pick["resolver"], round(pick["resolver"] / rows, 3)),
            (label, "most similar candidate (MiniLM)", pick["rows"], pick["model"], round(pick["model"] / rows, 3)),
            (label, "model right where the resolver is wrong", pick["rows"], pick["model_only"], ""),
        ]
    table = markdown_table(["similar to", "referent pick", "rows", "right", "share"], lines)
    follow = found["follow_up"]
    table += "\n\n" + markdown_table(
        ["no reference detected", "rows", "median best similarity"] + [f"share >= {t}" for t in THRESHOLDS],
        [
            (
                group,
                follow["rows"][group],
                round(follow["median"][group], 3),
                *(round(follow["share_above"][group][str(t)], 3) for t in THRESHOLDS),
            )
            for group in ("ambiguous", "clear")
        ],
    )
    if found["embed_ms"]:
        table += f"\n\nEmbedding the query and its candidates: p50 {found['embed_ms']['p50']:.1f} ms, "
        table += f"p95 {found['embed_ms']['p95']:.1f} ms."
    return table


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    found = probe(MiniLMEmbedder())
    write_results("rewrite_meaning", found, _table(found))


if __name__ == "__main__":
    main()
