"""In-process vector indexes: derived state, always rebuildable from the SQLite store.

``open_index`` is the entry point: exact brute force for small stores, a usearch
HNSW graph (the optional ``ann`` extra) past a threshold.
"""

from mnemo.index.adaptive import DEFAULT_THRESHOLD, AdaptiveIndex, open_index
from mnemo.index.base import SearchResult, VectorIndex
from mnemo.index.exact import ExactIndex
from mnemo.index.hnsw import HnswIndex, HnswParams, usearch_available

__all__ = [
    "DEFAULT_THRESHOLD",
    "AdaptiveIndex",
    "ExactIndex",
    "HnswIndex",
    "HnswParams",
    "SearchResult",
    "VectorIndex",
    "open_index",
    "usearch_available",
]
