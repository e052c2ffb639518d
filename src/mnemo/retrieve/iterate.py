"""Iterative retrieval with fusion (seed 003's ITERATE), on top of the store and vector index.

Round 0 runs the strategies on the query as given; each later round searches again with what
the previous one learned — the terms its top results share (pseudo-relevance feedback), a broader
form of the query, the conversation's terms — and every ranking of every round is fused (weighted
RRF or weighted scores, later rounds discounted, a bonus for items several strategies agree on).
It stops when nothing new reaches the top, the confidence stops improving, it is high enough,
there are enough good results, or after ``max_iter`` rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from mnemo.records import Hit, Item, SearchFilter
from mnemo.retrieve import strategies as st
from mnemo.retrieve.expand import Synonyms, context_terms, feedback_terms, generalise, synonym_terms
from mnemo.retrieve.fuse import Fused, rank_by, reciprocal_rank_fusion
from mnemo.retrieve.temporal import TimeWindow, parse_time
from mnemo.store.base import Store
from mnemo.store.sql import query_terms

STRATEGIES = ("exact", "semantic", "concept", "temporal", "neighbours", "speaker")
#: Other names the strategies answer to: hits report the exact (BM25) strategy as "lexical", the
#: name single-pass hybrid search uses, so a hit looks the same whichever path found it.
ALIASES = {"lexical": "exact"}
EXPANSIONS = ("synonyms", "hierarchical", "context", "feedback")
DEFAULT_WEIGHTS = {
    "exact": 1.0,
    "semantic": 1.0,
    "concept": 0.4,
    "temporal": 1.0,
    "neighbours": 0.6,
    # a flat boost for the turns of a person the query names ("What did Caroline research?");
    # 0.2 measured best on LoCoMo dev (0.1: +0.02 recall@5, 0.5: over-boosts), see docs/search.md
    "speaker": 0.2,
    "recency": 0.1,
}


@dataclass(frozen=True, slots=True)
class IterateSettings:
    max_iter: int = 3
    strategies: tuple[str, ...] = STRATEGIES
    expansions: tuple[str, ...] = EXPANSIONS
    stop_confidence: float = 0.9
    fusion: str = "weighted"  # or "rrf"
    rrf_k: float = 10.0
    candidates: int = 100
    round_decay: float = 0.5
    diversity: float = 0.05
    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    feedback_docs: int = 5
    feedback_terms: int = 5
    neighbour_top: int = 10
    speaker_pool: int = 50


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    queries: Mapping[str, str]
    found: Mapping[str, int]
    new: int
    confidence: float
    contributions: Mapping[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "queries": dict(self.queries),
            "found": dict(self.found),
            "new_in_top": self.new,
            "confidence": round(self.confidence, 3),
            "contributions": dict(self.contributions),
        }


@dataclass(frozen=True, slots=True)
class IterativeResult:
    query: str
    hits: list[Hit]
    rounds: list[Round]
    stop_reason: str
    windows: tuple[TimeWindow, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [h.as_dict() for h in self.hits],
            "rounds": [r.as_dict() for r in self.rounds],
            "stop_reason": self.stop_reason,
            "time_windows": [w.as_dict() for w in self.windows],
        }


@dataclass(slots=True)
class _State:
    signals: dict[str, dict[int, float]] = field(default_factory=dict)
    times: dict[int, float | None] = field(default_factory=dict)
    items: dict[int, Item] = field(default_factory=dict)


def iterative_search(
    store: Store,
    query: str,
    embed: Callable[[str], np.ndarray] | None,
    vector_search: st.VectorSearch | None,
    flt: SearchFilter,
    limit: int,
    settings: IterateSettings,
    synonyms: Synonyms | None = None,
    context: Sequence[Mapping[str, str]] = (),
    now: datetime | None = None,
) -> IterativeResult:
    state = _State()
    windows: tuple[TimeWindow, ...] = ()
    if "temporal" in settings.strategies:
        anchored = st.event_windows(store, query, flt, query_terms)
        windows = (*parse_time(query, now or datetime.now(tz=UTC)), *anchored)
        for window in anchored:  # "before the move" is exact once the move is found: a filter, not a hint
            flt = st.temporal_filter(flt, window) or flt
    plan = _first_round(query, synonyms or {}, context, settings)
    rounds: list[Round] = []
    previous_top: list[int] = []
    trend: list[float] = []
    reason = "max iterations"
    for number in range(settings.max_iter):
        found = _run_round(store, number, plan, embed, vector_search, flt, windows, state, settings)
        fused = _fuse(state, settings, limit)
        top = [key for key, _ in fused[:limit]]
        new = [k for k in top if k not in previous_top]
        _load_items(store, top[:5], state, flt)
        qualities = [_quality(query, k, state) for k in top[:5]]
        confidence = qualities[0] if qualities else 0.0
        contributions = {name: sum(1 for k in top if k in state.signals[name]) for name in found}
        rounds.append(Round(number, {n: q for n, q in plan}, found, len(new), confidence, contributions))
        trend.append(confidence)
        enough = len(top) >= limit and len(qualities) == 5 and min(qualities) > 0.6
        reason = _should_stop(number, settings, new, trend, enough)
        if reason:
            break
        previous_top = top
        plan = _next_round(query, number + 1, top, state, store, flt, context, settings)
        if not plan:
            reason = "nothing left to expand"
            break
    fused = fused[:limit]  # the signals have not changed since the last round's fusion
    _load_items(store, [k for k, _ in fused], state, flt)
    chosen = state.items
    hits = [_hit(k, chosen[k], score, state) for k, score in fused if k in chosen]
    return IterativeResult(query, hits, rounds, reason or "max iterations", windows)


Plan = list[tuple[str, str]]  # (signal name, query text)


def _first_round(query: str, synonyms: Synonyms, context: Sequence[Mapping[str, str]], s: IterateSettings) -> Plan:
    plan: Plan = [(name, query) for name in ("exact", "semantic") if name in s.strategies]
    if "concept" in s.strategies and "synonyms" in s.expansions:
        # the query's terms with their synonyms/concept-map neighbours; names alone match every
        # turn of a speaker and measured worse (benchmarks/query.py), so they are not added
        extra = synonym_terms(query, synonyms)
        if extra:
            plan.append(("concept", " ".join([query, *extra])))
    if "context" in s.expansions and context:
        terms = context_terms(context, query)
        if terms:
            plan.append(("exact:context", f"{query} {' '.join(terms)}"))
    return plan


def _next_round(
    query: str,
    number: int,
    top: Sequence[int],
    state: _State,
    store: Store,
    flt: SearchFilter,
    context: Sequence[Mapping[str, str]],
    s: IterateSettings,
) -> Plan:
    plan: Plan = []
    suffix = f"@{number}"
    if "feedback" in s.expansions:
        docs = top[: s.feedback_docs]
        _load_items(store, docs, state, flt)
        pool = [state.items[k].content for k in docs if k in state.items]
        terms = feedback_terms(query, pool, limit=min(s.feedback_terms, 1 + number))
        if terms:
            refined = f"{query} {' '.join(terms)}"
            plan += [(f"exact{suffix}", refined)]
            if "semantic" in s.strategies:
                plan.append((f"semantic{suffix}", refined))
    if "hierarchical" in s.expansions and number == 1:
        broader = generalise(query)
        if broader:
            plan.append((f"exact:general{suffix}", broader))
    return plan


def _run_round(
    store: Store,
    number: int,
    plan: Plan,
    embed: Callable[[str], np.ndarray] | None,
    vector_search: st.VectorSearch | None,
    flt: SearchFilter,
    windows: Sequence[TimeWindow],
    state: _State,
    s: IterateSettings,
) -> dict[str, int]:
    found: dict[str, int] = {}
    vector_cache: dict[str, np.ndarray | None] = {}
    for name, text in plan:
        base = name.split("@")[0].split(":")[0]
        if base == "semantic":
            vector = vector_cache.setdefault(text, embed(text) if embed else None)
            ranking = st.semantic(vector, vector_search, flt, s.candidates)
        elif base == "concept":
            ranking = st.exact(store, query_terms(text), flt, s.candidates) if text.strip() else {}
        else:
            ranking = st.exact(store, query_terms(text), flt, s.candidates)
        state.signals[name] = ranking
        found[name] = len(ranking)
    if number == 0 and windows and "temporal" in s.strategies:
        found["temporal"] = _temporal(store, plan, embed, vector_search, flt, windows, state, s, vector_cache)
    if number == 0 and ("neighbours" in s.strategies or "speaker" in s.strategies):
        order = [k for k, _ in _fuse(state, s, max(s.neighbour_top, s.speaker_pool))]  # one fusion for both
        if "neighbours" in s.strategies:
            state.signals["neighbours"] = st.neighbours(store, order, flt, s.neighbour_top)
            found["neighbours"] = len(state.signals["neighbours"])
        if "speaker" in s.strategies and plan:
            found["speaker"] = _speaker(store, plan[0][1], order, flt, state)
    _note_times(store, state, flt)
    return found


def _temporal(
    store: Store,
    plan: Plan,
    embed: Callable[[str], np.ndarray] | None,
    vector_search: st.VectorSearch | None,
    flt: SearchFilter,
    windows: Sequence[TimeWindow],
    state: _State,
    s: IterateSettings,
    vectors: Mapping[str, np.ndarray | None],
) -> int:
    """Items inside the named time windows: searched within absolute windows, picked from the pool
    for month-of-any-year ones ("in June"). Ranked by how the rest of the search ranks them."""
    query = plan[0][1] if plan else ""
    inside: dict[int, float] = {}
    for window in windows:
        narrowed = st.temporal_filter(flt, window)
        if narrowed is None:
            continue
        lexical = st.exact(store, query_terms(query), narrowed, s.candidates)
        vector = next(iter(vectors.values()), None)
        dense = st.semantic(vector, vector_search, narrowed, s.candidates)
        for ranking in (lexical, dense):
            for position, key in enumerate(rank_by(ranking)):
                inside[key] = max(inside.get(key, 0.0), 1.0 / (1 + position))
    _note_times(store, state, flt)
    order = [k for k, _ in _fuse(state, s, 10**6)]
    relative = [w for w in windows if not w.absolute]
    if relative:
        for position, key in enumerate(rank_by(st.in_windows(state.times, relative, order))):
            inside[key] = max(inside.get(key, 0.0), 1.0 / (1 + position))
    state.signals["temporal"] = inside
    return len(inside)


def _speaker(store: Store, query: str, order: Sequence[int], flt: SearchFilter, state: _State) -> int:
    """The pool's items written by someone the query names: "What did Caroline say about ..."
    is about Caroline's own turns. Only the best ``speaker_pool`` items are looked at, so this
    boosts what the other strategies found and never searches the store by author."""
    names = st.named_people(query)
    state.signals["speaker"] = {}
    if not names:
        return 0
    _load_items(store, order, state, flt)
    ranking = {k: 1.0 for k in order if k in state.items and (state.items[k].role or "").lower() in names}
    state.signals["speaker"] = ranking
    return len(ranking)


def _note_times(store: Store, state: _State, flt: SearchFilter) -> None:
    missing = sorted({k for ranking in state.signals.values() for k in ranking} - state.times.keys())
    if missing:
        state.times.update(store.times(missing, flt))
    state.signals["recency"] = {k: t for k, t in state.times.items() if t is not None}


def _load_items(store: Store, keys: Sequence[int], state: _State, flt: SearchFilter) -> None:
    missing = [k for k in keys if k not in state.items]
    if missing:
        state.items.update(store.fetch(missing, flt))


def _weight(name: str, s: IterateSettings) -> float:
    base = name.split("@")[0].split(":")[0]
    weight = s.weights.get(base, 1.0) * (0.5 if ":" in name else 1.0)
    if "@" in name:
        weight *= s.round_decay ** int(name.split("@")[1])
    return weight if base in s.strategies or base == "recency" else 0.0


def _fuse(state: _State, s: IterateSettings, limit: int) -> list[tuple[int, float]]:
    weights = {name: _weight(name, s) for name in state.signals}
    if s.fusion == "weighted":
        fused = _weighted(state.signals, weights)
    else:
        fused = reciprocal_rank_fusion({n: rank_by(r) for n, r in state.signals.items()}, weights, s.rrf_k)
    scored = []
    for f in fused:
        kinds = {n.split("@")[0].split(":")[0] for n in f.ranks} - {"recency"}
        scored.append((f.key, f.score * (1 + s.diversity * max(0, len(kinds) - 1))))
    scored.sort(key=lambda pair: -pair[1])
    return scored[:limit]


def _weighted(signals: Mapping[str, Mapping[int, float]], weights: Mapping[str, float]) -> list[Fused]:
    """Weighted sum of min-max normalised scores (scaling by the best score alone measured worse on
    LoCoMo dev: 0.699 vs 0.717 recall@10); a ranking whose scores are all equal (one hit, or
    a filter-like strategy) gives each of its items the full weight instead of nothing."""
    total: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, scores in signals.items():
        weight = weights.get(name, 0.0)
        if weight <= 0 or not scores:
            continue
        low, high = min(scores.values()), max(scores.values())
        for position, key in enumerate(rank_by(scores), start=1):
            share = (scores[key] - low) / (high - low) if high > low else 1.0
            total[key] = total.get(key, 0.0) + weight * share
            ranks.setdefault(key, {})[name] = position
    ordered = sorted(total, key=lambda key: (-total[key], min(ranks[key].values()), key))
    return [Fused(key, total[key], ranks[key]) for key in ordered]


def _quality(query: str, key: int, state: _State) -> float:
    """How well a result answers, 0-1: its cosine similarity blended with query-term coverage."""
    cosine = max((r.get(key, 0.0) for n, r in state.signals.items() if n.startswith("semantic")), default=0.0)
    wanted = set(query_terms(query))
    item = state.items.get(key)
    have = set(query_terms(item.content, keep_stopwords=True)) if item else set()
    coverage = len(wanted & have) / len(wanted) if wanted else 0.0
    return 0.5 * max(0.0, cosine) + 0.5 * coverage


def _should_stop(number: int, s: IterateSettings, new: Sequence[int], trend: Sequence[float], enough: bool) -> str:
    if number + 1 >= s.max_iter:
        return "max iterations"
    if number > 0 and not new:
        return "no new results"
    if trend[-1] >= s.stop_confidence:
        return "high confidence"
    if len(trend) >= 2 and trend[-1] - trend[-2] < 0.05:
        return "diminishing confidence"
    if enough:
        return "enough good results"
    return ""


def _hit(key: int, item: Item, score: float, state: _State) -> Hit:
    ranks: dict[str, int] = {}
    signals: dict[str, float] = {}
    for name, ranking in state.signals.items():
        if key in ranking and name != "recency":
            label = f"lexical{name[5:]}" if name.startswith("exact") else name  # the public name
            ranks[label] = rank_by(ranking).index(key) + 1
            signals[label] = float(ranking[key])
    return Hit.of(item, score, ranks, signals)
