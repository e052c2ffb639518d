"""Comparative questions without their options: "so which is actually cheaper?", "what's the price
difference?" ask about the two things the conversation just compared, not about its topic.

The pair is ``lists.compared_pair``'s. A question that names its own options ("which is cheaper,
Lidl or Aldi?") is left to itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.lists import compared_pair

#: "which is cheaper", "which one's actually better", "which would be more reliable", "which has the
#: better ORM".
_WHICH = re.compile(
    r"\bwhich(?:\s+one)?(?:\s+(?:is|was|are|would\s+be|will\s+be)|'s)\s+(?:\w+ly\s+)?"
    r"(?:better|worse|(?:more|less)\s+[a-z]+|(?!(?:under|over|after|other|either|never|ever|order|answer|number"
    r"|paper|letter|user|server|water|weather|whether|winter|summer|dinner|corner|center|centre|matter|rather)\b)"
    r"(?-i:[a-z]{3,}er))\b"
    # "which has the better ORM?", "which one offers more storage?"
    r"|\bwhich(?:\s+one)?\s+(?:has|had|offers|gives|needs|uses|costs)\s+(?:the\s+|a\s+)?"
    r"(?:better|worse|bigger|smaller|cheaper|faster|more|less|fewer|best|worst)\b",
    re.IGNORECASE,
)
#: "the price difference", "what's the difference?" - but not "the difference between X and Y".
_DIFFERENCE = re.compile(r"\bdifference\b(?!\s+(?:between|in|of)\b)", re.IGNORECASE)


#: A question that names its own options after the comparative: "which is cheaper, Lidl or Aldi?".
_OWN_OPTIONS = re.compile(
    r",|\bor\b|\bvs\.?\b|\bversus\b|\bbetween\b|(?<!\bout\s)\bof\s+(?:the|these|those)\b", re.IGNORECASE
)  # "out of the box" is an idiom, no options
#: Options weighed anywhere in the question: "kindle paperwhite vs kobo clara, which is better?".
_WEIGHED_ANYWHERE = re.compile(r"\bvs\.?\s|\bversus\b|\bbetween\s+.{1,60}?\s+and\b", re.IGNORECASE)


def comparison_span(query: str) -> tuple[int, int] | None:
    """The span of a comparative question that names no options ("which has the better ORM?"),
    or None: it points at the pair the conversation compared."""
    found = _WHICH.search(query)
    if found is None or _names_options(query, found):
        return None
    return found.start(), found.end()


def comparison_frame(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The query with the compared pair added ("so which is actually cheaper: Kowalski Roofing or
    Brightside"), or None when it is no comparative question or there is no pair."""
    which = _WHICH.search(query)
    difference = _DIFFERENCE.search(query)
    if (not which and not difference) or _names_options(query, which):
        return None
    pair = compared_pair(context)
    if len(pair) != 2 or any(name.lower() in query.lower() for name in pair):
        return None
    stripped = query.rstrip(" ?.!")
    tail = query[len(stripped) :]
    if which:
        return f"{stripped}: {pair[0]} or {pair[1]}{tail}"
    return f"{stripped} between {pair[0]} and {pair[1]}{tail}"


def _names_options(query: str, which: re.Match[str] | None) -> bool:
    """Whether the question names its own options: after the comparative ("which is cheaper, Lidl
    or Aldi?") or weighed anywhere ("oat vs almond milk, which is better?")."""
    after = which is not None and _OWN_OPTIONS.search(query, which.end()) is not None
    return after or _WEIGHED_ANYWHERE.search(query) is not None
