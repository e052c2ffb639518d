"""What a total adds up: "how much was it in total" after "ordered a pizza for £14, garlic bread
for £5 and delivery was £2.50" is the pizza, the garlic bread and the delivery; "how many rows in
total" after "1.2M rows for january and 980k for february" is January's and February's.

A total sums the amounts of the latest message that gives two or more, each to a thing of its own
("X for £14", "£14 for X", "X was £2.50"). The rewrite names the things summed, which is what a
search needs to find each amount.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

#: "in total", "altogether", "combined", "all together": the query asks for a sum.
TOTAL = re.compile(
    r"\b(?:in\s+total|altogether|all\s+together|(?:what's|what\s+is|whats)\s+the\s+total(?=\s*[?.!]?\s*$))",
    re.IGNORECASE,
)
_FIGURE = r"(?P<amount>[£$€]?\d[\d,]*(?:\.\d+)?\s*(?:k|m|bn|million|thousand)?)(?:\s+[a-z]+)?"
_NAMED_BEFORE = re.compile(
    rf"^\s*(?:(?:ordered|bought|got|paid|spent|had|and)\s+)*(?P<item>.+?)\s+(?:for|at|was|is|were|are|cost|costs|came\s+to)"
    rf"\s+{_FIGURE}\s*$",
    re.IGNORECASE,
)
_NAMED_BARE = re.compile(rf"^\s*(?P<item>[a-z][a-z ]{{1,30}}?)\s+{_FIGURE}\s*$", re.IGNORECASE)  # "tools 180k"
#: "£300 for scaffolding", "the roofer quoted £900 for the repair": the amount, then what it is for.
_NAMED_AFTER = re.compile(
    rf"^\s*(?:and\s+|.*?\b(?:quoted|charged|paid|spent|costs?|charges|wants)\s+)?{_FIGURE}\s+(?:for|on|in)\s+(?P<item>.+?)\s*$",
    re.IGNORECASE,
)
_PARTS = re.compile(r",\s*|;\s*|\s+(?:and|plus)\s+(?=(?:\S+\s+){1,3}(?:for|was|is|are|cost)\b|[£$€\d])")


def summed_items(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The things of the latest message that gives each its own amount (two or more), or []."""
    for message in reversed(list(context)):
        text = str(message.get("content") or "").split(": ", 1)[-1].rstrip(".!?")
        items = []
        for part in _PARTS.split(text):
            found = _NAMED_BEFORE.match(part) or _NAMED_AFTER.match(part) or _NAMED_BARE.match(part)
            if found and len(found.group("item").split()) <= 4:
                items.append(f"{found.group('item')} ({found.group('amount').strip()})")  # "the repair (£900)"
        if len(items) >= 2:
            return items
    return []


def joined(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + f" and {items[-1]}"


_OWN_OBJECT = re.compile(r"\b(?:for|of|on|to|in\s+(?!total\b))\s+(?:a|an|the|my|our|\w+)", re.IGNORECASE)


#: Words of a question for a sum that name nothing counted.
_TOTAL_WORDS = frozenset(
    """how much many what whats what's is are was were it that this the in total altogether all together
    do does did we i you have has had come came to spend spent cost costs so far""".split()
)


def total_span(query: str, context_text: str) -> tuple[int, int] | None:
    """Where "in total" stands in a query that names nothing summed, when the chat gives the things."""
    found = TOTAL.search(query)
    if found is None or _OWN_OBJECT.search(query) or any(w[:1].isupper() for w in query.split()[1:]):
        return None  # "how much is a flight to Paris in total": the query names what it sums
    told = set(cached_re.findall(r"[a-z]+", context_text.lower()))
    own = [w for w in cached_re.findall(r"[a-z]+", query.lower()) if w not in _TOTAL_WORDS and w not in told]
    if own:
        return None  # "how many moons does jupiter have in total": what it counts is its own
    if not summed_items([{"content": line} for line in context_text.split("\n")]):
        return None
    return found.start(), found.end()


def total_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "in total for january and february": the sum with the things it adds up."""
    items = summed_items(context)
    return f"{reference} for {joined(items)}" if items else None


def summed(context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the pizza, garlic bread and delivery": what "it" stands for in "how much was it in total"."""
    items = [cached_re.sub(r"^(?:a|an)\s+", "the ", item, flags=re.IGNORECASE) for item in summed_items(context)]
    return joined(items) if items else None
