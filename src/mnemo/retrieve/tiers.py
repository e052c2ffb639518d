"""Progressive hierarchical search and multi-source federation, over one per-kind search function.

Progressive (seed 000 §2): tiers from distilled to raw — summaries → facts/insights → messages →
documents — are searched in order and the search stops once enough good matches were found;
tiers holding nothing in scope are skipped without a search. Federation (seed 003): every source
(kind) is searched and the lists are fused with per-source weights, which domain routing raises
for the source a query is about ("in the docs", "what do I prefer", "what did she say").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mnemo.records import Hit
from mnemo.store.sql import query_terms

#: (tier name, kinds it holds), most distilled first.
TIERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("summaries", ("summary",)),
    ("facts", ("fact", "insight")),
    ("messages", ("message",)),
    ("documents", ("document", "note")),
)
SOURCE_WEIGHTS = {"summary": 0.8, "fact": 1.2, "insight": 1.1, "message": 1.0, "document": 1.0, "note": 1.0}
ROUTES: dict[str, frozenset[str]] = {
    "document": frozenset(
        "doc docs documentation readme file files guide manual spec memory.md notes page wiki".split()
    ),
    "fact": frozenset(
        "prefer prefers preference favourite favorite like likes live lives name birthday allergic".split()
    ),
    "message": frozenset("said told asked discussed mentioned talked conversation chat replied".split()),
}
ROUTE_BOOST = 1.5

SearchKinds = Callable[[tuple[str, ...], int], list[Hit]]


@dataclass(frozen=True, slots=True)
class Sufficiency:
    """Stop once ``min_results`` hits reach ``min_quality`` (cosine and term coverage, 0-1)."""

    min_results: int = 3
    min_quality: float = 0.55


@dataclass(frozen=True, slots=True)
class TierReport:
    tier: str
    searched: bool
    hits: int
    good: int
    ms: float
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "tier": self.tier,
            "searched": self.searched,
            "hits": self.hits,
            "good": self.good,
            "ms": round(self.ms, 3),
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class ProgressiveResult:
    query: str
    hits: list[Hit]
    tiers_searched: list[str]
    stopped_early: bool
    stop_reason: str
    tiers: list[TierReport] = field(default_factory=list)
    total_ms: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [h.as_dict() for h in self.hits],
            "tiers_searched": self.tiers_searched,
            "stopped_early": self.stopped_early,
            "stop_reason": self.stop_reason,
            "tiers": [t.as_dict() for t in self.tiers],
            "total_ms": round(self.total_ms, 3),
        }


def quality(query: str, hit: Hit) -> float:
    """How good a match is on a 0-1 scale: its cosine similarity blended with query-term coverage."""
    wanted = set(query_terms(query))
    have = set(query_terms(hit.content, keep_stopwords=True))
    coverage = len(wanted & have) / len(wanted) if wanted else 0.0
    cosine = max((v for k, v in hit.signals.items() if k.startswith("semantic")), default=0.0)
    return 0.5 * max(0.0, cosine) + 0.5 * coverage


def progressive_search(
    search: SearchKinds,
    counts: Mapping[str, int],
    query: str,
    limit: int,
    sufficiency: Sufficiency = Sufficiency(),
    tiers: Sequence[tuple[str, tuple[str, ...]]] = TIERS,
    stop_when_sufficient: bool = True,
) -> ProgressiveResult:
    started = time.perf_counter()
    found: list[tuple[float, int, Hit]] = []
    reports: list[TierReport] = []
    searched: list[str] = []
    reason, early = "all tiers searched", False
    for order, (name, kinds) in enumerate(tiers):
        if not any(counts.get(k, 0) for k in kinds):
            reports.append(TierReport(name, False, 0, 0, 0.0, "empty in this scope"))
            continue
        tier_started = time.perf_counter()
        hits = search(kinds, limit)
        scored = [(quality(query, h), order, h) for h in hits]
        good = sum(1 for q, _, _ in scored if q >= sufficiency.min_quality)
        found.extend(scored)
        searched.append(name)
        reports.append(TierReport(name, True, len(hits), good, (time.perf_counter() - tier_started) * 1000))
        total_good = sum(1 for q, _, _ in found if q >= sufficiency.min_quality)
        remaining = [n for n, ks in tiers[order + 1 :] if any(counts.get(k, 0) for k in ks)]
        if stop_when_sufficient and total_good >= sufficiency.min_results and remaining:
            reason, early = f"{total_good} good matches after {name}", True
            break
    done = {r.tier for r in reports}
    reports.extend(
        TierReport(n, False, 0, 0, 0.0, "not needed" if any(counts.get(k, 0) for k in ks) else "empty in this scope")
        for n, ks in tiers
        if n not in done
    )
    hits = _merge(found, limit)
    return ProgressiveResult(query, hits, searched, early, reason, reports, (time.perf_counter() - started) * 1000)


def _merge(found: Sequence[tuple[float, int, Hit]], limit: int) -> list[Hit]:
    """Best quality first (ties: the more distilled tier), each item once."""
    seen: set[str] = set()
    merged: list[Hit] = []
    for _, _, hit in sorted(found, key=lambda e: (-e[0], e[1])):
        if hit.id not in seen:
            seen.add(hit.id)
            merged.append(hit)
    return merged[:limit]


def route(query: str) -> list[str]:
    """The sources a query names by its words ("in the docs" → document)."""
    words = set(query.lower().replace("?", " ").split()) | set(query_terms(query))
    return [kind for kind, cues in ROUTES.items() if words & cues]


@dataclass(frozen=True, slots=True)
class FederatedResult:
    query: str
    hits: list[Hit]
    sources: dict[str, dict[str, float]]
    routed_to: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [h.as_dict() for h in self.hits],
            "sources": self.sources,
            "routed_to": self.routed_to,
        }


def federated_search(
    search: SearchKinds,
    counts: Mapping[str, int],
    query: str,
    limit: int,
    weights: Mapping[str, float] | None = None,
    use_routing: bool = True,
    rrf_k: float = 10.0,
) -> FederatedResult:
    """Each source searched on its own, fused by weighted RRF (per-source weight × routing boost)."""
    weights = {**SOURCE_WEIGHTS, **(weights or {})}
    routed = route(query) if use_routing else []
    scores: dict[str, float] = {}
    by_id: dict[str, Hit] = {}
    sources: dict[str, dict[str, float]] = {}
    for kind, count in sorted(counts.items()):
        weight = weights.get(kind, 1.0) * (ROUTE_BOOST if kind in routed else 1.0)
        if not count or weight <= 0:
            continue
        hits = search((kind,), limit)
        sources[kind] = {"weight": weight, "hits": float(len(hits))}
        for rank, hit in enumerate(hits, start=1):
            scores[hit.id] = scores.get(hit.id, 0.0) + weight / (rrf_k + rank)
            by_id.setdefault(hit.id, hit)
    ordered = sorted(scores, key=lambda i: -scores[i])[:limit]
    return FederatedResult(query, [by_id[i] for i in ordered], sources, routed)
