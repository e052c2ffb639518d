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

#: "raise it to", "cut that in half", "drop it to four", "double it": a verb of scaling, its object.
_SCALING = re.compile(
    r"\b(?:raise|raising|lower|lowering|increase|increasing|reduce|reducing|bump|bumping|drop|dropping|cut|cutting"
    r"|halve|halving|double|doubling|up|push|lift|trim|decrease|decreasing)\s+$",
    re.IGNORECASE,
)
_HOW = re.compile(r"^\s*(?:up\s+|down\s+|back\s+)?(?:to|by|in\s+half|down|up)\b", re.IGNORECASE)
_AMOUNT = r"[£$€]?\d[\d,.]*\s*(?:k|m|%)?"
#: "the rate limit at 500", "the conference sponsorship at 60k", "our budget is 40k".
_GIVEN = re.compile(
    rf"\b(?:the|a|an|my|our|your|their)\s+((?:[\w-]+\s+){{0,3}}?[a-z][\w-]*)\s+(?:at|to|of|is|was|=)\s+{_AMOUNT}",
    re.IGNORECASE,
)
#: "5 runs a week", "three sessions per month": a count over time.
_RATE = re.compile(
    r"\b(\d+|two|three|four|five|six|seven)\s+([a-z]{3,}s)\s+(?:a|per|each)\s+(?:day|week|month|year)\b", re.I
)


def scaled_object(before: str, after: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The thing the chat gave an amount, when the pronoun is the object of a verb of scaling."""
    if not _SCALING.search(before) or (
        not _HOW.match(after) and not re.search(r"\b(?:halve|double)\s+$", before, re.I)
    ):
        return None
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        found = [(m.start(), f"the {m.group(1)}") for m in _GIVEN.finditer(text)]
        found += [(m.start(), f"the {m.group(0)}") for m in _RATE.finditer(text)]
        if found:
            return max(found)[1]
    return None
