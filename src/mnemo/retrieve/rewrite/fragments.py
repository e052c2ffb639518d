"""Fragment follow-ups: "and to Florence?" after "is there a direct train from Milan to Venice?".

A fragment that is only a prepositional phrase is an ellipsis of the previous question with that
phrase swapped: the speaker keeps everything else ("a direct train from Milan") and changes one
argument, marked by its preposition. Reconstructing the question by the substitution keeps all of
its content, which appending a topic cannot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_FRAGMENT = re.compile(
    r"^\s*(?:and|or|but|what\s+about|how\s+about)\s+(to|from|in|at|on|for|with|by|near|into)\s+([^?.!]{1,40}?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
_ARGUMENT = r"(?:the\s+|a\s+|an\s+)?[\w'-]+(?-i:\s+[A-Z][\w'-]*)*"


_QUESTION = re.compile(
    r"^(?:what|which|who|where|when|why|how|is|are|was|were|do|does|did|can|could|will|would|should)\b", re.IGNORECASE
)


def fragment_opener(query: str) -> tuple[str, int, int] | None:
    """ "and to Vis?": the opener of a prepositional fragment (text, start, end), or None. It is
    elliptical even when it names something: the frame it continues is missing."""
    found = _FRAGMENT.match(query)
    if found is None:
        return None
    opener = query[: found.start(1)].rstrip()
    return opener.strip(), len(opener) - len(opener.lstrip()), len(opener)


def substitute(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest user message, when it is a question, with the fragment's phrase swapped in; or None."""
    fragment = _FRAGMENT.match(query)
    if fragment is None:
        return None
    preposition, argument = fragment.group(1).lower(), fragment.group(2).strip()
    pattern = re.compile(rf"\b{preposition}\s+({_ARGUMENT})", re.IGNORECASE)
    for message in reversed(list(context)):
        if str(message.get("role") or "").lower() not in ("user", "human"):
            continue
        text = str(message.get("content") or "").strip()
        if not (text.endswith("?") or _QUESTION.match(text)):
            return None  # a fragment continues the latest question; after a statement it adds to it
        phrases = list(pattern.finditer(text))
        if not phrases:
            continue
        found = phrases[-1]  # the last such phrase: "from Milan to Venice" -> "to Venice"
        rebuilt = text[: found.start(1)] + argument + text[found.end(1) :]
        return rebuilt if rebuilt.endswith("?") or not query.rstrip().endswith("?") else rebuilt.rstrip(".!") + "?"
    return None
