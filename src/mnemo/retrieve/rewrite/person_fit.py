"""How well each person of the chat fits a personal pronoun: the gender it says, and the thing it owns
("her interview" after "Hannah's interview got moved")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.tidy import without_determiner

from . import cached_re


def by_owner(people: Sequence[Candidate], owned: str, context: Sequence[Mapping[str, str]]) -> list[Candidate]:
    """ "what time is her interview" after "Hannah's interview got moved": the person the context
    gives that very thing to is the owner, over a more recent person of the same gender."""
    if not owned or owned in _OWNED_TOO_VAGUE or not context:
        return list(people)
    text = " ".join(str(m.get("content") or "") for m in context)
    owners = []
    for c in people:
        bare = without_determiner(c.text)
        pattern = rf"(?<!\w){re.escape(bare)}'s\s+(?:[\w-]+\s+)?{re.escape(owned)}(?!\w)"
        owners.append(replace(c, salience=c.salience * 3.0) if cached_re.search(pattern, text, re.IGNORECASE) else c)
    return owners


_OWNED_TOO_VAGUE = frozenset("own one ones thing things stuff".split())


def by_agreement(people: Sequence[Candidate], gender: str) -> list[Candidate]:
    """People reweighted by how well they fit the pronoun: a known gender beats a guess from the
    name's shape, which beats nothing, and a guess against the pronoun counts against."""
    fit = []
    for c in people:
        factor = 2.0 if c.gender == gender else 1.7 if c.hint == gender else 0.4 if c.hint else 1.0
        fit.append(replace(c, salience=c.salience * factor))
    return fit
