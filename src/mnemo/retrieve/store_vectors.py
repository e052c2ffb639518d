"""Vector search done by the store itself (pgvector), behind SyncedVectorIndex's surface.

A store with ``nearest`` keeps its own ANN index inside the database, so there is nothing to
load, catch up or save in this process: every search is one query, and every process sharing the
database sees the same index at once.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from mnemo.records import SearchFilter


class NearestStore(Protocol):
    def nearest(self, query: np.ndarray, k: int, flt: SearchFilter) -> list[tuple[int, float]]: ...

    def vector_count(self) -> int: ...


class StoreVectorIndex:
    """``search``/``save``/``len``/``kind`` as Memory uses them, answered by the store."""

    kind = "pgvector"

    def __init__(self, store: NearestStore) -> None:
        self._store = store

    def search(self, query: np.ndarray, k: int, flt: SearchFilter) -> list[tuple[int, float]]:
        return self._store.nearest(np.asarray(query, dtype=np.float32), k, flt)

    def refresh(self) -> None:
        """Nothing to catch up: every committed write is already in the database's index."""

    def save(self) -> None:
        """Nothing to save: the index lives in the database and is updated by every write."""

    def __len__(self) -> int:
        return self._store.vector_count()
