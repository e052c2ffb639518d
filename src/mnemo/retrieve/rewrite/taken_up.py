"""The option a reply takes up: "that one" after the user named several things and the assistant
answered about one of them first ("With 15 subcommands, cobra is the usual choice", "Calcium can reduce
how well levothyroxine is absorbed"). A reply leads with what it is about, so of the things the user
put on the table, the one the latest reply names first is the one "that one" points at."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.endorsed import endorsed
from mnemo.retrieve.rewrite.tidy import without_determiner
from mnemo.retrieve.rewrite.wordfind import word_at


def with_taken_up(candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]) -> list[Candidate]:
    """The candidates, the thing the latest reply took up first twice as salient."""
    taken = taken_up([c for c in candidates if c.kind == "thing"], context)
    return [replace(c, salience=c.salience * 2.0) if c.kind == "thing" and c.text == taken else c for c in candidates]


def taken_up(things: Sequence[Candidate], context: Sequence[Mapping[str, str]]) -> str | None:
    """The text of the thing the latest reply naming any of the user's things names first (or
    recommends), or None; a later user message that brings in an option of its own ends the search
    ("my friend recommends the Framework Laptop 13 instead": not an earlier reply's pick)."""
    messages = list(context)
    told, ends = _told(messages)
    for at in range(len(messages) - 1, 0, -1):
        text = str(messages[at].get("content") or "").lower()
        named = _named(things, text)
        if _by_user(messages[at]):
            if any(not _told_before(told, ends[at], bare) and thing[:1].isupper() for _, _, thing, bare in named):
                return None  # the user's own new option: the ranking, not a reply, decides
            continue
        named = [n for n in named if _told_before(told, ends[at], n[3]) and not _FOIL.search(text[: n[0]])]
        if not named:
            continue
        recommended = (endorsed([messages[at]]) or "").lower()
        picked = [n for n in named if recommended and recommended in n[2].lower()]
        if picked:  # "X is fine, but ... Y is the better pick": the one recommended
            return picked[0][2]
        first = named[0]
        end = first[0] - first[1]
        rest = [n for n in named if n[0] >= end]  # "the Kia Picanto" and "Kia Picanto" are one mention
        if rest and _JOINED.fullmatch(text[end : rest[0][0]]):
            return None  # "The United vs Liverpool game", "both X and Y": the reply takes up no one option
        return first[2]
    return None


def _by_user(message: Mapping[str, str]) -> bool:
    return str(message.get("role") or "").lower() in ("user", "human")


def _told(messages: Sequence[Mapping[str, str]]) -> tuple[str, list[int]]:
    """Everything the user said, lower-cased and joined, and for each message where the user's words
    before it end: one join, not one per message looked at."""
    parts: list[str] = []
    ends: list[int] = []
    length = -1  # no separator before the first part
    for message in messages:
        ends.append(max(length, 0))
        if _by_user(message):
            part = str(message.get("content") or "").lower()
            parts.append(part)
            length += 1 + len(part)
    return " ".join(parts), ends


def _told_before(told: str, end: int, phrase: str) -> bool:
    """Whether ``phrase`` is in ``told[:end]``: its first place there must end by ``end``."""
    at = told.find(phrase)
    return at != -1 and at + len(phrase) <= end


def _named(things: Sequence[Candidate], text: str) -> list[tuple[int, int, str, str]]:
    """(position, -length, text, bare text) of each thing ``text`` names, in order of position."""
    named = []
    for thing in things:
        bare = without_determiner(thing.text).lower()
        if bare[:1].isdigit() or len(bare) < 3:
            continue  # "15 subcommands" is a count the reply repeats, no option
        where = word_at(text, bare)
        if where >= 0:
            named.append((where, -len(bare), thing.text, bare))
    return sorted(named)


#: A foil the reply measures an option against: "Compared with the Pixel 6, the Pixel 8 ...".
_FOIL = re.compile(r"\b(?:compared\s+(?:with|to)|than|unlike|instead\s+of|over)\s+(?:the\s+)?$")
#: What joins two options the reply names together rather than taking up one: "X vs Y", "X and Y".
_JOINED = re.compile(r"\s*(?:vs\.?|versus|and|or|,|/|&)\s*(?:the\s+)?")
