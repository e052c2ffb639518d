"""Iterative search on real SQLite stores: feedback rounds, temporal windows, stopping, scope, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mnemo import Memory
from mnemo.cli.main import cli
from mnemo.errors import InputError
from mnemo.retrieve.expand import feedback_terms, generalise
from mnemo.retrieve.temporal import parse_time

pytestmark = pytest.mark.core

DIARY = [
    ("m1", "My morning energy crashes by ten unless I have coffee first", "2023-05-02T08:00:00"),
    ("m0", "My energy in the morning is better on days with strong coffee", "2023-05-01T08:00:00"),
    ("m2", "Coffee at seven with oat milk keeps me sharp until lunch", "2023-05-03T08:00:00"),
    ("m3", "The quarterly report needs the revenue numbers from finance", "2023-06-04T09:00:00"),
    ("m4", "We cooked paella for the neighbours on Saturday", "2023-06-10T19:00:00"),
    ("m5", "Paella again, this time with seafood from the market", "2023-07-15T19:00:00"),
    ("m6", "Finance sent the revenue numbers late again", "2023-06-05T09:00:00"),
]


@pytest.fixture
def diary(db_path: str) -> Memory:
    memory = Memory(db_path, embedder="none")
    memory.add_many(
        {"id": i, "content": c, "timestamp": t, "user_id": "ann", "session_id": "d", "role": "user"}
        for i, c, t in DIARY
    )
    memory.add("Bob drinks coffee at seven every morning too", id="b1", user_id="bob", session_id="x")
    yield memory
    memory.close()


def test_feedback_round_finds_what_the_query_words_miss(diary: Memory) -> None:
    single = [h.id for h in diary.search("morning energy", user_id="ann")]
    result = diary.iterative_search("morning energy", user_id="ann", max_iter=2, stop_confidence=1.0)
    ids = [h.id for h in result.hits]
    assert "m2" not in single  # shares no word with the query
    assert set(ids[:2]) == {"m0", "m1"} and "m2" in ids
    assert len(result.rounds) == 2
    second = result.rounds[1]
    assert "coffee" in second.queries["exact@1"]
    assert second.contributions["exact@1"] >= 1


def test_search_never_leaves_the_users_scope(diary: Memory) -> None:
    result = diary.iterative_search("coffee morning seven", user_id="ann", max_iter=3, stop_confidence=1.0)
    assert result.hits and all(h.item.scope.user_id == "ann" for h in result.hits)
    assert "b1" not in [h.id for h in diary.search("coffee", user_id="ann", iterative=True)]


def test_temporal_windows_filter_and_boost_by_event_time(diary: Memory) -> None:
    result = diary.iterative_search("paella in June 2023", user_id="ann")
    assert [h.id for h in result.hits][:1] == ["m4"]
    assert "temporal" in result.rounds[0].found
    assert result.hits[0].ranks.get("temporal") == 1
    month_only = diary.iterative_search("paella in July", user_id="ann", max_iter=1)
    assert month_only.hits[0].id == "m5"


def test_stopping_rules(diary: Memory) -> None:
    one = diary.iterative_search("revenue numbers", user_id="ann", max_iter=1)
    assert len(one.rounds) == 1 and one.stop_reason == "max iterations"
    confident = diary.iterative_search("revenue numbers", user_id="ann", max_iter=3, stop_confidence=0.05)
    assert len(confident.rounds) == 1 and confident.stop_reason == "high confidence"


def test_weighted_fusion_and_strategy_choice(diary: Memory) -> None:
    result = diary.iterative_search("paella seafood", user_id="ann", fusion_mode="weighted", strategies="exact")
    assert result.hits[0].id == "m5"
    assert set(result.rounds[0].queries) == {"exact"}


@pytest.mark.parametrize(
    "options",
    [{"strategies": "exact,psychic"}, {"max_iter": 0}, {"stop_confidence": 2.0}, {"fusion_mode": "max"}],
)
def test_bad_options_are_input_errors(diary: Memory, options: dict) -> None:
    with pytest.raises(InputError):
        diary.iterative_search("coffee", **options)


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_query_is_an_input_error(diary: Memory, query: str) -> None:
    with pytest.raises(InputError):
        diary.search(query, iterative=True)


def test_stopword_only_query_returns_quickly(diary: Memory) -> None:
    result = diary.iterative_search("what is the", user_id="ann")
    assert result.rounds and len(result.hits) <= 10


def test_expansion_helpers() -> None:
    assert feedback_terms("morning energy", ["coffee first thing", "coffee with milk"])[0] == "coffee"
    assert generalise("which activities does Melanie do with her family in June") is not None
    assert generalise("coffee") is None
    assert parse_time("what happened before lunch") == []


def test_cli_iterative_explain_and_json(db_path: str, tmp_path: Path) -> None:
    with Memory(db_path, embedder="none") as memory:
        memory.add_many({"id": i, "content": c, "timestamp": t, "session_id": "d"} for i, c, t in DIARY)
    runner = CliRunner()
    base = ["--db", db_path, "--embedder", "none", "search", "morning energy"]
    shown = runner.invoke(cli, [*base, "--iterative", "--max-iter", "2", "--stop-confidence", "1", "--explain"])
    assert shown.exit_code == 0, shown.output
    assert "round 0:" in shown.output and "round 1:" in shown.output and "stopped:" in shown.output
    as_json = runner.invoke(cli, [*base, "--iterative", "--json", "--strategies", "exact", "--expansion", "feedback"])
    data = json.loads(as_json.output)
    assert data["rounds"][0]["queries"] == {"exact": "morning energy"} and data["hits"]
    refused = runner.invoke(cli, [*base, "--max-iter", "2"])
    assert refused.exit_code == 2 and "--iterative" in refused.output
    plain = runner.invoke(cli, [*base, "--json"])
    assert json.loads(plain.output)["hits"][0]["id"] == "m1"
