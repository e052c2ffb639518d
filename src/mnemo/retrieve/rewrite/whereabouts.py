"""Where "here" and "there" are when the user says so.

"who handles IT here" after "I'm at the Dublin office this week, normally I'm in London" is the
Dublin office - the place the user is at, not the one they usually are; "can I get a student discount
there" after "I think I'll go for the leisure centre" is the place the user settled on. Pure functions
over the messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.endorsed import settled_on
from mnemo.retrieve.rewrite.names import PLACE_NOUNS
from mnemo.retrieve.rewrite.tidy import without_determiner

from . import cached_re

#: "I'm at the Dublin office this week", "I'm working from the public library today".
_AT = re.compile(
    r"\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+)?(?:at|in|working\s+(?:from|at|in)|staying\s+(?:at|in)|sitting\s+in)\s+"
    r"((?:the|a|an|my|our)\s+[\w'-]+(?:\s+[\w'-]+){0,3}?|[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)"
    r"(?=\s+(?:today|tonight|this\s+(?:week|morning|afternoon|evening)|right\s+now|now|for\s+the)\b|\s*(?:[,;!?]|\.\B)|\s*$)"
)
#: A place the user is only as a habit, not now: "normally I'm in London".
_HABITUAL = re.compile(r"\b(?:normally|usually|typically|always|often)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[.;!?]\s+|,\s+")


def present_place(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest place the user says they are at now, or None."""
    for message in reversed(list(context)):
        if str(message.get("role") or "") not in ("user", "human"):
            continue
        for clause in reversed(_CLAUSE.split(str(message.get("content") or ""))):
            found = _AT.search(clause)
            if found is not None and not _HABITUAL.search(clause) and _a_place(found.group(1)):
                return found.group(1)
    return None


#: Heads of a place one can be at: "the Dublin office", "the public library" ("a hurry", "a bad place
#: mentally" are states).
_PLACE_HEADS = PLACE_NOUNS | {"centre", "center", "library", "branch", "site", "lab", "warehouse", "flat", "apartment"}


def _a_place(phrase: str) -> bool:
    """A name ("Lisbon", "the Dublin office") or a phrase whose head is a place noun."""
    words = phrase.split()
    named = any(w[:1].isupper() for w in words[1:]) or (words[0][:1].isupper() and words[0] not in _DETERMINERS)
    return named or words[-1].lower() in _PLACE_HEADS


_DETERMINERS = frozenset({"The", "A", "An", "My", "Our"})


def whereabouts(pointer: str, places: Sequence[str], context: Sequence[Mapping[str, str]]) -> str | None:
    """ "here": where the user is now; "there": the place the user settled on, when it is one of
    ``places`` or a site weighed before; else None (the ordinary ranking decides)."""
    if pointer == "here":
        return present_place(context)
    settled = settled_on(context) if pointer == "there" else None
    if settled is None:
        return None
    site = settled.split()[-1].lower() in _SITES and _offered_before(settled, context)
    return settled if site or any(settled.lower() in place.lower() for place in places) else None


#: Heads that name a place one goes to, beside the place nouns: "the leisure centre", "the club".
_SITES = PLACE_NOUNS | {"centre", "center", "club", "branch", "library", "site", "campsite", "resort", "spa", "clinic"}


def _offered_before(choice: str, context: Sequence[Mapping[str, str]]) -> bool:
    """Whether a message before the last named the settled choice - one of the options weighed, not a
    thing the user only now brings in ("I'll go for the chicken club") - and the last names no other
    place after it ("... I'm visiting her in Bristol next weekend")."""
    bare = without_determiner(choice).lower()
    last = str(list(context)[-1].get("content") or "") if context else ""
    after = last[last.lower().find(bare) + len(bare) :] if bare in last.lower() else ""
    if cached_re.search(r"\b(?:in|at|to|visiting)\s+[A-Z]", after):
        return False
    return any(bare in str(m.get("content") or "").lower() for m in list(context)[:-1])
