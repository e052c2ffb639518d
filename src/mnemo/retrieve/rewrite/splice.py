"""Putting the replacements into the query so the result still reads as English.

Each replacement was chosen for its reference alone; joined to the words around it, it can double
an article ("the the walk"), keep one before a named possessor ("the Noor's appointment") or leave
a clitic on a noun ("the two instances're"). Pure string work, after the resolver's choices.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_ARTICLE_BEFORE_POSSESSOR = re.compile(
    r"^(?:the|a|an)\s+(?=(?:(?-i:[A-Z][\w-]*)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today"
    r"|yesterday)'s\s)",
    re.IGNORECASE,
)
_DOUBLED_ARTICLE = re.compile(r"\b(the|a|an)\s+(?:the|a|an)\b(?=\s+\w)", re.IGNORECASE)
_DETERMINER_END = re.compile(r"\b(?:the|a|an|my|our|your)\s+$", re.IGNORECASE)
_DETERMINER_START = re.compile(r"^(?:the|a|an)\s+(?=\w)", re.IGNORECASE)
#: Clitics no noun can carry: "they're", "we've", "they'll" spelled out after the replacement.
_CLITIC_AFTER = re.compile(r"['’](re|ve|ll|d)\b", re.IGNORECASE)
_CLITIC_VERBS = {"re": "are", "ve": "have", "ll": "will", "d": "would"}  # "they'd fix" -> "... would fix"
#: What follows a "'d" that is "had": a participle or an adverb of the perfect.
_HAD_NEXT = re.compile(r"\s+(?:already|just|never|ever|been|gone|done|\w+ed|\w+en)\b", re.IGNORECASE)


def tidied_replacement(replacement: str) -> str:
    """One article at most, and none before a named possessor ("the Noor's dentist appointment"
    -> "Noor's dentist appointment": the possessor is the phrase's determiner)."""
    return _ARTICLE_BEFORE_POSSESSOR.sub("", _DOUBLED_ARTICLE.sub(r"\1", replacement))


def spliced(query: str, replacements: Sequence[tuple[int, int, str]]) -> str:
    """``query`` with each (start, end) span, in order and not overlapping, replaced by its text."""
    pieces: list[str] = []
    cursor = 0
    for start, end, text in replacements:
        replacement = tidied_replacement(text)
        before = query[cursor:start]
        if _DETERMINER_END.search(before):  # "the" + "the walk": one determiner
            replacement = _DETERMINER_START.sub("", replacement)
        pieces += [before, replacement]
        cursor = end
        clitic = _CLITIC_AFTER.match(query, cursor)
        if clitic:  # "they're separate" -> "my parents are separate", not "my parents're"
            verb = _CLITIC_VERBS[clitic.group(1).lower()]
            if verb == "would" and _HAD_NEXT.match(query, clitic.end()):
                verb = "had"  # "they'd already left", "she'd been told": the past perfect
            pieces.append(" " + verb)
            cursor = clitic.end()
    return "".join(pieces) + query[cursor:]
