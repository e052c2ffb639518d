"""The VectorIndex interface and the input checks every implementation shares.

An index is derived state: SQLite holds every item and its embedding, and an index
can always be rebuilt from there. Keys are SQLite rowids (int64); vectors are
unit-length float32 rows, so the score of a match is the dot product (cosine).
Indexes are not thread-safe: the caller serialises writes against searches.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from mnemo.errors import InputError

#: What every search returns: (int64 keys, float32 scores), best first.
SearchResult = tuple[np.ndarray, np.ndarray]


class VectorIndex(ABC):
    """A mutable key -> vector map that answers top-k cosine queries."""

    dim: int

    @abstractmethod
    def add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        """Insert or replace: a key that is already present gets the new vector."""

    @abstractmethod
    def remove(self, keys: np.ndarray) -> None:
        """Drop these keys; keys that are not present are ignored."""

    @abstractmethod
    def search(self, query: np.ndarray, k: int, allowed: np.ndarray | None = None) -> SearchResult:
        """Return up to k (keys, scores) sorted by score, best first.

        With ``allowed`` (the keys the caller may see), only those keys are returned.
        """

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def __contains__(self, key: object) -> bool: ...


def empty_result() -> SearchResult:
    return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)


def as_keys(keys: np.ndarray | list[int] | int) -> np.ndarray:
    """Any key or key list as a 1-D int64 array."""
    arr = np.asarray(keys)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"index keys must be integers, got {arr.dtype}")
    return arr.astype(np.int64, copy=False).reshape(-1)


def as_vectors(vectors: np.ndarray, dim: int, count: int) -> np.ndarray:
    """Check shape against the keys and the index dimension; return C-contiguous float32."""
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim == 1 and count == 1:
        arr = arr.reshape(1, -1)
    if arr.shape != (count, dim):
        raise InputError(f"expected vectors of shape ({count}, {dim}), got {arr.shape}")
    return np.ascontiguousarray(arr)


def as_query(query: np.ndarray, dim: int) -> np.ndarray:
    arr = np.asarray(query, dtype=np.float32).reshape(-1)
    if arr.shape != (dim,):
        raise InputError(f"expected a query of {dim} dimensions, got shape {arr.shape}")
    return arr


def last_wins(keys: np.ndarray, vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop repeated keys in one batch, keeping the last vector, as sequential upserts would."""
    if len(keys) < 2:
        return keys, vectors
    _, first_in_reversed = np.unique(keys[::-1], return_index=True)
    if len(first_in_reversed) == len(keys):
        return keys, vectors
    keep = np.sort(len(keys) - 1 - first_in_reversed)
    return keys[keep], vectors[keep]


def matvec(matrix: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Matrix-vector product on one core.

    numpy's own einsum loop is memory-bound like BLAS sgemv but single-threaded:
    measured as fast as multi-threaded OpenBLAS on 2 cores, and much steadier when
    the other core is busy (no thread barrier to wait on), as it is during a search
    (full-text query, embedding the query).
    """
    return np.einsum("ij,j->i", matrix, q)


def top_k(keys: np.ndarray, scores: np.ndarray, k: int) -> SearchResult:
    """The k best (keys, scores), best first; argpartition keeps this O(n) for big n."""
    k = min(k, len(scores))
    if k <= 0:
        return empty_result()
    cut = len(scores) - k
    part = np.argpartition(scores, cut)[cut:] if cut > 0 else np.arange(len(scores))
    # Stable sort on -score so equal scores come back in a deterministic order.
    order = part[np.argsort(-scores[part], kind="stable")]
    return keys[order].astype(np.int64, copy=False), scores[order].astype(np.float32, copy=False)
