"""What a change of amount applies to: "ask her to raise it to 1000" after "she set the rate limit at
500 requests a minute" raises the rate limit, not the payments API; "can we cut that in half" after
"the conference sponsorship at 60k" halves the sponsorship.

A verb that scales an amount (raise, lower, cut, double, drop ... to N, by N, in half) takes as its
object the thing the chat gave an amount: "<the thing> at/to/of/is <amount>", or "<amount> <things>
a week" for a count over time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

#: "raise it to", "cut that in half", "drop it to four", "double it": a verb of scaling, its object.
_SCALING = re.compile(
    r"\b(?:raise|raising|lower|lowering|increase|increasing|reduce|reducing|bump|bumping|drop|dropping|cut|cutting"
    r"|halve|halving|double|doubling|up|push|lift|trim|decrease|decreasing)\s+$",
    re.IGNORECASE,
)
#: ... to or by an amount: "raise it to 1000", not "raise it to the power of 2".
_HOW = re.compile(
    r"^\s*(?:up\s+|down\s+|back\s+)?(?:(?:to|by)\s+(?:about\s+)?[£$€]?(?:\d|one|two|three|four|five|six|seven|eight|nine|ten)|in\s+half)",
    re.IGNORECASE,
)
_AMOUNT = r"[£$€]?\d[\d,.]*\s*(?:k|m|%)?"
#: "the rate limit at 500", "the conference sponsorship at 60k", "our budget is 40k".
_GIVEN = re.compile(
    rf"\b(?:the|a|an|my|our|your|their)\s+((?:(?!(?:is|was|are|were|set)\b)[\w-]+\s+){{0,3}}?(?!(?:is|was|are|were)\b)[a-z][\w-]*)"
    rf"\s+(?:(?:is|was)\s+(?:set\s+)?(?:at|to)|at|to|of|is|was|=)\s+{_AMOUNT}",
    re.IGNORECASE,
)
#: "5 runs a week", "three sessions per month": a count over time.
_RATE = re.compile(
    r"\b(\d+|two|three|four|five|six|seven)\s+([a-z]{3,}s)\s+(?:a|per|each)\s+(?:day|week|month|year)\b", re.I
)


def scaled_object(before: str, after: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The thing the chat gave an amount, when the pronoun is the object of a verb of scaling."""
    if not _SCALING.search(before) or (
        not _HOW.match(after) and not cached_re.search(r"\b(?:halve|double)\s+$", before, re.I)
    ):
        return None
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        found = [(m.start(), f"the {m.group(1)}") for m in _GIVEN.finditer(text)]
        found += [(m.start(), f"the {m.group(0)}") for m in _RATE.finditer(text)]
        if found:
            return max(found)[1]
    return None


#: "it went up", "it dropped", "has it grown": a change that only an amount undergoes.
_CHANGED = re.compile(
    r"^\s+(?:has\s+|have\s+)?(?:went\s+up|went\s+down|gone\s+up|gone\s+down|rose|risen|dropped|fell|fallen|increased"
    r"|decreased|doubled|halved|spiked|jumped|grew|grown|shrank|climbed)\b",
    re.IGNORECASE,
)
#: "4.2% monthly churn", "8k daily users": an amount before what it measures.
_MEASURED = re.compile(
    r"\b\d[\d.,]*\s*(?:%|k|m)?\s+((?:[a-z]+\s+){0,2}?[a-z]{3,})\b(?=\s*(?:[,;!?]|\.\B|$|and\b|but\b))"
)


#: Words after an amount that say when or how, not what: "3.1% last quarter", "72 in january".
_NOT_MEASURED = frozenset(
    """last next this in on at for from of per a an the and or quarter month year week day days weeks months years
    monthly weekly daily yearly annually hourly
    january february march april may june july august september october november december ago""".split()
)


def changed_amount(after: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "why it went up" after "the report shows 4.2% monthly churn": the monthly churn, or None."""
    if not _CHANGED.match(after):
        return None
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        given = list(_GIVEN.finditer(text))
        measured = [m for m in _MEASURED.finditer(text) if m.group(1).lower().split()[-1] not in _NOT_MEASURED]
        if given or measured:
            latest = max([(m.start(), f"the {m.group(1)}") for m in given + measured])
            return latest[1]
    return None
