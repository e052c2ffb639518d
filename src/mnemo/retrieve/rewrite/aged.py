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


def aged_kind(context_text: str) -> str | None:
    """The kind the conversation last named beside an age word ("sofa", "composite index"), or None."""
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
    found = [(m.start(), m.end(), m.group(2).lower()) for m in AGED_REF.finditer(query)]
    return found if found and aged_kind(context_text) else []


def aged_text(reference: str, context_text: str) -> str | None:
    """What "the old one" becomes: "the old sofa"."""
    kind = aged_kind(context_text)
    if kind is None:
        return None
    words = reference.split()
    return " ".join([*words[:-1], kind])
