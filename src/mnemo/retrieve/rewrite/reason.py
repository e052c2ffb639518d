"""The reason asked after a report: "did she say why?" after "Grace said the Q3 roadmap review got
moved" asks why the review got moved.

A bare "why" after a verb of saying has lost its clause: it is the clause the chat reported. The
latest "<someone> said (that) <clause>" gives it; the rewrite puts the clause after "why" ("did
Grace say why the Q3 roadmap review got moved?").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: "did she say why?", "did he mention why", "did they explain why": the clause is gone.
_BARE_WHY = re.compile(
    r"\b(?:say|said|mention|mentioned|explain|explained|tell\s+(?:you|me|us)|told\s+(?:you|me|us))\s+(why|how\s+come)"
    r"(?=\s*[?.!]?\s*$)",
    re.IGNORECASE,
)
#: "Grace said the review got moved", "my landlord told me that the rent goes up": the clause reported.
_REPORTED = re.compile(
    r"\b(?:said|says|told\s+(?:me|us)|mentioned|announced|emailed|texted|messaged)\s+(?:that\s+)?"
    r"((?:the|a|an|my|our|his|her|their|its|it|they|he|she|we)\b[^.!?\n]{3,120})",
    re.IGNORECASE,
)


def reason_span(query: str, context_text: str) -> tuple[int, int] | None:
    """Where the bare "why" of a query stands, when the chat reported a clause for it, or None."""
    found = _BARE_WHY.search(query)
    if found is None or not _REPORTED.search(context_text):
        return None  # "did they say why" with nothing reported: no clause to give it
    return found.start(1), found.end(1)


def reason_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "why the Q3 roadmap review got moved": the bare why with the clause the chat reported."""
    for message in reversed(list(context)):
        found = list(_REPORTED.finditer(str(message.get("content") or "")))
        if found:
            return f"{reference} {found[-1].group(1).strip(' ,;:')}"
    return None
