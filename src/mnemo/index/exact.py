"""Brute-force index: one float32 matrix, one matrix-vector product per query.

Exact and simple, and fast enough below a few hundred thousand vectors: a
100k x 384 search reads 150 MB once (a few ms). Slots are kept dense (swap-with-last
on removal) so a search never has to skip holes.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mnemo.index.base import (
    SearchResult,
    VectorIndex,
    as_keys,
    as_query,
    as_vectors,
    empty_result,
    last_wins,
    matvec,
    top_k,
)

_MIN_CAPACITY = 1024
# Below this many allowed keys a dict lookup per key beats scanning every slot.
_DICT_LOOKUP_MAX = 2048
# Gathering scattered rows costs several times a sequential read per row (measured
# crossover ~12% at 100k and 1M rows): above this fraction of the index, score
# everything and pick the allowed slots instead.
_GATHER_MAX_FRACTION = 0.1


class ExactIndex(VectorIndex):
    """Exact top-k by dot product over a dense, capacity-doubling float32 matrix."""

    def __init__(self, dim: int, capacity: int = _MIN_CAPACITY) -> None:
        self.dim = dim
        capacity = max(capacity, _MIN_CAPACITY)
        self._matrix = np.zeros((capacity, dim), dtype=np.float32)
        self._keys = np.zeros(capacity, dtype=np.int64)  # slot -> key
        self._slots: dict[int, int] = {}  # key -> slot
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def __contains__(self, key: object) -> bool:
        return isinstance(key, (int, np.integer)) and int(key) in self._slots

    @property
    def capacity(self) -> int:
        return len(self._keys)

    def add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        keys = as_keys(keys)
        keys, vectors = last_wins(keys, as_vectors(vectors, self.dim, len(keys)))
        key_list = keys.tolist()
        found = [self._slots.get(key) for key in key_list]
        # Grow before touching the key map so a failed allocation leaves it consistent.
        self._reserve(self._count + found.count(None))
        slots = np.empty(len(key_list), dtype=np.int64)
        for i, (key, slot) in enumerate(zip(key_list, found, strict=True)):
            if slot is None:
                slot = self._slots[key] = self._count
                self._count += 1
            slots[i] = slot
        self._matrix[slots] = vectors
        self._keys[slots] = keys

    def remove(self, keys: np.ndarray) -> None:
        for key in as_keys(keys).tolist():
            slot = self._slots.pop(key, None)
            if slot is None:
                continue
            last = self._count - 1
            if slot != last:
                # Move the last row into the hole so slots [0, count) stay dense.
                moved = int(self._keys[last])
                self._matrix[slot] = self._matrix[last]
                self._keys[slot] = moved
                self._slots[moved] = slot
            self._count = last
        self._maybe_shrink()

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray | None = None) -> SearchResult:
        q = as_query(query, self.dim)
        if k <= 0 or self._count == 0:
            return empty_result()
        if allowed is None:
            return top_k(self._keys[: self._count], matvec(self._matrix[: self._count], q), k)
        slots = self.slots_of(as_keys(allowed))
        return top_k(self._keys[slots], self.score_slots(slots, q), k)

    def slots_of(self, keys: np.ndarray) -> np.ndarray:
        """Sorted, de-duplicated slots of the given keys; absent keys are skipped."""
        if len(keys) <= _DICT_LOOKUP_MAX:
            found = (self._slots.get(key) for key in keys.tolist())
            return np.unique(np.fromiter((s for s in found if s is not None), dtype=np.int64))
        # np.isin picks a lookup table for dense rowid ranges: O(n + m), no Python loop.
        return np.flatnonzero(np.isin(self._keys[: self._count], keys))

    def score_slots(self, slots: np.ndarray, q: np.ndarray) -> np.ndarray:
        if len(slots) > _GATHER_MAX_FRACTION * self._count:
            return matvec(self._matrix[: self._count], q)[slots]
        return matvec(self._matrix[slots], q)

    def items(self, chunk: int = 65536) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(keys, vectors) views in chunks, to migrate elsewhere without one big copy.

        The views are only valid until the next add or remove.
        """
        for start in range(0, self._count, chunk):
            stop = min(start + chunk, self._count)
            yield self._keys[start:stop], self._matrix[start:stop]

    def _reserve(self, needed: int) -> None:
        if needed <= self.capacity:
            return
        capacity = self.capacity
        while capacity < needed:
            capacity *= 2  # doubling: n appends cost O(n) copying in total
        self._resize(capacity)

    def _maybe_shrink(self) -> None:
        # Shrink only at a quarter full so alternating add/remove cannot thrash.
        if self.capacity > _MIN_CAPACITY and self._count < self.capacity // 4:
            self._resize(max(_MIN_CAPACITY, self.capacity // 2))

    def _resize(self, capacity: int) -> None:
        matrix = np.zeros((capacity, self.dim), dtype=np.float32)
        keys = np.zeros(capacity, dtype=np.int64)
        matrix[: self._count] = self._matrix[: self._count]
        keys[: self._count] = self._keys[: self._count]
        self._matrix, self._keys = matrix, keys
