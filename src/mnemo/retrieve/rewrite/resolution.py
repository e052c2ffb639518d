"""What one resolved reference became: the record the resolver returns and the CLI prints."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Resolution:
    reference: str
    replacement: str
    kind: str
    confidence: float

    def as_dict(self) -> dict[str, object]:
        return {
            "reference": self.reference,
            "replacement": self.replacement,
            "kind": self.kind,
            "confidence": round(self.confidence, 3),
        }
