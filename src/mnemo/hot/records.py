"""What one turn returns: the bullets chosen, the message to inject, the facts learnt and the timings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Bullet:
    """One readable line of context and the stored fact it comes from."""

    text: str
    score: float
    fact_id: str
    relation: str

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "score": round(self.score, 4), "fact_id": self.fact_id, "relation": self.relation}


@dataclass(frozen=True, slots=True)
class TurnResult:
    intent: str
    lang: str | None
    turn: int
    #: The rotating memory message ({"role": ..., "content": ...}) or None when this turn injects nothing.
    system_message: dict[str, str] | None
    bullets: tuple[Bullet, ...]
    facts_added: tuple[str, ...]
    facts_superseded: tuple[str, ...]
    gated: bool
    #: Milliseconds per stage: "intent" is the one parse (language, intent and triples), "extraction"
    #: turning the triples into fact items with their vectors, "update" the store write and the hot
    #: index update, "retrieval" ranking and selection, "total" the whole turn.
    timings_ms: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "intent": self.intent,
            "lang": self.lang,
            "turn": self.turn,
            "system_message": self.system_message,
            "bullets": [b.as_dict() for b in self.bullets],
            "facts_added": list(self.facts_added),
            "facts_superseded": list(self.facts_superseded),
            "gated": self.gated,
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
        }
