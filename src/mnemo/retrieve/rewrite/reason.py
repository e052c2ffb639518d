"""The reason asked after a report: "did she say why?" after "Grace said the Q3 roadmap review got
moved" asks why the review got moved.

A bare "why" after a verb of saying has lost its clause: it is the clause the chat reported. The
latest "<someone> said (that) <clause>" gives it; the rewrite puts the clause after "why" ("did
Grace say why the Q3 roadmap review got moved?").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

#: "did she say why?", "did he mention why", "did they explain why": the clause is gone.
_BARE_WHY = re.compile(
    r"\b(?:say|said|mention|mentioned|explain|explained|tell\s+(?:you|me|us)|told\s+(?:you|me|us))\s+(why|how\s+come)"
    r"(?=\s*[?.!]?\s*$)",
    re.IGNORECASE,
)
#: "Grace said the review got moved", "my landlord told me that the rent goes up": the clause reported.
_REPORTED = re.compile(
    r"\b(?:said|says|told\s+(?:me|us))\s+(?:that\s+)?"
    r"((?:the|a|an|my|our|his|her|their|its|it|they|he|she|we)\b(?:[^.!?\n]|\.\b){3,120})",
    re.IGNORECASE,
)
#: A clause has a finite verb: "the review got moved", "she's fine", not "my sister about the party".
_FINITE = re.compile(r"\b(?:is|are|was|were|got|gets|has|have|had|will|won't|can't|isn't|wasn't|\w+'s|\w+ed|\w+s)\b")
#: The query asks what a person said: "did she say why", "did Omar mention why" (not "did the report say why").
_PERSON_ASKED = re.compile(
    r"\b(?:did|does|has|will|would)\s+(?:he|she|they|(?-i:[A-Z])\w+)\s+(?:say|mention|explain|tell)", re.IGNORECASE
)


def reason_span(query: str, context_text: str) -> tuple[int, int] | None:
    """Where the bare "why" of a query stands, when the chat reported a clause for it, or None."""
    found = _BARE_WHY.search(query)
    if found is None or not _PERSON_ASKED.search(query) or not _REPORTED.search(context_text):
        return None  # "did they say why" with nothing reported: no clause to give it
    return found.start(1), found.end(1)


def reason_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "why the Q3 roadmap review got moved": the bare why with the clause the chat reported."""
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        found = list(_REPORTED.finditer(text))
        if found and cached_re.search(r"[.!?]\s+\S", text[found[-1].end() :]):
            return None  # "Mum said she's fine. But she cancelled her trip": the news came after the report
        if found:
            clause = found[-1].group(1).strip(" ,;:")
            return f"{reference} {clause}" if _FINITE.search(clause) else None
    return None
