"""Evolving the subcategories of one (user, category): pure functions, no I/O.

Given the members (key, text, current subcategory, vector) and the existing subcategories, an
evolve produces the new subcategories, every member's assignment and what changed:

1. first time (or ``full``): cluster everything (cluster.linkage_auto);
   later: warm start — each member joins its nearest existing centroid above the assignment
   threshold, the leftovers are clustered into new subcategories, clusters that grew incoherent
   are split in two, and near-duplicates (centroids closer than the merge threshold) are merged;
2. clusters smaller than ``min_size`` dissolve (members join another cluster they are close
   enough to, or stay unassigned); the count is capped at ``max_subcategories`` by merging;
3. the new clusters are matched to the old ones by member overlap, so a subcategory whose
   content barely changed keeps its id and name; splits, merges, creations and removals are
   reported as history entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from mnemo.categories.cluster import centroids_of, linkage_auto, unit
from mnemo.categories.naming import keywords_per_cluster, name_from
from mnemo.records import Subcategory
from mnemo.store.sqlite_categories import Grouping, Member, new_subcategory_id

#: A share of an old subcategory's members that counts as "went there" when matching clusters.
OVERLAP_SHARE = 0.25
#: How much closer another subcategory must be before a placed memory moves (cosine).
STICKINESS = 0.1


@dataclass(frozen=True, slots=True)
class EvolveSettings:
    min_size: int = 3
    max_subcategories: int = 10
    min_subcategories: int = 3
    #: Cosine to a centroid needed to join it (at ingestion and in the warm start).
    assign_threshold: float = 0.4
    #: Centroids at least this similar are near-duplicates and merge.
    merge_threshold: float = 0.9
    #: Mean member-to-centroid cosine below which a cluster is tried for a split.
    split_coherence: float = 0.45
    full: bool = False


@dataclass(slots=True)
class _Draft:
    """A cluster under construction: member positions and, once matched, its identity."""

    members: np.ndarray
    centroid: np.ndarray
    sub_id: str | None = None
    name: str | None = None
    sources: list[str] = field(default_factory=list)
    keywords: tuple[str, ...] = ()


def evolve_group(
    user_id: str,
    category: str,
    members: Sequence[Member],
    old: Sequence[tuple[Subcategory, np.ndarray]],
    settings: EvolveSettings,
) -> Grouping:
    """The new subcategories, assignments and history of one user's category (see module doc)."""
    vectors = unit(np.vstack([m.vector for m in members])) if members else np.zeros((0, 1), np.float32)
    joined = [m.subcategory for m in members]  # the old subcategory each member sits in or joined
    if any(len(c) != vectors.shape[1] for _, c in old):  # re-embedded with another model: start over
        settings = replace(settings, full=True)  # (names still carry over by member overlap)
    if len(members) < settings.min_size or not vectors.any():
        labels = np.full(len(members), -1, dtype=np.int64)
    elif settings.full or not old:
        labels = _fresh(vectors, settings)
    else:
        labels, joined = _warm(vectors, members, old, settings)
    labels = _tidy(vectors, labels, settings)
    drafts = [_draft(vectors, np.flatnonzero(labels == c)) for c in range(int(labels.max(initial=-1)) + 1)]
    history = _match(drafts, members, joined, old)
    _name(drafts, members, category)
    return _grouping(user_id, category, drafts, members, history)


def _fresh(vectors: np.ndarray, settings: EvolveSettings) -> np.ndarray:
    k_max = min(settings.max_subcategories, len(vectors) // settings.min_size)
    if k_max <= 1:
        return np.zeros(len(vectors), dtype=np.int64)
    return linkage_auto(vectors, min(settings.min_subcategories, k_max), k_max).labels


def _warm(
    vectors: np.ndarray,
    members: Sequence[Member],
    old: Sequence[tuple[Subcategory, np.ndarray]],
    settings: EvolveSettings,
) -> tuple[np.ndarray, list[str | None]]:
    """Keep what is placed, place what is new, split what grew incoherent, cluster the rest.

    Returns the labels and, per member, the old subcategory it was placed in before any split.
    """
    centroids = unit(np.vstack([c for _, c in old]))
    index = {sub.name: i for i, (sub, _) in enumerate(old)}
    labels = np.array([index.get(m.subcategory or "", -1) for m in members], dtype=np.int64)
    sims = vectors @ centroids.T
    best = np.argmax(sims, axis=1)
    best_sim = sims[np.arange(len(vectors)), best]
    own_sim = np.where(labels >= 0, sims[np.arange(len(vectors)), np.maximum(labels, 0)], -np.inf)
    # sticky: a placed member moves only when another subcategory is clearly closer, or leaves
    # when it is no longer close to its own; an unplaced one joins the nearest close enough
    moves = (labels >= 0) & (best_sim >= own_sim + STICKINESS) & (best_sim >= settings.assign_threshold)
    leaves = (labels >= 0) & (own_sim < settings.assign_threshold - STICKINESS) & ~moves
    joins = (labels < 0) & (best_sim >= settings.assign_threshold)
    labels = np.where(moves | joins, best, np.where(leaves, -1, labels))
    joined = [old[label][0].name if label >= 0 else None for label in labels.tolist()]
    grown = [i for i, (sub, _) in enumerate(old) if np.sum(labels == i) >= max(1.25 * sub.count, sub.count + 2)]
    labels = _split_incoherent(vectors, labels, grown, settings)
    leftover = np.flatnonzero(labels < 0)
    if len(leftover) >= 2 * settings.min_size:
        room = max(1, settings.max_subcategories - len(np.unique(labels[labels >= 0])))
        sub = _fresh(vectors[leftover], EvolveSettings(settings.min_size, room, 1))
        labels[leftover] = np.where(sub >= 0, sub + labels.max() + 1, -1)
    return labels, joined


def _split_incoherent(
    vectors: np.ndarray, labels: np.ndarray, candidates: Sequence[int], settings: EvolveSettings
) -> np.ndarray:
    """Bisect each grown cluster whose members no longer sit close to their centroid."""
    labels = labels.copy()
    for cluster in candidates:
        positions = np.flatnonzero(labels == cluster)
        if len(positions) < 2 * settings.min_size:
            continue
        part = vectors[positions]
        if float(np.mean(part @ unit(part.mean(axis=0)))) >= settings.split_coherence:
            continue
        halves = linkage_auto(part, 2, 2).labels
        if min(np.bincount(halves, minlength=2)) >= settings.min_size:
            labels[positions[halves == 1]] = labels.max() + 1
    return labels


def _nearest(vectors: np.ndarray, centroids: np.ndarray, threshold: float) -> np.ndarray:
    """Index of each vector's nearest centroid, or -1 when even that is below ``threshold``."""
    sims = vectors @ centroids.T
    best = np.argmax(sims, axis=1)
    return np.where(sims[np.arange(len(vectors)), best] >= threshold, best, -1).astype(np.int64)


def _tidy(vectors: np.ndarray, labels: np.ndarray, settings: EvolveSettings) -> np.ndarray:
    """Merge near-duplicates and excess clusters, dissolve small ones; labels renumbered 0..k-1."""
    labels = _renumber(labels)
    while True:
        k = int(labels.max(initial=-1)) + 1
        if k < 2:
            break
        centroids = centroids_of(vectors, labels, k)
        sims = centroids @ centroids.T
        np.fill_diagonal(sims, -np.inf)
        i, j = divmod(int(np.argmax(sims)), k)
        if sims[i, j] < settings.merge_threshold and k <= settings.max_subcategories:
            break
        labels = _renumber(np.where(labels == j, i, labels))
    sizes = np.bincount(labels[labels >= 0], minlength=int(labels.max(initial=-1)) + 1)
    small = np.flatnonzero(sizes < settings.min_size)
    if len(small) and len(small) < len(sizes):
        keep = np.setdiff1d(np.arange(len(sizes)), small)
        centroids = centroids_of(vectors, labels, len(sizes))[keep]
        nearest = _nearest(vectors, centroids, settings.assign_threshold)
        moved = np.where(nearest >= 0, keep[np.maximum(nearest, 0)], -1)
        labels = np.where(np.isin(labels, small), moved, labels)
    elif len(small):
        labels = np.full(len(labels), -1, dtype=np.int64)
    return _renumber(labels)


def _renumber(labels: np.ndarray) -> np.ndarray:
    present = np.unique(labels[labels >= 0])
    mapping = np.full(int(labels.max(initial=-1)) + 2, -1, dtype=np.int64)
    mapping[present] = np.arange(len(present))
    return np.where(labels >= 0, mapping[labels], -1).astype(np.int64)


def _draft(vectors: np.ndarray, positions: np.ndarray) -> _Draft:
    return _Draft(positions, unit(vectors[positions].mean(axis=0)))


def _match(
    drafts: list[_Draft],
    members: Sequence[Member],
    joined: Sequence[str | None],
    old: Sequence[tuple[Subcategory, np.ndarray]],
) -> list[tuple[str, tuple[str, ...], tuple[str, ...], str]]:
    """Give each draft the identity of the old subcategory it mostly continues; report changes.

    Identity follows the members a subcategory had before (``members[i].subcategory``); a split
    is seen on what it held after this evolve's new members joined (``joined``).
    """
    before = {sub.name: sub for sub, _ in old}
    was = np.array([m.subcategory if m.subcategory in before else "" for m in members], dtype=object)
    held = np.array([name if name in before else "" for name in joined], dtype=object)
    old_sizes = {name: int(np.sum(held == name)) for name in before}
    overlap = {(d, name): int(np.sum(was[draft.members] == name)) for d, draft in enumerate(drafts) for name in before}
    spread = {(d, name): int(np.sum(held[draft.members] == name)) for d, draft in enumerate(drafts) for name in before}
    heirs: dict[str, int] = {}
    for name in before:
        best = max(range(len(drafts)), key=lambda d: overlap[(d, name)], default=None)
        if best is not None and overlap[(best, name)] > 0:
            heirs[name] = best
    history: list[tuple[str, tuple[str, ...], tuple[str, ...], str]] = []
    for d, draft in enumerate(drafts):
        mine = sorted((n for n, h in heirs.items() if h == d), key=lambda n: -overlap[(d, n)])
        if mine:
            keeper = before[mine[0]]
            draft.sub_id, draft.name, draft.sources = keeper.id, keeper.name, mine
    split_off: set[int] = set()
    for name in before:
        targets = [
            d
            for d in range(len(drafts))
            if old_sizes[name] and spread[(d, name)] >= max(1, OVERLAP_SHARE * old_sizes[name])
        ]
        if len(targets) >= 2:
            history.append(("split", (name,), tuple(f"#{d}" for d in targets), "content grew apart"))
            split_off.update(targets)
        if name not in heirs:
            history.append(("removed", (name,), (), "no members left"))
    for d, draft in enumerate(drafts):
        if len(draft.sources) >= 2:
            history.append(("merged", tuple(draft.sources), (f"#{d}",), "near-duplicate subcategories"))
        elif not draft.sources and d not in split_off:
            history.append(("created", (), (f"#{d}",), f"{len(draft.members)} memories"))
    return history


def _name(drafts: list[_Draft], members: Sequence[Member], category: str) -> None:
    """Keywords for every draft; a name for each draft that did not inherit one."""
    texts = [[members[p].content for p in _by_closeness(draft, members)] for draft in drafts]
    keywords = keywords_per_cluster(texts)
    taken = {d.name for d in drafts if d.name}
    for draft, words in zip(drafts, keywords, strict=True):
        draft.keywords = tuple(words)
        if draft.name is None:
            draft.name = name_from(words, taken, fallback=f"{category}_topic")
            taken.add(draft.name)


def _by_closeness(draft: _Draft, members: Sequence[Member]) -> list[int]:
    vectors = unit(np.vstack([members[p].vector for p in draft.members]))
    order = np.argsort(-(vectors @ draft.centroid), kind="stable")
    return [int(draft.members[i]) for i in order]


def _grouping(
    user_id: str,
    category: str,
    drafts: list[_Draft],
    members: Sequence[Member],
    history: list[tuple[str, tuple[str, ...], tuple[str, ...], str]],
) -> Grouping:
    names = {f"#{d}": draft.name or "" for d, draft in enumerate(drafts)}
    subcategories = []
    assigned: dict[int, str] = {}
    for draft in drafts:
        sub = Subcategory(
            id=draft.sub_id or new_subcategory_id(),
            category=category,
            name=draft.name or "",
            keywords=draft.keywords,
            count=len(draft.members),
            user_id=user_id or None,
        )
        subcategories.append((sub, draft.centroid.astype(np.float32)))
        assigned.update({int(p): sub.name for p in draft.members})
    assignments = tuple((m.key, assigned.get(p)) for p, m in enumerate(members) if m.subcategory != assigned.get(p))
    resolved = tuple((action, old, tuple(names.get(n, n) for n in new), detail) for action, old, new, detail in history)
    return Grouping(user_id, category, tuple(subcategories), assignments, resolved)
