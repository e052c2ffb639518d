"""Multi-source federation over one per-kind search function (progressive tiers: progressive.py).

Federation (seed 003): every source
(kind) is searched and the lists are fused with per-source weights, which domain routing raises
for the source a query is about ("in the docs", "what do I prefer", "what did she say").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from mnemo.errors import InputError
from mnemo.records import KINDS, Hit
from mnemo.retrieve.progressive import (
    TIERS,
    ProgressiveResult,
    SearchKinds,
    Sufficiency,
    TierReport,
    progressive_search,
    quality,
)
from mnemo.store.sql import query_terms

# progressive search lives in mnemo.retrieve.progressive; its names stay importable from here
__all__ = [
    "TIERS",
    "FederatedResult",
    "ProgressiveResult",
    "Sufficiency",
    "TierReport",
    "check_weights",
    "federated_search",
    "parse_weights",
    "progressive_search",
    "quality",
    "route",
]

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


def check_weights(weights: Mapping[str, Any] | None) -> dict[str, float]:
    """Per-source weights checked: a known source (kind) each, a finite number of 0 or more (0 mutes it)."""
    if weights is None:
        return {}
    if not isinstance(weights, Mapping):
        raise InputError(f"weights must map a source to a number, got {type(weights).__name__}")
    checked: dict[str, float] = {}
    for kind, weight in weights.items():
        if kind not in KINDS:
            raise InputError(f"unknown source {kind!r}: the sources are {', '.join(sorted(KINDS))}")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
            raise InputError(f"the weight of {kind!r} must be a number of 0 or more, got {weight!r}")
        checked[kind] = float(weight)
    return checked


def parse_weights(pairs: Iterable[str]) -> dict[str, float]:
    """ "fact=1.5" pairs (the CLI's ``--source-weight``) as checked weights."""
    weights: dict[str, Any] = {}
    for pair in pairs:
        kind, _, value = pair.partition("=")
        try:
            weights[kind.strip()] = float(value)
        except ValueError:  # no "=" leaves the value empty, which float() refuses too
            raise InputError(f"a source weight is KIND=NUMBER, like fact=1.5; got {pair!r}") from None
    return check_weights(weights)


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
    # each hit carries the score it was ranked by here, not the one of its own source's search
    hits = [replace(by_id[i], score=scores[i]) for i in ordered]
    return FederatedResult(query, hits, sources, routed)
