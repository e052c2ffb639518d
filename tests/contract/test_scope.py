"""Scope isolation on every backend: one user's, agent's, session's or project's memories never
reach another's search, context, recent, facts, sessions or categories."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mnemo import Memory
from mnemo.errors import InputError
from tests.contract.conftest import needs_spacy

SECRET = "the vault combination is 4417 orchid"


def plant(memory: Memory) -> None:
    """The same words under each owner and place, so only the filters can tell them apart."""
    memory.add_many(
        [
            {"id": "a", "content": f"alice says {SECRET}", "user_id": "alice", "session_id": "s-a", "project": "/p/x"},
            {"id": "b", "content": f"bob says {SECRET}", "user_id": "bob", "session_id": "s-b", "project": "/p/y"},
            {"id": "g", "content": f"agent note: {SECRET}", "user_id": "alice", "agent_id": "planner"},
            {"id": "n", "content": f"nobody's {SECRET}"},
        ],
        extract_facts=False,
    )


@pytest.mark.parametrize(
    ("scope", "expected"),
    [
        ({"user_id": "alice"}, {"a", "g"}),
        ({"user_id": "bob"}, {"b"}),
        ({"agent_id": "planner"}, {"g"}),
        ({"session_id": "s-b"}, {"b"}),
        ({"project": "/p/x"}, {"a"}),
        ({"user_id": "alice", "project": "/p/y"}, set()),
        ({}, {"a", "b", "g", "n"}),
    ],
)
def test_search_context_and_recent_keep_to_the_scope(memory: Memory, scope: dict, expected: set) -> None:
    plant(memory)
    assert {h.id for h in memory.search("vault combination orchid", **scope)} == expected
    assert {i.id for i in memory.recent(**scope)} == expected
    pack = memory.context_pack("vault combination", **scope)
    for item_id, who in (("a", "alice says"), ("b", "bob says"), ("n", "nobody's")):
        assert (who in pack.text) == (item_id in expected)
    assert memory.stats(**scope)["items"] == len(expected)


def test_a_pinned_memory_cannot_leave_its_user(
    memory: Memory, open_memory: Callable[..., Memory], backend: str
) -> None:
    if backend == "sqlite-memory":
        pytest.skip("a second Memory on ':memory:' is another store")
    plant(memory)
    bob = open_memory(user_id="bob")
    assert {h.id for h in bob.search("vault combination")} == {"b"}
    with pytest.raises(InputError, match="pinned"):
        bob.search("vault", user_id="alice")
    assert bob.get("a") is None and bob.delete("a") == 0
    assert memory.get("a", user_id="alice") is not None


def test_session_search_keeps_to_the_user_and_project(memory: Memory) -> None:
    turns = [
        ("alice", "s1", "/p/shop", "the checkout page crashes when the coupon field is empty"),
        ("bob", "s2", "/p/shop", "the checkout page crashes when the coupon field is empty"),
        ("alice", "s3", "/p/blog", "the checkout page crashes when the coupon field is empty"),
    ]
    memory.add_many(
        [
            {"id": f"{sid}-{n}", "content": text, "role": role, "session_id": sid, "project": project, "user_id": user}
            for user, sid, project, text in turns
            for n, role in enumerate(("user", "assistant"))
        ]
    )
    found = {h.session_id for h in memory.search_sessions("checkout coupon crash", user_id="alice")}
    assert found == {"s1", "s3"}
    assert {h.session_id for h in memory.search_sessions("coupon", user_id="alice", project="/p/shop")} == {"s1"}
    assert {h.session_id for h in memory.search_sessions("coupon", user_id="carol")} == set()


@needs_spacy
def test_facts_keep_to_their_owner(memory: Memory) -> None:
    memory.add("I live in Lisbon.", role="user", id="m1", user_id="alice")
    memory.add("I live in Oslo.", role="user", id="m2", user_id="bob")
    assert [f.object for f in memory.facts(user_id="alice")] == ["lisbon"]
    assert [f.object for f in memory.facts(user_id="bob")] == ["oslo"]
    assert memory.forget(subject="you", user_id="alice") == 1
    assert memory.facts(user_id="alice") == [] and [f.object for f in memory.facts(user_id="bob")] == ["oslo"]


def test_categories_count_within_the_scope(memory: Memory) -> None:
    memory.add("Never deploy on Fridays.", user_id="alice", id="a1")
    memory.add("Never deploy without a rollback plan.", user_id="bob", id="b1")
    memory.add("Always run the linter before pushing.", user_id="bob", id="b2")
    assert memory.categories(user_id="alice")["categories"]["rules"]["count"] == 1
    assert memory.categories(user_id="bob")["categories"]["rules"]["count"] == 2
    assert [h.id for h in memory.search("deploy", category="rules", user_id="alice")] == ["a1"]
    everyone = memory.search("deploy", category="rules")
    assert {"a1", "b1"} <= {h.id for h in everyone} and {h.item.category for h in everyone} == {"rules"}
