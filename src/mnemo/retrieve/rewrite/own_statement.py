"""Whether a query tells its own statement before the question with a reference in it.

"my wife wants to quit her job to open a bakery — how do we plan for a change like that?": a
statement (five words or more, opening with its subject and holding a verb), a break, then the
question. What the question's "that" or "it" points at is the statement (own_situation.py, own_it.py).
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite import cached_re
from mnemo.retrieve.rewrite.reference import Reference

#: A question after the query's own statement: the statement (five words or more, opening with
#: its subject), a break, then the question with the reference.
_STATEMENT = re.compile(
    r"^(?P<statement>(?:my|our|i|i'm|i've|we|we're|we've|an?|the|(?-i:[A-Z])[a-z]+)\s+(?:\S+\s+){3,}?\S+?)"
    r"(?:\s*[—–;:]\s*|\s+-\s+|[,.!]\s+(?:but\s+|so\s+|and\s+)?(?=(?:how|what|should|can|could|would|do|does|is|am|are|was)\b))",
    re.IGNORECASE,
)


#: Openings that refer back themselves ("the same ...", "the other ...") or measure ("a few", "a lot"):
#: no situation of the query's own.
_NOT_STATEMENT = re.compile(
    r"^(?:the\s+(?:same|other|first|second|last|latter|former)|an?\s+(?:other|few|lot|bit))\b", re.IGNORECASE
)


#: A verb in the statement: a word in -s or -ed, a copula, a contraction or a common irregular verb.
FINITE = re.compile(
    r"\b(?:\w+(?:s|ed)|wants?|keeps?|says?|said|told|asked|got|has|have|had|is|are|was|were|am|'m|'s|'re|"
    r"can't|won't|doesn't|didn't|isn't|thinks?|feels?|needs?|made|went|came|took|left|found|lost|gave)\b",
    re.IGNORECASE,
)


def after_statement(query: str, ref: Reference) -> bool:
    """Whether the reference is in a question that follows the query's own statement."""
    found = _STATEMENT.match(query)
    if found is None or found.end() > ref.start or _NOT_STATEMENT.match(query):
        return False
    statement = found.group("statement")
    return bool(FINITE.search(statement)) and not cached_re.search(
        r"\b(?:that|this|it|those|these|then|there)\b", statement, re.IGNORECASE
    )
