"""Kinds of things: which class a name or word belongs to ("tallinn" a city, "greyhound" a dog
breed, "velvet" a fabric, "httpx" a library), read from data/kinds.tsv.

The list was written for this project from general knowledge, one line per member and class. It
lets "that city", "the martial art" or "that breed" find the member the conversation named, and
keeps a product's name ("Cassandra", "Julia") from passing for a person's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

#: Classes whose members are software or products: a given name among them names no person.
SOFTWARE = frozenset([*"library tool service app database framework os editor browser".split(), "programming language"])


@lru_cache(maxsize=1)
def _kinds() -> dict[str, frozenset[str]]:
    path = Path(__file__).with_name("data") / "kinds.tsv"
    found: dict[str, set[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        member, _, kind = line.partition("\t")
        if member and kind:
            found.setdefault(member.strip().lower(), set()).add(kind.strip())
    return {member: frozenset(kinds) for member, kinds in found.items()}


def kinds_of(word: str) -> frozenset[str]:
    """The classes a word or name belongs to ("java": programming language and region), or none."""
    return _kinds().get(word.strip().lower(), frozenset())


#: The classes of places a name can be on a map: "Tokyo", "Japan", "Bavaria".
GEOGRAPHIC = frozenset({"city", "country", "region"})


def geographic(name: str) -> bool:
    """Whether the lexicon knows ``name`` as a city, a country or a region."""
    return bool(kinds_of(name) & GEOGRAPHIC)


def members(kind: str) -> frozenset[str]:
    """Every member of a class, lower case."""
    return frozenset(m for m, kinds in _kinds().items() if kind in kinds)
