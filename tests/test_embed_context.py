"""A conversation turn is embedded with the start of the turn before it (mnemo/embed/context.py).

The checks read what was embedded through the store's vector cache, which is keyed by the exact
input text: a turn written alone, in a batch, re-embedded by ``reindex`` or by the doctor must
each be embedded from the same text, or its vector would depend on how it arrived.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from mnemo import Memory
from mnemo.embed.context import CONTEXT_CHARS, context_line, previous_turns
from mnemo.embed.inputs import embedding_input, vector_key
from mnemo.records import Item, Scope

pytestmark = pytest.mark.core

START = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def turn(n: int, content: str, role: str = "Caroline", session: str = "s1", user: str = "ann") -> dict:
    return {
        "id": f"{session}-{n}",
        "content": content,
        "role": role,
        "session_id": session,
        "user_id": user,
        "timestamp": (START + timedelta(minutes=n)).isoformat(),
    }


CHAT = [
    turn(0, "Did you finally make it to the pottery class?", role="Melanie"),
    turn(1, "Yes, last Tuesday, and I made a lopsided bowl!"),
    turn(2, "That sounds like fun. Will you go again?", role="Melanie"),
    turn(3, "Every week from now on."),
]


def embedded_from(memory: Memory, text: str) -> bool:
    return vector_key(text) in memory.store.cached_vectors([vector_key(text)])


def item(n: int, role: str | None = "Ana", session: str | None = "s", kind: str = "message", minute: int | None = None):
    when = START + timedelta(minutes=n if minute is None else minute)
    return Item(
        f"i{n}", f"turn {n}", kind=kind, role=role, scope=Scope(user_id="u", session_id=session), timestamp=when
    )


def test_a_turn_is_embedded_after_the_start_of_the_turn_before_it(hashing_memory: Memory) -> None:
    hashing_memory.add_many(CHAT)
    first, reply = (hashing_memory.get(f"s1-{n}") for n in (0, 1))
    assert embedded_from(hashing_memory, f"Melanie: {first.content}\nCaroline: {reply.content}")
    # the session's first turn has nothing before it
    assert embedded_from(hashing_memory, f"Melanie: {first.content}")
    assert not embedded_from(hashing_memory, f"Caroline: {reply.content}")


def test_one_at_a_time_a_batch_and_a_reindex_embed_the_same_text(db_path: str, tmp_path) -> None:
    other = str(tmp_path / "one-by-one.db")
    with Memory(db_path, embedder="hashing") as batch, Memory(other, embedder="hashing") as single:
        batch.add_many(CHAT)
        for record in CHAT:
            single.add(**record)
        texts = [embedding_input(batch.get(r["id"]), batch.get(p["id"]) if p else None) for r, p in _pairs()]
        assert all(embedded_from(batch, t) and embedded_from(single, t) for t in texts)
        before = _vectors(batch)
        batch.reindex("hashing")
        assert np.allclose(_vectors(batch), before)


def test_another_user_or_session_gives_no_context(hashing_memory: Memory) -> None:
    hashing_memory.add(**turn(0, "Shall we book the cabin by the lake?", role="Bob", user="bob"))
    hashing_memory.add(**turn(1, "Yes, for the long weekend."))  # ann's first turn in s1
    hashing_memory.add(**turn(2, "Which weekend?", role="Dan", session="s2"))
    reply = hashing_memory.get("s1-1")
    assert embedded_from(hashing_memory, f"Caroline: {reply.content}")
    # a turn with no owner: "any user" in a filter, yet bob's words must not shape its vector
    hashing_memory.add("Sure, the long one.", role="Eve", session_id="s1", timestamp=START + timedelta(minutes=5))
    assert embedded_from(hashing_memory, "Eve: Sure, the long one.")


def test_the_model_puts_a_short_reply_near_the_question_it_answers(model_memory: Memory) -> None:
    model_memory.add_many(CHAT)
    reply = model_memory.get("s1-1")
    question = model_memory.embedder.embed_one("When did Caroline go to the pottery class?")
    with_context = model_memory.embedder.embed_one(embedding_input(reply, model_memory.get("s1-0")))
    alone = model_memory.embedder.embed_one(embedding_input(reply))
    assert embedded_from(model_memory, embedding_input(reply, model_memory.get("s1-0")))
    assert float(question @ with_context) > float(question @ alone) + 0.05
    top = [hit.id for hit in model_memory.search("When did Caroline go to the pottery class?", limit=2)]
    assert "s1-1" in top


def test_previous_turns_follows_the_batch_then_asks_the_store() -> None:
    asked: list[str] = []

    def earlier(it: Item) -> Item | None:
        asked.append(it.id)
        return item(-1)

    batch = [item(0), item(1), item(2, kind="fact"), item(3, role=None), item(4, session=None), item(5)]
    found = previous_turns(batch, earlier)
    # a fact is no turn; a message without a role gets no context but is the next one's previous turn
    assert [f.id if f else None for f in found] == ["i-1", "i0", None, None, None, "i3"]
    assert asked == ["i0"]  # only the session's first turn in the batch is looked up
    # out of order in time: the batch cannot say what came before, the store can
    shuffled = previous_turns([item(0, minute=10), item(1, minute=5)], earlier)
    assert [f.id if f else None for f in shuffled] == ["i-1", "i-1"]
    # items read back from the store: the store decides, however the batch is ordered
    assert [f.id if f else None for f in previous_turns([item(0), item(1)], earlier, stored=True)] == ["i-1", "i-1"]


def test_the_context_line_is_the_speaker_and_a_bounded_start() -> None:
    long = Item("x", "word " * 400, role="Gina")
    line = context_line(long)
    assert line.startswith("Gina: word word") and len(line) == CONTEXT_CHARS and "\n" not in line
    assert embedding_input(item(1), item(0)) == "Ana: turn 0\nAna: turn 1"


def _pairs() -> list[tuple[dict, dict | None]]:
    return [(record, CHAT[n - 1] if n else None) for n, record in enumerate(CHAT)]


def _vectors(memory: Memory) -> np.ndarray:
    rows = [page for _keys, page in memory.store.vector_pages(0)]
    return np.vstack(rows)


def test_a_long_turn_or_the_setting_turned_off_gives_no_context(db_path: str) -> None:
    long = "We compared three schools. " * 12  # over SHORT_TURN_CHARS: it carries its own topic
    with Memory(db_path, embedder="hashing") as memory:
        memory.add_many([CHAT[0], {**CHAT[1], "content": long}])
        assert embedded_from(memory, f"Caroline: {long}")
    with Memory(db_path + "-off", embedder="hashing", turn_context=False) as memory:
        memory.add_many(CHAT)
        assert all(embedded_from(memory, f"{r['role']}: {r['content']}") for r in CHAT)
