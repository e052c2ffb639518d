"""The derived vector index inside Memory: switches to HNSW, persists, catches up, never leaks."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from mnemo import Memory

needs_usearch = pytest.mark.skipif(importlib.util.find_spec("usearch") is None, reason="needs the 'ann' extra")


def _fill(memory: Memory, start: int, stop: int) -> None:
    memory.add_many(
        {"id": f"n{i}", "content": f"note {i} about topic {i % 7} and colour {i % 5}", "user_id": f"u{i % 3}"}
        for i in range(start, stop)
    )


def _index_files(db: str) -> list[Path]:
    return sorted(Path(db).parent.glob(Path(db).name + ".*.hnsw*"))


@needs_usearch
def test_hnsw_index_is_saved_and_caught_up_on_reopen(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", hnsw_threshold=50) as memory:
        _fill(memory, 0, 120)
        assert memory.search("note 5 topic 5", limit=3)[0].id == "n5"
        assert memory.stats()["vector_index"] == "hnsw"
    assert _index_files(db_path), "closing saves the HNSW index beside the store"

    with Memory(db_path, embedder="hashing", hnsw_threshold=50) as memory:
        _fill(memory, 120, 130)  # written after the save: the reopened index must catch up
        memory.delete("n5")
        ids = [hit.id for hit in memory.search("note 125 about topic 6", limit=5)]
        assert ids[0] == "n125"
        assert "n5" not in [h.id for h in memory.search("note 5 topic 5 colour 0", limit=50)]
        assert memory.stats()["vectors_indexed"] == 129


@needs_usearch
def test_scoped_semantic_search_on_hnsw_stays_in_scope(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", hnsw_threshold=50) as memory:
        _fill(memory, 0, 300)
        for user in ("u0", "u1", "u2"):
            hits = memory.search("note about topic 3", limit=50, user_id=user)
            assert hits and all(hit.item.user_id == user for hit in hits)
            assert all("semantic" in hit.ranks or "lexical" in hit.ranks for hit in hits)


@pytest.mark.core
def test_a_stale_index_file_from_a_replaced_store_is_not_used(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with Memory(db, embedder="hashing", hnsw_threshold=50) as memory:
        _fill(memory, 0, 100)
        memory.search("note", limit=1)
    for suffix in ("", "-wal", "-shm"):
        Path(db + suffix).unlink(missing_ok=True)
    with Memory(db, embedder="hashing", hnsw_threshold=50) as memory:  # a new store at the same path
        memory.add("a single fresh memory", id="fresh")
        hits = memory.search("note about topic", limit=10)
        assert [hit.id for hit in hits] == ["fresh"]  # nothing from the old store's index
        assert memory.stats()["vectors_indexed"] == 1
