"""Seed 002's functional API and the default store location."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemo import Memory, get_memory_context, search_memories, set_default_memory, store_memory

pytestmark = pytest.mark.core


@pytest.fixture
def default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("MNEMO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MNEMO_EMBEDDER", "hashing")
    set_default_memory(None)
    yield tmp_path / "home" / "mnemo.db"
    from mnemo.compat import default_memory

    default_memory().close()
    set_default_memory(None)


def test_functional_api_uses_the_default_store(default_store: Path) -> None:
    stored = store_memory("User prefers dark mode", source="user", context_type="fact", agent_id="echo")
    store_memory("We talked about the dark theme rollout", source="agent", agent_id="echo", session_id="s1")
    store_memory("Another agent's note about dark mode", source="user", context_type="fact", agent_id="other")
    assert stored.kind == "fact" and stored.source == "user"
    assert default_store.exists()

    facts = search_memories("user preferences dark mode", agent_id="echo", context_type="fact", limit=5)
    assert [hit.content for hit in facts] == ["User prefers dark mode"]
    chats = search_memories("dark", agent_id="echo", context_type="conversation")
    assert [hit.kind for hit in chats] == ["message"]

    context = get_memory_context("what does the user like?", max_tokens=200)
    assert "dark mode" in context and len(context) < 2000


def test_memory_without_a_path_opens_the_data_directory(default_store: Path) -> None:
    with Memory() as memory:
        memory.add("stored in the default place")
    assert default_store.exists()
