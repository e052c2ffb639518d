"""A problem pointed at: "is there a workaround for this?", "what caused that?".

When a question asks for a fix or a cause, a bare "this" or "that" points at the problem
the conversation described - a whole clause ("the parser chokes on YAML files with anchors"),
which no single noun phrase stands for: "the parser" is not what needs a workaround. The clause is
the latest sentence of the last few messages that reports something going wrong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

#: What a question asks for when "this" is a problem: a remedy or a cause ("why" asks about anything).
PROBLEM_QUESTION = re.compile(
    r"\b(?:workaround|fix|fixes|solution|solve|remedy|cause[ds]?|causing|prevent|avoid|debug|troubleshoot)\b",
    re.IGNORECASE,
)
#: What a sentence says when it reports something going wrong (a failure, not a negation: "I
#: can't wait" and "it isn't far" report nothing broken).
_GOING_WRONG = re.compile(
    r"\b(?:fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|breaks|broke(?:n)?|chokes?|choked|hangs|freez(?:es|ing)|froze"
    r"|went\s+(?:up|down)|dropped|spiked|leak(?:s|ing)|throws|timed\s+out|times\s+out|not\s+working"
    r"|stopped\s+(?:working|responding|firing|syncing|loading)|corrupt(?:s|ed))\b",
    re.IGNORECASE,
)
_LOWER_OPENERS = frozenset("the a an my our your his her their this that it we they there".split())
_RECENT = 4
_MAX_WORDS = 14


def problem_clause(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest sentence of the last few messages that reports a problem, or None."""
    for message in reversed(list(context)[-_RECENT:]):
        text = str(message.get("content") or "")
        for sentence in reversed(cached_re.split(r"(?<=[.!?])\s+|\n", text)):
            sentence = sentence.strip().rstrip(".!?")
            if _GOING_WRONG.search(sentence) and not sentence.endswith("?") and len(sentence.split()) <= _MAX_WORDS:
                first = sentence.split()[0]
                # a sentence's capital goes, a name's stays ("numPy 2.0 breaks my build")
                return sentence[0].lower() + sentence[1:] if first.lower() in _LOWER_OPENERS else sentence
    return None


def problem_text(query: str, reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "this (the parser chokes on YAML files with anchors)" for a bare "this"/"that" in a question
    after a remedy or a cause; None otherwise."""
    if reference.lower() not in ("this", "that") or not PROBLEM_QUESTION.search(query):
        return None
    clause = problem_clause(context)
    return f"{reference} ({clause})" if clause else None
