"""Context blocks: never over budget, deduplicated, oldest first, with dates and speakers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemo import Memory
from mnemo.context.budget import estimate_tokens, truncate_to_tokens

pytestmark = pytest.mark.core


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    contents=st.lists(st.text(min_size=1, max_size=400).filter(str.strip), min_size=1, max_size=15),
    budget=st.integers(min_value=1, max_value=600),
)
def test_context_is_never_over_budget(hashing_memory: Memory, contents: list[str], budget: int) -> None:
    for number, content in enumerate(contents):
        hashing_memory.add(content + " shared", id=str(number), role="user", timestamp=f"2024-01-{number + 1:02d}")
    pack = hashing_memory.context_pack("shared", max_tokens=budget)
    assert pack.tokens <= budget
    assert estimate_tokens(pack.text) <= budget


def test_context_deduplicates_and_orders_by_time(hashing_memory: Memory) -> None:
    hashing_memory.add("We moved to Lisbon in May", id="a", timestamp="2024-05-02", role="Ana")
    hashing_memory.add("we moved to   lisbon in may", id="b", timestamp="2024-06-02", role="Ana")
    hashing_memory.add("Lisbon trams are yellow", id="c", timestamp="2024-01-02", role="Ben")
    pack = hashing_memory.context_pack("Lisbon move", max_tokens=500)
    ids = [hit.id for hit in pack.used]
    assert sorted(ids) in (["a", "c"], ["b", "c"])  # one of the two duplicates only
    lines = pack.text.splitlines()[1:]
    assert lines[0].startswith("- [2024-01-02") and "Ben" in lines[0]
    assert "Ana" in lines[1]


def test_one_huge_memory_is_cut_to_fit(hashing_memory: Memory) -> None:
    hashing_memory.add("zebra " + "words " * 50_000, id="big")
    pack = hashing_memory.context_pack("zebra", max_tokens=120)
    assert 0 < pack.tokens <= 120 and pack.text.endswith("…")


def test_no_hits_gives_empty_text(hashing_memory: Memory) -> None:
    assert hashing_memory.context("anything at all", max_tokens=100) == ""


@given(st.text(max_size=3000), st.integers(min_value=0, max_value=400))
def test_truncate_respects_budget(text: str, budget: int) -> None:
    assert estimate_tokens(truncate_to_tokens(text, budget)) <= max(budget, 0) or estimate_tokens(text) <= budget


def test_estimate_is_pessimistic_for_common_text() -> None:
    # English prose runs ~4 characters per BPE token; the estimate must not undercount it
    sentence = "The quick brown fox jumps over the lazy dog near the riverbank at dawn."
    assert estimate_tokens(sentence) >= 15
    assert estimate_tokens("東京都に住んでいます") >= 10
