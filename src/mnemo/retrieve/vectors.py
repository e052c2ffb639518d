"""Keeps a derived vector index in step with the store and searches it within a filter.

The store's sequence number tells whether anything changed since the index last looked, so a
search costs one tiny read when nothing did, and only the changed rows are loaded when it did.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from mnemo.index.base import VectorIndex
from mnemo.records import SearchFilter
from mnemo.store.base import Store


class SyncedVectorIndex:
    def __init__(self, store: Store, make_index: Callable[[], VectorIndex]) -> None:
        self._store = store
        self._make_index = make_index
        self._index: VectorIndex | None = None
        self._seq = 0
        self._lock = threading.Lock()

    @property
    def seq(self) -> int:
        return self._seq

    def refresh(self) -> VectorIndex:
        """Bring the index up to the store's latest committed state (built on first use)."""
        with self._lock:
            if self._index is None:
                self._index = self._make_index()
                self._seq = 0
            if self._store.sequence() != self._seq:
                delta = self._store.vector_changes(self._seq)
                if len(delta.removed):
                    self._index.remove(delta.removed)
                if len(delta.keys):
                    self._index.add(delta.keys, delta.vectors)
                self._seq = delta.seq
            return self._index

    def search(self, query: np.ndarray, k: int, flt: SearchFilter) -> list[tuple[int, float]]:
        index = self.refresh()
        allowed = self._store.allowed_keys(flt)
        if allowed is not None and len(allowed) == 0:
            return []
        keys, scores = index.search(np.asarray(query, dtype=np.float32), k, allowed)
        return [(int(key), float(score)) for key, score in zip(keys, scores, strict=True)]

    def __len__(self) -> int:
        return len(self._index) if self._index is not None else 0
