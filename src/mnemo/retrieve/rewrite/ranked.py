"""Ranking candidates by salience: the best one and how sure the choice is."""

from __future__ import annotations

from collections.abc import Sequence

from mnemo.retrieve.rewrite.candidate import Candidate


def best(options: Sequence[Candidate], high: float) -> tuple[str, float] | None:
    """The most salient option and a confidence: ``high`` for a clear winner, less for a close call."""
    if not options:
        return None
    ranked = sorted(options, key=lambda c: -c.salience)
    top = ranked[0]
    clear_winner = len(ranked) == 1 or top.salience >= 1.4 * ranked[1].salience
    return top.text, high if clear_winner else high - 0.15
