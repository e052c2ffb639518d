"""LLM-written session summaries against a fake OpenAI-compatible server on a local port.

Every store is a real SQLite file; the only fake is the remote LLM, which speaks the real wire
protocol over HTTP (tests/fake_llm.py).
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner

from mnemo import Memory
from mnemo.cli.main import cli
from mnemo.errors import ConfigError, InputError
from mnemo.records import Item, Scope
from mnemo.retrieve.summary_llm import PROMPT_CHARS, clean, excerpt, rejection
from tests.fake_llm import FakeLLM, down_url

core = pytest.mark.core  # no extras needed; the PostgreSQL test at the end is not core

START = datetime(2023, 5, 8, 14, 0, tzinfo=UTC)
OPS = [
    "I moved the nightly backup job to Kubernetes last week.",
    "Did the snapshots go to the S3 bucket called ops-archive?",
    "Yes, Priya set the retention to 30 days and we decided to keep the old cron server until June.",
    "Lunch was great today.",
]
GOOD = (
    "Ann moved the nightly backup job to Kubernetes; Priya set snapshot retention in the ops-archive bucket to 30 days."
)


def conversation(session: str, texts: list[str], user: str = "ann") -> list[dict[str, Any]]:
    return [
        {
            "id": f"{session}-{n}",
            "content": text,
            "role": "user" if n % 2 == 0 else "assistant",
            "session_id": session,
            "user_id": user,
            "timestamp": (START + timedelta(minutes=n)).isoformat(),
        }
        for n, text in enumerate(texts)
    ]


def conversation_of(request: dict[str, Any]) -> str:
    """The conversation part of the summary prompt mnemo sent."""
    return request["messages"][-1]["content"].split(":\n", 1)[1]


def first_lines(request: dict[str, Any]) -> str:
    """A summary that only restates the conversation's first two lines (what a careful model does)."""
    lines = [line.split(": ", 1)[1] for line in conversation_of(request).splitlines()]
    return "Summary: " + " ".join(lines[:2])


def open_memory(db_path: str, server_url: str | None, **settings: Any) -> Memory:
    llm = {"llm_base_url": server_url, "llm_model": "fake-summariser"} if server_url else {}
    return Memory(db_path, embedder="hashing", summaries_on_ingest=True, **llm, **settings)


@core
def test_the_llm_summary_is_stored_with_method_model_and_sources(db_path: str) -> None:
    with FakeLLM(lambda body: GOOD) as server, open_memory(db_path, server.base_url) as memory:
        memory.add_many(conversation("ops", OPS))
        summary = memory.get("summary:ops", user_id="ann")
        assert summary is not None and summary.kind == "summary"
        assert summary.content == GOOD
        meta = summary.metadata
        assert meta["method"] == "llm" and meta["model"] == "fake-summariser" and meta["excerpt"] is False
        assert set(meta["sources"]) <= {"ops-0", "ops-1", "ops-2"} and "ops-2" in meta["sources"]
        assert "ops-3" not in meta["sources"]  # lunch is in no sentence of the summary
        sent = server.requests[0]
        assert sent["model"] == "fake-summariser" and sent["messages"][0]["role"] == "system"
        assert "from 2023-05-08" in sent["messages"][-1]["content"]
        assert all(text in sent["messages"][-1]["content"] for text in OPS)


@core
def test_an_unchanged_session_keeps_its_llm_summary_and_a_changed_one_is_redone(db_path: str) -> None:
    with FakeLLM(lambda body: GOOD) as server, open_memory(db_path, server.base_url) as memory:
        memory.add_many(conversation("ops", OPS))
        report = memory.summarise_sessions()
        assert (report.kept, report.llm, len(server.requests)) == (1, 0, 1)
        memory.add_many(conversation("ops", [*OPS, "Priya will check the Kubernetes backup job on Friday."]))
        assert len(server.requests) == 2
        assert memory.get("summary:ops", user_id="ann").metadata["messages"] == 5
        rebuilt = memory.summarise_sessions(rebuild=True)
        assert rebuilt.llm == 1 and rebuilt.unchanged == 1 and len(server.requests) == 3


@core
@pytest.mark.parametrize("mode", ["garbage", "empty", "error", "slow", "down"])
def test_a_broken_endpoint_falls_back_to_extractive_with_the_reason_and_keeps_the_import(
    db_path: str, mode: str
) -> None:
    with FakeLLM(lambda body: GOOD, mode="ok" if mode == "down" else mode, delay=3.0) as server:
        url = down_url() if mode == "down" else server.base_url
        with open_memory(db_path, url, llm_timeout=0.5) as memory:
            started = time.perf_counter()
            report = memory.add_many(conversation("ops", OPS) + conversation("dev", OPS[:3]))
            elapsed = time.perf_counter() - started
            assert report.added == 7 and memory.stats()["by_kind"]["message"] == 7
            for session in ("ops", "dev"):
                meta = memory.get(f"summary:{session}", user_id="ann").metadata
                assert meta["method"] == "extractive" and meta["fallback"] == "endpoint"
                assert meta["llm_pending"] is True and meta["fallback_reason"]
        assert len(server.requests) <= 1  # after one failure the run stops asking
        assert elapsed < 3.0  # one time-out at most, never a hang


@core
def test_the_reason_names_what_went_wrong(db_path: str) -> None:
    with (
        FakeLLM(lambda body: GOOD, mode="slow", delay=2.0) as server,
        open_memory(db_path, server.base_url, llm_timeout=0.3) as memory,
    ):
        memory.add_many(conversation("ops", OPS))
        assert "did not answer within 0.3 s" in memory.get("summary:ops").metadata["fallback_reason"]
    with open_memory(db_path, down_url()) as memory:
        report = memory.summarise_sessions(rebuild=True)
        assert report.fallbacks == {"endpoint": 1} and report.pending == 1
        assert "unreachable" in memory.get("summary:ops").metadata["fallback_reason"]


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("", "empty answer"),
        ("Bob moved the database to Azure and hired Carla as his new manager in Berlin.", "names not in"),
        ("the weather was cold, so everyone played football in the garden and ate soup", "occur in the session"),
        ("Ann moved the nightly backup job to Kubernetes with a retention of 90 days.", "numbers not in the session"),
        ("Ann moved the nightly backup job to Kubernetes; Carla set the retention to 30 days.", "names not in"),
        ("Ann moved the backup job to Kubernetes. " * 40, "too long"),
        ("OK.", "too short"),
    ],
)
@core
def test_the_hallucination_guard_rejects_what_the_session_does_not_support(db_path: str, answer: str, why: str) -> None:
    with FakeLLM(lambda body: answer) as server, open_memory(db_path, server.base_url) as memory:
        memory.add_many(conversation("ops", OPS))
        meta = memory.get("summary:ops", user_id="ann").metadata
        assert meta["method"] == "extractive" and meta["fallback"] == "rejected"
        assert why in meta["fallback_reason"] and meta["llm_pending"] is False


@core
def test_the_guard_accepts_paraphrase_dates_and_labels() -> None:
    ann = Scope(user_id="ann")
    items = [Item(r["id"], r["content"], role=r["role"], scope=ann, timestamp=START) for r in conversation("s", OPS)]
    assert rejection(GOOD, items) is None
    assert rejection("On May 8, 2023 Ann decided to keep the cron server until June.", items) is None
    assert "names not in the session: Carla" in (rejection("On May 8 Carla kept the cron server.", items) or "")
    assert clean('  Summary:  "Ann moved the   backup job."  ') == "Ann moved the backup job."


@core
def test_llm_calls_per_ingestion_are_bounded_and_the_rest_wait_for_a_later_run(db_path: str) -> None:
    sessions = [conversation(f"s{n}", [f"Session {n}: " + text for text in OPS]) for n in range(5)]
    with FakeLLM(first_lines) as server, open_memory(db_path, server.base_url, summaries_llm_max=2) as memory:
        memory.add_many([record for talk in sessions for record in talk])
        assert len(server.requests) == 2
        methods = [memory.get(f"summary:s{n}").metadata for n in range(5)]
        assert sorted(m["method"] for m in methods) == ["extractive"] * 3 + ["llm"] * 2
        assert all(m["llm_pending"] and m["fallback"] == "budget" for m in methods if m["method"] == "extractive")
        later = memory.summarise_sessions()
        assert (later.llm, later.kept, later.pending, len(server.requests)) == (3, 2, 0, 5)
        capped = memory.summarise_sessions(rebuild=True, max_llm=1)
        assert (capped.llm, capped.fallbacks) == (1, {"budget": 4})
        with pytest.raises(InputError, match="max_llm"):
            memory.summarise_sessions(max_llm=-1)
    with pytest.raises(ConfigError, match="summaries_llm_max"):
        open_memory(db_path, None, summaries_llm_max=-1)


@core
def test_a_long_session_is_sent_as_an_excerpt_within_the_budget(db_path: str) -> None:
    talk = [
        f"Message {n} about the backup job on Kubernetes and the ops-archive bucket number {n}." for n in range(400)
    ]
    with FakeLLM(first_lines) as server, open_memory(db_path, server.base_url) as memory:
        memory.add_many(conversation("long", talk))
        sent = server.requests[0]["messages"][-1]["content"]
        assert len(sent) <= PROMPT_CHARS + 200 and "only its most informative sentences" in sent
        numbers = [int(line.split()[2]) for line in conversation_of(server.requests[0]).splitlines()]
        assert numbers == sorted(numbers) and len(numbers) < 400  # in conversation order, a selection
        meta = memory.get("summary:long").metadata
        assert meta["method"] == "llm" and meta["excerpt"] is True
        assert set(meta["sources"]) <= {f"long-{n}" for n in numbers}
    items = [Item(id=str(n), content=text, role="user") for n, text in enumerate(talk[:3])]
    assert excerpt(items).complete and len(excerpt(items).lines) == 3


@core
def test_each_owner_s_summary_is_written_from_that_owner_s_messages_only(db_path: str) -> None:
    bob = ["Bob keeps his backup job on a cron server in Lisbon.", "Bob wants to move it to Nomad next year."]
    with FakeLLM(first_lines) as server, open_memory(db_path, server.base_url) as memory:
        memory.add_many(conversation("shared", OPS) + conversation("shared", bob, user="bob"))
        prompts = [conversation_of(r) for r in server.requests]
        assert len(prompts) == 2
        assert sum("Lisbon" in p for p in prompts) == 1 and all(("Lisbon" in p) != ("Priya" in p) for p in prompts)
        assert "Lisbon" in memory.get("summary:shared", user_id="bob").content
        assert "Lisbon" not in memory.get("summary:shared", user_id="ann").content
        hits = memory.search("Lisbon cron server", user_id="ann", kind="summary")
        assert all(h.item.scope.user_id == "ann" for h in hits)


@core
def test_without_an_llm_or_with_summaries_llm_off_summaries_are_extractive(db_path: str) -> None:
    with FakeLLM(lambda body: GOOD) as server:
        with open_memory(db_path, server.base_url, summaries_llm=False) as memory:
            memory.add_many(conversation("ops", OPS))
            assert memory.get("summary:ops").metadata["method"] == "extractive"
            assert "fallback" not in memory.get("summary:ops").metadata
            assert memory.summarise_sessions(llm=True, rebuild=True).llm == 1  # asked for: used
        assert len(server.requests) == 1
    with open_memory(db_path, None) as memory:
        report = memory.summarise_sessions(rebuild=True, llm=False)
        assert (report.extractive, report.fallbacks) == (1, {})
        with pytest.raises(ConfigError, match="llm_base_url"):
            memory.summarise_sessions(llm=True)


@core
def test_progressive_search_finds_a_session_through_its_llm_summary(db_path: str) -> None:
    summary = "Ann and Priya agreed on a 30 days retention for Kubernetes backup snapshots in ops-archive."
    with FakeLLM(lambda body: summary) as server, open_memory(db_path, server.base_url) as memory:
        memory.add_many(conversation("ops", OPS))
        memory.add_many(conversation("food", ["We tried the new ramen place near the office.", "The broth was great."]))
        # a two-session store never fills a result of ten: min_depth 0 lets the summary suffice alone
        stop = {"min_results": 1, "min_depth": 0, "descend_sessions": 0}
        result = memory.progressive_search("retention of backup snapshots", user_id="ann", **stop)
        assert result.tiers_searched[0] == "summaries" and result.stopped_early
        top = result.hits[0]
        assert top.id == "summary:ops" and top.item.metadata["method"] == "llm" and top.content == summary
        assert top.item.metadata["sources"]  # the hit points back at its evidence


@core
def test_cli_summarise_reports_as_json_and_refuses_llm_without_one(db_path: str, monkeypatch) -> None:
    runner = CliRunner()
    with Memory(db_path, embedder="hashing") as memory:
        memory.add_many(conversation("ops", OPS) + conversation("dev", OPS[:3]))
    with FakeLLM(lambda body: GOOD) as server:
        monkeypatch.setenv("MNEMO_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("MNEMO_LLM_MODEL", "fake-summariser")
        args = ["--db", db_path, "--embedder", "hashing", "summarise", "--json", "--max-llm", "1", "--what", "sessions"]
        out = runner.invoke(cli, args)
        assert out.exit_code == 0, out.output
        report = json.loads(out.stdout)["sessions"]
        assert (report["sessions"], report["llm"], report["extractive"]) == (2, 1, 1)
        assert report["fallbacks"] == {"budget": 1} and report["pending"] == 1
        text = runner.invoke(cli, ["--db", db_path, "--embedder", "hashing", "summarise", "--user", "ann", "-q"])
        assert text.exit_code == 0 and "2 sessions: 1 by the LLM, 0 extractive, 1 unchanged" in text.stdout
        assert "0 categories" in text.stdout  # no subcategories evolved yet
    monkeypatch.delenv("MNEMO_LLM_BASE_URL")
    refused = runner.invoke(cli, ["--db", db_path, "--embedder", "hashing", "summarise", "--llm"])
    assert refused.exit_code == 3 and "llm_base_url" in refused.stderr
    offline = runner.invoke(cli, ["--db", db_path, "--embedder", "hashing", "summarise", "--no-llm", "--json"])
    assert json.loads(offline.stdout)["sessions"]["kept"] == 2  # LLM summaries of unchanged sessions stay
    one = runner.invoke(cli, ["--db", db_path, "--embedder", "hashing", "summarise", "--session", "ops", "--json"])
    assert json.loads(one.stdout) == {"sessions": {**json.loads(offline.stdout)["sessions"], "sessions": 1, "kept": 1}}


def topics(user: str) -> list[dict[str, Any]]:
    """Fifteen how-to memories on three build topics: evolve grows a subcategory for each."""
    return [
        {"id": f"{user}-{topic}-{i}", "user_id": user, "content": f"To fix the {topic} build, run make {topic}-{i}."}
        for topic in ("docs", "web", "api")
        for i in range(5)
    ]


@core
def test_category_summaries_put_each_topic_in_the_first_tier_and_follow_renames(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add_many(topics("ann") + topics("bob"))
        memory.evolve_categories()
        subs = memory.store.subcategories("ann")
        assert len(subs) >= 2
        report = memory.summarise_categories(user_id="ann")
        assert report.sessions == len(subs) and report.extractive == len(subs) and report.added == len(subs)
        first = subs[0]
        summary = memory.get(f"summary:category:ann:{first.path}", user_id="ann")
        assert summary is not None and summary.content.startswith(f"{first.category} / ")
        assert summary.metadata["summary_of_category"] == first.path and summary.metadata["method"] == "extractive"
        assert all(s.startswith("ann-") for s in summary.metadata["sources"])  # never bob's memories
        assert memory.summarise_categories(user_id="ann").kept == len(subs)  # unchanged topics are not redone
        result = memory.progressive_search("fix the build", user_id="ann", min_results=2)
        assert result.tiers_searched[0] == "summaries"
        # the topic summary guided the search; it ranks after the turns it led to
        found = [h.id for h in [*result.hits, *result.guides]]
        assert any(i.startswith("summary:category:ann:") for i in found)
        memory.rename_category(first.path, "builds", user_id="ann")
        renamed = memory.summarise_categories(user_id="ann")
        assert renamed.removed == 1 and memory.get(f"summary:category:ann:{first.path}", user_id="ann") is None
        assert memory.get(f"summary:category:ann:{first.category}/builds", user_id="ann") is not None
        assert memory.search("build", user_id="bob", kind="summary") == []  # bob's topics not summarised yet


@core
def test_category_summaries_are_written_by_the_llm_when_one_is_configured(db_path: str) -> None:
    with FakeLLM(first_lines) as server, open_memory(db_path, server.base_url) as memory:
        memory.add_many(topics("ann"))
        memory.evolve_categories()
        report = memory.summarise_categories(max_llm=1)
        assert report.llm == 1 and report.fallbacks == {"budget": report.sessions - 1}
        assert "memories filed under the topic" in server.requests[0]["messages"][-1]["content"]
        stored = [
            i for i in memory.store.iter_items(memory._filter("summary", None, None)) if i.metadata["method"] == "llm"
        ]
        assert len(stored) == 1 and stored[0].metadata["model"] == "fake-summariser"
        assert memory.summarise_categories().kept == 1


@core
def test_summary_of_items_without_scope_fields_is_not_built() -> None:
    loose = [Item(id="x", content="A message outside any session about backup jobs.", scope=Scope(user_id="ann"))]
    from mnemo.retrieve.summaries import summary_records

    assert summary_records(loose) == []


@pytest.mark.postgres
def test_llm_summaries_on_postgresql(pg_url: str) -> None:
    with FakeLLM(lambda body: GOOD) as server, open_memory(pg_url, server.base_url, summaries_llm_max=1) as memory:
        memory.add_many(conversation("ops", OPS) + conversation("dev", OPS[:3]) + conversation("ops", OPS, user="bob"))
        methods = sorted(memory.get(f"summary:{s}", user_id="ann").metadata["method"] for s in ("ops", "dev"))
        assert methods == ["extractive", "llm"] and len(server.requests) == 1
        later = memory.summarise_sessions(user_id="ann")
        assert (later.llm, later.kept) == (1, 1)
        assert memory.get("summary:ops", user_id="bob").metadata["llm_pending"] is True
