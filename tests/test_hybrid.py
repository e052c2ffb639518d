"""Hybrid ranking beats each single strategy, on a slice of real conversation data.

The fixture is the first LoCoMo development conversation (~400 turns, ~150 questions with
evidence turns). Hand-made fixtures of a few dozen lines proved too easy for MiniLM alone to be a
fair test; a real conversation is where fusion has to earn its keep.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from benchmarks.locomo import CATEGORIES, evidence_ids, turns

from mnemo import Memory
from tests.conftest import needs_model

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"
VARIANTS = {
    "hybrid": {},
    "lexical": {"weight_semantic": 0.0, "weight_recency": 0.0},
    "semantic": {"weight_lexical": 0.0, "weight_recency": 0.0},
}


def recall_at_10(memory: Memory, questions: list[tuple[str, set[str]]]) -> float:
    total = 0.0
    for question, relevant in questions:
        found = {hit.id for hit in memory.search(question, limit=10)}
        total += len(found & relevant) / len(relevant)
    return total / len(questions)


@needs_model
@pytest.mark.skipif(not LOCOMO.exists(), reason="../shared/data/locomo is not beside the checkout")
def test_hybrid_beats_each_single_strategy_on_a_real_conversation(model_memory: Memory) -> None:
    import json

    sample = json.loads(LOCOMO.read_text())[0]
    records = list(turns(sample["conversation"]))
    model_memory.add_many(records)
    known = {r["id"] for r in records}
    questions = [
        (q["question"], relevant)
        for q in sample["qa"]
        if q.get("category") in CATEGORIES and (relevant := evidence_ids(q.get("evidence", []), known))
    ]
    assert len(questions) > 100
    base = model_memory.config
    scores = {}
    for name, weights in VARIANTS.items():
        model_memory.config = replace(base, search_mode="hybrid", **weights)  # the single-pass path's weights
        scores[name] = recall_at_10(model_memory, questions)
    assert scores["hybrid"] > scores["lexical"] + 0.01, scores
    assert scores["hybrid"] > scores["semantic"] + 0.05, scores


@pytest.mark.core
def test_exact_tokens_are_found_without_the_model(hashing_memory: Memory) -> None:
    notes = {f"inv{n}": f"Invoice {n} from Acme was paid by bank transfer." for n in (88213, 88231, 83218)}
    notes["err"] = "The nightly build failed with ERR-4021 while linking the parser."
    hashing_memory.add_many([{"id": key, "content": text} for key, text in notes.items()])
    assert hashing_memory.search("ERR-4021", limit=1)[0].id == "err"
    assert hashing_memory.search("was invoice 83218 paid?", limit=1)[0].id == "inv83218"
