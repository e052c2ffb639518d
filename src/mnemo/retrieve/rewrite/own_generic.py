"""A definite in a question put to anyone: "how long before an international flight should you get
to the airport", "can you put a glass dish straight from the fridge into a hot oven", "how long
after moving house do you have to update the address on your driving licence".

The generic "you" and a case of the query's own ("an international flight", "moving house") ask how
things go for anyone, so "the airport" is any airport, not the one the chat named. "can you"
opening a request to the assistant ("can you book the restaurant") is no such question. Pure
functions over the query text.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.pointing import DEMONSTRATIVE, PERSONAL, pointer_words

#: "should you", "do you have to", "if you ...", "can you put ..." (inside the question, not opening it).
_GENERIC_YOU = re.compile(
    r"(?<!^)(?<!^please\s)\b(?:should|do|does|would|can|could|must|will)\s+you\s+(?!know\b|think\b|mean\b)[a-z]"
    r"|\bif\s+you\s+[a-z]|\bwhen\s+you\s+[a-z]|\bdo\s+you\s+(?:have|need)\s+to\b",
    re.IGNORECASE,
)
#: What makes the question general: a time or purpose case of its own ("before an international
#: flight", "after moving house", "for a domestic flight"). "what should you wear to the interview" has
#: none, and "is parking at the hospital free if you have a blue badge" only a circumstance: the chat's.
_OWN_ANCHOR = re.compile(
    r"\b(?:after|before|during|while|for)\s+(?:a|an|any)\s+[a-z]|\b(?:after|before|while)\s+[a-z]+ing\b",
    re.IGNORECASE,
)
#: An opening request to the assistant: "can you", "could you", "will you", "would you".
_REQUEST = re.compile(r"^\s*(?:please\s+)?(?:can|could|will|would)\s+you\b", re.IGNORECASE)
#: Words that point themselves: with one, the definite may be the conversation's.
_POINTERS = pointer_words(*(w for w in PERSONAL if w not in ("its", "their")), *DEMONSTRATIVE)
#: Requests phrased with a generic-looking "you": "do you have the link", "can you send the file".
_TO_ASSISTANT = re.compile(
    r"\b(?:can|could|would|will)\s+you\s+(?:send|check|book|find|remind|tell|give|show|write|make|draft|add|look|"
    r"pull|get|put\s+together|summari[sz]e|email|text|ask|move|update|open|run|share)\b|\bdo\s+you\s+have\s+the\b"
    # "the first thing you said": the assistant's own words, so the chat's
    r"|\byou\s+(?:just\s+)?(?:said|told|mentioned|suggested|gave|recommended|sent|wrote|listed|showed|meant)\b",
    re.IGNORECASE,
)


def generic_definite(query: str, ref_text: str) -> bool:
    """Whether a definite ("the airport") sits in a question put to anyone, with no pointer of its own."""
    if not ref_text.lower().startswith("the "):
        return False
    if _REQUEST.match(query) or _TO_ASSISTANT.search(query) or _POINTERS.search(query):
        return False
    return bool(_GENERIC_YOU.search(query)) and bool(_OWN_ANCHOR.search(query))
