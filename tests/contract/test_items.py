"""Items on every backend: round trips, idempotent writes, delete, export, stats, time filters."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from mnemo import Memory
from mnemo.errors import InputError

WHEN = datetime(2025, 3, 4, 5, 6, 7, 891000, tzinfo=UTC)


def test_add_get_round_trip_keeps_every_field(memory: Memory) -> None:
    metadata = {"tags": ["a", "ß"], "nested": {"n": 1, "ok": True}, "note": "naïve ✓"}
    added = memory.add(
        "Die Brücke über den Fluss ist gesperrt ✓",
        id="m1",
        role="user",
        session_id="s1",
        user_id="alice",
        agent_id="helper",
        project="/p/bridge",
        task_id="t9",
        timestamp=WHEN,
        metadata=metadata,
        source="chat",
        kind="note",
    )
    got = memory.get("m1", user_id="alice", agent_id="helper", project="/p/bridge")
    assert got is not None
    assert (got.id, got.content, got.kind, got.role, got.source) == (
        "m1",
        "Die Brücke über den Fluss ist gesperrt ✓",
        "note",
        "user",
        "chat",
    )
    assert got.scope == added.scope and got.scope.task_id == "t9" and got.scope.session_id == "s1"
    assert got.timestamp == WHEN and got.timestamp.tzinfo is not None
    assert dict(got.metadata) == metadata
    assert got.content_hash == added.content_hash != ""
    assert got.ingested_at is not None and abs((datetime.now(UTC) - got.ingested_at).total_seconds()) < 300
    assert got.category is not None  # classified at ingestion on every backend


def test_a_missing_id_or_other_owner_is_none(memory: Memory) -> None:
    memory.add("only alice has this", id="x", user_id="alice")
    assert memory.get("nope") is None
    assert memory.get("x", user_id="bob") is None
    assert memory.get("x", user_id="alice") is not None


def test_readding_an_id_updates_instead_of_duplicating(memory: Memory) -> None:
    memory.add("the first version", id="doc")
    memory.add("the second version", id="doc")
    assert memory.stats()["items"] == 1
    assert memory.get("doc").content == "the second version"
    assert [h.id for h in memory.search("second version")] == ["doc"]
    assert memory.search("first") == [] or all(h.content == "the second version" for h in memory.search("first"))


def test_the_same_id_under_another_owner_is_another_item(memory: Memory) -> None:
    memory.add("alice's note", id="n", user_id="alice")
    memory.add("bob's note", id="n", user_id="bob")
    assert memory.stats()["items"] == 2
    assert memory.get("n", user_id="bob").content == "bob's note"


def test_add_many_is_idempotent_and_counts(memory: Memory) -> None:
    records = [{"id": f"r{i}", "content": f"record number {i} about gardening", "role": "user"} for i in range(30)]
    first = memory.add_many(records, extract_facts=False)
    assert (first.added, first.updated, first.unchanged) == (30, 0, 0)
    again = memory.add_many(records, extract_facts=False)
    assert (again.added, again.updated, again.unchanged) == (0, 0, 30)
    changed = memory.add_many([{**records[0], "content": "record zero rewritten"}], extract_facts=False)
    assert (changed.added, changed.updated) == (0, 1)
    assert memory.stats()["items"] == 30


def test_a_bad_record_writes_nothing_of_its_batch(memory: Memory) -> None:
    with pytest.raises(InputError, match="record 1"):
        memory.add_many([{"id": "good", "content": "fine"}, {"id": "bad", "content": ""}])
    assert memory.stats()["items"] == 0
    report = memory.add_many([{"id": "good", "content": "fine"}, {"content": 5}], skip_invalid=True)
    assert (report.added, report.skipped) == (1, 1)


def test_delete_removes_from_lexical_and_semantic_search(memory: Memory) -> None:
    memory.add("The quokka habitat survey starts on Rottnest island", id="gone")
    memory.add("An unrelated line about spreadsheets", id="kept")
    assert "gone" in [h.id for h in memory.search("quokka habitat survey")]
    assert memory.delete("gone") == 1
    assert memory.delete("gone") == 0
    hits = memory.search("quokka habitat survey Rottnest")
    assert "gone" not in [h.id for h in hits]
    assert memory.get("gone") is None
    assert memory.stats()["items"] == 1
    # semantic strategy alone: the vector must be gone too, not only the row
    assert all("semantic" not in h.ranks or h.id == "kept" for h in hits)


def test_delete_stays_in_scope(memory: Memory) -> None:
    memory.add("shared id, alice", id="same", user_id="alice")
    memory.add("shared id, bob", id="same", user_id="bob")
    assert memory.delete("same", user_id="alice") == 1
    assert memory.get("same", user_id="bob") is not None


def test_export_round_trips_into_another_store(memory: Memory, tmp_path) -> None:
    memory.add("exported one", id="e1", user_id="u", timestamp=WHEN, metadata={"k": [1, 2]})
    memory.add("exported two", id="e2", session_id="s", role="assistant")
    records = list(memory.export())
    assert [r["id"] for r in records] == ["e1", "e2"]
    with Memory(str(tmp_path / "copy.db"), embedder="hashing") as copy:
        assert copy.add_many(records).added == 2
        again = copy.get("e1", user_id="u")
        assert again.timestamp == WHEN and dict(again.metadata) == {"k": [1, 2]}
    assert [r["id"] for r in memory.export(user_id="u")] == ["e1"]


def test_stats_count_items_kinds_and_sessions(memory: Memory) -> None:
    memory.add_many(
        [
            {"content": "a", "session_id": "s1", "user_id": "u1"},
            {"content": "b", "session_id": "s1", "user_id": "u1", "kind": "note"},
            {"content": "c", "session_id": "s2", "user_id": "u2"},
        ]
    )
    assert memory.stats()["items"] == 3
    assert memory.stats()["by_kind"] == {"message": 2, "note": 1}
    assert memory.stats()["sessions"] == 2
    assert memory.stats(user_id="u1")["items"] == 2 and memory.stats(user_id="u2")["sessions"] == 1


def test_time_filters_are_half_open_and_recent_orders_by_event_time(memory: Memory) -> None:
    for day in range(5):
        memory.add(f"standup notes for day {day}", id=f"d{day}", timestamp=WHEN + timedelta(days=day))
    hits = memory.search("standup notes", since=WHEN + timedelta(days=1), until=WHEN + timedelta(days=3))
    assert sorted(h.id for h in hits) == ["d1", "d2"]
    assert [i.id for i in memory.recent(limit=3)] == ["d4", "d3", "d2"]
    assert [h.id for h in memory.search("standup", kind="note")] == []


def test_data_survives_closing_and_reopening(
    reopenable: None, open_memory: Callable[..., Memory], backend_target: str
) -> None:
    with Memory(backend_target, embedder="hashing") as first:
        first.add("persisted across restarts", id="p", user_id="u")
    again = open_memory()
    assert again.get("p", user_id="u").content == "persisted across restarts"
    assert [h.id for h in again.search("persisted restarts")] == ["p"]


def test_a_turn_added_alone_is_embedded_after_the_turn_before_it(memory: Memory) -> None:
    """The previous turn comes from the store's ``newest`` (mnemo/embed/context.py) on every backend."""
    from mnemo.embed.inputs import vector_key

    memory.add("Did you get the tickets?", role="Mo", session_id="s9", user_id="u", timestamp=WHEN)
    memory.add("Yes, two for Friday.", role="Ana", session_id="s9", user_id="u", timestamp=WHEN + timedelta(minutes=1))
    memory.add("Something else entirely.", role="Ana", session_id="s9", user_id="other", timestamp=WHEN)
    keys = [
        vector_key("Mo: Did you get the tickets?\nAna: Yes, two for Friday."),
        vector_key("Ana: Something else entirely."),
    ]
    assert set(memory.store.cached_vectors(keys)) == set(keys)


def test_turns_written_under_the_other_setting_are_found_and_re_embedded(
    reopenable: None, open_memory: Callable[..., Memory]
) -> None:
    """The store's record of what turns were embedded from (mnemo/embed/recorded.py) and the
    doctor's ``vector_inputs`` check and repair work alike on every backend."""
    from mnemo.embed.inputs import vector_key
    from mnemo.embed.recorded import META_KEY, MIXED, PLAIN, inputs_of

    first = open_memory()
    first.add("Did you get the tickets?", role="Mo", session_id="s9", user_id="u", timestamp=WHEN)
    assert first.store.get_meta(META_KEY) == inputs_of(True)
    plain = open_memory(turn_context=False)
    plain.add("Yes, two for Friday.", role="Ana", session_id="s9", user_id="u", timestamp=WHEN + timedelta(minutes=1))
    assert plain.store.get_meta(META_KEY) == MIXED
    assert not plain.doctor().ok
    report = plain.doctor(repair=True)
    assert report.ok and plain.store.get_meta(META_KEY) == PLAIN
    assert next(c for c in report.checks if c.name == "vector_inputs").repaired == 2
    key = vector_key("Ana: Yes, two for Friday.")
    assert key in plain.store.cached_vectors([key])
