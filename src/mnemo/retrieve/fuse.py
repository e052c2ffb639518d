"""Rank fusion: small pure functions that combine the rankings of several strategies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
