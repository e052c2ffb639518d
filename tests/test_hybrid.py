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


@pytest.mark.core
def test_fusion_pool_adds_signals_one_at_a_time_to_the_same_order_as_fusing_them_at_once() -> None:
    from mnemo.retrieve.fuse import FusionPool, score_fusion

    signals = {
        "exact": {1: 9.0, 2: 4.0, 3: 1.0},
        "semantic": {2: 0.9, 4: 0.8, 1: 0.3},
        "speaker": {4: 1.0, 3: 1.0},  # all equal: each gets the full weight
    }
    weights = {"exact": 1.0, "semantic": 1.0, "speaker": 0.2}
    pool = FusionPool("weighted")
    pool.add("exact", signals["exact"], 1.0, "exact")
    halfway = pool.top(2)
    assert [k for k, _ in halfway] == [1, 2]  # asked in between: only what was added counts
    pool.add("semantic", signals["semantic"], 1.0, "semantic")
    pool.add("speaker", signals["speaker"], 0.2, "speaker")
    totals = {2: 0.375 + 1.0, 1: 1.0, 4: 5 / 6 + 0.2, 3: 0.2}
    fused = pool.top(10)
    assert [k for k, _ in fused] == [2, 4, 1, 3]
    assert [score for _, score in fused] == pytest.approx([totals[k] for k in (2, 4, 1, 3)])
    # score_fusion gives an all-equal ranking nothing; the pool gives it its weight (a filter-like boost)
    assert [f.key for f in score_fusion(signals, weights)][:2] == [2, 1]
    assert pool.ranks["semantic"] == {2: 1, 4: 2, 1: 3}


@pytest.mark.core
def test_fusion_pool_extra_signal_diversity_and_rrf() -> None:
    from mnemo.retrieve.fuse import FusionPool

    pool = FusionPool("weighted", diversity=0.5)
    pool.add("exact", {1: 2.0, 2: 1.0}, 1.0, "exact")
    pool.add("exact:context", {2: 5.0, 1: 1.0}, 1.0, "exact")  # same strategy: no diversity bonus
    assert dict(pool.top(5)) == {1: 1.0, 2: 1.0}
    pool.add("semantic", {2: 0.5, 3: 0.1}, 1.0, "semantic")
    assert pool.top(1) == [(2, 3.0)]  # (0 + 1 + 1) × 1.5: a second strategy agrees
    recency = {1: 100.0, 2: 50.0, 7: 200.0}  # an item only the extra signal knows is never added
    assert 7 not in dict(pool.top(5, recency, 1.0))
    rrf = FusionPool("rrf", rrf_k=10.0)
    rrf.add("exact", {5: 3.0, 6: 1.0}, 2.0, "exact")
    assert rrf.top(2) == [(5, 2.0 / 11), (6, 2.0 / 12)]


@pytest.mark.core
def test_a_ranking_on_its_own_scale_keeps_what_its_scores_mean() -> None:
    """The neighbours strategy scores a neighbour of the k-th best item top − k + 1: a lone
    neighbour of the 6th item of ten is worth half the weight, not all of it (mnemo/retrieve/iterate.py)."""
    from mnemo.retrieve.fuse import FusionPool

    stretched, scaled = FusionPool("weighted"), FusionPool("weighted")
    stretched.add("neighbours", {7: 5.0}, 0.6, "neighbours")
    scaled.add("neighbours", {7: 5.0, 8: 10.0}, 0.6, "neighbours", scale=(0.0, 10.0))
    assert stretched.top(1) == [(7, pytest.approx(0.6))]  # alone, min-max gives it everything
    assert dict(scaled.top(2)) == {8: pytest.approx(0.6), 7: pytest.approx(0.3)}
    rrf = FusionPool("rrf", rrf_k=10.0)  # ranks know no scale
    rrf.add("neighbours", {7: 5.0}, 0.6, "neighbours", scale=(0.0, 10.0))
    assert rrf.top(1) == [(7, pytest.approx(0.6 / 11))]


@needs_model
def test_in_a_small_store_a_neighbour_of_a_weak_match_does_not_lead(model_memory: Memory) -> None:
    """The README demo's 15 turns: with the neighbours ranking stretched over its own few scores,
    the turn after an unrelated one ("Lisbon in May is beautiful") led the search for the dog."""
    import json

    example = Path(__file__).resolve().parents[1] / "examples" / "sample_conversation.jsonl"
    records = []
    for line in example.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # the sample's deliberately malformed line
    model_memory.add_many(records)
    top = [hit.id for hit in model_memory.search("what broke because of the dog?", limit=3)]
    assert "demo-15" not in top
    assert "demo-10" in top  # "Juniper chewed through my laptop charger"
