"""Which one by how the chat described it: "that greenish one" after "Sage Whisper, a soft
grey-green, or Oat Milk, a warm off-white"; "that compact one" after "The Aer+ is a compact travel
stroller".

The modifier is not part of any name, so no candidate's text holds it; it stands in the sentence
that described one of the options. Of the things named in that stretch of the sentence (up to an
"or", a semicolon or the sentence's end), the one written nearest before the modifier is the one
described - a named one first, in its longest form ("Joolz Aer" over "the Aer").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidate import Candidate

from . import cached_re

#: Where a description of one option ends: the next option ("or"), a semicolon, the sentence.
_PIECE = re.compile(r"(?<=[.!?])\s+|\n|;\s*|,?\s+\bor\b\s+|,?\s+\bwhile\b\s+|,?\s+\bwhereas\b\s+")
_NAMED = re.compile(r"[A-Z0-9]")


def _stem(adjective: str) -> str:
    """ "greenish" -> "green", "bigger" -> "big", "cheapest" -> "cheap": the part every form shares."""
    low = adjective.lower()
    for suffix in ("ish", "est", "er", "y"):
        if low.endswith(suffix) and len(low) - len(suffix) >= 4:
            low = low[: -len(suffix)]
            break
    return low[:-1] if len(low) > 3 and low[-1] == low[-2] else low  # "bigg" -> "big"


def described_one(
    modifier: str, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """The thing the chat described with ``modifier`` (latest description first), or None."""
    stem = _stem(modifier)
    if len(stem) < 3:
        return None
    # whole words of the stem: "green" in "grey-green" and "greenish", never "red" in "reduced"
    at_stem = cached_re.compile(rf"\b{re.escape(stem)}(?:dish|ish|er|est|y|s)?\b", re.IGNORECASE)
    things = [c for c in candidates if c.kind == "thing" and not at_stem.search(c.text)]
    for message in reversed(list(context)):
        for piece in reversed(_PIECE.split(str(message.get("content") or ""))):
            found = at_stem.search(piece)
            if found is None:
                continue
            chosen = _nearest_before(piece[: found.start()], things)
            if chosen is not None:
                return chosen, 0.75
    return None


def _nearest_before(text: str, things: Sequence[Candidate]) -> str | None:
    """The thing written last in ``text`` (a named one over a common noun), in its longest form."""
    low = text.lower()
    placed: list[tuple[bool, int, int, str]] = []
    for candidate in things:
        bare = candidate.text.removeprefix("the ").removeprefix("The ")
        at = low.rfind(bare.lower())
        if at >= 0 and len(bare) > 2:
            end = at + len(bare)
            placed.append((bool(_NAMED.search(bare)), end, len(bare), candidate.text))
    if not placed:
        return None
    chosen = max(placed)[3]
    short = " " + chosen.removeprefix("the ").removeprefix("The ").lower()
    longer = [c.text for c in things if c.text.lower().endswith(short) and not c.text.lower().startswith("the ")]
    return max(longer, key=len) if longer else chosen  # "Joolz Aer", the name the chat gave in full
