"""What a store backend promises. The SQLite store is the reference; others follow its contract."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from mnemo.records import Item, Scope, SearchFilter


@dataclass(frozen=True, slots=True)
class Embedding:
    """A vector and the cache key of the text it was computed from."""

    key: str
    values: np.ndarray


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    """What happened to one item of a write batch: ``added``, ``updated`` or ``unchanged``."""

    id: str
    status: str


class Store(Protocol):
    """The storage contract used by :class:`mnemo.api.Memory`."""

    #: Where the store lives (a file path or ":memory:"), and an id minted once per store.
    path: str
    store_id: str

    def write(
        self, items: Sequence[Item], vectors: Sequence[Embedding | None], model: str | None = None
    ) -> list[WriteOutcome]: ...

    def write_vectors(self, pairs: Sequence[tuple[Item, Embedding]]) -> None: ...

    def cached_vectors(self, keys: Sequence[str]) -> dict[str, np.ndarray]: ...

    def get(self, item_id: str, scope: Scope) -> Item | None: ...

    def delete(self, item_id: str, scope: Scope) -> int: ...

    def lexical(self, terms: Sequence[str], flt: SearchFilter, limit: int) -> list[tuple[int, float]]: ...

    def allowed_keys(self, flt: SearchFilter) -> np.ndarray | None: ...

    def fetch(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, Item]: ...

    def times(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, float | None]: ...

    def vector_pages(self, since_seq: int, page: int = 20_000) -> Iterator[tuple[np.ndarray, np.ndarray]]: ...

    def removed_since(self, since_seq: int) -> np.ndarray: ...

    def sequence(self) -> int: ...

    def iter_items(self, flt: SearchFilter) -> Iterator[Item]: ...

    def count(self, flt: SearchFilter) -> int: ...

    def grouped_counts(self, column: str, flt: SearchFilter) -> dict[str, int]: ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def close(self) -> None: ...
