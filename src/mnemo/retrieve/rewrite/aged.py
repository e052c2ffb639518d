"""The old one and the new one: "how do i get the old one down the stairs" after "our new sofa".

A replacement sets up a pair of the same kind, told apart by age: "our new sofa arrives thursday
and the old one goes to my cousin". The query's "the old one" is that kind's other member, and the
noun "one" stands for is written only beside "new" or "old". Candidate ranking reads "one" as
nothing; the noun beside the age word is read here.
"""

from __future__ import annotations

import re

from mnemo.store.sql import STOPWORDS

#: "the old one", "the new ones", "the current one": a member of an old/new pair.
AGED_REF = re.compile(r"\bthe\s+(old|new|current|previous|original)\s+(one|ones)\b", re.IGNORECASE)
#: Where the conversation names the kind beside an age word ("our new sofa", "the old boiler").
_AGED_KIND = re.compile(
    r"\b(?:new|old|current|previous|original|replacement)[ ]+([a-z][a-z-]+)(?:[ ]+([a-z][a-z-]+))?", re.IGNORECASE
)
#: Words after an age word that name no kind: "new one", "old year", "new things".
_NOT_KINDS = frozenset("one ones year years week weeks day days month months things stuff lot".split())
#: Words that end the kind's phrase rather than continue it: "the old car last", "the old landlord still".
_NOT_SECOND = STOPWORDS | _NOT_KINDS | frozenset("last still just now already too again yet privately soon".split())


#: A thing the conversation says was replaced, so that there is a new one: "the staging SSO cert
#: rotated", "our boiler died", "renewed the passport".
_REPLACED = re.compile(
    r"\b(?:the|my|our|their|his|her|its)\s+((?:[\w-]+\s+){0,2}?[a-z][a-z-]+)\s+(?:was\s+|got\s+|has\s+been\s+|just\s+)?"
    r"(?:rotated|replaced|renewed|expired|died|broke|upgraded|swapped)\b"
    r"|\b(?:rotated|replaced|renewed|swapped)\s+(?:the|my|our|their)\s+((?:[\w-]+\s+){0,2}?[a-z][a-z-]+)\b",
    re.IGNORECASE,
)
#: "one" with an age word in the conversation itself: "our current one is falling apart".
_AGED_ONE = re.compile(r"\b(?:new|old|current|previous|original|existing)\s+one\b", re.IGNORECASE)
#: The thing a conversation's first noun phrase names: "we finally picked a sofa, ...".
_PICKED = re.compile(r"\b(?:a|an|the|my|our)\s+([a-z][a-z-]{2,})\b(?=\s*(?:[,;!?]|\.\B|$|\s+(?:for|from|in|at|and)\b))")


def aged_kind(context_text: str) -> str | None:
    """The kind the conversation last named beside an age word ("sofa", "composite index"), else
    the thing it says was replaced ("cert" after "the staging SSO cert rotated"), or None."""
    return _beside_age_word(context_text) or _replaced(context_text) or _one_antecedent(context_text)


def _replaced(context_text: str) -> str | None:
    found = [m.group(1) or m.group(2) for m in _REPLACED.finditer(context_text)]
    words = found[-1].split() if found else []
    return words[-1].lower() if words and words[-1].lower() not in STOPWORDS else None


def _one_antecedent(context_text: str) -> str | None:
    """What "our current one" stands for: the noun the conversation named just before it."""
    aged = _AGED_ONE.search(context_text)
    if aged is None:
        return None
    nouns = [m.group(1).lower() for m in _PICKED.finditer(context_text, 0, aged.start())]
    nouns = [n for n in nouns if n not in STOPWORDS and n not in _NOT_KINDS and not n.endswith(("ly", "ing"))]
    return nouns[-1] if nouns else None


def _beside_age_word(context_text: str) -> str | None:
    found = None
    for match in _AGED_KIND.finditer(context_text):
        first, second = match.group(1).lower(), (match.group(2) or "").lower()
        if first in STOPWORDS or first in _NOT_KINDS:
            continue
        # a second word continues the noun ("composite *index*"), a verb or adverb after it does not
        compound = second.isalpha() and second not in _NOT_SECOND and not second.endswith(("s", "ed", "ing", "ly"))
        found = f"{first} {second}" if compound else first
    return found


def aged_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, noun) for each "the old one" when the conversation names what "one" is."""
    found = [
        (m.start(), m.end(), m.group(2).lower())
        for m in AGED_REF.finditer(query)
        if not _MAKER.match(query[m.end() :])  # "the new one from Apple": a maker's product, not the chat's thing
    ]
    return found if found and aged_kind(context_text) else []


_MAKER = re.compile(r"\s+(?:from|by)\s+(?-i:[A-Z])", re.IGNORECASE)


def aged_text(reference: str, context_text: str) -> str | None:
    """What "the old one" becomes: "the old sofa"."""
    kind = aged_kind(context_text)
    if kind is None:
        return None
    words = reference.split()
    return " ".join([*words[:-1], kind])
