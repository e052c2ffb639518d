"""A class noun that points at a member the conversation named: "that city" after "an offer in
Tallinn", "the martial art" after "swimming or judo", "that fabric" after "a green velvet sofa".

The noun names a class, not the member; no word of the query matches the member, and candidate
ranking would pick the newest noun ("Rust" for "that city"). The lexicon (lexicon.py) says which
named things are members of which class; the latest member the conversation wrote, and the query
did not, is the one meant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from mnemo.retrieve.rewrite.lexicon import GEOGRAPHIC, members
from mnemo.retrieve.rewrite.said import modifies_next

from . import cached_re

#: The query's noun -> the lexicon's classes it names.
CLASS_NOUNS: dict[str, tuple[str, ...]] = {
    "city": ("city",),
    "town": ("city",),
    "country": ("country",),
    "island": ("region",),
    "region": ("region",),
    "breed": ("dog breed", "cat breed"),
    "fabric": ("fabric",),
    "material": ("fabric",),
    "martial art": ("martial art",),
    "spice": ("spice",),
    "herb": ("spice",),
    "dish": ("dish",),
    "cuisine": ("cuisine",),
    "language": ("language", "programming language"),
    "sport": ("sport",),
    "instrument": ("instrument",),
    "cocktail": ("drink",),
    "wine": ("wine",),
    "grape": ("wine",),
    "cheese": ("cheese",),
    "bread": ("bread",),
    "fruit": ("fruit",),
    "vegetable": ("vegetable",),
    "veg": ("vegetable",),
    "flower": ("flower",),
    "plant": ("plant",),
    "houseplant": ("plant",),
    "tree": ("tree",),
    "bird": ("bird",),
    "fish": ("fish",),
    "game": ("game",),
    "dance": ("dance",),
    "genre": ("genre",),
    "drug": ("medicine",),
    "medication": ("medicine",),
    "supplement": ("supplement",),
    "condition": ("condition",),
    "illness": ("condition",),
    "airline": ("airline",),
    "bank": ("bank",),
    "supermarket": ("shop",),
    "exam": ("exam",),
    "festival": ("festival",),
    "library": ("library",),
    "package": ("library",),
    "framework": ("framework",),
    "database": ("database",),
    "browser": ("browser",),
    "editor": ("editor",),
    "distro": ("os",),
}


def class_of(noun: str) -> tuple[str, ...]:
    low = noun.lower().strip()
    return CLASS_NOUNS.get(low) or CLASS_NOUNS.get(low.removesuffix("s"), ())


@lru_cache(maxsize=64)
def _pattern(kinds: tuple[str, ...]) -> re.Pattern[str]:
    names = sorted({m for k in kinds for m in members(k) if len(m) > 2}, key=len, reverse=True)
    return cached_re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w-])", re.IGNORECASE)


def class_member(noun: str, context: Sequence[Mapping[str, str]], query: str = "") -> str | None:
    """The latest member of the noun's class the conversation wrote and the query did not, as
    written ("Tallinn"), or None."""
    kinds = class_of(noun)
    if not kinds:
        return None
    return _latest_member(noun.lower(), kinds, tuple(str(m.get("content") or "") for m in context), query)


@lru_cache(maxsize=256)
def _latest_member(noun: str, kinds: tuple[str, ...], texts: tuple[str, ...], query: str) -> str | None:
    # cached: a query may repeat "that city", and each would rescan the query and the conversation
    pattern = _pattern(kinds)
    own = {m.group(0).lower() for m in pattern.finditer(query)}  # "compared to berlin": not that one
    for text in reversed(texts):
        found = [m.group(0) for m in pattern.finditer(text)]
        found = [f for f in found if f.lower() not in own and f.lower() != noun]
        if found:
            return found[-1]
    return None


def class_members(noun: str, context: Sequence[Mapping[str, str]], query: str = "") -> list[str]:
    """Every member of the noun's class in the latest message that writes one, in the order
    written ("ricotta, mozzarella and parmesan" for "the cheeses")."""
    kinds = class_of(noun)
    if not kinds:
        return []
    pattern = _pattern(kinds)
    own = {m.group(0).lower() for m in pattern.finditer(query)}
    for message in reversed(list(context)):
        found = [m.group(0) for m in pattern.finditer(str(message.get("content") or ""))]
        found = [f for f in dict.fromkeys(found) if f.lower() not in own and f.lower() != noun.lower()]
        if found:
            return found
    return []


def plural_class_noun(noun: str) -> bool:
    """ "cheeses", "spices": the plural of a class noun, which takes every member named together."""
    low = noun.lower()
    return low not in CLASS_NOUNS and bool(class_of(low))


def member_text(reference: str, noun: str, member: str) -> str:
    """What "that city" becomes: "Tallinn"; "that fabric": "the velvet fabric"."""
    if set(class_of(noun)) & GEOGRAPHIC:
        return member  # a place stands alone ("in Tallinn"), not "the Tallinn city"
    if member.lower().endswith(noun.lower()):
        return f"the {member}"
    return f"the {member} {noun}"


_CLASS_REF = re.compile(
    r"\bthe\s+("
    + "|".join(sorted((re.escape(n) for n in CLASS_NOUNS), key=len, reverse=True))
    + r")s?\b(?!\s+(?:of|in|for)\b)",
    re.IGNORECASE,
)


#: Class nouns with a common sense of their own, which "the X" alone does not take from the
#: conversation: "the library" that closes, "the bank holiday", "the country", "the game" on TV.
_OWN_SENSES = frozenset(
    """country library package editor language bank game drug condition exam supermarket illness medication
    plant fish bird tree dance game material""".split()
)


def class_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, noun) for "the martial art", "the spice": a class noun the conversation never
    wrote, one of whose members it did; not a noun that modifies the next word ("the bank holiday")."""
    found = []
    members_of: dict[str, bool] = {}
    for match in _CLASS_REF.finditer(query):
        noun = match.group(1).lower()
        if noun in _OWN_SENSES or modifies_next(query[match.end() :]):
            continue
        if cached_re.search(rf"\b{re.escape(noun)}", context_text, re.IGNORECASE):
            continue  # "the city" after "the city is lovely": the conversation's own noun, other rules
        if noun not in members_of:  # one lookup per noun: a long query may repeat it
            messages = [{"content": line} for line in context_text.split("\n")]
            members_of[noun] = class_member(noun, messages, query) is not None
        if members_of[noun]:
            found.append((match.start(), match.end(), noun))
    return found
