"""Progressive search's sufficiency judgement and its descent into the matched sessions (real SQLite)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from click.testing import CliRunner

from mnemo import Memory
from mnemo.cli.main import cli
from mnemo.errors import InputError
from mnemo.records import Hit, Item, Scope
from mnemo.retrieve.progressive import Sufficiency, descent_sessions, judge, progressive_search
from mnemo.store.sql import query_terms

pytestmark = pytest.mark.core

SESSIONS = {
    "trip": [
        "We are planning the hiking trip to the Dolomites in July.",
        "The hut near Cortina is booked for three nights.",
        "Pack the rain jackets, the weather in the mountains changes fast.",
    ],
    "garden": [
        "The tomatoes in the garden need watering every morning.",
        "I planted basil next to the tomatoes this spring.",
    ],
    "work": [
        "The quarterly report is due on Friday.",
        "Ask Dana to review the budget tables in the report.",
    ],
}


def _hit(text: str, kind: str = "fact", session: str | None = None, cosine: float = 0.0) -> Hit:
    item = Item(id=text[:12], content=text, kind=kind, scope=Scope(session_id=session))
    return Hit.of(item, cosine, {}, {"semantic": cosine})


def test_judgement_needs_the_good_hits_to_cover_the_query() -> None:
    wanted = set(query_terms("Where is the hut for the hiking trip booked?"))
    loose = [(0.6, 1, _hit("The hiking trip is in July.", session="trip", cosine=0.7))]
    covering = [*loose, (0.6, 1, _hit("The hut near Cortina is booked.", session="trip", cosine=0.7))]
    rule = Sufficiency(min_depth=0)
    assert not judge(wanted, loose, 10, rule).sufficient  # hiking trip alone: half the question
    verdict = judge(wanted, covering, 10, rule)
    assert verdict.sufficient and verdict.coverage == 1.0 and verdict.good == 2


def test_judgement_depth_is_the_limit_th_hit_a_later_tier_must_beat() -> None:
    wanted = set(query_terms("hut booked"))
    found = [(0.9, 1, _hit("hut booked", cosine=0.9)), (0.2, 1, _hit("weather", cosine=0.4))]
    assert judge(wanted, found, 3, Sufficiency()).depth == 0.0  # the result is not even full
    assert judge(wanted, found, 2, Sufficiency()).depth == 0.2
    assert not judge(wanted, found, 2, Sufficiency()).sufficient  # its tail is weak: a raw tier would help
    assert judge(wanted, found, 1, Sufficiency()).sufficient


def test_descent_goes_to_the_sessions_of_the_best_good_distilled_hits() -> None:
    found = [
        (0.9, 0, Hit.of(Item("summary:trip", "s", kind="summary", metadata={"summary_of": "trip"}), 1, {}, {})),
        (0.8, 1, _hit("fact about garden", session="garden")),
        (0.7, 1, _hit("fact about trip again", session="trip")),
        (0.3, 1, _hit("weak fact about work", session="work")),  # below min_quality: no pointer
    ]
    assert descent_sessions(found, 3, Sufficiency().min_quality) == ["trip", "garden"]
    assert descent_sessions(found, 1, Sufficiency().min_quality) == ["trip"]
    assert descent_sessions(found, 0, Sufficiency().min_quality) == []


def add_sessions(memory: Memory) -> None:
    """Ann's three sessions, a fact from her trip, and Bob's session of the same name."""
    for session, turns in SESSIONS.items():
        for n, text in enumerate(turns):
            memory.add(text, id=f"{session}{n}", session_id=session, user_id="ann", role="user")
    # another user's session with the same name must stay out of ann's descent
    memory.add("Bob booked a hut near Cortina too.", id="bob0", session_id="trip", user_id="bob")
    fact = "Ann booked the hut near Cortina for the hiking trip."
    memory.add(fact, kind="fact", id="f1", user_id="ann", session_id="trip")


@pytest.fixture
def memory(db_path: str) -> Memory:
    with Memory(db_path, embedder="hashing") as memory:
        add_sessions(memory)
        memory.summarise_sessions()
        yield memory


def test_a_sufficient_search_descends_into_the_matched_session_only(memory: Memory) -> None:
    loose = {"min_quality": 0.3, "min_coverage": 0.5, "min_depth": 0, "descend_sessions": 1}
    result = memory.progressive_search("hut near Cortina booked hiking trip", user_id="ann", **loose)
    assert result.stopped_early and result.descended_into == ("trip",)
    messages = {t.tier: t for t in result.tiers}["messages"]
    assert messages.searched and "trip" in messages.note
    assert messages.share == pytest.approx(3 / 7)  # three of ann's seven messages were searched
    assert result.tiers_searched == ["summaries", "messages"] or result.tiers_searched[-1] == "messages"
    ids = {h.id for h in result.hits}
    assert "trip1" in ids and "bob0" not in ids
    assert not ids & {"garden0", "garden1", "work0", "work1"}
    assert result.tier_equivalents < len(result.tiers_searched)
    report = result.as_dict()
    assert report["descended_into"] == ["trip"] and report["judgement"]["sufficient"] is True


def test_every_tier_is_searched_whole_when_stopping_is_off(memory: Memory) -> None:
    result = memory.progressive_search("hut near Cortina", user_id="ann", stop_when_sufficient=False)
    assert result.tiers_searched == ["summaries", "facts", "messages"] and not result.descended_into
    assert all(t.share == 1.0 for t in result.tiers if t.searched)
    assert result.tier_equivalents == 3.0


def test_an_insufficient_search_reads_the_raw_tier_whole(memory: Memory) -> None:
    strict = {"min_coverage": 1.0, "min_quality": 0.99}
    result = memory.progressive_search("quarterly budget tables", user_id="ann", **strict)
    assert not result.stopped_early and not result.descended_into
    messages = {t.tier: t for t in result.tiers}["messages"]
    assert messages.searched and "work1" in {h.id for h in result.hits}
    # a probe read the best fact's session first, so that part of the tier counts twice
    assert result.probed == ("work",) and messages.share > 1.0 and messages.note.startswith("whole, after probing")


def test_a_session_scoped_search_never_descends_elsewhere(memory: Memory) -> None:
    loose = {"min_quality": 0.3, "min_coverage": 0.5, "min_depth": 0}
    result = memory.progressive_search("hut Cortina", user_id="ann", session_id="garden", **loose)
    assert all(h.item.scope.session_id in ("garden", None) for h in result.hits)
    assert "trip" not in result.descended_into


def test_unknown_progressive_options_are_input_errors(memory: Memory) -> None:
    with pytest.raises(InputError, match="progressive"):
        memory.progressive_search("hut", user_id="ann", min_sparkle=2)


def test_cli_reports_the_judgement_and_the_share_searched(memory: Memory, db_path: str) -> None:
    memory.close()
    args = ["--db", db_path, "--embedder", "hashing", "search", "hut near Cortina", "--progressive", "--json"]
    result = CliRunner().invoke(cli, [*args, "--user", "ann"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"tier_equivalents", "judgement", "descended_into"} <= set(data)
    assert all("share" in t for t in data["tiers"])


def test_summaries_alone_do_not_end_a_search_while_facts_are_in_scope(memory: Memory) -> None:
    loose = {"min_quality": 0.05, "min_coverage": 0.0, "min_depth": 0, "min_results": 1}
    with_facts = memory.progressive_search("hut near Cortina", user_id="ann", **loose)
    assert with_facts.tiers_searched[:2] == ["summaries", "facts"] and with_facts.stopped_early
    without = memory.progressive_search("hut near Cortina", user_id="ann", kind=("summary", "message"), **loose)
    assert without.tiers_searched[0] == "summaries" and "facts" not in without.tiers_searched
    assert without.stopped_early and "after summaries" in without.stop_reason


def test_no_descent_when_every_place_in_the_result_holds_a_good_hit(memory: Memory) -> None:
    loose = {"min_quality": 0.3, "min_coverage": 0.5, "min_depth": 0}
    result = memory.progressive_search("hut near Cortina booked hiking trip", user_id="ann", limit=1, **loose)
    assert result.stopped_early and result.judgement is not None and result.judgement.depth >= 0.3
    assert not result.descended_into and "messages" not in result.tiers_searched


@pytest.mark.parametrize(
    "bad", [{"min_coverage": 1.5}, {"min_depth": "high"}, {"descend_sessions": -1}, {"min_results": 0.5}]
)
def test_out_of_range_settings_are_input_errors(memory: Memory, bad: dict[str, object]) -> None:
    with pytest.raises(InputError):
        memory.progressive_search("hut", user_id="ann", **bad)


def test_summaries_filling_the_result_do_not_spare_the_descent() -> None:
    """Summaries rank after every other hit, so a result they fill still has room for messages."""
    sums = [_hit(f"Session {n} summary: backup job", kind="summary", session=f"s{n}", cosine=0.9) for n in (1, 2)]
    fact = _hit("The backup job runs nightly", session="s1", cosine=0.7)
    turn = _hit("Our backup job moved to Kubernetes", kind="message", session="s1", cosine=0.8)
    tiers = {("summary",): sums, ("fact", "insight"): [fact], ("message",): [turn]}
    counts = {"summary": 2, "fact": 1, "message": 40}

    def search(kinds: tuple[str, ...], n: int) -> list[Hit]:
        return tiers.get(kinds, [])[:n]

    def descend(sessions: Sequence[str], n: int) -> tuple[list[Hit], int]:
        return [h for h in tiers[("message",)] if h.session_id in sessions][:n], 20

    result = progressive_search(search, counts, "backup job", 3, Sufficiency(), descend=descend)
    assert result.stopped_early and result.judgement is not None and result.judgement.depth >= 0.55
    assert result.descended_into == ("s1",)
    assert [h.kind for h in result.hits] == ["message", "fact", "summary"]
    assert [h.id for h in result.guides] == [sums[1].id]


def _replayed(tiers: dict[tuple[str, ...], list[Hit]], turns: list[Hit], calls: list[object]):
    """A tier search and a descent over fixed hits that record what they were asked."""

    def search(kinds: tuple[str, ...], n: int) -> list[Hit]:
        calls.append(kinds)
        return tiers.get(kinds, [])[:n]

    def descend(sessions: Sequence[str], n: int) -> tuple[list[Hit], int]:
        calls.append(("descend", tuple(sessions)))
        return [h for h in turns if h.session_id in sessions][:n], len(turns)

    return search, descend


def test_an_insufficient_judgement_probes_the_best_session_before_the_whole_raw_tier() -> None:
    query = "hut booked hiking trip Cortina"
    tiers = {
        ("fact", "insight"): [_hit("Ann went on a hiking trip.", session="trip", cosine=0.8)],
        ("message",): [_hit("The hut near Cortina is booked for three nights.", "message", "trip", 0.9)],
    }
    turns = [_hit("The hut near Cortina is booked for the hiking trip.", "message", "trip", 0.9)]
    counts = {"fact": 1, "message": 8}
    # the fact alone covers two of the five words: not enough; with the trip's turns, enough
    calls: list[object] = []
    search, descend = _replayed(tiers, turns, calls)
    result = progressive_search(search, counts, query, 1, descend=descend)
    assert calls == [("fact", "insight"), ("descend", ("trip",))]
    assert result.stopped_early and result.descended_into == ("trip",) and "probing session trip" in result.stop_reason
    assert result.probed == ("trip",)
    messages = {t.tier: t for t in result.tiers}["messages"]
    assert messages.share == pytest.approx(1 / 8) and result.tier_equivalents == pytest.approx(1 + 1 / 8)
    assert [h.content for h in result.hits] == [turns[0].content]
    # a probe that does not settle it: the whole tier after it, counted once with the probe's time
    calls.clear()
    result = progressive_search(search, counts, query, 1, Sufficiency(min_quality=0.99), descend=descend)
    assert calls == [("fact", "insight"), ("descend", ("trip",)), ("message",)]
    messages = {t.tier: t for t in result.tiers}["messages"]
    assert messages.share == pytest.approx(1 + 1 / 8) and messages.note == "whole, after probing session trip"
    assert result.tier_equivalents == pytest.approx(2 + 1 / 8)  # the probed session was read twice
    assert not result.stopped_early and not result.descended_into and result.probed == ("trip",)
    assert result.as_dict()["probed"] == ["trip"]
    # no probe when it is turned off
    calls.clear()
    progressive_search(search, counts, query, 1, Sufficiency(probe_sessions=0), descend=descend)
    assert calls == [("fact", "insight"), ("message",)]


def test_a_probe_that_brings_back_no_turn_does_not_loosen_the_judgement() -> None:
    """A session whose messages are out of scope or gone: the facts alone must not pass on the
    probe's looser settings; the whole tier is read."""
    query = "hut booked hiking trip Cortina"
    tiers = {
        ("fact", "insight"): [_hit("Ann went on a hiking trip.", session="trip", cosine=0.8)],
        ("message",): [_hit("The hut near Cortina is booked for three nights.", "message", "trip", 0.9)],
    }
    calls: list[object] = []
    search, descend = _replayed(tiers, [], calls)
    counts = {"fact": 1, "message": 8}
    result = progressive_search(search, counts, query, 1, descend=descend)
    assert calls == [("fact", "insight"), ("descend", ("trip",)), ("message",)]
    # the probe found nothing in the session, so the whole tier counts as one read (and the probe's 0)
    assert not result.stopped_early and {t.tier: t for t in result.tiers}["messages"].share == pytest.approx(1.0)
    assert result.judgement is not None and not result.judgement.sufficient  # the first judgement's
    # without a descent to probe with, an insufficient judgement reads the whole tier straight away
    calls.clear()
    progressive_search(search, counts, query, 1)
    assert calls == [("fact", "insight"), ("message",)]


def test_probe_settings_are_checked() -> None:
    with pytest.raises(InputError, match="probe_coverage"):
        Sufficiency(probe_coverage=1.5)
    with pytest.raises(InputError, match="probe_sessions"):
        Sufficiency(probe_sessions=-1)
