"""A reference: one ambiguous span of a query (detect.py finds them, resolve.py resolves them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Reference:
    """One ambiguous span of the query: its text, what kind of pointer it is, and where it is."""

    text: str
    kind: str  # person, plural, thing, demonstrative, place, temporal, implicit, ordinal, event, role
    start: int
    end: int
    #: For a demonstrative determiner ("that migration"): the noun it points through.
    noun: str | None = None
    #: A temporal pointer at a time the conversation fixed ("then", "that day"): resolved by its anchor.
    anchored: bool = False
    #: A definite description the conversation tied to a name ("the interview" -> "at Stripe").
    described: bool = False
    #: A temporal span that keeps its words and takes the anchor after it (aspect.py).
    appended: bool = False


def in_place_of(found: list[Reference], ref: Reference) -> list[Reference]:
    """``found`` without the references ``ref`` overlaps, then ``ref``: a longer reading replaces the
    word-level ones inside it ("the same one" over "the same" and "one")."""
    return [r for r in found if not (r.start < ref.end and ref.start < r.end)] + [ref]
