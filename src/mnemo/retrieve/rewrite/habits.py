"""Habits as referents: "how do I stop him doing that" after "he keeps pushing straight to main".

A "doing that" stands for what someone keeps doing, and the chat tells it as a progressive or a
"keeps ..." verb phrase ("my cat keeps scratching the sofa", "he's pushing straight to main") or
as a habit in the present tense ("my neighbour parks across my driveway every morning"). The
verb phrase is read to the end of its clause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

_CLAUSE_WORDS = r"(?:\s+(?!and\b|but\b|because\b|so\b|which\b|or\b|when\b|while\b|if\b)[\w'-]+){0,6}"
#: "keeps scratching the sofa", "he's pushing straight to main", "is always leaving the door open".
_ONGOING = re.compile(
    r"(?:\b(?:keeps?|kept|keeps\s+on|is|are|was|were)|'s|'re)\s+(?:always\s+|constantly\s+|still\s+)?"
    rf"((?!going\b|getting\b|being\b|doing\b)[a-z]{{3,}}ing\b{_CLAUSE_WORDS})",
    re.IGNORECASE,
)
#: "my neighbour parks across my driveway every morning": a person's present-tense habit, its
#: subject opening a clause and its verb followed by a preposition, a particle or a determiner (so
#: "my son loves Bluey" is no habit, nor "put the college friends at the round table").
_PRESENT = re.compile(
    r"(?:^|[,;]\s*|\band\s+|\bbut\s+)(?:he|she|they|(?-i:[A-Z][a-z]+)|(?:my|our)\s+[a-z]+)\s+"
    r"(?:always\s+|constantly\s+|often\s+)?"
    r"((?!is\b|has\b|was\b|does\b|says\b)[a-z]{3,}s\s+(?:across|on|in|at|into|onto|over|under|through|around"
    rf"|up|out|off|the|my|our|his|her|their|a|an)\b{_CLAUSE_WORDS})",
    re.IGNORECASE,
)


def ongoing(context: Sequence[Mapping[str, str]], max_messages: int = 4) -> tuple[str, str] | None:
    """The latest habit the chat tells, as ("ing", "scratching the sofa") or ("s", "parks across
    my driveway every morning"); the user's messages first, since they tell what happens."""
    recent = list(context)[-max_messages:]
    users = [m for m in reversed(recent) if str(m.get("role") or "").lower() in ("user", "human")]
    for message in users:
        text = str(message.get("content") or "")
        for sentence in reversed(cached_re.split(r"(?<=[.?!])\s+", text)):
            if sentence.rstrip().endswith("?"):
                continue
            found = list(_ONGOING.finditer(sentence))
            if found:
                return "ing", found[-1].group(1).rstrip(" .!,;")
            present = list(_PRESENT.finditer(sentence))
            if present:
                return "s", present[-1].group(1).rstrip(" .!,;")
    return None
