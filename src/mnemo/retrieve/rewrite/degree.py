"""Degree "that"/"this" and reported claims: two uses of a demonstrative that point at nothing in
the conversation.

"is it really that bad", "were my periods this heavy before the switch": before a gradable adjective
at the end of a clause, "that" says how much, not which. "i read that fasting lowers blood sugar, is
there evidence for that?": after a claim the query itself reports, "that" is the claim.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.names import AUXILIARIES as _AUX
from mnemo.retrieve.rewrite.names import PUNCTUATION as PUNCT

#: Adjectives that "that"/"this" grade ("that bad", "this heavy"); with the suffixes below, enough.
_GRADABLE = frozenset(
    """bad good big small hard easy cheap long short late early far near hot cold busy slow fast high low old young
    much many heavy light loud quiet strong weak serious different important expensive difficult tired
    sick ill worried keen bright dark full empty deep wide thick thin rich poor common rare""".split()
)
#: A claim the query reports before pointing at it: "i read that ..., ", "my friend says that ...; ".
REPORTED = re.compile(r"\b(?:read|heard|says|said|claims?|told\s+me|reckons?)\s+that\b[^?]*[,;:.]\s", re.IGNORECASE)
_NOW = frozenset("now today nowadays these days anymore already yet still".split())
_QUESTION_OPENERS = frozenset("so and but then why how when where what which who ok okay hmm wait".split())
_GRADABLE_ENDINGS = ("ive", "ful", "ous", "ble", "ant", "ent", "ical", "less")
#: What may follow a graded adjective: the clause's end or a phrase that is no noun.
_AFTER_DEGREE = frozenset("before after when if for to in on at compared again anymore though or and but than".split())


def predicative(word: str) -> bool:
    """Whether ``word`` is an adjective that ends a noun phrase as its predicate: "is that place
    good", "was that hotel cheap" (a gradable adjective after the noun says nothing of which noun)."""
    return word in _GRADABLE


def graded(before: list[str], nxt: str, after: str) -> bool:
    """Whether "that"/"this" grades the adjective after it: a copula or a verb earlier in the
    query, a gradable adjective next, and the end of the clause (or a preposition) after it."""
    # "-ment" ends nouns, not adjectives: "save that document", "that payment"
    gradable = nxt in _GRADABLE or (len(nxt) > 5 and nxt.endswith(_GRADABLE_ENDINGS) and not nxt.endswith("ment"))
    ends = not after or after in PUNCT or after in _AFTER_DEGREE or after.endswith(("ly", "where")) or after in _NOW
    graded = any(w in _AUX or w in ("really", "so", "not", "quite", "it's", "that's") for w in before)
    # "is that doable", "so was that expensive": a copula that opens the question has "that" as its
    # subject; "the exam was this hard" has a subject of its own
    opener = len(before) < 2 or before[-2] in PUNCT or before[-2] in _QUESTION_OPENERS
    subject = bool(before) and before[-1] in _AUX and opener
    return gradable and ends and graded and not subject
