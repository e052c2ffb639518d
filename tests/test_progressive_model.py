"""Progressive search with the real embedding model: the descent finds a session's detail turn."""

from __future__ import annotations

import pytest

from mnemo import Memory

TURNS = {
    "s1": [
        "Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
        "Melanie: That sounds amazing, what happened there?",
        "Caroline: The support group met at the community centre on Elm Street at seven.",
    ],
    "s2": [
        "Melanie: I painted a sunrise over the lake last weekend.",
        "Caroline: Your painting of the lake looks beautiful.",
    ],
    "s3": [
        "Melanie: The kids and I went camping in the mountains.",
        "Caroline: Camping with the kids sounds like fun.",
    ],
}
FACTS = [
    ("Caroline attended an LGBTQ support group.", "s1"),
    ("Melanie painted a sunrise over a lake.", "s2"),
    ("Melanie went camping with her kids.", "s3"),
]


@pytest.fixture
def talk(model_memory: Memory) -> Memory:
    for session, turns in TURNS.items():
        for n, text in enumerate(turns):
            speaker, content = text.split(": ", 1)
            model_memory.add(content, id=f"{session}:{n}", role=speaker, session_id=session, user_id="ann")
    for n, (fact, session) in enumerate(FACTS):
        model_memory.add(fact, kind="fact", id=f"f{n}", session_id=session, user_id="ann")
    model_memory.add("The support group met at the library.", id="other:0", session_id="s1", user_id="bob")
    model_memory.summarise_sessions()
    return model_memory


def test_the_descent_finds_the_detail_turn_in_the_facts_session(talk: Memory) -> None:
    query = "Where did the LGBTQ support group Caroline attended meet?"
    result = talk.progressive_search(query, user_id="ann", limit=5, min_depth=0)
    assert result.stopped_early and result.descended_into == ("s1",), result.as_dict()
    ids = [h.id for h in result.hits]
    assert "s1:2" in ids and "other:0" not in ids
    messages = {t.tier: t for t in result.tiers}["messages"]
    assert 0 < messages.share < 1 and result.tier_equivalents < 3
    every = talk.progressive_search(query, user_id="ann", limit=5, stop_when_sufficient=False)
    assert "s1:2" in [h.id for h in every.hits] and every.tier_equivalents == 3
