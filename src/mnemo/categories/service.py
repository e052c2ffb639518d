"""The categories' thin I/O edge: label items at ingestion, evolve, and read the tree from a store.

Everything that decides something lives in classify.py / evolve.py (pure); this module only moves
records between them and the store.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mnemo.categories.classify import Classifier
from mnemo.categories.evolve import EvolveSettings, evolve_group
from mnemo.categories.llm import refine
from mnemo.embed.base import Embedder
from mnemo.errors import ConfigError, InputError
from mnemo.records import CATEGORIES, Item, SearchFilter
from mnemo.store.base import CategoryStore, Embedding

Progress = Callable[[int, int], None]
_BACKFILL_PAGE = 2000


@dataclass(frozen=True, slots=True)
class EvolveReport:
    """What an evolve did, per category, plus the history entries it wrote."""

    seconds: float
    backfilled: int
    categories: dict[str, dict[str, int]]
    history: tuple[dict[str, Any], ...] = ()
    users: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seconds": round(self.seconds, 3),
            "backfilled": self.backfilled,
            "categories": self.categories,
            "history": list(self.history),
            "users": [u or None for u in self.users],
        }


def llm_from(config: Any) -> Any:
    """The configured LLM client when ``category_llm`` is on, else None."""
    if not getattr(config, "category_llm", False):
        return None
    from mnemo.llm.client import client_from_config

    return client_from_config(config)


def settings_from(config: Any) -> EvolveSettings:
    """EvolveSettings from a mnemo Config, checked."""
    settings = EvolveSettings(
        min_size=config.category_min_cluster_size,
        max_subcategories=config.category_max_subcategories,
        assign_threshold=config.category_assign_threshold,
        merge_threshold=config.category_merge_threshold,
        split_coherence=config.category_split_coherence,
    )
    if settings.min_size < 1 or settings.max_subcategories < 1:
        raise ConfigError("category_min_cluster_size and category_max_subcategories must be at least 1")
    for name in ("assign_threshold", "merge_threshold", "split_coherence"):
        if not -1.0 <= getattr(settings, name) <= 1.0:
            raise ConfigError(f"category_{name} must be a cosine between -1 and 1")
    return settings


def parse_path(path: str) -> tuple[str, str | None]:
    """ "skills" -> ("skills", None); "skills/python_testing" -> ("skills", "python_testing")."""
    if not isinstance(path, str) or not path.strip():
        raise InputError("a category must be a non-empty string such as 'skills' or 'skills/python_testing'")
    category, _, sub = path.strip().partition("/")
    if category not in CATEGORIES:
        raise InputError(f"unknown category {category!r}; use one of: {', '.join(CATEGORIES)}")
    if "/" in sub:
        raise InputError(f"a subcategory path has one slash: {path!r}")
    return category, (sub or None)


class Categorizer:
    """Labels items as they are written and evolves subcategories; one per Memory."""

    def __init__(
        self, store: CategoryStore, embedder: Embedder | None, settings: EvolveSettings, llm: Any = None
    ) -> None:
        self.store = store
        self.classifier = Classifier(embedder, store)
        self.llm = llm  # an optional mnemo.llm ChatClient, asked about unsure items only
        self.settings = settings
        self._centroids: dict[tuple[str, str], tuple[list[str], np.ndarray]] = {}
        self._version = -1
        self._lock = threading.Lock()

    # -- ingestion -------------------------------------------------------------------------

    def label(self, items: Sequence[Item], vectors: Sequence[Embedding | None]) -> list[Item]:
        """Items with their category and, when a subcategory is close enough, its name."""
        self._refresh()
        texts = [item.content for item in items]
        rows = [v.values for v in vectors if v is not None]
        # stored items are embedded all or none (the embedder is set or "none"); never embed here
        matrix = np.vstack(rows) if rows and len(rows) == len(items) else None
        results = self.classifier.classify_rows(texts, matrix)
        chosen = [r.category for r in results]
        refine(self.llm, texts, chosen, [r.confidence for r in results])
        labelled = []
        for item, vector, category in zip(items, vectors, chosen, strict=True):
            sub = None if category is None or vector is None else self._nearest(item, category, vector.values)
            labelled.append(replace(item, category=category, subcategory=sub))
        return labelled

    def _refresh(self) -> None:
        version = self.store.category_version()
        with self._lock:
            if version != self._version:
                self._centroids, self._version = {}, version

    def _nearest(self, item: Item, category: str, vector: np.ndarray) -> str | None:
        key = (item.scope.user_id or "", category)
        with self._lock:
            found = self._centroids.get(key)
            if found is None:
                pairs = self.store.subcategory_centroids(*key)
                matrix = np.vstack([c for _, c in pairs]) if pairs else np.zeros((0, len(vector)), np.float32)
                found = self._centroids[key] = ([n for n, _ in pairs], matrix)
        names, matrix = found
        if not names or matrix.shape[1] != len(vector):
            return None
        sims = matrix @ np.asarray(vector, dtype=np.float32)
        best = int(np.argmax(sims))
        return names[best] if sims[best] >= self.settings.assign_threshold else None

    # -- evolving --------------------------------------------------------------------------

    def due(self, threshold: int) -> bool:
        return threshold > 0 and self.store.items_since_evolve(threshold) >= threshold

    def evolve(
        self, users: Sequence[str] | None = None, *, full: bool = False, progress: Progress | None = None
    ) -> EvolveReport:
        """Classify what is unclassified, then evolve each (user, category); ``users`` None = all."""
        started = time.perf_counter()
        mark = self.store.max_item_key()
        backfilled = self._backfill()
        partitions = list(users) if users is not None else self.store.category_users()
        settings = replace(self.settings, full=full)
        summary = {c: {"subcategories": 0, "assigned": 0, "unassigned": 0} for c in CATEGORIES}
        history: list[dict[str, Any]] = []
        total, done = len(partitions) * len(CATEGORIES), 0
        for user in partitions:
            for category in CATEGORIES:
                members = self.store.category_members(user, category)
                old = self._old(user, category)
                if members or old:
                    grouping = evolve_group(user, category, members, old, settings)
                    self.store.save_grouping(grouping)
                    _summarise(summary[category], grouping, len(members))
                    history += [_entry(user, category, h) for h in grouping.history]
                done += 1
                if progress:
                    progress(done, total)
        if users is None:  # only a whole-store evolve resets the "new since last evolve" count
            self.store.mark_evolved(mark)
        return EvolveReport(time.perf_counter() - started, backfilled, summary, tuple(history), tuple(partitions))

    def _old(self, user: str, category: str) -> list[tuple[Any, np.ndarray]]:
        subs = {s.name: s for s in self.store.subcategories(user, category)}
        return [(subs[name], c) for name, c in self.store.subcategory_centroids(user, category) if name in subs]

    def _backfill(self) -> int:
        """Classify items stored before categories existed (or while they were switched off)."""
        count = 0
        while rows := self.store.unclassified(_BACKFILL_PAGE):
            texts = [content for _, content, _, _ in rows]
            vectors = [vector for _, _, _, vector in rows]
            labels = [self.classifier.classify(t, v).category for t, v in zip(texts, vectors, strict=True)]
            # a text without words gets "" so it is not read again as unclassified on every evolve
            self.store.set_categories([(row[0], label or "", None) for row, label in zip(rows, labels, strict=True)])
            count += len(rows)
        return count


def classify_texts(
    classifier: Classifier, texts: Sequence[str], settings: EvolveSettings, llm: Any = None
) -> list[tuple[str | None, str | None, float]]:
    """(category, subcategory, confidence) for loose texts: subcategories grown from these texts alone."""
    from mnemo.store.sqlite_categories import Member

    vectors = classifier.embedder.embed(list(texts)) if classifier.embedder is not None and texts else None
    results = classifier.classify_many(texts, vectors)
    chosen = [r.category for r in results]
    refine(llm, texts, chosen, [r.confidence for r in results])
    subs: dict[int, str | None] = {}
    if vectors is not None:
        for category in CATEGORIES:
            positions = [i for i, c in enumerate(chosen) if c == category]
            members = [Member(i, texts[i], None, vectors[i]) for i in positions]
            grouping = evolve_group("", category, members, [], settings)
            subs.update(dict(grouping.assignments))
    return [(chosen[i], subs.get(i), r.confidence) for i, r in enumerate(results)]


def _summarise(target: dict[str, int], grouping: Any, members: int) -> None:
    assigned = sum(sub.count for sub, _ in grouping.subcategories)
    target["subcategories"] += len(grouping.subcategories)
    target["assigned"] += assigned
    target["unassigned"] += members - assigned


def _entry(user: str, category: str, history: tuple[str, tuple[str, ...], tuple[str, ...], str]) -> dict[str, Any]:
    action, old, new, detail = history
    return {
        "user_id": user or None,
        "category": category,
        "action": action,
        "old": list(old),
        "new": list(new),
        "detail": detail,
    }


def category_tree(store: CategoryStore, flt: SearchFilter, users: Sequence[str] | None) -> dict[str, Any]:
    """Categories with live counts in the filter, and each one's subcategories with keywords."""
    counts = store.category_counts(flt)
    known: dict[tuple[str, str], list[str]] = {}
    for user in users if users is not None else [None]:
        for sub in store.subcategories(user):
            known.setdefault((sub.category, sub.name), list(sub.keywords))
    tree: dict[str, Any] = {}
    for category in CATEGORIES:
        subs = {
            name: {"count": n, "path": f"{category}/{name}", "keywords": known.get((category, name), [])}
            for (c, name), n in counts.items()
            if c == category and name is not None
        }
        tree[category] = {
            "count": sum(n for (c, _), n in counts.items() if c == category),
            "unassigned": counts.get((category, None), 0),
            "subcategories": dict(sorted(subs.items(), key=lambda p: (-p[1]["count"], p[0]))),
        }
    return {"total": sum(counts.values()), "categories": tree}


def _partitions(store: CategoryStore, user: str | None, category: str, name: str) -> list[str]:
    """The user partitions an edit applies to: the given user, else every one holding the name."""
    if user is not None:
        return [user]
    found = sorted({s.user_id or "" for s in store.subcategories(None, category) if s.name == name})
    if not found:
        raise InputError(f"no subcategory {category}/{name}")
    return found


def _subcategory_path(path: str, what: str) -> tuple[str, str]:
    category, sub = parse_path(path)
    if sub is None:
        raise InputError(f"{what} must be a subcategory path such as 'skills/python_testing', got {path!r}")
    return category, sub


def clean_name(name: str) -> str:
    """A user-given subcategory name in the form evolve gives them: lower_snake_case."""
    cleaned = "_".join(name.strip().lower().split())
    if not cleaned or "/" in cleaned:
        raise InputError(f"a subcategory name must be non-empty and without '/', got {name!r}")
    return cleaned


def rename(store: CategoryStore, user: str | None, old: str, new: str) -> dict[str, Any]:
    category, name = _subcategory_path(old, "the subcategory to rename")
    target_category, target = parse_path(new) if "/" in new else (category, new)
    if target_category != category or target is None:
        raise InputError(f"a subcategory stays in its category: cannot rename {old!r} to {new!r}")
    target = clean_name(target)
    moved = sum(store.rename_subcategory(u, category, name, target) for u in _partitions(store, user, category, name))
    return {"renamed": f"{category}/{name}", "to": f"{category}/{target}", "items": moved}


def merge(store: CategoryStore, user: str | None, source: str, target: str) -> dict[str, Any]:
    category, a = _subcategory_path(source, "the subcategory to merge")
    other, b = _subcategory_path(target, "the subcategory to merge into")
    if other != category:
        raise InputError(f"only subcategories of one category merge: {source!r} and {target!r}")
    if a == b:
        raise InputError(f"cannot merge {source!r} into itself")
    moved = sum(store.merge_subcategories(u, category, a, b) for u in _partitions(store, user, category, a))
    return {"merged": f"{category}/{a}", "into": f"{category}/{b}", "items": moved}
