"""The same order again: "order the same again" after "I ordered a large pepperoni from Luigi's
last friday" repeats the whole order - what, and from where - not just the main topic's noun.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: A query that repeats a purchase: "order the same again", "get the same as last time".
_REPEAT = re.compile(
    r"\b(?:order|get|buy|reorder)\b(?:[^.?!]|\.\b)*\bthe\s+same\b(?=\s*(?:again\b|[?!,]|\.\B|$|as\s+(?:before|last\s+time|usual)\b"
    r"|for\s+(?:me|us|tonight|today|tomorrow|sunday|saturday|friday|the\s+weekend)\b))",
    re.IGNORECASE,
)
#: "ordered a large pepperoni from Luigi's", "I got a dozen cinnamon rolls and a sourdough loaf": the
#: speaker's own order ("Jess had the pad see ew" is someone else's).
_ORDERED = re.compile(
    r"(?:^|\b(?:i|we)\s+(?:\w+\s+)?)(?:ordered|bought|got|had)\s+((?:a|an|the|my|our|two|three|\d+)\b(?:[^.!?\n]|\.\b){3,120})",
    re.IGNORECASE,
)
#: When the order was, which the repeat does not repeat: "last friday", "yesterday", "last time".
_WHEN = re.compile(
    r"\s+(?:last\s+\w+|yesterday|this\s+morning|on\s+\w+day|last\s+time|the\s+other\s+day|earlier)\b.*$",
    re.IGNORECASE,
)


#: "Our order from Dough Bros last Friday was two margheritas and garlic bread".
_ORDER_WAS = re.compile(
    r"\b((?:our|my)\s+(?:usual\s+|last\s+)?order\s+(?:from|at)\s+(?:[^,.!?\n]|\.\b)+?)\s+(?:was|were|is)\s+((?:[^.!?\n]|\.\b){3,120})",
    re.IGNORECASE,
)


def repeated_order(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """What "the same" repeats: the latest order the chat told, without its time, or None."""
    if not _REPEAT.search(query):
        return None
    for message in reversed(list(context)):
        if str(message.get("role") or "").lower() not in ("user", "human"):
            continue
        text = str(message.get("content") or "")
        stated = list(_ORDER_WAS.finditer(text))
        if stated:  # "our order from Dough Bros ... was two margheritas": where from, then what
            where = _WHEN.sub("", stated[-1].group(1)).strip(" ,;")
            return f"{where[0].lower()}{where[1:]}: {stated[-1].group(2).strip(' ,;')}"
        found = list(_ORDERED.finditer(text))
        if found:
            return _WHEN.sub("", found[-1].group(1)).strip(" ,;")
    return None
