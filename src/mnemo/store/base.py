"""What a store backend promises. The SQLite store is the reference; others follow its contract."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from mnemo.records import Item, Scope, SearchFilter


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    """What happened to one item of a write batch: ``added``, ``updated`` or ``unchanged``."""

    id: str
    status: str


@dataclass(frozen=True, slots=True)
class VectorDelta:
    """Vector changes since a sequence number, for keeping a derived index in step with the store."""

    keys: np.ndarray  # int64 row keys whose vectors were added or replaced
    vectors: np.ndarray  # float32 (len(keys), dim)
    removed: np.ndarray  # int64 row keys that no longer have a vector
    seq: int  # the store's sequence number the delta brings an index up to


class Store(Protocol):
    """The storage contract used by :class:`mnemo.api.Memory`."""

    def write(self, items: Sequence[Item], vectors: Sequence[np.ndarray | None]) -> list[WriteOutcome]: ...

    def cached_vectors(self, content_hashes: Sequence[str]) -> dict[str, np.ndarray]: ...

    def get(self, item_id: str, scope: Scope) -> Item | None: ...

    def delete(self, item_id: str, scope: Scope) -> int: ...

    def lexical(self, match: str, flt: SearchFilter, limit: int) -> list[tuple[int, float]]: ...

    def allowed_keys(self, flt: SearchFilter) -> np.ndarray | None: ...

    def fetch(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, Item]: ...

    def vector_changes(self, since_seq: int) -> VectorDelta: ...

    def sequence(self) -> int: ...

    def iter_items(self, flt: SearchFilter) -> Iterator[Item]: ...

    def count(self, flt: SearchFilter) -> int: ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def close(self) -> None: ...
