"""A store records what its turns were embedded from, and the doctor settles any disagreement
(mnemo/embed/recorded.py, the ``vector_inputs`` check of mnemo/doctor.py).

What was embedded is read through the store's vector cache, keyed by the exact input text, as in
tests/test_embed_context.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest

from mnemo import Memory
from mnemo.embed.inputs import vector_key
from mnemo.embed.recorded import META_KEY, MIXED, PLAIN, after_write, disagreement, inputs_of

pytestmark = pytest.mark.core

START = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
WITH_CONTEXT = inputs_of(True)


def turn(n: int, content: str, role: str, session: str = "s1") -> dict:
    when = (START + timedelta(minutes=n)).isoformat()
    return {"id": f"{session}-{n}", "content": content, "role": role, "session_id": session, "timestamp": when}


CHAT = [
    turn(0, "Did you finally make it to the pottery class?", "Melanie"),
    turn(1, "Yes, last Tuesday, and I made a lopsided bowl!", "Caroline"),
]
LATER = turn(2, "Will you go again next week?", "Melanie")


def embedded_from(memory: Memory, text: str) -> bool:
    return vector_key(text) in memory.store.cached_vectors([vector_key(text)])


def chat_store(db_path: str, *, recorded: bool = True) -> None:
    """A store holding CHAT, written under the default setting; without its record when not
    ``recorded``, as a store written before the record existed."""
    with Memory(db_path, embedder="hashing") as memory:
        memory.add_many(CHAT)
    if not recorded:
        with sqlite3.connect(db_path) as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (META_KEY,))


@contextmanager
def mixed_store(db_path: str) -> Iterator[Memory]:
    """The chat store with one more turn written under the other setting (turn_context off)."""
    chat_store(db_path)
    with Memory(db_path, embedder="hashing", turn_context=False) as memory:
        memory.add(**LATER)
        yield memory


def vector_inputs(memory: Memory, repair: bool = False):
    report = memory.doctor(repair=repair)
    checks = report.after if report.repaired else report.checks
    return next(c for c in checks if c.name == "vector_inputs"), report


def test_the_record_follows_the_writes() -> None:
    assert after_write(None, WITH_CONTEXT, store_empty=True, writes_turns=False) == WITH_CONTEXT
    # items written before the record existed: unknown stays unknown
    assert after_write(None, WITH_CONTEXT, store_empty=False, writes_turns=True) is None
    assert after_write(WITH_CONTEXT, WITH_CONTEXT, store_empty=False, writes_turns=True) is None
    assert after_write(PLAIN, WITH_CONTEXT, store_empty=False, writes_turns=True) == MIXED
    # documents and long turns are embedded alike under both settings
    assert after_write(PLAIN, WITH_CONTEXT, store_empty=False, writes_turns=False) is None
    assert after_write(MIXED, PLAIN, store_empty=False, writes_turns=True) is None


def test_a_disagreement_is_described_only_when_short_turns_are_at_stake() -> None:
    assert disagreement(WITH_CONTEXT, WITH_CONTEXT, 5) is None
    assert disagreement(None, WITH_CONTEXT, 0) is None
    assert "before the store recorded" in str(disagreement(None, WITH_CONTEXT, 3))
    assert "more than one setting" in str(disagreement(MIXED, PLAIN, 3))
    assert repr(PLAIN) in str(disagreement(PLAIN, WITH_CONTEXT, 3))


def test_a_new_store_records_its_setting_and_the_doctor_agrees(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add_many(CHAT)
        assert memory.store.get_meta(META_KEY) == WITH_CONTEXT
        check, report = vector_inputs(memory)
        assert check.ok and report.ok


def test_writing_under_the_other_setting_is_found_and_repaired(db_path: str) -> None:
    with mixed_store(db_path) as memory:
        assert memory.store.get_meta(META_KEY) == MIXED
        check, report = vector_inputs(memory)
        assert not check.ok and not report.ok
        check, report = vector_inputs(memory, repair=True)
        assert check.ok and report.ok
        assert memory.store.get_meta(META_KEY) == PLAIN
        # the reply that had been embedded after its question now stands alone
        assert embedded_from(memory, f"Caroline: {CHAT[1]['content']}")


def test_a_store_from_before_the_record_is_unknown_until_repaired(db_path: str) -> None:
    chat_store(db_path, recorded=False)
    with Memory(db_path, embedder="hashing") as memory:
        memory.add(**LATER)  # a store with items and no record: nothing to base a record on
        assert memory.store.get_meta(META_KEY) is None
        check, _ = vector_inputs(memory)
        assert not check.ok and "3 short turns" in check.detail
        check, report = vector_inputs(memory, repair=True)
        assert check.ok and report.ok and memory.store.get_meta(META_KEY) == WITH_CONTEXT
        assert embedded_from(memory, f"Melanie: {CHAT[0]['content']}\nCaroline: {CHAT[1]['content']}")


def test_notes_without_a_session_need_no_record(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add("the greenhouse heater needs a new fuse")
    with sqlite3.connect(db_path) as conn:
        conn.execute("DELETE FROM meta WHERE key = ?", (META_KEY,))
    with Memory(db_path, embedder="hashing") as memory:
        check, report = vector_inputs(memory)
        assert check.ok and report.ok


def test_reindex_records_the_setting(db_path: str) -> None:
    with mixed_store(db_path) as memory:
        memory.reindex("hashing")
        assert memory.store.get_meta(META_KEY) == PLAIN
        assert vector_inputs(memory)[0].ok
