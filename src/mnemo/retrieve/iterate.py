"""Iterative retrieval with fusion (seed 003's ITERATE), on top of the store and vector index.

Round 0 runs the strategies on the query as given; each later round searches again with what
the previous one learned — the terms its top results share (pseudo-relevance feedback), a broader
form of the query, the conversation's terms — and every ranking of every round is fused (weighted
RRF or weighted scores, later rounds discounted, a bonus for items several strategies agree on).
It stops when nothing new reaches the top, the confidence stops improving, it is high enough,
there are enough good results, or after ``max_iter`` rounds.

One round is the default search path, so its cost is kept close to the single pass: each ranking
is fused once, as it arrives (``FusionPool``); the strategies that work on the pool (neighbours,
speaker, month windows, recency) read only time, role and session (``Store.traits``), never the
text; whole items are read once, for the hits; a time window that holds nothing is not searched,
and one that is the search's own filter ("after the move" narrows both) reuses the round's rankings.
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
from mnemo.retrieve.fuse import FusionPool, rank_by
from mnemo.retrieve.temporal import TimeWindow, parse_time
from mnemo.store.base import Store, Traits
from mnemo.store.sql import query_terms

STRATEGIES = ("exact", "semantic", "concept", "temporal", "neighbours", "speaker")
#: Other names the strategies answer to: hits report the exact (BM25) strategy as "lexical", the
#: name single-pass hybrid search uses, so a hit looks the same whichever path found it.
ALIASES = {"lexical": "exact"}
EXPANSIONS = ("synonyms", "hierarchical", "context", "feedback")
DEFAULT_WEIGHTS = {
    "exact": 1.0,
    # below exact since turns are embedded with the turn before them (mnemo/embed/context.py): a
    # reply's vector then also matches the question before it, and min-max fusion let the dense
    # ranking crowd out the others. LoCoMo dev, default path, recall@10 at 1.0 / 0.9 / 0.8 / 0.7 /
    # 0.6 / 0.5: 0.750 / 0.759 / 0.765 / 0.767 / 0.770 / 0.762, every conversation higher at 0.7
    # (python -m benchmarks.fusion_sweep)
    "semantic": 0.7,
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
    pool: FusionPool
    signals: dict[str, dict[int, float]] = field(default_factory=dict)
    traits: dict[int, Traits] = field(default_factory=dict)
    items: dict[int, Item] = field(default_factory=dict)
    #: rankings already fetched in this search, by (strategy, query, filter): a time window that
    #: is the search's own filter ("after the move" narrows both) reuses them, no store call
    searched: dict[tuple[str, Any, SearchFilter], dict[int, float]] = field(default_factory=dict)


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
    state = _State(FusionPool(settings.fusion, settings.rrf_k, settings.diversity))
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
        fused = _order(state, settings, limit)
        top = [key for key, _ in fused]
        new = [k for k in top if k not in previous_top]
        _load_items(store, top, state, flt)  # the hits of this round: the last round's are returned
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
        plan = _next_round(query, number + 1, top, state, store, flt, context, settings, limit)
        if not plan:
            reason = "nothing left to expand"
            break
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
    limit: int,
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
    if "hierarchical" in s.expansions and number == 1 and len(state.signals.get("exact", ())) < limit:
        # broaden only a query too specific to match: when its own words already found ``limit``
        # items, the broader query adds the common ones and pushes specific matches down
        # (LoCoMo dev, iterative R@10 0.751 broadening every query, 0.760 never; benchmarks/query.py)
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
    """One round: each planned search, then (round 0) the strategies that work on its pool."""
    found: dict[str, int] = {}
    vectors: dict[str, np.ndarray | None] = {}
    terms: dict[str, list[str]] = {}  # one tokenisation per text, shared by the strategies
    early = _start_full_text(store, plan, terms, flt, state, s) if embed is not None else {}
    for name, text in plan if early and embed is not None else ():
        # embedded while the server ranks; the rankings still join the fusion in the plan's order
        if _strategy(name) == "semantic" and text not in vectors:
            vectors[text] = embed(text)
    for name, text in plan:
        base = _strategy(name)
        if base == "semantic":
            vector = vectors[text] = vectors[text] if text in vectors else (embed(text) if embed else None)
            ranking = _searched(state, ("semantic", text, flt), st.semantic, vector, vector_search, flt, s.candidates)
        else:
            words = terms.setdefault(text, query_terms(text))
            key = ("exact", tuple(words), flt)
            started = early.pop(key, None)
            if started is not None:
                ranking = _searched(state, key, started)
            else:
                ranking = _searched(state, key, st.exact, store, words, flt, s.candidates)
        _add(state, name, ranking, s)
        found[name] = len(ranking)
    if number == 0 and windows and "temporal" in s.strategies:
        query = plan[0][1] if plan else ""
        dense = next(iter(vectors.items()), ("", None))  # (text, vector) of the first semantic search
        found["temporal"] = _temporal(store, query, dense, vector_search, flt, windows, state, s)
    _note_traits(store, state, flt)
    if number == 0 and ("neighbours" in s.strategies or "speaker" in s.strategies):
        # both look at the best items so far: one read of the running fusion serves the two
        order = [k for k, _ in _order(state, s, max(s.neighbour_top, s.speaker_pool))]
        if "neighbours" in s.strategies:
            ranking = st.neighbours(store, order, flt, s.neighbour_top, state.traits)
            # on its own scale: a neighbour of the best item (score neighbour_top) takes the full
            # weight, one of the 10th a tenth, whichever others the small pool of a new store has
            _add(state, "neighbours", ranking, s, scale=(0.0, float(s.neighbour_top)))
            found["neighbours"] = len(ranking)
        if "speaker" in s.strategies and plan:
            ranking = _speaker(plan[0][1], order, state.traits)
            _add(state, "speaker", ranking, s)
            found["speaker"] = len(ranking)
    return found


def _temporal(
    store: Store,
    query: str,
    dense: tuple[str, np.ndarray | None],
    vector_search: st.VectorSearch | None,
    flt: SearchFilter,
    windows: Sequence[TimeWindow],
    state: _State,
    s: IterateSettings,
) -> int:
    """Items inside the named time windows: searched within absolute windows, picked from the pool
    for month-of-any-year ones ("in June"). Ranked by how the rest of the search ranks them."""
    inside: dict[int, float] = {}
    words = tuple(query_terms(query))
    text, vector = dense
    for window in windows:
        narrowed = st.temporal_filter(flt, window)
        if narrowed is None:
            continue
        keys = (("exact", words, narrowed), ("semantic", text, narrowed))
        # searched already (the window is the search's filter): an empty scope gave empty rankings
        if not all(key in state.searched for key in keys) and not store.exists(narrowed):
            continue  # exists stops at the first match: an empty window costs no search
        lexical = _searched(state, keys[0], st.exact, store, words, narrowed, s.candidates)
        semantic = _searched(state, keys[1], st.semantic, vector, vector_search, narrowed, s.candidates)
        for ranking in (lexical, semantic):
            for position, key in enumerate(rank_by(ranking)):
                inside[key] = max(inside.get(key, 0.0), 1.0 / (1 + position))
    relative = [w for w in windows if not w.absolute]
    if relative:  # only the pool's times are known: rank the pool, keep what falls in the months
        _note_traits(store, state, flt)
        order = [k for k, _ in _order(state, s, len(state.pool.totals))]
        times = {k: t.ts for k, t in state.traits.items()}
        for position, key in enumerate(rank_by(st.in_windows(times, relative, order))):
            inside[key] = max(inside.get(key, 0.0), 1.0 / (1 + position))
    _add(state, "temporal", inside, s)
    return len(inside)


def _start_full_text(
    store: Store, plan: Plan, terms: dict[str, list[str]], flt: SearchFilter, state: _State, s: IterateSettings
) -> dict[tuple[str, Any, SearchFilter], Callable[[], dict[int, float]]]:
    """The round's full-text searches, started before its query is embedded where the store ranks
    in another process (PostgreSQL): the embedding and the server's BM25 then overlap. Empty on
    SQLite, whose full text beside the embedding only contends for the same cores."""
    if not any(_strategy(name) == "semantic" for name, _ in plan):
        return {}
    early: dict[tuple[str, Any, SearchFilter], Callable[[], dict[int, float]]] = {}
    for name, text in plan:
        if _strategy(name) == "semantic":
            continue
        words = terms.setdefault(text, query_terms(text))
        key = ("exact", tuple(words), flt)
        if key in state.searched or key in early:
            continue
        started = st.exact_later(store, words, flt, s.candidates)
        if started is None:
            break
        early[key] = started
    return early


def _strategy(name: str) -> str:
    """The strategy a plan entry runs: "semantic@1" and "exact:context" are semantic and exact."""
    return name.split("@")[0].split(":")[0]


def _searched(
    state: _State, key: tuple[str, Any, SearchFilter], search: Callable[..., dict[int, float]], *args: Any
) -> dict[int, float]:
    """``search(*args)``, run once per search for ``key`` (rankings are never changed in place)."""
    found = state.searched.get(key)
    if found is None:
        found = state.searched[key] = search(*args)
    return found


def _speaker(query: str, order: Sequence[int], traits: Mapping[int, Traits]) -> dict[int, float]:
    """The pool's items written by someone the query names: "What did Caroline say about ..."
    is about Caroline's own turns. Only the best ``speaker_pool`` items are looked at, so this
    boosts what the other strategies found and never searches the store by author."""
    names = st.named_people(query)
    if not names:
        return {}
    return {k: 1.0 for k in order if k in traits and (traits[k].role or "").lower() in names}


def _add(
    state: _State, name: str, ranking: dict[int, float], s: IterateSettings, scale: tuple[float, float] | None = None
) -> None:
    state.signals[name] = ranking
    state.pool.add(name, ranking, _weight(name, s), _strategy(name), scale)


def _order(state: _State, s: IterateSettings, limit: int) -> list[tuple[int, float]]:
    """The best ``limit`` items of the fusion so far, recency counted among the pool's items."""
    recency = {k: t.ts for k, t in state.traits.items() if t.ts is not None}
    return state.pool.top(limit, recency, _weight("recency", s))


def _note_traits(store: Store, state: _State, flt: SearchFilter) -> None:
    """Time, role and session of every pool item not yet known, in one light query."""
    missing = [k for k in state.pool.totals if k not in state.traits]
    if missing:
        state.traits.update(store.traits(missing, flt))


def _load_items(store: Store, keys: Sequence[int], state: _State, flt: SearchFilter) -> None:
    missing = [k for k in keys if k not in state.items]
    if missing:
        state.items.update(store.fetch(missing, flt))


def _weight(name: str, s: IterateSettings) -> float:
    base = _strategy(name)
    weight = s.weights.get(base, 1.0) * (0.5 if ":" in name else 1.0)
    if "@" in name:
        weight *= s.round_decay ** int(name.split("@")[1])
    return weight if base in s.strategies or base == "recency" else 0.0


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
        if key in ranking:
            label = f"lexical{name[5:]}" if name.startswith("exact") else name  # the public name
            ranks[label] = state.pool.ranks[name][key]
            signals[label] = float(ranking[key])
    return Hit.of(item, score, ranks, signals)
