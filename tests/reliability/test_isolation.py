"""Isolation: nothing scoped to one user/agent/project ever shows another scope's memories.

A Hypothesis property generates owners, sessions and memories, stores them in a real store (SQLite
file, and PostgreSQL when a server can be started), and checks every scoped read (search, fused
search, context, recent, export, facts, categories, stats, session search, session view, session
listing) for tags of memories outside the scope. A pinned MCP server is then attacked through
the real MCP client with tool arguments naming other scopes.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemo import Memory
from mnemo.records import Scope
from tests.reliability.isolation_checks import (
    AGENTS,
    PROJECTS,
    SESSIONS,
    USERS,
    WORDS,
    Memo,
    ScopeAsk,
    tags_in,
    violations,
)

_COUNTER = itertools.count()


def memos() -> st.SearchStrategy[list[Memo]]:
    one = st.builds(
        lambda user, agent, project, session, role, words: (user, agent, project, session, role, tuple(words)),
        st.sampled_from(USERS),
        st.one_of(st.none(), st.sampled_from(AGENTS)),
        st.one_of(st.none(), st.sampled_from(PROJECTS)),
        st.sampled_from(SESSIONS),
        st.sampled_from(("user", "assistant")),
        st.lists(st.sampled_from(WORDS), min_size=2, max_size=6),
    )
    return st.lists(one, min_size=1, max_size=14).map(
        lambda rows: [Memo(f"zq{i}x", *row) for i, row in enumerate(rows)]
    )


def asks() -> st.SearchStrategy[ScopeAsk]:
    return st.builds(
        ScopeAsk,
        st.sampled_from(USERS),
        st.one_of(st.none(), st.sampled_from(AGENTS)),
        st.one_of(st.none(), st.sampled_from(PROJECTS)),
    )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "isolation.db")


@pytest.fixture
def shared_memory(store_url: str) -> Iterator[Memory]:
    # category_evolve_after=0: no background evolve thread racing the checks; facts on import so
    # extracted facts (items of their own) are part of what must stay in scope
    with Memory(store_url, embedder="hashing", category_evolve_after=0, extract_facts_on_import=True) as memory:
        yield memory


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=memos(),
    ask_list=st.lists(asks(), min_size=1, max_size=3),
    query_words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
)
def test_no_scoped_read_shows_another_scope(
    shared_memory: Memory, data: list[Memo], ask_list: list[ScopeAsk], query_words: list[str]
) -> None:
    ns = f"n{next(_COUNTER)}"  # every example writes to owners of its own on the shared store
    shared_memory.add_many([m.record(ns) for m in data])
    query = " ".join(query_words)
    for ask in ask_list:
        assert violations(shared_memory, ns, data, ask, query) == []


def test_checks_can_fail(hashing_memory: Memory) -> None:
    """The check itself sees a leak: told that bob's memory is someone else's, it reports the tag."""
    data = [
        Memo("zq1x", "ann", None, None, "s1", "user", ("coffee", "piano")),
        Memo("zq2x", "bob", None, None, "s1", "user", ("coffee", "tax")),
    ]
    hashing_memory.add_many([m.record("t") for m in data])
    everything = hashing_memory.search("coffee", limit=10)
    assert tags_in([h.as_dict() for h in everything]) == {"zq1x", "zq2x"}  # unscoped sees both
    assert violations(hashing_memory, "t", data, ScopeAsk("ann"), "coffee") == []
    # the same store, described as if zq1x belonged to cyd: every read of ann's scope now "leaks" it
    claimed = [Memo("zq1x", "cyd", None, None, "s1", "user", ("coffee", "piano")), data[1]]
    found = violations(hashing_memory, "t", claimed, ScopeAsk("ann"), "coffee")
    assert any(line.startswith("search ") and "zq1x" in line for line in found)
    assert any(line.startswith("export ") for line in found) and any("stats" in line for line in found)


def _import_chat(memory: Memory, folder: Path, name: str, lines: list[dict[str, Any]]) -> None:
    path = folder / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    memory.import_sources([str(path)])


def test_shared_session_id_shows_no_foreign_title(tmp_path: Path, db_path: str) -> None:
    """Two users import a chat log with the same session id: neither sees the other's title or text.

    The sessions table is keyed by session id; its title is the first importer's first user message.
    """
    with Memory(db_path, embedder="hashing", user_id="ann") as ann:
        _import_chat(ann, tmp_path, "ann.jsonl", [
            {"session_id": "shared", "role": "user", "content": "my bank pin is zq1x please remember the garden"},
            {"session_id": "shared", "role": "assistant", "content": "noted, the garden zq2x"},
        ])  # fmt: skip
    with Memory(db_path, embedder="hashing", user_id="bob") as bob:
        _import_chat(bob, tmp_path, "bob.jsonl", [
            {"session_id": "shared", "role": "user", "content": "what about the garden shed zq3x"},
        ])  # fmt: skip
        hits = bob.search_sessions("garden")
        view = bob.session("shared", all_messages=True)
        listed = bob.store.list_sessions(scope=Scope(user_id="bob"))
        assert hits and tags_in([h.as_dict() for h in hits]) == {"zq3x"}
        assert view is not None and tags_in(view.as_dict()) == {"zq3x"}
        assert tags_in([s.as_dict() for s in listed]) <= {"zq3x"}
    with Memory(db_path, embedder="hashing") as everyone:  # unpinned: the session row is still there
        assert everyone.store.get_session("shared") is not None
        assert everyone.store.get_session("shared", Scope(user_id="bob")) is None  # shared: withheld
        assert everyone.store.get_session("shared", Scope(user_id="zed")) is None  # not theirs at all


def test_typo_correction_cannot_surface_another_users_word(db_path: str) -> None:
    """Typo fixes read the store-wide vocabulary, but the corrected search still runs in the caller's
    scope: a misspelling of another user's rare word finds nothing of theirs."""
    with Memory(db_path, embedder="hashing") as memory:
        memory.add("the password manager is called quixotrix zq1x", user_id="bob", session_id="b1", role="user")
        memory.add("we talked about the garden zq2x", user_id="ann", session_id="a1", role="user")
        for query in ("quixotrax", "quixotri", "quixotrix"):
            hits = memory.search_sessions(query, user_id="ann")
            assert tags_in([h.as_dict() for h in hits]) <= {"zq2x"}
            assert "quixotrix" not in json.dumps([h.as_dict() for h in hits], default=str)
            assert tags_in([h.as_dict() for h in memory.search(query, user_id="ann")]) <= {"zq2x"}
        assert tags_in([h.as_dict() for h in memory.search_sessions("quixotrax", user_id="bob")]) == {"zq1x"}


# -- a pinned MCP server, through the real MCP client ---------------------------------------------

_ATTACKS: list[tuple[str, dict[str, Any]]] = [
    ("recall", {"query": "garden secret"}),
    ("recall", {"query": "garden secret", "user_id": "bob"}),
    ("recall", {"query": "garden secret", "user_id": "bob", "agent_id": "planner"}),
    ("recall", {"query": "garden secret", "agent_id": "coder"}),
    ("recall", {"query": "garden secret", "session_id": "bob-s"}),
    ("recall", {"query": "garden", "project": "/p/bob"}),
    ("context", {"query": "garden secret", "max_tokens": 500}),
    ("context", {"query": "garden secret", "user_id": "bob"}),
    ("get", {"id": "bob-1"}),
    ("get", {"id": "bob-1", "user_id": "bob"}),
    ("stats", {"user_id": "bob"}),
    ("stats", {}),
    ("search_sessions", {"query": "garden"}),
    ("search_sessions", {"query": "garden", "user_id": "bob"}),
    ("read_session", {"session_id": "bob-s"}),
    ("read_session", {"session_id": "bob"}),
    ("read_session", {"session_id": "bob-s", "user_id": "bob"}),
    ("list_facts", {}),
    ("list_facts", {"user_id": "bob"}),
    ("list_facts", {"subject": "user"}),
    ("categories", {}),
    ("categories", {"user_id": "bob"}),
    ("forget", {"id": "bob-1"}),
    ("forget", {"id": "bob-1", "user_id": "bob"}),
    ("forget", {"subject": "user", "user_id": "bob"}),
    ("remember", {"content": "planted zq9x", "user_id": "bob"}),
    ("remember", {"content": "planted zq9x", "agent_id": "coder"}),
]


def test_pinned_mcp_server_cannot_be_talked_out_of_its_scope(db_path: str) -> None:
    pytest.importorskip("mcp")
    import anyio
    from mcp import Client

    from mnemo.mcp.server import build_server

    with Memory(db_path, embedder="hashing", category_evolve_after=0) as everyone:
        for n, (user, agent) in enumerate([("bob", "planner"), ("bob", "coder"), ("ann", "coder")]):
            tag = f"zq{n + 1}x"
            everyone.add(
                f"I love my garden, the secret is {tag}", id=f"{user}-{n + 1}", user_id=user, agent_id=agent,
                session_id=f"{user}-s", role="user", project=f"/p/{user}",
            )  # fmt: skip
        everyone.add("I love my garden too, mine is zq7x", id="ann-7", user_id="ann", agent_id="planner", role="user")
    outputs: list[tuple[str, dict[str, Any], bool, str]] = []
    with Memory(db_path, embedder="hashing", user_id="ann", agent_id="planner", category_evolve_after=0) as pinned:

        async def attack() -> None:
            async with Client(build_server(pinned)) as client:
                for name, arguments in _ATTACKS:
                    result = await client.call_tool(name, arguments)
                    outputs.append((name, arguments, bool(result.is_error), result.content[0].text))
                for uri in ("mnemo://memories/recent", "mnemo://categories"):
                    read = await client.read_resource(uri)
                    outputs.append((uri, {}, False, read.contents[0].text))

        anyio.run(attack)
    for name, arguments, is_error, text in outputs:
        assert tags_in(text) <= {"zq7x"}, f"{name}({arguments}) showed {tags_in(text)}: {text[:300]}"
        if "user_id" in arguments or ("agent_id" in arguments and arguments.get("agent_id") != "planner"):
            assert is_error and "pinned" in text, f"{name}({arguments}) was not refused: {text[:300]}"
    assert "zq7x" in outputs[0][3]  # the pinned scope's own memory is found: the server does answer
    with Memory(db_path, embedder="hashing") as everyone:  # nothing of bob's was deleted or added to
        assert everyone.get("bob-1", user_id="bob", agent_id="planner", project="/p/bob") is not None
        assert everyone.stats(user_id="bob")["items"] >= 2
        assert not any("planted" in item["content"] for item in everyone.export())
