"""A long query that names its own matter: no reference in it points at the chat.

"I've inherited a function that's 400 lines long, is there a rule of thumb for when to break up
something like that?" after a chat about variable names, or "the freelance developer who built
our website won't hand over the wordpress admin login, can he legally keep it from us?" after one
about a domain registrar: a question with eleven content words of its own, sharing at most one
with the chat, has said everything its pointers need. Lending them the chat's things ("something
like letter variable names") only pulls the wrong memories.

A follow-up reuses the chat's words ("the mechanic quoted £400 for the clutch, should I get it done
before the Cornwall trip?" shares "clutch" and "mechanic"), and most are shorter.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.store.sql import STOPWORDS

#: Content words of its own a query needs to stand alone whatever its pointers ...
MIN_OWN_WORDS = 11
#: ... and how many of them it may share with the chat (measured: ten words lose two ambiguous rows
#: of ownref_own; two shared words lose one of a never-read set).
MAX_SHARED = 1
_WORD = re.compile(r"[a-z][a-z0-9'-]+")
_POINTERS = frozenset("it its they them their this that these those there here then he him his she her".split())
_STEM = 5


def _content(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and w not in _POINTERS and len(w) > 2]


def names_own_matter(query: str, context: Sequence[Mapping[str, str]]) -> bool:
    """Whether the query is long enough, and far enough from the chat's words, to stand alone."""
    own = _content(query)
    if len(own) < MIN_OWN_WORDS:
        return False
    said = {w[:_STEM] for m in context for w in _content(m.get("content", ""))}
    return sum(1 for w in own if w[:_STEM] in said) <= MAX_SHARED
