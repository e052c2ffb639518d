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


def test_enough_good_results_stops_the_rounds(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add_many(
            {"id": f"g{n}", "content": f"oat milk flat white coffee order number {n}", "user_id": "ann"}
            for n in range(8)
        )
        memory.add("The quarterly revenue report is late", id="other", user_id="ann")
        result = memory.iterative_search(
            "oat milk flat white coffee", limit=5, user_id="ann", max_iter=3, stop_confidence=1.0
        )
        assert result.stop_reason == "enough good results" and len(result.rounds) == 1
        weak = memory.iterative_search(
            "revenue numbers from finance", limit=5, user_id="ann", max_iter=3, stop_confidence=1.0
        )
        assert weak.stop_reason != "enough good results"


MOVE = [
    ("c1", "Coffee with Lena at the corner bakery in Leeds", "2023-01-10T09:00:00"),
    ("c2", "Coffee tasting at the Leeds roastery with Sam", "2023-02-14T09:00:00"),
    ("mv", "We finally did the move to Lisbon, boxes everywhere", "2023-03-01T09:00:00"),
    ("c3", "Coffee at a kiosk in Lisbon, a bica for one euro", "2023-04-02T09:00:00"),
    ("c4", "Coffee and pastel de nata near the new flat in Lisbon", "2023-05-20T09:00:00"),
]


@pytest.mark.parametrize(
    ("query", "wanted", "unwanted"),
    [("coffee before the move", {"c1", "c2"}, {"c3", "c4"}), ("coffee after the move", {"c3", "c4"}, {"c1", "c2"})],
)
def test_before_and_after_an_event_filter_and_boost_by_its_time(
    db_path: str, query: str, wanted: set[str], unwanted: set[str]
) -> None:
    with Memory(db_path, embedder="none") as memory:
        memory.add_many({"id": i, "content": c, "timestamp": t, "user_id": "ann"} for i, c, t in MOVE)
        result = memory.iterative_search(query, user_id="ann", max_iter=1)
        assert [w.text for w in result.windows] == [query.removeprefix("coffee ")]
        top = [h.id for h in result.hits if h.id != "mv"][:2]
        assert set(top) == wanted and not set(top) & unwanted
        assert all(h.ranks.get("temporal") for h in result.hits if h.id in wanted)


def test_an_event_the_store_does_not_know_adds_no_window(diary: Memory) -> None:
    result = diary.iterative_search("coffee before the wedding", user_id="ann", max_iter=1)
    assert result.windows == () and result.hits


def test_speaker_strategy_boosts_the_turns_of_the_person_the_query_names(db_path: str) -> None:
    turns = [
        ("t1", "Caroline", "I went hiking in the hills near the lake last weekend"),
        ("t2", "Melanie", "I went hiking near the lake with my kids"),
        ("t3", "Melanie", "The lake was cold but the hiking was great"),
    ]
    with Memory(db_path, embedder="none") as memory:
        memory.add_many({"id": i, "role": r, "content": c, "session_id": "s"} for i, r, c in turns)
        result = memory.iterative_search("Where did Caroline go hiking?", max_iter=1)
        assert result.hits[0].id == "t1" and result.hits[0].ranks.get("speaker") == 1
        assert "lexical" in result.hits[0].ranks  # the exact strategy keeps its public name
        without = memory.iterative_search("Where did Caroline go hiking?", max_iter=1, strategies="lexical,semantic")
        assert "speaker" not in without.rounds[0].found


def _spy(memory: Memory, method: str) -> list[int]:
    """Record how many keys/terms each call of a real store method was given (it still runs)."""
    calls: list[int] = []
    real = getattr(memory.store, method)

    def spied(first, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(len(first))
        return real(first, *args, **kwargs)

    setattr(memory.store, method, spied)
    return calls


def test_a_round_reads_item_text_only_for_the_hits_and_neighbours_stay_in_their_session(db_path: str) -> None:
    turns = [
        ("n0", "s2", "Cars are expensive to keep in the city"),
        ("n1", "s1", "What have you been researching lately?"),
        ("n2", "s1", "Adoption agencies, mostly."),
        ("n3", "s1", "That sounds like a big step"),
    ]
    with Memory(db_path, embedder="none") as memory:
        memory.add_many(
            {"id": i, "session_id": s, "content": c, "timestamp": f"2023-05-01T10:0{n}:00"}
            for n, (i, s, c) in enumerate(turns)
        )
        fetched = _spy(memory, "fetch")
        result = memory.iterative_search("what have you been researching", max_iter=1, limit=3)
        ranks = {h.id: h.ranks for h in result.hits}
        assert result.hits[0].id == "n1"
        assert ranks["n2"].get("neighbours") == 1  # the answer next to the matching question
        assert "neighbours" not in ranks.get("n0", {})  # adjacent row, other session
        assert fetched == [len(result.hits)]  # one read of whole items: the hits themselves


def test_a_time_window_with_nothing_in_it_costs_no_search(diary: Memory) -> None:
    searched = _spy(diary, "lexical")
    empty = diary.iterative_search("paella in May 2021", user_id="ann", max_iter=1)
    assert len(searched) == 1 and empty.rounds[0].found["temporal"] == 0
    assert empty.hits and all("temporal" not in h.ranks for h in empty.hits)
    searched.clear()
    full = diary.iterative_search("paella in June 2023", user_id="ann", max_iter=1)
    assert len(searched) == 2 and full.rounds[0].found["temporal"] >= 1


def test_only_a_query_its_own_words_barely_match_is_broadened(diary: Memory) -> None:
    # "paella seafood market neighbours saturday" has 5 terms; the broader form keeps the first 4
    options = {"user_id": "ann", "max_iter": 2, "stop_confidence": 1.0, "expansions": "hierarchical"}
    narrow = diary.iterative_search("paella seafood market neighbours saturday", limit=5, **options)
    assert narrow.rounds[1].queries.get("exact:general@1") == "paella seafood market neighbours"
    # with 2 wanted, its own words already found as many (m4 and m5): nothing is broadened
    matched = diary.iterative_search("paella seafood market neighbours saturday", limit=2, **options)
    assert len(matched.rounds) == 1 or "exact:general@1" not in matched.rounds[1].queries
