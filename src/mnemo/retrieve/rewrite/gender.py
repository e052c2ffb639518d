"""Grammatical gender of the people a conversation names, for "he" and "she".

Listed first names (accents folded), titles, gendered nouns ("my sister Ines"), the pronouns the
conversation itself uses after a name, and, as a weak tie-breaker, the shape of an unlisted name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mnemo.retrieve.rewrite.names import FEMALE, FEMALE_NOUNS, MALE, MALE_NOUNS, fold
from mnemo.retrieve.rewrite.wordfind import word_at

if TYPE_CHECKING:
    from mnemo.retrieve.rewrite.candidates import Candidate

TITLES = {"mr": "m", "mrs": "f", "ms": "f", "miss": "f", "dr": "", "prof": ""}

_SHE = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)
_HE = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)


def chain_gender(found: dict[tuple[str, str], Candidate], recent: Sequence[Mapping[str, str]]) -> None:
    """A message that says "she" before naming anyone continues a person named just before it
    ("Mireille from procurement joined" / "Did she have a view?"): when nobody named there already
    fits, the first person of unknown gender whose name does not suggest otherwise takes it."""
    previous: list[Candidate] = []
    people = [c for c in found.values() if c.kind == "person" and c.text[:1].isupper()]
    for message in recent:
        text = str(message.get("content") or "")
        low = text.lower()
        named = sorted((low.find(c.text.lower()), id(c), c) for c in people if c.text.lower() in low)
        first_name = named[0][0] if named else len(text)
        she, he = _SHE.search(text[:first_name]), _HE.search(text[:first_name])
        if previous and bool(she) != bool(he):
            gender = "f" if she else "m"
            if not any(c.gender == gender or (c.gender is None and c.hint == gender) for c in previous):
                fitting = [c for c in previous if c.gender is None and c.hint in (None, gender)]
                if fitting:
                    fitting[0].gender = gender
        if named:
            previous = [c for _, _, c in named]


def gender_of(name: str) -> str | None:
    first = fold(name.split()[0])
    if first not in MALE and first not in FEMALE:
        first = first.split("-")[0]  # "Mei-Ling", "Jean-Pierre": the first part says it
    return "m" if first in MALE else "f" if first in FEMALE else None


#: Endings that lean feminine or masculine across many European naming traditions (-a, -ia, -ine;
#: -o, -os, -us). Many exceptions (Luca, Andrea), so it only breaks ties between fitting people.
_FEMININE_ENDINGS = ("a", "á", "ia", "ía", "ine", "elle", "ette", "een", "ah")
_MASCULINE_ENDINGS = ("o", "os", "us", "ás", "ós", "ik", "rd", "ur")


def gender_hint(name: str) -> str | None:
    first = name.split()[0].lower()
    if first in TITLES or len(first) < 3:
        return None
    if first.endswith(_FEMININE_ENDINGS):
        return "f"
    return "m" if first.endswith(_MASCULINE_ENDINGS) else None


def noun_gender(before: str) -> str | None:
    """ "my sister Ines", "Grandma Rosa", "Ahmed's daughter Noor": the gendered noun before a name."""
    words = before.rstrip(" ,").rsplit(None, 1)
    previous = words[-1].lower().strip(".,:;") if words else ""
    return "f" if previous in FEMALE_NOUNS else "m" if previous in MALE_NOUNS else None


def learn_gender(found: dict[tuple[str, str], Candidate], text: str) -> None:
    """A name followed in the same message by "he" or "she" takes that gender when unknown."""
    low = f" {text.lower()} "
    for candidate in list(found.values()):
        if candidate.kind not in ("person", "thing") or candidate.gender or not candidate.text[:1].isupper():
            continue
        at = low.find(candidate.text.lower())
        if at < 0:
            continue
        rest = low[at:]
        he, she = _first(rest, (" he ", " him ", " his ")), _first(rest, (" she ", " her ", " hers "))
        they = _first(rest, (" they ", " their ", " them "))
        if min(he, she) < 10**9 and _named_between(found, candidate, low, at + len(candidate.text), at + min(he, she)):
            continue  # "on Overleaf. My supervisor, Professor Lindqvist, sends her comments": hers
        if they < min(he, she, rest.find(". ") if ". " in rest else 10**9):
            if candidate.kind == "thing":
                candidate.plural = True  # "Stripe changed their fees": a collective, "they"
            continue
        elif candidate.kind == "thing":
            pronoun_gender = "m" if he < she else "f" if she < he else None
            if not _person_before(found, low, at, pronoun_gender):  # "Haruto ... from Sapporo ... pick him up"
                _animate(found, candidate, he, she)
            continue
        elif he < she:
            candidate.gender = "m"
        elif she < he:
            candidate.gender = "f"


def _animate(found: dict[tuple[str, str], Candidate], thing: Candidate, he: int, she: int) -> None:
    """ "Is that Biscuit? How much does he weigh?": a one-word name the message then calls "he" or
    "she" is someone (a pet, a person the name lists miss), with that gender."""
    word = thing.text
    if " " in word or not word[1:].islower() or not word.isalpha() or he == she or (word.lower(), "person") in found:
        return
    if (word.lower(), "place") in found:
        return  # "Berlin's rental market ... Does he have": a place is nobody, whoever "he" is
    person = replace(thing, kind="person", gender="m" if he < she else "f", plural=False, pronominal=True)
    found[(word.lower(), "person")] = person


def _person_before(found: dict[tuple[str, str], Candidate], low: str, at: int, gender: str | None = None) -> bool:
    """Whether a person the message names comes before position ``at``: a later "he" is more
    likely theirs than a word's the name lists do not know - unless that person's gender is not the
    pronoun's ("Astarion ... keep him. Shadowheart ... keep her": her is Shadowheart)."""
    return any(
        c.kind == "person" and 0 <= low.find(c.text.lower()) < at and (gender is None or c.gender in (gender, None))
        for c in found.values()
    )


def _named_between(
    found: dict[tuple[str, str], Candidate], candidate: Candidate, low: str, start: int, end: int
) -> bool:
    """Whether another person is named between a name and the pronoun that follows it: the nearer
    person is the pronoun's."""
    between = low[start:end]
    return any(
        c.kind == "person"
        and c.text[:1].isupper()
        and c.text.lower() not in candidate.text.lower()
        and word_at(between, c.text.lower()) != -1
        for c in found.values()
    )


def _first(text: str, needles: tuple[str, ...]) -> int:
    positions = [text.find(n) for n in needles]
    return min([p for p in positions if p >= 0], default=10**9)
