"""The tool functions behind the MCP server and HTTP API, over a real SQLite store (no SDK needed).

Facts and categories use the extraction (spaCy) and categorisation extras, so those tests are not
``core``; the rest run in the core-only install.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemo import Memory
from mnemo.context.budget import estimate_tokens
from mnemo.errors import InputError
from mnemo.mcp import knowledge_tools, session_tools, tools
from mnemo.mcp.sizing import HARD_MAX_TOKENS, budget, fit_entries, json_tokens, to_json

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_conversation.jsonl"


@pytest.mark.core
def test_budget_defaults_caps_and_refuses_nonsense() -> None:
    assert budget(None) == 2000
    assert budget(500) == 500
    assert budget(10**9) == HARD_MAX_TOKENS
    for bad in (0, -5, 2.5, "100", True):
        with pytest.raises(InputError, match="max_tokens"):
            budget(bad)


@pytest.mark.core
def test_fit_entries_stays_within_budget_and_counts_what_it_left_out() -> None:
    entries = [{"id": f"m{i}", "content": f"memory number {i} " + "word " * 300} for i in range(40)]
    for cap in (100, 200, 400, 2000, 8000):
        kept, omitted = fit_entries(entries, cap)
        assert len(kept) + omitted == 40 and (kept or cap == 100)
        envelope = {"hits": kept, "returned": len(kept), "omitted": omitted, "max_tokens": cap}
        assert json_tokens(envelope) <= cap
        assert [e["id"] for e in kept] == [f"m{i}" for i in range(len(kept))]  # ranking order kept
        # a ~400-token text is cut when a third of the budget is smaller; with room for it, only
        # the last entry may be cut to the space left
        cut = [bool(e.get("truncated")) for e in kept]
        assert all(cut) if cap <= 400 else not any(cut[:-1])


@pytest.mark.core
def test_one_huge_memory_is_cut_not_dropped_and_short_ones_stay_whole() -> None:
    entries = [{"id": "big", "content": "lorem " * 20_000}, {"id": "small", "content": "tea with alice"}]
    kept, omitted = fit_entries(entries, 1000)
    assert [e["id"] for e in kept] == ["big", "small"] and omitted == 0
    assert kept[0]["truncated"] and kept[0]["content"].endswith("…")
    assert kept[1] == {"id": "small", "content": "tea with alice"}
    assert estimate_tokens(to_json(kept)) <= 1000


@pytest.mark.core
def test_remember_recall_get_forget_round_trip(hashing_memory: Memory) -> None:
    stored = tools.remember(hashing_memory, "We picked PostgreSQL for billing because of JSONB", project="billing")
    assert stored["stored"] and stored["kind"] == "note" and stored["project"] == "billing"
    found = tools.recall(hashing_memory, "which database did we pick for billing", project="billing")
    assert found["hits"][0]["id"] == stored["id"] and found["omitted"] == 0
    assert "ranks" not in found["hits"][0]  # evidence only on request
    assert "ranks" in tools.recall(hashing_memory, "billing database", explain=True)["hits"][0]
    item = tools.get(hashing_memory, stored["id"])
    assert item["content"].startswith("We picked PostgreSQL") and item["timestamp"]  # stamped "now"
    assert tools.forget(hashing_memory, stored["id"]) == {"id": stored["id"], "deleted": 1}
    with pytest.raises(InputError, match="no memory with id"):
        tools.get(hashing_memory, stored["id"])
    with pytest.raises(InputError, match="say what to forget"):
        tools.forget(hashing_memory)


@pytest.mark.core
def test_recall_hides_long_metadata_that_get_shows(hashing_memory: Memory) -> None:
    meta = {"git_branch": "main", "tool_output": "x" * 5000, "uuids": ["a", "b"]}
    hashing_memory.add("ran the migration script", id="m1", metadata=meta)
    hit = tools.recall(hashing_memory, "migration script")["hits"][0]
    assert hit["metadata"] == {"git_branch": "main"}
    assert tools.get(hashing_memory, "m1")["metadata"]["uuids"] == ["a", "b"]


@pytest.mark.core
def test_recall_answer_is_capped_whatever_is_stored(hashing_memory: Memory) -> None:
    hashing_memory.add_many({"content": f"deploy log {i} " + "the deploy failed again " * 400} for i in range(60))
    answer = tools.recall(hashing_memory, "deploy failed", limit=50, max_tokens=1500)
    assert json_tokens(answer) <= 1500 and answer["returned"] >= 3 and answer["omitted"] > 0
    huge = tools.recall(hashing_memory, "deploy failed", limit=50, max_tokens=1_000_000)
    assert huge["max_tokens"] == HARD_MAX_TOKENS and json_tokens(huge) <= HARD_MAX_TOKENS


@pytest.mark.core
def test_context_and_stats(hashing_memory: Memory) -> None:
    tools.import_sources(hashing_memory, [str(EXAMPLE)])
    block = tools.context(hashing_memory, "Lisbon wedding", max_tokens=120)
    assert 0 < block["tokens"] <= 120 and "Lisbon" in block["text"] and block["used"]
    assert tools.stats(hashing_memory)["by_kind"]["message"] == 15


@pytest.mark.core
def test_import_reports_skipped_lines_and_refuses_missing_paths(hashing_memory: Memory, tmp_path: Path) -> None:
    report = tools.import_sources(hashing_memory, [str(EXAMPLE)])
    assert report["added"] == 15 and report["sessions"] == 4 and report["dropped"] == {"invalid_json": 1}
    again = tools.import_sources(hashing_memory, [str(EXAMPLE)])
    assert again["added"] == 0 and again["unchanged_files"] == 1
    with pytest.raises(InputError, match="no such file"):
        tools.import_sources(hashing_memory, [str(tmp_path / "nope.jsonl")])
    for bad in ([], "a/path", [""]):
        with pytest.raises(InputError, match="non-empty list"):
            tools.import_sources(hashing_memory, bad)  # type: ignore[arg-type]


@pytest.mark.core
def test_session_search_and_reading_a_session_in_pages(hashing_memory: Memory) -> None:
    tools.import_sources(hashing_memory, [str(EXAMPLE)])
    found = session_tools.search_sessions(hashing_memory, "greyhound")
    assert [s["session_id"] for s in found["sessions"]] == ["s2"]
    assert any("Juniper" in snippet["text"] for snippet in found["sessions"][0]["snippets"])
    assert session_tools.search_sessions(hashing_memory, "greyhound", exclude=["Juniper"])["sessions"] == []
    pages, offset = [], 0
    while True:
        page = session_tools.read_session(hashing_memory, "s2", offset=offset, max_tokens=400)
        assert json_tokens(page) <= 400
        pages.extend(m["content"] for m in page["messages"])
        if "next_offset" not in page:
            break
        offset = page["next_offset"]
    assert len(pages) == 4 and "greyhound" in pages[1]
    with pytest.raises(InputError, match="too small"):
        session_tools.read_session(hashing_memory, "s2", max_tokens=50)
    with pytest.raises(InputError, match="no session"):
        session_tools.read_session(hashing_memory, "s404")


@pytest.mark.core
def test_recent_lists_newest_first_within_scope(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        for day in (3, 1, 2):
            memory.add(f"note of day {day}", user_id="ann", timestamp=f"2024-05-0{day}T10:00:00Z")
        memory.add("bob's secret", user_id="bob", timestamp="2024-06-01T00:00:00Z")
        listing = tools.recent(memory, limit=2, user_id="ann")
    assert [m["content"] for m in listing["memories"]] == ["note of day 3", "note of day 2"]
    with Memory(db_path, embedder="hashing", user_id="ann") as pinned:
        assert "bob" not in json.dumps(tools.recent(pinned))


@pytest.mark.core
def test_pinned_memory_refuses_other_scopes_through_every_tool(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add("alice's plan: move to Porto", user_id="alice", id="a1")
        memory.add("bob's plan: move to Oslo", user_id="bob", id="b1")
    with Memory(db_path, embedder="hashing", user_id="alice") as pinned:
        hits = tools.recall(pinned, "plan move")["hits"]
        assert [h["id"] for h in hits] == ["a1"]
        for call in (
            lambda: tools.recall(pinned, "plan", user_id="bob"),
            lambda: tools.get(pinned, "b1", user_id="bob"),
            lambda: tools.remember(pinned, "x", user_id="bob"),
            lambda: tools.forget(pinned, "b1", user_id="bob"),
            lambda: tools.stats(pinned, user_id="bob"),
        ):
            with pytest.raises(InputError, match="pinned"):
                call()
        with pytest.raises(InputError, match="no memory"):
            tools.get(pinned, "b1")  # exists, but not in this scope
        assert tools.forget(pinned, "b1")["deleted"] == 0
        assert tools.stats(pinned)["items"] == 1


def test_facts_are_listed_corrected_and_forgotten_within_scope(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        tools.remember(memory, "I work at Google and I live in Paris", kind="message", role="user", user_id="u1")
        tools.remember(memory, "Actually I moved to Berlin last month", kind="message", role="user", user_id="u1")
        tools.remember(memory, "I live in Madrid", kind="message", role="user", user_id="u2")
        active = knowledge_tools.list_facts(memory, user_id="u1")["facts"]
        lives = [f["object"] for f in active if f["relation"] == "lives_in"]
        assert lives == ["berlin"] and {f["user_id"] for f in active} == {"u1"}
        history = knowledge_tools.list_facts(memory, user_id="u1", status="all")["facts"]
        assert {f["status"] for f in history if f["object"] == "paris"} == {"superseded"}
        subject = active[0]["subject"]
        removed = tools.forget(memory, subject=subject, relation="lives_in", user_id="u1")
        assert removed["facts_forgotten"] >= 1
        left = knowledge_tools.list_facts(memory, user_id="u1", status="all")["facts"]
        assert not [f for f in left if f["relation"] == "lives_in"]
        assert [f["object"] for f in knowledge_tools.list_facts(memory, user_id="u2")["facts"]] == ["madrid"]
        with pytest.raises(InputError, match="limit"):
            knowledge_tools.list_facts(memory, limit=0)


def test_category_tree_and_filtering_recall_by_category(hashing_memory: Memory) -> None:
    tools.remember(hashing_memory, "I always write tests with pytest fixtures", kind="message", role="user")
    tree = knowledge_tools.categories(hashing_memory)
    assert tree["total"] == 1 and {"facts", "preferences", "skills", "rules", "context"} <= set(tree["categories"])
    (category,) = [name for name, node in tree["categories"].items() if node["count"] == 1]
    assert tools.recall(hashing_memory, "pytest", category=category)["returned"] == 1
    other = next(name for name in tree["categories"] if name != category)
    assert tools.recall(hashing_memory, "pytest", category=other)["returned"] == 0
    with pytest.raises(InputError):
        tools.recall(hashing_memory, "pytest", category="no_such_category")


def test_categories_tool_evolves_renames_and_merges(hashing_memory: Memory) -> None:
    for topic in ("docs", "web", "api"):
        for i in range(5):
            tools.remember(hashing_memory, f"To fix the {topic} build, run make {topic}-{i} and check the {topic} logs")
    skills = knowledge_tools.categories(hashing_memory, evolve=True)["categories"]["skills"]
    first, second = list(skills["subcategories"])[:2]
    renamed = knowledge_tools.categories(hashing_memory, rename=[f"skills/{first}", "builds"])
    assert renamed["renamed"]["to"] == "skills/builds" and "builds" in renamed["categories"]["skills"]["subcategories"]
    merged = knowledge_tools.categories(hashing_memory, merge=[f"skills/{second}", "skills/builds"])
    assert merged["merged"]["into"] == "skills/builds"
    assert second not in merged["categories"]["skills"]["subcategories"]
    for bad in (["only-one"], "skills/builds", [1, 2]):
        with pytest.raises(InputError, match="rename takes two texts"):
            knowledge_tools.categories(hashing_memory, rename=bad)


@pytest.mark.core
def test_a_large_category_tree_is_trimmed_to_the_budget() -> None:
    subs = {
        f"topic_{i}": {"count": 100 - i, "path": f"skills/topic_{i}", "keywords": [f"kw{i}_{k}" for k in range(12)]}
        for i in range(80)
    }
    tree = {"total": 5000, "categories": {"skills": {"count": 5000, "unassigned": 10, "subcategories": subs}}}
    slim = knowledge_tools.fit_tree(tree, 1500)
    node = slim["categories"]["skills"]
    assert json_tokens(slim) <= 1500 and node["more_subcategories"] > 0
    assert len(node["subcategories"]) + node["more_subcategories"] == 80
    assert "topic_0" in node["subcategories"] and "topic_79" not in node["subcategories"]  # biggest kept
    assert all(len(info["keywords"]) <= 3 for info in node["subcategories"].values())
    assert knowledge_tools.fit_tree(tree, 100_000) is tree
