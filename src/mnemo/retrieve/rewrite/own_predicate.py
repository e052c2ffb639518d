"""Definite phrases and times a long question says enough about itself: no topic is attached to them.

"our legacy app still stores passwords as unsalted md5 hashes, how bad is that really?" and
"curl works but the browser gets a CORS error on the same request, why?" name a thing and go on
to say what they ask about it. The definite phrase ("our legacy app", "the same request") leans on
nothing: the query predicates something of it, or compares within itself. Appending the chat's
topic ("... about Google") only pulls the wrong memories.

Short follow-ups keep the topic ("is the error still there?", "ask him to revert the change"):
a phrase counts only when the query has five content words of its own besides it, and a definite
noun only when a verb follows it directly (it is the subject of the query's own clause). News of a
bare definite the chat named ("the quote is 900 pounds" after the builder's quote) and "the same
<noun>" without a comparison of the query's own, or with a noun the chat wrote ("the same colour"
after the chat's Hague Blue), keep the topic too.

A time word with an anchor of its own ("the first year", "before they can face forward", "again")
stands alone in a question of seven content words of its own: "does a car lose most of its value in
the first year" is about cars, not the chat's "should I buy or lease". One that counts from another
time ("which never happened before", "back then", "that year") keeps the chat's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mnemo.retrieve.rewrite.pointing import DEMONSTRATIVE
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Content words of its own a query needs before its definite phrases stand alone.
MIN_OWN_WORDS = 5
#: ... and before its unanchored time words do (measured: six loses an ambiguous row of seedwords_own).
MIN_OWN_WORDS_TIMED = 7
#: What follows the subject of the query's own clause: "the error *is* on a line", "our app *still stores*".
_PREDICATE = (
    r"\s+(?:still\s+|also\s+|always\s+|sometimes\s+|keeps?\s+)?"
    r"(?:is|are|was|were|has|have|had|gets?|got|returns?|shows?|says?|stores?|looks?|seems?|takes?|runs?"
    r"|works?|uses?|needs?|wants?)\b"
)
#: "the same request", "the same tax year": a comparison the query makes; "the same again" or
#: "the same as before", "the same one", "the same with X" and "the same for X" repeat the chat's.
_SAME_NOUN = (
    r"\s+(?!as\b|again\b|thing\b|one\b|with\b|for\b)"
    r"([a-z]{3,}(?:\s+(?!(?:as|and|or|but|with|for|from|in|on|at|to|of)\b)[a-z]{3,})?)"
)
#: What sets up a comparison inside the query: "curl works but the browser ... the same request".
_COMPARED = r"\b(?:but|both|and|one|other|two|each|against|between|versus|vs)\b"
_WORD = re.compile(r"[A-Za-z][\w'-]*")
_STEM = 5
#: Time words that count from some other time: alone, they take the chat's.
_UNANCHORED = frozenset("before after afterwards earlier later since previously then ago".split())
_POINTING = frozenset(DEMONSTRATIVE) - {"there"}


def says_its_own(query: str, pending: Sequence[Reference], no_subject: frozenset[str], chat: str = "") -> bool:
    """Whether every pending reference is a definite phrase or a time word the query itself says
    enough about; ``no_subject`` holds the words besides the stop words that name no subject (light
    verbs, wh-words), ``chat`` is the conversation's text."""
    said = {word.lower()[:_STEM] for word in _WORD.findall(chat)}
    standing = [_self_standing(query, ref, said, chat.lower()) for ref in pending]
    timed = [
        ref.kind == "temporal" and not alone and _anchored(ref) for ref, alone in zip(pending, standing, strict=True)
    ]
    if not pending or not all(alone or time for alone, time in zip(standing, timed, strict=True)):
        return False
    return _own_words(query, pending, no_subject) >= (MIN_OWN_WORDS_TIMED if any(timed) else MIN_OWN_WORDS)


def _self_standing(query: str, ref: Reference, said: set[str], chat: str) -> bool:
    """Whether a definite phrase is the query's own; ``said`` holds the chat's word stems."""
    text = ref.text.lower()
    if text == "the same":  # "the same pizza" after the chat's pizza repeats the chat's order
        noun = cached_re.match(_SAME_NOUN, query[ref.end :], re.IGNORECASE)
        compared = cached_re.search(_COMPARED, query[: ref.start], re.IGNORECASE) is not None
        # the noun less its last letter, so that the chat's "colours" or "flight" counts for "colour", "flights"
        return compared and noun is not None and noun.group(1).lower()[:-1] not in chat
    words = text.split()
    if words[0] not in ("the", "our", "my", "your"):
        return False
    if len(words) == 2 and words[1][:_STEM] in said:
        return False  # "the quote is 1,800 pounds" after the roofer's quote: the chat's quote, news of it
    return cached_re.match(_PREDICATE, query[ref.end :], re.IGNORECASE) is not None


def _anchored(ref: Reference) -> bool:
    """A time word with an anchor of its own ("the first year", "before they can face forward",
    "again"); "before" closing a clause ("which never happened before"), "back then" or "that
    year" count from the chat's time."""
    words = ref.text.lower().split()
    return not (len(words) == 1 and words[0] in _UNANCHORED) and not _POINTING.intersection(words)


def _own_words(query: str, pending: Sequence[Reference], no_subject: frozenset[str]) -> int:
    """Content words of the query outside its references."""
    rest = query
    for ref in sorted(pending, key=lambda r: -r.start):
        rest = rest[: ref.start] + " " + rest[ref.end :]
    ignored = STOPWORDS | no_subject
    return sum(1 for word in _WORD.findall(rest) if word.lower() not in ignored and len(word) > 2)
