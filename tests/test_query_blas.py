"""A search embeds its query on ``Config.blas_threads`` BLAS threads when a PostgreSQL server shares
this machine, and on the library's own count otherwise (SQLite, imports).

Why it matters: a second BLAS thread keeps spinning after a query's small matrix products, on the
core a server on this machine needs next; SQLite runs in this process and only gains from it
(docs/postgres.md measures both). The probe wraps the real model and records the BLAS thread
count each call runs under.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from mnemo import Memory
from mnemo.embed.minilm import MiniLMEmbedder
from mnemo.embed.threads import blas_info
from tests.conftest import needs_model


class ThreadProbe(MiniLMEmbedder):
    """The real MiniLM model, noting how many BLAS threads each call ran under."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[int, list[int]]] = []

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append((len(texts), [lib["threads"] for lib in blas_info()]))
        return super().embed_batch(texts)


def _library_threads() -> list[int]:
    pytest.importorskip("threadpoolctl")
    counts = [lib["threads"] for lib in blas_info()]
    if not counts or max(counts) < 2:
        pytest.skip("the BLAS library runs one thread here; a limit of one cannot be observed")
    return counts


def _items() -> list[dict[str, str]]:
    lines = ["the staging deploy failed on a missing env var", "we moved the standup to ten", "Bea lent me her drill"]
    return [{"id": f"m{i}", "content": text, "user_id": "u"} for i, text in enumerate(lines)]


def _search_threads(target: str, mode: str = "hybrid", **config: object) -> tuple[list[int], list[int]]:
    """(import calls' counts, search calls' counts) for one small store at ``target``."""
    probe = ThreadProbe()
    with Memory(target, embedder=probe, search_mode=mode, **config) as memory:
        memory.add_many(_items())
        imported = [threads for _, threads in probe.calls]
        probe.calls.clear()
        hits = memory.search("why did the deploy fail", limit=3, user_id="u")
        assert hits and hits[0].id == "m0"
    return imported[0], [t for _, threads in probe.calls for t in threads]


@needs_model
@pytest.mark.postgres
@pytest.mark.parametrize("mode", ["hybrid", "fused"])
def test_a_search_on_a_server_of_this_machine_embeds_its_query_on_one_blas_thread(pg_url: str, mode: str) -> None:
    before = _library_threads()
    imported, searched = _search_threads(pg_url, mode)
    assert imported == before  # imports keep the library's count
    assert searched and set(searched) == {1}
    assert [lib["threads"] for lib in blas_info()] == before  # given back after the search


@needs_model
@pytest.mark.postgres
def test_blas_threads_zero_leaves_the_query_on_the_library_count(pg_url: str) -> None:
    before = _library_threads()
    _, searched = _search_threads(pg_url, blas_threads=0)
    assert searched and set(searched) == set(before)


@needs_model
@pytest.mark.parametrize("mode", ["hybrid", "fused"])
def test_sqlite_embeds_its_query_on_the_library_count(db_path: str, mode: str) -> None:
    """SQLite runs in this process: nothing else wants the second core while the query is embedded."""
    before = _library_threads()
    _, searched = _search_threads(db_path, mode)
    assert searched and set(searched) == set(before)
