"""What "like before", "the same" and "another one" repeat when the user asked for or did it.

"like before, but a bit more formal" after "Write a short birthday message for my colleague Ben"
repeats the request; "walk me through doing the same on the db box" after "I just disabled password
login over SSH on the web server" repeats the deed. A later "Now I need one for my boss, Karen"
says what the repeat is for. Pure functions over the messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.wordfind import sentences, stems

from . import cached_re

#: A request opening its sentence: "Write a SQL query ...", "Can you draft a note ...", "Give me ...".
_REQUEST = re.compile(
    r"^(?:(?:can|could|would)\s+you\s+(?:please\s+)?|please\s+)?"
    r"((?:write|draft|give\s+me|make|create|generate|build|compose|suggest|plan|put\s+together|set\s+up)\b.+)",
    re.IGNORECASE,
)
#: A deed the user reports: "I just disabled password login ...", "We added a health check ...".
_DEED = re.compile(
    r"^(?:I|[Ww]e)\s+(?:just\s+|finally\s+|already\s+)?((?!(?:need|needed|feed|seed|speed|used|tried|wanted)\b)"
    r"(?:[a-z]{2,}ed|set|put|made|wrote|built)\b"
    # "printed it and stuck it on the fridge": done to what was made, not a deed to repeat
    r"(?!\s+(?:it|them|that|this|those|these)\b).+)"
)
#: A later message saying what the repeat is for: "Now I need one for my boss, Karen."
_FOR_WHAT = re.compile(
    r"\b(?:need|want|wants|needs)\s+(?:one|another(?:\s+one)?|their\s+own|the\s+same)\s+(for\s+(?:[^.!?]|\.\b)+)",
    re.IGNORECASE,
)
_MAX_WORDS = 16


def repeated_request(context: Sequence[Mapping[str, str]]) -> str | None:
    """The user's latest request or deed, with what a later message wants it for, or None."""
    said = [str(m.get("content") or "") for m in context if str(m.get("role") or "") in ("user", "human")]
    wanted_for = None
    for text in reversed(said):
        for sentence in reversed(sentences(text.strip())):
            sentence = sentence.strip().rstrip(".!?")
            aim = _FOR_WHAT.search(sentence)
            if aim is not None:  # "Now I need one for my boss, Karen": the repeat's new purpose
                wanted_for = wanted_for or aim.group(1).strip(" ,")
                continue
            found = _REQUEST.match(sentence) or _DEED.match(sentence)
            if found is not None:
                words = found.group(1).split()
                clause = " ".join(words[:_MAX_WORDS]).rstrip(",;:")
                clause = clause[0].lower() + clause[1:]
                return f"{clause}, now {wanted_for}" if wanted_for else clause
    return None


#: The phrases whose repeat is the user's own request or deed ("as usual" repeats only a habit).
REPEATING = frozenset({"the same", "like before", "another one"})

#: What a sentence says when it tells a habit: "I always order tulips", "We normally tag from main".
_HABIT = re.compile(r"\b(?:always|usually|normally|typically|every|each|regular(?:ly)?)\b", re.IGNORECASE)


def habit(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "as usual": the user's sentence that tells a habit and shares a word with the query ("the order
    as usual" after "I always order tulips"; "tagged as usual" after "we normally tag from main"), the
    one sharing most; None when no habit the chat told is the query's ("is the office open on Monday
    as usual" after "I normally take the 8:10 train")."""
    own = stems(query, 3) - {"usu"}  # "as usual" itself meets every "usually"
    told = [
        sentence.strip().rstrip(".!?")
        for m in context
        if str(m.get("role") or "") in ("user", "human")
        for clause in sentences(str(m.get("content") or "").strip())
        for sentence in cached_re.split(r",\s+(?:and|but)\s+", clause)
        if _HABIT.search(sentence)
    ]
    found = max(reversed(told), key=lambda s: len(own & stems(s, 3)), default=None)
    if found is None or not own & stems(found, 3):
        return None
    return _mid_sentence(" ".join(found.split()[:_MAX_WORDS]))


def _mid_sentence(clause: str) -> str:
    """A sentence's opening capital lowered for a place mid-query; "I" and names keep theirs."""
    first = clause.split()[0]
    return clause[0].lower() + clause[1:] if first in ("We", "My", "Our", "On", "For", "Every") else clause
