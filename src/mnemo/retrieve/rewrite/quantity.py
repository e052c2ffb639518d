"""A quantity the chat told, pointed at by "that much", "that long" or "that far".

"what should I check before paying that much" after "an Aeron on Marketplace for £350", "can I get a
reference when it was only that long" after "a 6-month contract", "is it safe to drive that far"
after "it's 420 km to Lyon". Elsewhere "that" before a gradable word says how much and points at
nothing ("is it really that bad", degree.py); these three words are read as a pointer only when the
chat holds a quantity of their kind, and the rewrite keeps the words and adds the quantity:
"paying that much (£350)".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_NUMBER_WORDS = (
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|a\s+couple\s+of|\d+(?:\.\d+)?)"
)
#: The quantities each word measures, in the chat's own words.
_KINDS = {
    "much": re.compile(
        r"(?<![\w£$€])(?:[£$€]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn)\b)?"
        r"|\d[\d,]*(?:\.\d+)?\s?(?:k|dollars|pounds|euros|quid|bucks|usd|gbp|eur)\b)",
        re.IGNORECASE,
    ),
    "long": re.compile(
        rf"\b{_NUMBER_WORDS}[\s-](?:minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?)\b", re.IGNORECASE
    ),
    "far": re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:km|kilomet(?:re|er)s?|miles?|mi)\b", re.IGNORECASE),
}
#: "that much" followed by a comparative or an adjective grades it: "that much harder", "that long ago".
_POINTER = re.compile(
    r"\bthat\s+(much|long|far)\b(?!\s+(?:more|less|fewer|ago|[a-z]+er\b|of\b|[a-z]+ly\b))", re.IGNORECASE
)


def quantity_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """Where "that much/long/far" points at a quantity of its kind in the chat: (start, end, word)."""
    if "that" not in query.lower():
        return []
    found = []
    for match in _POINTER.finditer(query):
        word = match.group(1).lower()
        if _KINDS[word].search(query) or not _KINDS[word].search(context_text):
            continue  # the query measures its own quantity ("is 3 weeks that long"), or the chat gave none
        found.append((match.start(), match.end(), word))
    return found


def quantity_text(reference: str, word: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "that much (£350)": the latest quantity of the word's kind, after the words themselves."""
    pattern = _KINDS.get(word)
    if pattern is None:
        return None
    for message in reversed(list(context)):
        told = pattern.findall(str(message.get("content") or ""))
        if told:
            return f"{reference} ({' '.join(told[-1].split())})"
    return None
