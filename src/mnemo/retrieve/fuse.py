"""Rank fusion: small pure functions that combine the rankings of several strategies."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Fused:
    key: int
    score: float
    ranks: Mapping[str, int] = field(default_factory=dict)


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[int]], weights: Mapping[str, float], k: float = 60.0
) -> list[Fused]:
    """Weighted RRF: score(d) = Σ_s w_s / (k + rank_s(d)), ranks starting at 1.

    RRF only looks at ranks, so strategies whose raw scores live on different scales (BM25,
    cosine, seconds since) combine without calibration. Ties are broken by the best single rank.
    """
    scores: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, ranking in rankings.items():
        weight = weights.get(name, 1.0)
        if weight <= 0:
            continue
        for position, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + position)
            ranks.setdefault(key, {})[name] = position
    ordered = sorted(scores, key=lambda key: (-scores[key], min(ranks[key].values()), key))
    return [Fused(key, scores[key], ranks[key]) for key in ordered]


def score_fusion(scored: Mapping[str, Mapping[int, float]], weights: Mapping[str, float]) -> list[Fused]:
    """Weighted sum of min-max normalised scores: score(d) = Σ_s w_s · (x_s(d) − min_s) / (max_s − min_s).

    Unlike RRF it keeps how *much* better the best candidate of a strategy is than the rest; a
    document a strategy did not return gets 0 from it.
    """
    total: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, scores in scored.items():
        weight = weights.get(name, 1.0)
        if weight <= 0 or not scores:
            continue
        low, high = min(scores.values()), max(scores.values())
        span = high - low or 1.0
        ordered = sorted(scores, key=lambda key: -scores[key])
        for position, key in enumerate(ordered, start=1):
            total[key] = total.get(key, 0.0) + weight * (scores[key] - low) / span
            ranks.setdefault(key, {})[name] = position
    ordered_keys = sorted(total, key=lambda key: (-total[key], min(ranks[key].values()), key))
    return [Fused(key, total[key], ranks[key]) for key in ordered_keys]


class FusionPool:
    """Fused scores kept up to date signal by signal, so a search fuses each ranking once.

    A strategy that needs the current order (neighbours and speaker look at the best few items
    so far) asks ``top`` and later signals are added on top: both fusions are sums over signals,
    so nothing is recomputed. ``mode`` is "weighted" (min-max normalised scores; a ranking whose
    scores are all equal gives each item the full weight) or "rrf" (weight / (k + rank)). Items
    several strategies (``kind``) agree on get a ``diversity`` bonus per extra strategy.
    """

    def __init__(self, mode: str = "weighted", rrf_k: float = 10.0, diversity: float = 0.0) -> None:
        self.mode, self.rrf_k, self.diversity = mode, rrf_k, diversity
        self.totals: dict[int, float] = {}
        self.kinds: dict[int, set[str]] = {}
        self.best: dict[int, int] = {}
        self.ranks: dict[str, dict[int, int]] = {}

    def add(
        self, name: str, scores: Mapping[int, float], weight: float, kind: str, scale: tuple[float, float] | None = None
    ) -> None:
        """Fuse one strategy's ranking in (its ranks are kept for the hits' explanations).

        ``scale`` (low, high): the range the scores are normalised over in weighted mode, for a
        strategy whose scores mean the same whatever else it returned (a neighbour of the 6th
        best item is not worth the full weight because no better item had one)."""
        positions = {key: n for n, key in enumerate(rank_by(scores), start=1)}
        self.ranks[name] = positions
        for key, share in self._shares(scores, positions, weight, scale):
            self.totals[key] = self.totals.get(key, 0.0) + share
            self.kinds.setdefault(key, set()).add(kind)
            if positions[key] < self.best.get(key, 1 << 30):
                self.best[key] = positions[key]

    def top(self, limit: int, extra: Mapping[int, float] | None = None, weight: float = 0.0) -> list[tuple[int, float]]:
        """The best ``limit`` (key, score), with ``extra`` (e.g. recency) counted but not kept.

        Ties go to the item with the better single rank, then the smaller key.
        """
        totals = dict(self.totals)
        if extra:
            for key, share in self._shares(extra, None, weight):
                if key in totals:  # a signal of the pool only: it never brings an item in
                    totals[key] += share
        scored = (
            (score * (1 + self.diversity * max(0, len(self.kinds[key]) - 1)), -self.best.get(key, 1 << 30), -key)
            for key, score in totals.items()
        )
        return [(-neg_key, score) for score, _, neg_key in heapq.nlargest(limit, scored)]

    def _shares(
        self,
        scores: Mapping[int, float],
        positions: Mapping[int, int] | None,
        weight: float,
        scale: tuple[float, float] | None = None,
    ) -> Iterable[tuple[int, float]]:
        if weight <= 0 or not scores:
            return ()
        if self.mode == "rrf":
            if positions is None:
                positions = {key: n for n, key in enumerate(rank_by(scores), start=1)}
            return ((key, weight / (self.rrf_k + n)) for key, n in positions.items())
        low, high = scale or (min(scores.values()), max(scores.values()))
        if high <= low:
            return ((key, weight) for key in scores)
        span = high - low
        return ((key, weight * (value - low) / span) for key, value in scores.items())


def rank_by(values: Mapping[int, float | None], *, descending: bool = True) -> list[int]:
    """Keys ordered by their value; keys whose value is None are left out of the ranking."""
    present = [(key, value) for key, value in values.items() if value is not None]
    present.sort(key=lambda kv: (-kv[1] if descending else kv[1], kv[0]))
    return [key for key, _ in present]


def keyword_overlap(query_terms: Sequence[str], text_terms: Sequence[str]) -> float:
    """Share of the query's terms found in the text (seed 002's fallback when no vectors exist)."""
    wanted = set(query_terms)
    if not wanted:
        return 0.0
    return len(wanted & set(text_terms)) / len(wanted)
