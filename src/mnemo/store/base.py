"""What a store backend promises. The SQLite store is the reference; others follow its contract."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np

from mnemo.records import Fact, Item, Scope, SearchFilter, Session, Subcategory

if TYPE_CHECKING:
    from mnemo.store.sqlite_categories import Grouping, Member


@dataclass(frozen=True, slots=True)
class Embedding:
    """A vector and the cache key of the text it was computed from."""

    key: str
    values: np.ndarray


class Traits(NamedTuple):
    """What ranking needs of an item without reading its text: when it happened, who wrote it and
    in which session (``Store.traits``; a tuple, as thousands are read per search)."""

    ts: float | None
    role: str | None
    session_id: str | None


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

    def traits(self, keys: Sequence[int], flt: SearchFilter) -> dict[int, Traits]: ...

    def vector_pages(self, since_seq: int, page: int = 20_000) -> Iterator[tuple[np.ndarray, np.ndarray]]: ...

    def removed_since(self, since_seq: int) -> np.ndarray: ...

    def sequence(self) -> int: ...

    def iter_items(self, flt: SearchFilter) -> Iterator[Item]: ...

    def newest(self, flt: SearchFilter, limit: int) -> list[Item]:
        """The newest matching items: by when they happened, else by when they were stored."""
        ...

    def count(self, flt: SearchFilter) -> int: ...

    def exists(self, flt: SearchFilter) -> bool: ...

    def grouped_counts(self, column: str, flt: SearchFilter) -> dict[str, int]: ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    # with ``scope``: only a session all of whose items are inside the scope's owner fields
    def get_session(self, session_id: str, scope: Scope | None = None) -> Session | None: ...

    def list_sessions(
        self, project: str | None = None, limit: int = 100, scope: Scope | None = None
    ) -> list[Session]: ...

    def close(self) -> None: ...


class CategoryStore(Protocol):
    """What the categories need from a backend (the SQLite reference: store/sqlite_categories.py)."""

    def category_version(self) -> int: ...

    def category_users(self) -> list[str]: ...

    def subcategories(self, user_id: str | None = None, category: str | None = None) -> list[Subcategory]: ...

    def subcategory_centroids(self, user_id: str, category: str) -> list[tuple[str, np.ndarray]]: ...

    def category_members(self, user_id: str, category: str) -> list[Member]: ...

    def unclassified(self, limit: int = 1000) -> list[tuple[int, str, str | None, np.ndarray | None]]: ...

    def category_counts(self, flt: SearchFilter) -> dict[tuple[str, str | None], int]: ...

    def max_item_key(self) -> int: ...

    def items_since_evolve(self, cap: int) -> int: ...

    def category_history(self, user_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]: ...

    def set_categories(self, assignments: Sequence[tuple[int, str, str | None]]) -> None: ...

    def save_grouping(self, grouping: Grouping) -> None: ...

    def mark_evolved(self, upto_rowid: int | None = None) -> None: ...

    def rename_subcategory(self, user_id: str, category: str, old: str, new: str) -> int: ...

    def merge_subcategories(self, user_id: str, category: str, source: str, target: str) -> int: ...

    # facts (store/sqlite_facts.py): the triple rows beside fact items, and their lifecycle
    def record_facts(
        self,
        entries: Sequence[tuple[Item, Embedding | None, Fact]],
        *,
        now: float,
        alpha: float,
        model: str | None = None,
        source: Item | None = None,
    ) -> int: ...

    def list_facts(
        self, scope: Scope, subject: str | None, relation: str | None, status: str | None, limit: int
    ) -> list[Fact]: ...

    def forget_facts(self, scope: Scope, subject: str | None, relation: str | None, fact_id: str | None) -> int: ...

    def decay_facts(self, now: float, rate_per_day: float, stale_below: float) -> int: ...
