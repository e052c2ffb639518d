"""Hybrid retrieval: lexical (FTS5 BM25) + semantic (vectors) + recency, fused by weighted RRF.

The strategies only produce rankings of row keys; fusion is a pure function (``fuse.py``) and
the store applies every scope filter inside its own queries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from mnemo.records import Hit, Item, SearchFilter
from mnemo.retrieve.fuse import keyword_overlap, rank_by, reciprocal_rank_fusion, score_fusion
from mnemo.store.base import Store
from mnemo.store.sql import query_terms

#: A query longer than this many distinct informative terms is cut for the lexical strategy;
#: BM25 gains nothing from term 65 and FTS5 cost grows with every OR branch.
MAX_LEXICAL_TERMS = 64

VectorSearch = Callable[[np.ndarray, int, SearchFilter], list[tuple[int, float]]]
#: The query's vector, or how to compute it: a store ranking in another process (PostgreSQL) runs
#: its lexical half while the callable embeds the query.
QueryVector = np.ndarray | Callable[[], np.ndarray | None] | None


@dataclass(frozen=True, slots=True)
class HybridSettings:
    weights: Mapping[str, float]
    rrf_k: float = 10.0
    candidates: int = 50
    fusion: str = "rrf"  # or "score": weighted min-max normalised scores


def lexical_ranking(store: Store, query: str, flt: SearchFilter, limit: int) -> list[tuple[int, float]]:
    terms = query_terms(query)[:MAX_LEXICAL_TERMS]
    return store.lexical(terms, flt, limit) if terms else []


def keyword_ranking(query: str, items: Mapping[int, Item]) -> list[tuple[int, float]]:
    """Seed 002's fallback signal: the share of query words present, for stores without vectors."""
    wanted = query_terms(query)
    scored = {
        key: keyword_overlap(wanted, query_terms(item.content, keep_stopwords=True)) for key, item in items.items()
    }
    return [(key, scored[key]) for key in rank_by(scored) if scored[key] > 0]


def hybrid_search(
    store: Store,
    query: str,
    query_vector: QueryVector,
    vector_search: VectorSearch | None,
    flt: SearchFilter,
    limit: int,
    settings: HybridSettings,
) -> list[Hit]:
    """Fuse the strategies' rankings into at most ``limit`` hits."""
    signals: dict[str, dict[int, float]]
    candidates = getattr(store, "hybrid_candidates", None)
    overlap = getattr(store, "hybrid_candidates_embedding", None)
    if vector_search is not None and candidates is not None and query_vector is not None:
        # a store that searches its own vectors (pgvector) returns both rankings and the pool's
        # times itself, Memory's vector_search being that store's nearest(): in one round trip, or
        # with the lexical half ranked on the server while the query is embedded
        terms = query_terms(query)[:MAX_LEXICAL_TERMS]
        if callable(query_vector) and overlap is not None:
            lexical, semantic, times = overlap(terms, query_vector, flt, settings.candidates)
        else:
            vector = query_vector() if callable(query_vector) else query_vector
            lexical, semantic, times = candidates(terms, vector, flt, settings.candidates)
        signals = {"lexical": dict(lexical), "semantic": dict(semantic)}
        return _fused_hits(store, signals, times, flt, limit, settings)
    if callable(query_vector):
        query_vector = query_vector()
    signals = {"lexical": dict(lexical_ranking(store, query, flt, settings.candidates))}
    if query_vector is not None and vector_search is not None:
        signals["semantic"] = dict(vector_search(query_vector, settings.candidates, flt))
    pool = sorted({k for found in signals.values() for k in found})
    if "semantic" not in signals:  # the keyword fallback reads the candidates' text
        items = store.fetch(pool, flt)
        signals["keyword"] = dict(keyword_ranking(query, items))
        times = {k: _epoch(item) for k, item in items.items()}
    else:  # only the times of the pool; whole items for the few that make the cut
        times = store.times(pool, flt)
    return _fused_hits(store, signals, times, flt, limit, settings)


def _fused_hits(
    store: Store,
    signals: dict[str, dict[int, float]],
    times: Mapping[int, float | None],
    flt: SearchFilter,
    limit: int,
    settings: HybridSettings,
) -> list[Hit]:
    signals = {name: {k: s for k, s in found.items() if k in times} for name, found in signals.items()}
    signals["recency"] = {k: t for k, t in times.items() if t is not None}
    if settings.fusion == "score":
        fused = score_fusion(signals, settings.weights)[:limit]
    else:
        rankings = {name: rank_by(found) for name, found in signals.items()}
        fused = reciprocal_rank_fusion(rankings, settings.weights, settings.rrf_k)[:limit]
    chosen = store.fetch([f.key for f in fused], flt)
    return [
        _hit(chosen[f.key], f.score, f.ranks, _signals_of(f.key, signals, f.ranks)) for f in fused if f.key in chosen
    ]


def _epoch(item: Item) -> float | None:
    return item.timestamp.timestamp() if item.timestamp else None


def _signals_of(key: int, signals: Mapping[str, Mapping[int, float]], ranks: Mapping[str, int]) -> dict[str, float]:
    return {name: float(signals[name][key]) for name in ranks if key in signals.get(name, {})}


def _hit(item: Item, score: float, ranks: Mapping[str, int], signals: Mapping[str, float]) -> Hit:
    return Hit.of(item, score, ranks, signals)
