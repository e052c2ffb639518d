"""Hybrid ranking on every backend: both strategies contribute, exact phrases lead, input is safe."""

from __future__ import annotations

import pytest

from mnemo import Memory
from tests.conftest import needs_model

FILLER = [
    "We talked about the weather and the long weekend.",
    "The grocery list has apples, rice and coffee.",
    "Remember to water the plants on the balcony.",
    "The train was late again this morning.",
]


def test_a_rare_token_is_found_lexically(memory: Memory) -> None:
    memory.add_many([{"content": text} for text in FILLER] + [{"id": "tok", "content": "ticket ZX-4471 is blocked"}])
    hits = memory.search("ZX-4471")
    assert hits[0].id == "tok" and "lexical" in hits[0].ranks


def test_the_exact_phrase_ranks_first(memory: Memory) -> None:
    memory.add_many(
        [
            {"id": "scattered1", "content": "the deadline for the report moved and the project is fine"},
            {"id": "scattered2", "content": "a project report is due; no deadline yet for it"},
            {"id": "exact", "content": "the project report deadline is Friday"},
            *({"content": text} for text in FILLER),
        ]
    )
    hits = memory.search("project report deadline")
    assert hits[0].id == "exact"
    assert {"scattered1", "scattered2"} <= {h.id for h in hits}


def test_hits_carry_ranks_and_signals_of_both_strategies(memory: Memory) -> None:
    memory.add_many([{"content": text} for text in FILLER] + [{"id": "t", "content": "The train was late again."}])
    top = memory.search("train late")[0]
    assert top.id == "t" and {"lexical", "semantic"} <= set(top.ranks) and top.score > 0


@pytest.mark.parametrize("query", ['"unbalanced', "a AND OR NOT (", "col:umn*", "'; DROP TABLE items; --", "ü ß ✓"])
def test_query_syntax_is_harmless(memory: Memory, query: str) -> None:
    memory.add("DROP TABLE items is a phrase in this note", id="x")
    memory.search(query)
    assert memory.get("x") is not None


@needs_model
def test_lexical_only_and_semantic_only_hits_are_both_found(backend_target: str) -> None:
    with Memory(backend_target, embedder="minilm") as memory:
        memory.add_many(
            [
                *({"content": text} for text in FILLER),
                {"id": "lexical", "content": "Invoice QX-7781 from the plumber is unpaid."},
                {"id": "semantic", "content": "My puppy chewed through the sofa cushions."},
            ]
        )
        hits = memory.search("QX-7781 my dog destroyed the couch", limit=3)
        by_id = {h.id: h for h in hits}
        assert {"lexical", "semantic"} <= set(by_id)
        assert "lexical" in by_id["lexical"].ranks
        assert "lexical" not in by_id["semantic"].ranks and "semantic" in by_id["semantic"].ranks
