"""Options told in order rather than listed: "two concerts, first at the cathedral on the 6th and
then at the care home on the 13th" - the first one is at the cathedral; and two kinds that share a
plural noun: "her rabies and leptospirosis vaccines" - the second one is the leptospirosis vaccine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.store.sql import STOPWORDS

from . import cached_re

_FIRST_THEN = re.compile(
    # each option opens with a preposition or a determiner: "first at the cathedral", not "at first we went"
    r"(?<!\bat\s)\bfirst\s+((?:at|in|on|to|with|the|a|an)\s+(?:[^,;.!?]|\.\b)+?)(?:,\s*|\s+)(?:and\s+)?(?:then|after\s+that"
    r"|next)\s+((?:at|in|on|to|with|the|a|an)\s+(?:[^,;.!?]|\.\b)+)",
    re.IGNORECASE,
)


def first_then(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two options of the latest "first X ... then Y", or []."""
    for message in reversed(list(context)):
        found = list(_FIRST_THEN.finditer(str(message.get("content") or "")))
        if found:
            return [_without_preposition(found[-1].group(i).strip()) for i in (1, 2)]
    return []


def _without_preposition(option: str) -> str:
    """ "at the cathedral on the 6th" -> "the cathedral on the 6th": the option, not where it is."""
    return cached_re.sub(r"^(?:at|in|on|to|with)\s+", "", option, flags=re.IGNORECASE)


#: "rabies and leptospirosis vaccines", "the 10am and 2pm slots": two lower-case modifiers of one plural
#: noun. A determiner or a word such as "due" may stand before the first; none is part of an option.
_SHARED_HEAD = re.compile(r"\b([a-z0-9][\w-]*)\s+and\s+([a-z0-9][\w-]*)\s+([a-z]{3,}s)\b")
_NOT_MODIFIERS = frozenset("the a an my our your her his their its both all some any more less".split())


def shared_head_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two kinds of the latest "X and Y <plural noun>", each with the noun made singular, or []."""
    for message in reversed(list(context)):
        for found in reversed(list(_SHARED_HEAD.finditer(str(message.get("content") or "")))):
            first, second, noun = (found.group(i) for i in (1, 2, 3))
            if {first.lower(), second.lower()} & (_NOT_MODIFIERS | STOPWORDS) or noun.endswith("ss"):
                continue
            one = noun[:-1]
            return [f"the {first} {one}", f"the {second} {one}"]
    return []


#: "the orders report ... the invoices report": one modifier, then a head noun two phrases share.
_MODIFIED_HEAD = re.compile(r"\bthe\s+([a-z0-9][\w-]*)\s+([a-z]{3,})\b")


def same_head_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two things of the latest message that names exactly two kinds of one noun ("Elena
    rewrote the orders report ... the invoices report is still slow"), in order, or []."""
    for message in reversed(list(context)):
        by_head: dict[str, list[str]] = {}
        for found in _MODIFIED_HEAD.finditer(str(message.get("content") or "")):
            modifier, head = found.group(1).lower(), found.group(2).lower()
            if modifier in STOPWORDS or head in STOPWORDS:
                continue
            kinds = by_head.setdefault(head.removesuffix("s"), [])
            if found.group(0) not in kinds:
                kinds.append(found.group(0))
        pairs = [kinds for kinds in by_head.values() if len(kinds) == 2]
        if len(pairs) == 1:
            return pairs[0]
    return []


#: "a flea market ... a farmers market": a modifier and a head, after any article.
_KIND_OF_HEAD = re.compile(r"\b(?:the|a|an)\s+([a-z0-9][\w-]*)\s+([a-z]{3,})\b", re.IGNORECASE)


def focused_one(context: Sequence[Mapping[str, str]]) -> str | None:
    """ "that one" after two kinds of one noun, when a later message took up one of them: "a flea
    market by the river and a farmers market ..." then "The farmers market is known for its cheese"
    makes "what time does that one open" the farmers market. None when no later message chose."""
    texts = [str(m.get("content") or "") for m in context]
    for at in range(len(texts) - 1, -1, -1):
        by_head: dict[str, list[str]] = {}
        for found in _KIND_OF_HEAD.finditer(texts[at]):
            modifier, head = found.group(1).lower(), found.group(2).lower()
            if modifier in STOPWORDS or modifier in _NOT_MODIFIERS or head in STOPWORDS:
                continue
            kinds = by_head.setdefault(head, [])
            if modifier not in kinds:
                kinds.append(modifier)
        pairs = {head: kinds for head, kinds in by_head.items() if len(kinds) == 2}
        if not pairs:
            continue
        for later in reversed(texts[at + 1 :]):
            for head, kinds in pairs.items():
                named = [k for k in kinds if cached_re.search(rf"\b{re.escape(k)}\s+{head}\b", later, re.IGNORECASE)]
                if len(named) == 1:
                    return f"the {named[0]} {head}"
        return None
    return None
