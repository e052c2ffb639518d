"""A search embeds its query on ``Config.blas_threads`` BLAS threads, and imports keep the library's.

Why it matters: a second BLAS thread keeps spinning after a query's small matrix products, on the
core the store needs next (docs/postgres.md measures it). The probe below wraps the real model and
records the BLAS thread count it runs under.
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


@needs_model
@pytest.mark.parametrize("mode", ["hybrid", "fused"])
def test_a_search_embeds_its_query_on_one_blas_thread(db_path: str, mode: str) -> None:
    before = _library_threads()
    probe = ThreadProbe()
    with Memory(db_path, embedder=probe, search_mode=mode) as memory:
        memory.add_many(_items())
        imported = list(probe.calls)
        probe.calls.clear()
        hits = memory.search("why did the deploy fail", limit=3, user_id="u")
    assert hits and hits[0].id == "m0"
    assert imported and all(threads == before for _, threads in imported)  # imports keep the library's count
    assert probe.calls and all(threads == [1] * len(before) for _, threads in probe.calls)
    assert [lib["threads"] for lib in blas_info()] == before  # given back after the search


@needs_model
def test_blas_threads_zero_leaves_the_query_on_the_library_count(db_path: str) -> None:
    before = _library_threads()
    probe = ThreadProbe()
    with Memory(db_path, embedder=probe, blas_threads=0) as memory:
        memory.add_many(_items())
        probe.calls.clear()
        memory.search("who lent me a drill", limit=3, user_id="u")
    assert probe.calls and all(threads == before for _, threads in probe.calls)
