"""Keeps the derived vector index in step with the store, and searches it within a filter.

The store's sequence number tells whether anything changed since the index last looked, so a
search costs one tiny read when nothing did, and only changed rows are read when something did.
A large (HNSW) index is saved beside the store with the sequence number it reflects, so a new
process loads it and catches up instead of rebuilding it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from mnemo.index.adaptive import AdaptiveIndex
from mnemo.records import SearchFilter
from mnemo.store.base import Store

#: Save a persisted index once this many vectors (or this share of it) changed since the last save.
SAVE_AFTER_CHANGES = 5_000
SAVE_AFTER_SHARE = 0.05


class SyncedVectorIndex:
    def __init__(
        self, store: Store, open_index: Callable[[], AdaptiveIndex], persist: Callable[[AdaptiveIndex], None]
    ) -> None:
        self._store = store
        self._open = open_index
        self._persist = persist
        self._index: AdaptiveIndex | None = None
        self._unsaved = 0
        self._lock = threading.RLock()

    def refresh(self) -> AdaptiveIndex:
        """Bring the index up to the store's latest committed state (opened on first use)."""
        with self._lock:
            if self._index is None:
                self._index = self._open()
            index = self._index
            latest = self._store.sequence()
            if latest < index.watermark:  # the store was replaced under a saved index
                index = self._index = self._open_empty()
            if latest != index.watermark:
                self._unsaved += self._catch_up(index, latest)
                if self._unsaved >= max(SAVE_AFTER_CHANGES, SAVE_AFTER_SHARE * len(index)):
                    self._save_locked()
            return index

    def search(self, query: np.ndarray, k: int, flt: SearchFilter) -> list[tuple[int, float]]:
        with self._lock:  # the index is not safe to search while another thread catches it up
            index = self.refresh()
            allowed = self._store.allowed_keys(flt)
            if allowed is not None and len(allowed) == 0:
                return []
            keys, scores = index.search(np.asarray(query, dtype=np.float32), k, allowed)
        return [(int(key), float(score)) for key, score in zip(keys, scores, strict=True)]

    def save(self) -> None:
        with self._lock:
            if self._index is not None and self._unsaved:
                self._save_locked()

    def __len__(self) -> int:
        return len(self._index) if self._index is not None else 0

    @property
    def kind(self) -> str | None:
        """ "exact" or "hnsw" once the index is open; None before the first vector search."""
        return self._index.kind if self._index is not None else None

    def _catch_up(self, index: AdaptiveIndex, latest: int) -> int:
        # removals first: SQLite may have given a deleted row's key to a newer row, re-added below
        removed = self._store.removed_since(index.watermark)
        changed = len(removed)
        if changed:
            index.remove(removed)
        for keys, vectors in self._store.vector_pages(index.watermark):
            index.add(keys, vectors)
            changed += len(keys)
        index.watermark = latest
        return changed

    def _open_empty(self) -> AdaptiveIndex:
        fresh = self._open()
        if fresh.watermark:
            return AdaptiveIndex(fresh.dim, fresh.threshold, fresh.params)
        return fresh

    def _save_locked(self) -> None:
        assert self._index is not None
        # an exact index reloads from SQLite in a moment and is never saved; saving it would
        # also delete an HNSW file that another process keeps beside the same store
        if self._index.kind == "hnsw":
            self._persist(self._index)
        self._unsaved = 0
