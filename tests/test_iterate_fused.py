"""The default (fused) search path keeps its rankings when it is made faster.

A deterministic conversation store (three users, named speakers, dated sessions, an event to
anchor "before the move") is searched with the default path, scoped and unscoped, and the hits
(ids in order, scores to within the CPU's float noise) are compared with an expectation recorded
from the code before the speed work.
Any change to what the fused round returns shows up here; a deliberate ranking change records a
new expectation with ``MNEMO_RECORD_FUSED=1 pytest tests/test_iterate_fused.py``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from mnemo import Memory
from tests.conftest import HAS_MODEL

EXPECTED = Path(__file__).parent / "fixtures" / "fused_rankings.json"
RECORD = os.environ.get("MNEMO_RECORD_FUSED") == "1"

USERS = ("ann", "bob", "cy")
SPEAKERS = (("Caroline", "Melanie"), ("Jon", "Gina"), ("Dave", "Audrey"))
TOPICS = (
    "researching adoption agencies and what the interviews ask",
    "the pottery class on Tuesday evenings and a new bowl",
    "painting a sunrise over the lake with watercolours",
    "camping near the river with the kids and roasting marshmallows",
    "the dance studio opening downtown and the first students",
    "reading a book about courage that a friend recommended",
    "running a charity race to raise money for the shelter",
    "the LGBTQ support group meeting and a moving speech",
    "a violin concert in the park on Saturday night",
    "buying a new car after the old one broke down",
    "the job interview at the bank and the second round",
    "adopting a puppy called Oscar from the shelter",
)
FILLERS = (
    "That sounds wonderful, tell me more!",
    "I am so happy for you, really.",
    "Thanks, it means a lot to me.",
    "Wow, how did that feel?",
)
EVENT = "We finally finished the move to Denver and unpacked the last boxes"

QUERIES = (
    "What did Caroline research?",
    "When did Melanie paint a sunrise?",
    "What did Jon do in June 2023?",
    "What did Gina do before the move?",
    "pottery class in July",
    "Which book did Audrey read?",
    "adoption agencies",
    "How did Dave feel about the charity race?",
    "What happened at the dance studio in May 2023?",
    "What instrument was played at the concert?",
    "Where did they go camping?",
    "What is the puppy called?",
    "job interview second round",
    "What did Melanie say about the support group in 2022?",
    "Tell me about the new car",
    "that",
)


def conversations() -> Iterator[dict[str, object]]:
    """About 400 turns: per user, sessions of alternating speakers over 2022-2023, one a month."""
    pick = random.Random(20261121)
    start = datetime(2022, 9, 3, 10, 0, tzinfo=UTC)
    for u, user in enumerate(USERS):
        for session in range(12):
            when = start + timedelta(days=31 * session + 3 * u, hours=u)
            topics = pick.sample(TOPICS, 3)
            for turn in range(11):
                speaker = SPEAKERS[u][turn % 2]
                if u == 1 and session == 6 and turn == 4:
                    text = EVENT
                elif turn % 3 == 2:
                    text = pick.choice(FILLERS)
                else:
                    text = f"{speaker} talked about {topics[turn % 3]}."
                yield {
                    "id": f"{user}-{session}-{turn}",
                    "content": text,
                    "role": speaker,
                    "user_id": user,
                    "session_id": f"{user}-s{session}",
                    "timestamp": (when + timedelta(minutes=2 * turn)).isoformat(),
                }


def rankings(memory: Memory) -> dict[str, list[list[object]]]:
    found = {}
    for query in QUERIES:
        for user in (None, *USERS):
            hits = memory.search(query, user_id=user, limit=10)
            found[f"{user or '*'}|{query}"] = [[h.id, round(h.score, 9)] for h in hits]
    return found


#: How far a score may move with the CPU's float arithmetic (the model's matrix products sum in an
#: order that depends on the instruction set and thread count): the sixth decimal, never the ranking.
SCORE_TOLERANCE = 1e-5


def _same(got: list[list[object]], expected: list[list[object]] | None) -> bool:
    """The same hits in the same order, each score within the float noise of the recorded one."""
    if expected is None or [hit[0] for hit in got] != [hit[0] for hit in expected]:
        return False
    return all(abs(float(a[1]) - float(b[1])) <= SCORE_TOLERANCE for a, b in zip(got, expected, strict=True))


def check(name: str, got: dict[str, list[list[object]]]) -> None:
    expected = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
    if RECORD:
        expected[name] = got
        EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
        return
    assert name in expected, f"no recorded rankings for {name}: record them (see the module docstring)"
    wrong = [key for key in got if not _same(got[key], expected[name].get(key))]
    assert not wrong, f"{len(wrong)} rankings changed, e.g. {wrong[0]}: {got[wrong[0]]} != {expected[name][wrong[0]]}"
    assert got.keys() == expected[name].keys()


def build(path: str, embedder: str) -> Memory:
    memory = Memory(path, embedder=embedder)
    memory.add_many(conversations())
    return memory


@pytest.mark.core
def test_fused_rankings_unchanged_with_hashing_vectors(db_path: str) -> None:
    with build(db_path, "hashing") as memory:
        got = rankings(memory)
    assert any(len(hits) == 10 for hits in got.values())
    check("hashing", got)


@pytest.mark.skipif(not HAS_MODEL, reason="the 'local' extra (embedding model) is not installed")
def test_fused_rankings_unchanged_with_the_model(db_path: str) -> None:
    with build(db_path, "minilm") as memory:
        got = rankings(memory)
    check("minilm", got)


@pytest.mark.core
def test_scoped_hits_stay_in_scope(db_path: str) -> None:
    with build(db_path, "hashing") as memory:
        for query in QUERIES:
            for user in USERS:
                hits = memory.search(query, user_id=user, limit=10)
                assert all(h.item.scope.user_id == user for h in hits), (query, user)
