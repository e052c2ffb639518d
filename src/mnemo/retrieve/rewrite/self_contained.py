"""References a query's own words already settle: a definite the chat wrote just so ("the back
bedroom"), a span counted from the query's own deed ("rebooked two days later"). Split from
detect.py.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.shaped import SHAPES
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Words that make a definite phrase point rather than name: "the other one", "the new one".
_POINTING_WORDS = frozenset("one ones other same first second third last next previous former latter new old".split())


#: "two days later", "a week later": a span counted from some event.
_COUNTED_LATER = re.compile(r"(?:a\s+few|a|an|\w+)\s+(?:hours?|days?|weeks?|months?|years?)\s+later", re.IGNORECASE)
#: A deed the query reports itself: "my flight was cancelled", "we moved", "i got the results".
_OWN_DEED = re.compile(r"\b(?:was|were|got|had)\s+[a-z]+ed\b|\b(?:i|we|he|she|they)\s+[a-z]{3,}ed\b", re.IGNORECASE)


def counted_from_own_deed(query: str, ref: Reference) -> bool:
    """ "my flight was cancelled and i was rebooked two days later": the span counts from the
    query's own deed, nothing of the conversation."""
    return bool(_COUNTED_LATER.fullmatch(ref.text)) and _OWN_DEED.search(query[: ref.start]) is not None


def named_in_full(ref: Reference, context_text: str) -> bool:
    """A definite of two or more naming words written just so in the conversation ("the back bedroom"
    after "the back bedroom is freezing") names its thing in full: nothing to add."""
    words = ref.text.lower().split()
    if ref.kind != "implicit" or len(words) < 3 or words[0] != "the" or words[-1] in SHAPES:
        return False  # "the slow endpoint" still wants its path
    if any(w in _POINTING_WORDS or w in STOPWORDS or not w.isalpha() for w in words[1:]):
        return False
    return cached_re.search(rf"\b{re.escape(ref.text.lower())}\b", context_text.lower()) is not None
