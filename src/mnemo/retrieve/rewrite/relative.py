"""A demonstrative that says which by its own words: a relative clause ("that machine my sister has",
"that lib we use for the cart") or a modifier the chat wrote ("that unauthorized error" after
"... payments-api:1.8.3 unauthorized").

Such a phrase points at the sentence of the conversation its words repeat, and at the named thing
of that sentence, whatever came later: "my sister has had her Gaggia Classic Pro" says which
machine, though a "single-boiler machine" was the latest one mentioned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.wordfind import sentences
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Subjects that open a contact clause after a noun: "that machine *my sister* has", "that lib *we* use".
_CLAUSE_SUBJECTS = frozenset("my our your his her their we you i he she they".split())
#: Words of a clause that say nothing about which: light verbs and fillers.
_LIGHT = frozenset(
    "has have had use used uses get got make made said says mentioned recommended sent told gave bought do did "
    "does is was are were be been thing stuff".split()
)


def clause_words(query: str, end: int) -> list[str]:
    """The content words of a contact clause right after a demonstrative's noun, or []."""
    words = cached_re.findall(r"[a-z][a-z'-]*", query[end:].lower())[:6]
    if not words or words[0] not in _CLAUSE_SUBJECTS:
        return []
    return [w for w in words[1:] if w not in STOPWORDS and w not in _LIGHT and w not in _MOTION and len(w) >= 3]


#: Verbs of going and staying, which any sentence of a trip repeats: "that restaurant we *went* to in Porto".
_MOTION = frozenset("went go going gone came come".split())


def sentence_with(words: Sequence[str], context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest sentence of the conversation that writes the first of ``words`` any sentence writes
    (by its first five letters): the clause's subject ("my sister") counts before its other words."""
    latest_first = [
        sentence
        for message in reversed(list(context))
        for sentence in reversed(sentences(str(message.get("content") or "")))
    ]
    for word in words:
        root = cached_re.compile(rf"\b{re.escape(word[:5])}", re.IGNORECASE)
        found = next((s for s in latest_first if root.search(s)), None)
        if found is not None:
            return found
    return None


def named_in(sentence: str, candidates: Sequence[Candidate]) -> Candidate | None:
    """The most specific thing of ``sentence``: a named one (a capital, a digit, an identifier) first."""
    low = sentence.lower()
    inside = [c for c in candidates if c.kind == "thing" and c.text.lower().removeprefix("the ") in low]
    named = [c for c in inside if cached_re.search(r"[A-Z0-9_./:-]", c.text.removeprefix("the ").removeprefix("The "))]
    pool = named or inside
    return max(pool, key=lambda c: (c.salience, len(c.text))) if pool else None


def phrase_before(sentence: str, words: Sequence[str]) -> str | None:
    """ "redux toolkit for the cart": the phrase a clause word's attachment follows, up to a
    boundary (a colon, a comma, "and", a verb of having) - the thing the clause describes."""
    for word in words:
        found = cached_re.search(
            rf"(?:^|[:,;]\s*|\band\s+|\b(?:has|have|uses|use|with)\s+)((?:[\w.+-]+\s+){{0,2}}[\w.+-]+)\s+"
            rf"(?:for|in|on|with)\s+(?:the\s+|our\s+|my\s+)?{re.escape(word[:5])}",
            sentence,
            re.IGNORECASE,
        )
        if found and found.group(1).split()[0].lower() not in STOPWORDS:
            return found.group(1)
    return None


#: A name's further words: capitalised, or a particle before one ("Taberna da Rua", "Bank of Ireland").
_MORE_NAME = r"(?:(?:\s+(?:da|de|del|della|di|do|dos|du|van|von|la|le|of|the|&))?\s+(?-i:[A-Z0-9])[\w'&.+-]*)"


def instance_of(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "an extension like pg_uuidv7", "a tool called Renovate": the instance the chat gave of the noun."""
    if len(noun) < 3:
        return None
    pattern = cached_re.compile(
        rf"\b{re.escape(noun.lower().rstrip('s'))}s?,?\s+(?:like|such\s+as|called|named|e\.g\.)\s+"
        rf"([\w.+-]*[\w+]{_MORE_NAME}?)",
        re.IGNORECASE,
    )
    later = cached_re.compile(
        rf"\b{re.escape(noun.lower().rstrip('s'))}s?\b.*?\b(?:called|named)\s+((?-i:[A-Z])[\w'-]*{_MORE_NAME}{{0,3}})",
        re.IGNORECASE,
    )
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        found = pattern.findall(text) or later.findall(text)  # "a tiny ramen place ..., it was called Kazuya"
        if found and found[-1].lower() not in STOPWORDS:
            return found[-1]
    return None


#: Nouns a chat names a place by before "called": "a Thai restaurant called Baan Suan".
_PLACE_KIND_WORDS = (
    r"restaurant|cafe|café|bar|pub|bakery|hotel|hostel|guesthouse|shop|store|gym|salon|clinic|venue|bistro"
)
_PLACE_KINDS = rf"(?:{_PLACE_KIND_WORDS})"
_CALLED_PLACE = re.compile(rf"\b{_PLACE_KINDS}\s+(?:called|named)\s+((?-i:[A-Z])[\w'&-]*{_MORE_NAME}{{0,3}})", re.I)
#: "a new georgian place on Weststraße, Tbilisi Corner": a place, where it is, then its name after a comma.
_APPOSED_PLACE = re.compile(
    rf"\b(?:{_PLACE_KIND_WORDS}|place|spot)\s+(?:(?:on|in|at|near)\s+(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)?"
    rf",\s+((?-i:[A-Z])[\w'&-]*{_MORE_NAME}{{0,3}})(?=\s*(?:[,;!?)]|\.\B|$))",  # the name ends its clause
    re.I,
)


def called_place(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "that place" after "a Thai restaurant called Baan Suan": the latest place named by its kind."""
    if noun.lower() not in ("place", "spot"):
        return None
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        found = _CALLED_PLACE.findall(text) or _APPOSED_PLACE.findall(text)
        if found:
            return found[-1]
    return None
