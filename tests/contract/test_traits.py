"""``Store.traits``: time, role and session of items by key, within the filter, on every backend."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from mnemo import Memory
from mnemo.records import Scope, SearchFilter


def test_traits_match_the_items_and_respect_the_scope(memory: Memory) -> None:
    memory.add_many(
        [
            {
                "id": "a1",
                "content": "ann's first turn",
                "role": "Ann",
                "session_id": "s1",
                "user_id": "ann",
                "timestamp": "2023-05-01T10:00:00+00:00",
            },
            {"id": "a2", "content": "ann's note", "user_id": "ann"},
            {
                "id": "b1",
                "content": "bob's turn",
                "role": "Bob",
                "session_id": "s9",
                "user_id": "bob",
                "timestamp": "2023-06-01T10:00:00+00:00",
            },
        ]
    )
    store = memory.store
    ann = SearchFilter(scope=Scope(user_id="ann"))
    keys = [int(k) for k in store.allowed_keys(ann)]
    everyone = keys + [int(k) for k in store.allowed_keys(SearchFilter(scope=Scope(user_id="bob")))]
    traits = store.traits([*everyone, 10**9], ann)  # bob's key and an unknown key are left out
    assert sorted(traits) == sorted(keys)
    items = store.fetch(keys, ann)
    for key, item in items.items():
        ts, role, session = traits[key]
        assert ts == (item.timestamp.timestamp() if item.timestamp else None)
        assert (role, session) == (item.role, item.scope.session_id)
    by_id = {items[k].id: traits[k] for k in keys}
    assert by_id["a1"].role == "Ann" and by_id["a1"].session_id == "s1"
    assert by_id["a2"].ts is None and by_id["a2"].session_id is None
    assert store.traits([], ann) == {}


def test_exists_answers_within_the_filter(memory: Memory) -> None:
    memory.add_many(
        [
            {"id": "a", "content": "ann in may", "user_id": "ann", "timestamp": "2023-05-01T10:00:00+00:00"},
            {"id": "b", "content": "bob in june", "user_id": "bob", "timestamp": "2023-06-01T10:00:00+00:00"},
        ]
    )
    store = memory.store
    ann = SearchFilter(scope=Scope(user_id="ann"))
    assert store.exists(ann)
    assert not store.exists(SearchFilter(scope=Scope(user_id="carol")))
    june = datetime(2023, 6, 1, tzinfo=UTC)
    assert store.exists(replace(ann, until=june))
    assert not store.exists(replace(ann, since=june))  # bob's June item is out of ann's scope
    assert store.exists(SearchFilter(since=june))
