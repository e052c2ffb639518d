"""A choice among the things a conversation listed or compared: "the second one", "the cheaper car
quote", "the former", "the other one", "that 1850 one". Split from resolve.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.alternatives import alternative_pair, joined_pair
from mnemo.retrieve.rewrite.comparing import compared
from mnemo.retrieve.rewrite.daytime import DAYTIME_REF, by_daytime
from mnemo.retrieve.rewrite.enumerated import first_then, same_head_pair, shared_head_pair
from mnemo.retrieve.rewrite.lists import (
    GENERIC_ITEM_NOUNS,
    ORDINAL_REF,
    coordinated_pair,
    find_list,
    named_pair,
    pick,
)
from mnemo.retrieve.rewrite.ordinal_noun import ordinal_mention
from mnemo.retrieve.rewrite.picks import other_of_pair, other_of_two, remaining
from mnemo.retrieve.rewrite.properties import (
    COMPARED_NOUN_REF,
    NUMBER_REF,
    ONE_WITH,
    PRICE_ALONE,
    PRICE_REF,
    PROPERTY_REF,
    by_number,
    by_price,
    by_property,
)
from mnemo.retrieve.rewrite.reference import Reference

from . import cached_re

#: Price words and the option nouns that say nothing about which priced things: "the cheaper car
#: quote" says "car".
_LOWEST_HIGHEST = frozenset("cheaper cheapest cheap pricier priciest dearer expensive costlier".split())
_GENERIC_OPTION_WORDS = frozenset("one ones option options choice kind version pair plan quote deal offer".split())


#: "those two", "these two": a pair the chat named or picked.
_PAIR_REF = re.compile(r"(?:those|these|the)\s+two", re.IGNORECASE)
#: "only for the first and the last": two picks from a list.
_TWO_PICKS = re.compile(
    r"\bthe\s+(first|second|third|fourth|last)\s+(?:one\s+)?and\s+the\s+(first|second|third|fourth|last)\b",
    re.IGNORECASE,
)
#: "DATABASE_URL and PGSSLMODE", "Piranesi and Circe": two names joined.
_TWO_NAMES = re.compile(r"(?<![\w-])([A-Z][\w.-]*[A-Za-z0-9])\s+and\s+([A-Z][\w.-]*[A-Za-z0-9])(?![\w-])")


def two_of(context: Sequence[Mapping[str, str]]) -> str | None:
    """The pair "those two" means: two items a message picked from a list ("the first and the
    last"), else the latest two names joined by "and"; None when the chat gives no pair."""
    messages = [str(m.get("content") or "") for m in context][-4:]
    for text in reversed(messages):
        picks = _TWO_PICKS.search(text)
        items = find_list(context) if picks else []
        if picks and len(items) >= 2:
            first, second = pick(items, picks.group(1)), pick(items, picks.group(2))
            if first and second and first != second:
                return f"{first} and {second}"
        named = list(_TWO_NAMES.finditer(text))
        if named:
            return f"{named[-1].group(1)} and {named[-1].group(2)}"
    return None


def ordinal_choice(ref: Reference, context: Sequence[Mapping[str, str]], query: str = "") -> tuple[str, float] | None:
    """A choice among listed or mentioned things: by number, by property, "the other", "the second"."""
    timed = DAYTIME_REF.fullmatch(ref.text)
    if timed:  # "the morning one": the option the chat timed in the morning
        chosen = by_daytime(timed.group(1), context)
        return (chosen, 0.8) if chosen else None
    if NUMBER_REF.fullmatch(ref.text):
        numbered = by_number(ref.noun or "", context)  # "that 1850 one" -> "FenceRight"
        return (numbered, 0.8) if numbered else None
    if not ORDINAL_REF.match(ref.text):
        prop = (
            PRICE_REF.fullmatch(ref.text)
            or PRICE_ALONE.fullmatch(ref.text)
            or PROPERTY_REF.fullmatch(ref.text)
            or ONE_WITH.match(ref.text)
            or COMPARED_NOUN_REF.fullmatch(ref.text)
        )
        topic = [w for w in ref.text.lower().split()[2:] if w not in _GENERIC_OPTION_WORDS and w not in _LOWEST_HIGHEST]
        priced = by_price(prop.group(1), context, topic) if prop else None  # "the cheaper one": the lower price
        if priced:
            return priced, 0.75
        by_prop = by_property(prop.group(1), context) if prop else None  # "the configurable one" -> "Jira"
        if by_prop:
            return by_prop, 0.75
        pair = two_of(context) if _PAIR_REF.fullmatch(ref.text) else None
        if pair:  # "add those two" after "DATABASE_URL and PGSSLMODE aren't set"
            return pair, 0.75
        chosen = compared(ref.text, context)  # "which of the two" -> "which of Rotterdam and Utrecht"
        return (chosen, 0.8) if chosen else None
    if ref.text.lower().split()[1:2] == ["other"]:
        contrast = other_of_pair(context) if ref.noun in (None, "one") else None
        if contrast:  # "does the paperwhite do epub?" ... "and the other one?": the Clara
            return contrast, 0.8
        single = not cached_re.search(r"\b(?:two|three|ones|options|ones)\b", ref.text, re.IGNORECASE)
        contrast = other_of_two(context) if single else None  # "the other option": "ask the vendor for ..."
        if contrast and cached_re.match(r"(?:the|a|an|my|our|your)\s|[A-Z0-9]", contrast):
            return contrast, 0.75
        if contrast:  # an option told as a deed keeps the noun: "the other option (ask the vendor ...)"
            return f"{ref.text} ({contrast})", 0.75
        rest = remaining(context)  # "the other two": the listed items nobody has taken up since
        if rest:
            return (", ".join(rest[:-1]) + f" and {rest[-1]}" if len(rest) > 1 else rest[0]), 0.75
    found = ORDINAL_REF.match(ref.text)
    items = find_list(context, asked=query) if found else []
    noun = (found.group(2) or "").lower() if found else ""
    if noun and noun not in GENERIC_ITEM_NOUNS and not any(noun.rstrip("s") in i.lower() for i in items):
        mention = ordinal_mention(found.group(1), noun, context) if found else None
        if mention:  # "the first db": the earliest db told of, when no list names dbs
            told = cached_re.match(r"(?:the|a|an|my|our|your|their)\s", mention, re.IGNORECASE)
            return (mention if told else f"{ref.text} ({mention})"), 0.75  # a deed keeps the noun
    alternatives = alternative_pair(context) if found and found.group(1).lower() in ("former", "latter") else []
    if alternatives:
        items = alternatives  # "tile or vinyl": the latest "or" of the recent messages
    elif (
        found
        and found.group(1).lower() in ("former", "latter")
        and not all(cached_re.search(r"[A-Z0-9]", i) for i in items)
    ):
        items = named_pair(context) or items  # "Fatima and Gregor" inside prose the list finder misread
    if found and found.group(1).lower() in ("former", "latter") and not alternatives:
        items = coordinated_pair(context) or items  # a pair, by definition: "A, which ..., or B"
        items = items if len(items) >= 2 else joined_pair(context)  # last: "brake pads now (180) and a belt"
    elif found and len(items) < 2 and found.group(1).lower() in ("first", "second", "last", "other"):
        # "You have the vendor call with Ferro at 11 and the design review at 3": an answer's pair
        items = find_list(context, pairs=True)
        # "A grows tax-free, while B gives a deduction": two options
        items = items if len(items) >= 2 else first_then(context)  # "first at the cathedral, then at ..."
        items = items if len(items) >= 2 else coordinated_pair(context)
        items = items if len(items) >= 2 else shared_head_pair(context)  # "rabies and lepto vaccines"
        items = items if len(items) >= 2 else same_head_pair(context)  # "the orders report ... the invoices report"
    item = pick(items, found.group(1)) if found and items else None
    return (item, 0.85) if item else None
