"""In-memory entity index and per-fact metadata for one owner (user, agent, project).

Built once from the store, then kept in step with every write the hot path makes, so ranking reads
only dictionaries. One short lock guards it: readers copy the few candidates they need and let go,
so a writer never holds them up for longer than a dictionary update.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from dataclasses import dataclass, field

from mnemo.hot.cues import relation_cues
from mnemo.hot.terms import words
from mnemo.records import Fact

#: Relations with one value per subject: a new value replaces the old (mirrors the store's rule).
FUNCTIONAL = frozenset({"name", "age", "born_in"})


@dataclass(frozen=True, slots=True)
class FactMeta:
    fact_id: str
    subject: str
    relation: str
    object: str
    updated: float
    weight: float
    session_id: str | None = None
    #: The fact's content words, computed once here so ranking does no text work per candidate.
    terms: frozenset[str] = field(default=frozenset(), compare=False)
    #: Its relation's question words ("company" for works_at): shared, so the cost is one lookup.
    cues: frozenset[str] = field(default=frozenset(), compare=False)

    def __post_init__(self) -> None:
        if not self.terms:
            text = f"{self.subject} {self.relation.replace('_', ' ')} {self.object}"
            object.__setattr__(self, "terms", frozenset(words(text)))
        if not self.cues:
            object.__setattr__(self, "cues", relation_cues(self.relation))

    @property
    def searchable(self) -> frozenset[str]:
        return self.terms | self.cues


def replaces_others(fact: Fact) -> bool:
    return fact.correction or fact.relation in FUNCTIONAL or fact.relation.startswith("favorite_")


class HotIndex:
    """entity → fact ids, fact id → FactMeta, and how many facts hold each word (for IDF)."""

    def __init__(self, facts: list[FactMeta]) -> None:
        self._lock = threading.Lock()
        self._meta: dict[str, FactMeta] = {}
        self._entities: dict[str, set[str]] = {}
        self._df: Counter[str] = Counter()
        for meta in facts:
            self._put(meta)

    def __len__(self) -> int:
        return len(self._meta)

    def known(self, entity: str) -> bool:
        return entity in self._entities

    def idf(self, terms: set[str]) -> dict[str, float]:
        """Smoothed inverse document frequency of each term over this owner's facts: a word few facts
        hold says more about which fact the turn means than a word most facts hold."""
        with self._lock:
            n = len(self._meta)
            return {t: math.log((n + 1) / (self._df.get(t, 0) + 1)) + 1.0 for t in terms}

    def candidates(self, entities: list[str]) -> list[FactMeta]:
        with self._lock:
            ids: dict[str, None] = {}
            for entity in entities:
                ids.update(dict.fromkeys(self._entities.get(entity, ())))
            return [self._meta[i] for i in ids]

    def apply(
        self, added: list[tuple[Fact, str]], ended: list[Fact], now: float, session_id: str | None, alpha: float
    ) -> list[str]:
        """Mirror one store write; returns the ids of the facts it ended (superseded or negated)."""
        gone: list[str] = []
        with self._lock:
            for fact in ended:
                gone += self._end(fact.subject, fact.relation, fact.object)
            for fact, fid in added:
                if replaces_others(fact):
                    gone += [i for i in self._end(fact.subject, fact.relation, None) if i != fid]
                old = self._meta.get(fid)
                # the store's rule: a new fact starts at alpha, each repetition moves it towards 1
                weight = old.weight + alpha * (1.0 - old.weight) if old else alpha
                self._put(FactMeta(fid, fact.subject, fact.relation, fact.object, now, weight, session_id))
        return gone

    def _put(self, meta: FactMeta) -> None:
        old = self._meta.get(meta.fact_id)
        if old is not None:
            self._df.subtract(old.searchable)
        self._df.update(meta.searchable)
        self._meta[meta.fact_id] = meta
        for entity in (meta.subject, meta.object):
            self._entities.setdefault(entity.lower(), set()).add(meta.fact_id)

    def _end(self, subject: str, relation: str, obj: str | None) -> list[str]:
        ids = [
            fid
            for fid in self._entities.get(subject.lower(), ())
            if (m := self._meta[fid]).subject == subject and m.relation == relation and (obj is None or m.object == obj)
        ]
        for fid in ids:
            meta = self._meta.pop(fid)
            self._df.subtract(meta.searchable)
            for entity in (meta.subject, meta.object):
                members = self._entities.get(entity.lower())
                if members is not None:
                    members.discard(fid)
                    if not members:
                        del self._entities[entity.lower()]
        return ids
