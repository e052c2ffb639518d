"""An illness as the referent of a question about spreading or curing: "is that contagious to my
peppers?" after "those rings sound like early blight, a fungal disease".

Being contagious, infectious or curable is said of a disease, never of the plant, pet or person
that has it, so "that"/"it" in such a question is the disease the chat named, not the latest thing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.store.sql import STOPWORDS

#: Predicates that select a disease: "is that contagious", "can it spread to", "is it curable".
_OF_DISEASE = re.compile(
    r"\b(?:contagious|infectious|catching|transmissible|curable|treatable|incurable|hereditary|genetic"
    r"|spread(?:s|ing)?\s+to|pass(?:ed)?\s+(?:it\s+)?on\s+to)\b",
    re.IGNORECASE,
)
#: A named illness: "early blight, a fungal disease", "sounds like kennel cough", "it's likely ringworm".
_NAMED = re.compile(
    r"\b(?:like|probably|likely|is|be|it's|its|has|have|got)\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)"
    r"\s*,\s+an?\s+(?:[a-z]+\s+)?(?:disease|infection|virus|condition|fungus|illness|parasite)\b"
    r"|\b((?:[a-z][\w-]*\s+){0,2}(?:blight|rot|mildew|rust|mould|mold|cough|flu|pox|worms?|mites|fever|virus"
    r"|infection|disease))\b",
    re.IGNORECASE,
)
_POINTERS = frozenset({"that", "this", "it"})
_LEADS = frozenset("be like probably likely sounds looks seems".split())


def illness_text(query: str, reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The illness the chat named, when the query asks whether "that"/"it" spreads or heals; else None."""
    if reference.lower() not in _POINTERS or not _OF_DISEASE.search(query):
        return None
    for message in reversed(list(context)):
        found = list(_NAMED.finditer(str(message.get("content") or "")))
        if found:
            words = (found[0].group(1) or found[0].group(2)).split()
            while len(words) > 1 and (words[0].lower() in STOPWORDS or words[0].lower() in _LEADS):
                words = words[1:]  # "could be kennel cough": the illness's own words
            return " ".join(words)
    return None
