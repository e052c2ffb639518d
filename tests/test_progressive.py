"""Progressive tiers, extractive session summaries and multi-source federation on real stores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mnemo import Memory
from mnemo.cli.main import cli
from mnemo.retrieve.progressive import quality
from mnemo.retrieve.summaries import summarise, summary_records

pytestmark = pytest.mark.core

TALK = [
    "I moved the nightly backup job to Kubernetes last week.",
    "The backup job now writes snapshots to the S3 bucket every night.",
    "Kubernetes restarts the backup job when the snapshot fails.",
    "Lunch was great today.",
]


@pytest.fixture
def store(db_path: str) -> Memory:
    memory = Memory(db_path, embedder="hashing")
    for n, text in enumerate(TALK):
        memory.add(text, id=f"t{n}", session_id="ops", user_id="ann", role="user")
    memory.add("Bob's backup job runs on a cron server.", id="b0", session_id="bob-s", user_id="bob")
    yield memory
    memory.close()


def test_extractive_summary_quotes_the_central_sentences_with_their_sources(store: Memory) -> None:
    items = list(store.store.iter_items(store._filter("message", None, None, user_id="ann")))
    text, sources = summarise(items, max_sentences=2)
    assert "backup job" in text and "Lunch" not in text
    assert len(sources) == 2 and set(sources) <= {"t0", "t1", "t2"}


def test_summaries_are_built_per_owner_and_session(store: Memory) -> None:
    report = store.summarise_sessions()
    assert report.added == 2
    ann = store.get("summary:ops", user_id="ann")
    assert ann is not None and ann.kind == "summary" and ann.metadata["summary_of"] == "ops"
    assert store.get("summary:ops", user_id="bob") is None
    assert summary_records([]) == []


def test_progressive_stops_at_the_first_sufficient_tier(store: Memory) -> None:
    store.summarise_sessions()
    store.add("The backup job runs nightly on Kubernetes.", kind="fact", id="f1", user_id="ann")
    # two distilled hits cannot fill a result of ten: min_depth 0 lets them suffice anyway; no descent
    options = {"min_quality": 0.5, "min_depth": 0, "descend_sessions": 0}
    result = store.progressive_search("backup job Kubernetes", user_id="ann", **options)
    assert result.stopped_early
    assert result.tiers_searched in (["summaries"], ["summaries", "facts"])
    assert "messages" not in result.tiers_searched
    assert all(h.item.scope.user_id == "ann" for h in result.hits)
    reports = {t.tier: t for t in result.tiers}
    assert reports["documents"].searched is False


def test_progressive_searches_every_tier_when_told_and_skips_empty_ones(store: Memory) -> None:
    result = store.progressive_search("backup job", user_id="ann", stop_when_sufficient=False)
    assert result.tiers_searched == ["messages"]  # no summaries, facts or documents yet
    assert {t.tier: t.note for t in result.tiers}["facts"] == "empty in this scope"
    assert {h.id for h in result.hits} >= {"t0", "t1", "t2"}
    hits = store.search("backup job", user_id="ann", progressive=True)
    assert [h.id for h in hits] == [h.id for h in result.hits]


def test_federation_routes_by_domain_and_weights_sources(store: Memory) -> None:
    store.add("Runbook: the backup job restores from the S3 bucket.", kind="document", id="doc1", user_id="ann")
    routed = store.federated_search("what do the docs say about the backup job", user_id="ann")
    assert routed.routed_to == ["document"] and routed.hits[0].id == "doc1"
    assert set(routed.sources) == {"document", "message"}
    muted = store.federated_search("backup job", user_id="ann", weights={"document": 0.0})
    assert "doc1" not in [h.id for h in muted.hits]


def test_cli_progressive_reports_tiers(store: Memory, db_path: str) -> None:
    store.summarise_sessions()
    store.close()
    runner = CliRunner()
    result = runner.invoke(
        cli,
        ["--db", db_path, "--embedder", "hashing", "search", "backup job", "--progressive", "--json", "--user", "ann"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["tiers_searched"][0] == "summaries" and data["hits"]
    # a summary that a full result left out is reported as what guided the search
    args = ["--db", db_path, "--embedder", "hashing", "search", "backup job", "--progressive", "--user", "ann"]
    short = json.loads(runner.invoke(cli, [*args, "--json", "--limit", "2"]).output)
    assert [g["kind"] for g in short["guides"]] == ["summary"] and short["guides"][0]["id"] == "summary:ops"
    assert all(h["kind"] == "message" for h in short["hits"])
    explained = runner.invoke(cli, [*args, "--limit", "2", "--explain"])
    assert "guided by summary:ops" in explained.output


def test_cli_rewrite_single_and_file(db_path: str, tmp_path: Path) -> None:
    context = tmp_path / "ctx.json"
    context.write_text(json.dumps([{"role": "user", "content": "Ask John about the database migration."}]))
    runner = CliRunner()
    base = ["--db", db_path, "--embedder", "none", "rewrite"]
    one = runner.invoke(cli, [*base, "--json", "--context", str(context), "What did he say about it?"])
    assert one.exit_code == 0, one.output
    data = json.loads(one.output)
    assert data["was_rewritten"] and "John" in data["expanded"] and data["original"] == "What did he say about it?"
    lines = tmp_path / "in.jsonl"
    lines.write_text(
        json.dumps(
            {
                "id": "a",
                "context": [{"role": "user", "content": "Sarah fixed the flaky test."}],
                "query": "Who fixed it?",
            }
        )
        + "\nnot json\n"
        + json.dumps({"id": "b", "context": [], "query": "How do I deploy?"})
        + "\n"
    )
    many = runner.invoke(cli, [*base, "--file", str(lines)])
    assert many.exit_code == 0
    rows = [json.loads(line) for line in many.stdout.splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"]
    assert set(rows[0]) == {"id", "original", "expanded", "was_rewritten", "confidence", "resolved"}
    assert "flaky test" in rows[0]["expanded"] and rows[1]["was_rewritten"] is False
    assert "line 2 skipped" in many.stderr
    missing = runner.invoke(cli, base)
    assert missing.exit_code == 2


def test_search_with_context_carries_the_rewrite(store: Memory) -> None:
    context = [{"role": "user", "content": "Tell me about the nightly backup job."}]
    hits = store.search("where does it write snapshots", user_id="ann", context=context)
    assert hits and hits[0].rewrite is not None
    assert hits[0].rewrite["original"] == "where does it write snapshots"
    assert "backup job" in hits[0].rewrite["expanded"]
    assert hits[0].as_dict()["rewrite"]["confidence"] > 0


def test_summaries_are_built_at_ingestion_when_configured(db_path: str) -> None:
    records = [
        {"id": f"t{n}", "content": text, "session_id": "ops", "user_id": "ann", "role": "user"}
        for n, text in enumerate(TALK)
    ]
    with Memory(db_path, embedder="hashing", summaries_on_ingest=True) as memory:
        memory.add_many(records[:2])
        first = memory.get("summary:ops", user_id="ann")
        assert first is not None and first.kind == "summary" and set(first.metadata["sources"]) <= {"t0", "t1"}
        memory.add_many(records[2:])  # the session grew: its one summary is rebuilt, not duplicated
        grown = memory.get("summary:ops", user_id="ann")
        assert grown is not None and grown.metadata["messages"] == 4
        assert memory.stats()["items"] == len(TALK) + 1
        stop_at_summaries = {"min_quality": 0.3, "min_depth": 0, "descend_sessions": 0}
        result = memory.progressive_search("backup job Kubernetes", user_id="ann", **stop_at_summaries)
        assert result.tiers_searched[0] == "summaries" and result.hits[0].kind == "summary"
    with Memory(db_path.replace(".db", "-off.db"), embedder="hashing") as plain:
        plain.add_many(records)
        assert plain.get("summary:ops", user_id="ann") is None


def test_a_tier_filled_after_a_search_is_searched_by_the_next_one(store: Memory) -> None:
    before = store.progressive_search("backup job Kubernetes", user_id="ann", stop_when_sufficient=False)
    assert {t.tier: t.note for t in before.tiers}["facts"] == "empty in this scope"
    store.add("The backup job runs nightly on Kubernetes.", kind="fact", id="f1", user_id="ann")
    after = store.progressive_search("backup job Kubernetes", user_id="ann", stop_when_sufficient=False)
    assert "facts" in after.tiers_searched and "f1" in [h.id for h in after.hits]
    bob = store.progressive_search("backup job", user_id="bob", stop_when_sufficient=False)
    assert "facts" not in bob.tiers_searched  # the counts are per scope


def test_summaries_point_the_way_and_rank_after_the_hits_they_lead_to(store: Memory) -> None:
    """A session summary quotes its session's central lines, so it can match a query better than a
    turn does; it still comes after the turns and facts, which hold the answer."""
    store.summarise_sessions()
    store.add("The backup job writes snapshots nightly.", kind="fact", id="f1", session_id="ops", user_id="ann")
    query = "backup job snapshots Kubernetes"
    for stop in (True, False):
        result = store.progressive_search(query, user_id="ann", stop_when_sufficient=stop)
        kinds = [h.kind for h in result.hits]
        assert kinds[-1] == "summary" and kinds.count("summary") == 1, kinds
        assert {"fact", "message"} <= set(kinds)
        # by match quality alone the summary would not be last
        assert quality(query, result.hits[-1]) > min(quality(query, h) for h in result.hits[:-1])
