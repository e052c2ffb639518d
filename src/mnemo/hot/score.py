"""Scoring, diversity, novelty and the dynamic bullet count (pure functions over FactMeta)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from mnemo.hot.index import FactMeta
from mnemo.hot.terms import words

#: Predicate priority (seed 004), divided by 100; relations not listed get DEFAULT_PRIORITY.
PRIORITY = {
    "lives_in": 1.0, "works_at": 0.95, "born_in": 0.9, "moved_from": 0.85, "participated_in": 0.8,
    "friend_of": 0.78, "name": 0.75, "favorite_color": 0.7, "went_to": 0.65, "has": 0.6, "owns": 0.6,
    "age": 0.6, "is": 0.55,
}  # fmt: skip
DEFAULT_PRIORITY = 0.5
#: Intents that state something: the turn calls for context even without a known entity named.
STATING = frozenset({"FACT_STATEMENT", "QUESTION_WITH_FACT", "MULTIPLE_FACTS", "CORRECTION"})
#: Score a second fact of the same relation needs to be shown beside the first.
HIGH = 0.75


@dataclass(frozen=True, slots=True)
class Weights:
    priority: float = 0.4
    recency: float = 0.2
    lexical: float = 0.3
    weight: float = 0.1
    recency_days: float = 3.0
    session_boost: float = 1.2
    #: Passive decay of a fact's weight per day since it was last seen (0 = off), and the weight
    #: under which a decayed fact counts as stale (the store's fact_decay / fact_stale_below).
    decay: float = 0.0
    stale_below: float = 0.1


def score(
    meta: FactMeta,
    query: set[str],
    now: float,
    session_id: str | None,
    w: Weights,
    idf: Mapping[str, float] | None = None,
) -> float:
    priority = PRIORITY.get(meta.relation, 0.6 if meta.relation.startswith("favorite_") else DEFAULT_PRIORITY)
    age_days = max(0.0, now - meta.updated) / 86400.0
    recency = math.exp(-age_days / w.recency_days) if w.recency_days > 0 else 0.0
    if session_id is not None and meta.session_id == session_id:
        recency = min(1.0, recency * w.session_boost)
    lexical = lexical_match(meta, query, idf)
    return w.priority * priority + w.recency * recency + w.lexical * lexical + w.weight * decayed(meta, now, w)


def lexical_match(meta: FactMeta, query: set[str], idf: Mapping[str, float] | None = None) -> float:
    """γ's term: the larger of two overlaps of query and fact, both in [0, 1].

    - fact side: the share of the fact's own words the turn uses (the seed's token overlap);
    - query side, the full-text rank: the share of the turn's words the fact answers (its own words
      and its relation's question words), each word weighted by its IDF over the owner's facts, as
      a BM25-style rank would; computed over the hot index instead of querying the FTS table, so
      ranking stays free of I/O.
    """
    own = meta.terms
    overlap = len(own & query) / len(own) if own else 0.0
    if not idf:
        return overlap
    matched = (own | meta.cues) & query
    if not matched:
        return overlap
    return max(overlap, sum(idf.get(t, 0.0) for t in matched) / sum(idf.values()))


def decayed(meta: FactMeta, now: float, w: Weights) -> float:
    """The fact's weight after passive decay since it was last seen (its stored weight when decay is off)."""
    if w.decay <= 0:
        return meta.weight
    return meta.weight * w.decay ** (max(0.0, now - meta.updated) / 86400.0)


def stale(meta: FactMeta, now: float, w: Weights) -> bool:
    """Decayed below the floor: the store would mark it stale on its next decay pass, so it is not injected."""
    return w.decay > 0 and decayed(meta, now, w) < w.stale_below


def asks_about(meta: FactMeta, query: set[str]) -> bool:
    """The turn names the fact's relation ("where does Tom *live*"): it wants the fact again, novelty aside.

    The subject does not count: it is how the fact became a candidate, so it would void novelty.
    """
    return bool(words(meta.relation.replace("_", " ")) & query)


def threshold(scores: list[float]) -> float:
    """τ: the 75th percentile of the candidates' scores, or a fixed baseline when there are few."""
    if len(scores) < 4:
        return 0.45
    ordered = sorted(scores)
    return ordered[int(0.75 * (len(ordered) - 1))]


def select(
    ranked: list[tuple[float, FactMeta]], intent: str, cap: int, targeted: bool, strong: float = HIGH
) -> tuple[list[tuple[float, FactMeta]], int]:
    """Diversity and dynamic K over candidates sorted best first; returns (chosen, pruned count).

    One fact per relation, a second only when it scores high (≥ ``strong`` and ≥ τ); distinct subjects first.
    Reactions and pure questions get at most 2 (and only when they target a known entity), fact
    statements 2 to ``cap``; past the minimum only facts scoring at least τ are kept.
    """
    if not ranked:
        return [], 0
    tau = threshold([s for s, _ in ranked])
    stating = intent in STATING
    low, most = (min(2, cap), cap) if stating else (0, min(2, cap) if targeted else 0)
    per_relation: dict[str, int] = {}
    subjects: set[str] = set()
    first: list[tuple[float, FactMeta]] = []
    later: list[tuple[float, FactMeta]] = []
    for s, meta in ranked:
        seen = per_relation.get(meta.relation, 0)
        if seen >= 2 or (seen == 1 and (s < tau or s < strong)):
            continue
        per_relation[meta.relation] = seen + 1
        (later if meta.subject in subjects and meta.subject != "you" else first).append((s, meta))
        subjects.add(meta.subject)
    diverse = sorted(first, key=lambda p: -p[0]) + later
    chosen = [p for i, p in enumerate(diverse[:most]) if i < low or p[0] >= tau]
    if not stating and targeted and not chosen and most:
        chosen = diverse[:1]  # a question about a known entity gets at least its best fact
    return chosen, len(ranked) - len(chosen)
