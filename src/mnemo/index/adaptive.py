"""Exact search for small stores, HNSW once the store is big enough to need it.

Below the threshold brute force is both exact and fast (a few ms per query at 100k
vectors). Above it the vectors move, once, into an HnswIndex and the float32 matrix
is dropped: at 1M x 384 a float32 copy alone would be 1.5 GB, the whole RSS budget.
Going back below the threshold by removals keeps the HNSW index; the next rebuild
from the store starts exact again.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np

from mnemo.index.base import SearchResult, VectorIndex, as_keys
from mnemo.index.exact import ExactIndex
from mnemo.index.hnsw import HnswIndex, HnswParams, sidecar_path, usearch_available

log = logging.getLogger(__name__)

DEFAULT_THRESHOLD = 200_000


class AdaptiveIndex(VectorIndex):
    """An ExactIndex that turns itself into an HnswIndex at ``threshold`` vectors."""

    def __init__(
        self,
        dim: int,
        threshold: int = DEFAULT_THRESHOLD,
        params: HnswParams | None = None,
        *,
        _impl: VectorIndex | None = None,
    ) -> None:
        self.dim = dim
        self.threshold = threshold
        self.params = params or HnswParams()
        self._impl: VectorIndex = _impl if _impl is not None else ExactIndex(dim)
        #: How far the index is up to date, in the caller's terms; persisted by save().
        self.watermark: int = getattr(self._impl, "watermark", 0)
        self._warned = False

    @property
    def kind(self) -> str:
        """ "exact" or "hnsw": which implementation currently holds the vectors."""
        return "hnsw" if isinstance(self._impl, HnswIndex) else "exact"

    def __len__(self) -> int:
        return len(self._impl)

    def __contains__(self, key: object) -> bool:
        return key in self._impl

    def add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        keys = as_keys(keys)
        # Switch before a big batch lands, so a bulk load never builds a huge matrix first.
        exact = self._impl
        if isinstance(exact, ExactIndex) and not self._warned and len(exact) + self._new_count(keys) >= self.threshold:
            self._switch_to_hnsw(exact)
        self._impl.add(keys, vectors)

    def remove(self, keys: np.ndarray) -> None:
        self._impl.remove(keys)

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray | None = None) -> SearchResult:
        return self._impl.search(query, k, allowed)

    def save(self, path: str | os.PathLike[str]) -> bool:
        """Persist the HNSW index (True). In exact mode there is nothing worth saving,
        since the store rebuilds it in seconds: stale files are removed and this returns False.
        """
        if isinstance(self._impl, HnswIndex):
            self._impl.watermark = self.watermark
            self._impl.save(path)
            return True
        for stale in (Path(path), sidecar_path(path)):
            stale.unlink(missing_ok=True)
        return False

    def _new_count(self, keys: np.ndarray) -> int:
        return sum(1 for key in np.unique(keys).tolist() if key not in self._impl)

    def _switch_to_hnsw(self, exact: ExactIndex) -> None:
        if not usearch_available():
            log.warning(
                "%d vectors but usearch is not installed; staying with exact search "
                "(install 'mnemo[ann]' for faster search and less memory)",
                len(exact),
            )
            self._warned = True  # warn once, and stop retrying the import on every add
            return
        hnsw = HnswIndex(self.dim, self.params)
        for keys, vectors in exact.items():
            hnsw.add(keys, vectors)
        self._impl = hnsw  # drops the float32 matrix
        log.info("vector index switched to HNSW at %d vectors", len(hnsw))


def open_index(
    dim: int,
    path: str | os.PathLike[str] | None = None,
    *,
    threshold: int = DEFAULT_THRESHOLD,
    params: HnswParams | None = None,
) -> AdaptiveIndex:
    """The index saved at ``path`` if it is usable, else a new empty one.

    Either way the caller then adds whatever the store holds beyond ``index.watermark``
    (0 for a new index, meaning everything).
    """
    if path is not None and usearch_available():
        # viewed (memory-mapped): a search-only process never reads the whole file; the
        # first change reads it in (HnswIndex._writable)
        saved = HnswIndex.load(path, dim, params, view=True)
        if saved is not None:
            return AdaptiveIndex(dim, threshold, params or saved.params, _impl=saved)
    return AdaptiveIndex(dim, threshold, params)
