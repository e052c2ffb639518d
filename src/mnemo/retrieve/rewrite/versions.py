"""The before and after of something the chat told changing: "the old one", "the original", "the
updated spec", "the legacy one", "the way it was", "the one from before the change".

Three ways the chat says which is which, tried in order: its own words ("The old logo SVG is 40KB",
"an updated spec, v2, that renames ..."), a change it told ("switched from bcrypt to argon2id":
bcrypt is the old side), and a run of version numbers (v1 then v2; 3.2.0, 3.2.1, 3.2.2). Pure
functions over the query and the messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.changes import changed_text
from mnemo.retrieve.rewrite.implicit import is_role
from mnemo.retrieve.rewrite.quoting import quoted
from mnemo.retrieve.rewrite.said import line_messages
from mnemo.retrieve.rewrite.wordfind import sentences

from . import cached_re

_OLD = "old|original|previous|former|legacy|earlier|initial|first"
_NEW = "new|updated|latest|current|newest|revised|redesigned|rewritten|second"
#: "the old one", "our original setup", "the updated spec", "the original" (no noun).
_VERSION_REF = re.compile(
    rf"\b(?:the|my|our|your)\s+(?P<side>{_OLD.removesuffix('|first')}|{_NEW.removesuffix('|second')})"
    r"(?:\s+(?P<noun>(?!(?:of|for|to|in|on|at|and|or|is|was|are|were|be|still)\b)[a-z][\w-]*))?\b",
    re.IGNORECASE,
)
#: "back to the way it was", "the one from before the change": the old side, no adjective.
_AS_IT_WAS = re.compile(
    r"\b(?:the\s+way|how)\s+(?:it|they|things)\s+(?:was|were|used\s+to\s+be)\b"
    r"|\b(?:the\s+one|what\s+we\s+had|what\s+i\s+had)\s+(?:from\s+)?before\s+the\s+"
    r"(?:change|switch|move|update|upgrade|migration|rewrite|redesign)\b",
    re.IGNORECASE,
)
#: What a specific version is called: "v2", "3.2.1".
_VERSION_TOKEN = re.compile(r"\b(?:v\d+(?:\.\d+)*|\d+\.\d+\.\d+)\b", re.IGNORECASE)
_OWN_COMPLEMENT = re.compile(r"\s+(?:of|for)\s|\s+before\s+(?!the\s+(?:change|switch|move|update))", re.IGNORECASE)
#: A second noun after the first makes a compound whose head it is: "coffee house", "dev tools".
_COMPOUND_HEAD = re.compile(
    r"\s+(?!(?:is|was|are|were|be|still|and|or|in|on|at|of|for|to|with|from|one|ones)\b)([a-z]{3,}(?:s)?)\b"
    r"(?=\s+(?:in|of|called|named|was|is|that|which|\?|$)|\s*[?.!]?\s*$)",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r";\s*|,\s+(?:and|but|while|whereas)\s+|\s+and\s+(?=the\s|a\s|an\s|in\s)")
_MAX_WORDS = 14
_LEAD_WORDS = 6


def version_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, "version:old|new") for each before-or-after reference the chat can answer."""
    messages = line_messages(context_text)
    low_context = context_text.lower()
    found = []
    for m in _VERSION_REF.finditer(query):
        noun = m.group("noun") or ""
        head = _COMPOUND_HEAD.match(query, m.end())
        noun = head.group(1) if head and noun else noun  # "the original coffee house": a house
        if _OWN_COMPLEMENT.match(query, m.end()) or is_role(noun.lower()):
            continue  # "the latest version of a package": its own thing; "the new guy": a person, no version
        if any(c.isupper() for c in noun) or (
            noun and noun.lower() not in ("one", "ones") and noun.lower()[:4] not in low_context
        ):
            continue  # "the new iPhone", "the latest Django release": a public thing, not the chat's
        side = "old" if m.group("side").lower() in _OLD.split("|") else "new"
        if version_text(m.group(0), side, messages) is not None:
            found.append((m.start(), m.end(), f"version:{side}"))
    for m in _AS_IT_WAS.finditer(query):
        if _OWN_COMPLEMENT.match(query, m.end()):
            continue  # "the way they were before covid": a before of its own
        if version_text(m.group(0), "old", messages) is not None:
            found.append((m.start(), m.end(), "version:old"))
    return found


def version_text(reference: str, side: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the old one (Our old Python 2 billing script used urllib2)": the reference with the chat's
    words for that side after it, or None."""
    texts = [str(m.get("content") or "") for m in context]
    kind = _kind_beside(reference, texts)
    if kind is not None:  # "the new one" after "we bought a new boiler": "the new boiler"
        return kind
    said = _said_side(reference, side, texts) or changed_text(side, context) or _told_side(side, texts)
    if not said and reference.lower().split()[-1] not in ("version", "versions"):
        said = _numbered(side, texts)  # "the previous version" of a package is any package's
    return quoted(reference, said, _MAX_WORDS) if said else None


#: A change told in other words: "replaced it with a Samsung", "repainted the room from white to
#: green", "Until March we used road freight", "Before, I had the default robbyrussell theme".
_REPLACED = re.compile(
    r"\breplac(?:ed|ing)\s+(?P<old>(?:[^.;,!?]|\.\b){1,40}?)\s+with\s+(?P<new>(?:an?\s+|the\s+)?(?:[^.;,!?]|\.\b){2,40}?)"
    r"(?=\s+(?:in|on|at|last|this|and|but|because)\b|[;,!?]|\.\B|$)",
    re.IGNORECASE,
)
_FROM_TO_ANY = re.compile(
    r"\b[a-z]+ed\b(?:[^.;!?]|\.\b){0,40}?\bfrom\s+(?P<old>[\w'-]+(?:\s+[\w'-]+)?)\s+to\s+"
    r"(?P<new>(?:an?\s+|the\s+)?(?:[^.;,!?]|\.\b){2,40}?)"
    r"(?=\s+(?:in|on|at|last|this|and|but|because)\b|[;,!?]|\.\B|$)",
    re.IGNORECASE,
)
_USED_BEFORE = re.compile(
    r"\b(?:until\s+[\w ]{2,20}?,?\s+|before,?\s+|previously,?\s+|originally,?\s+)(?:i|we)\s+(?:had|used)\s+"
    r"(?P<old>(?:[^.;,!?]|\.\b){3,50})"
    r"|\b(?:i|we)\s+(?:first|originally)\s+(?P<first>[a-z]+ed\b(?:[^.;,!?]|\.\b){3,50}?)(?=,?\s+then\b|[;,!?]|\.\B|$)",
    re.IGNORECASE,
)


def _told_side(side: str, texts: Sequence[str]) -> str | None:
    """The side of a change the chat told without "from ... to" after a verb of changing."""
    for text in texts:
        for pattern in (_REPLACED, _FROM_TO_ANY):
            found = pattern.search(text)
            if found is not None:
                return found.group(side).strip()
        used = _USED_BEFORE.search(text) if side == "old" else None
        if used is not None:
            return (used.group("old") or used.group("first")).strip()
    return None


#: What may follow a one-word kind: "a new boiler.", "the old boiler was 20 years old".
_KIND_ENDS = re.compile(r"\s*(?:[,;!?]|\.\B|$)|\s+(?:is|was|are|were|has|had|goes|went|comes|came|arrives|arrived)\b")


def _kind_beside(reference: str, texts: Sequence[str]) -> str | None:
    """ "the new boiler" for "the new one" when the chat wrote one word after the same adjective and
    ended the phrase there; a longer phrase ("old Python 2 billing script") is quoted instead."""
    words = reference.lower().split()
    if len(words) != 3 or words[2] != "one":
        return None
    pattern = cached_re.compile(rf"\b{re.escape(words[1])}\s+(?!one\b)([a-z][\w-]*)", re.IGNORECASE)
    for text in texts:
        for m in pattern.finditer(text):
            if _KIND_ENDS.match(text, m.end()):
                return f"{words[0]} {words[1]} {m.group(1).lower()}"
    return None


def _said_side(reference: str, side: str, texts: Sequence[str]) -> str | None:
    """The chat's clause that calls something by the reference's own word ("The old logo SVG is
    40KB" for "the old one"), with the reference's noun right after it when it has one ("an updated
    spec"); the first of several for the old side, the last for the new. Quoted from the word when
    the clause runs long before it."""
    words = reference.lower().split()
    if len(words) < 2 or words[1] not in (*_OLD.split("|"), *_NEW.split("|")):
        return None  # "the way it was": no word of its own to find
    noun = words[2] if len(words) > 2 and words[2] not in ("one", "ones") else None
    after = rf"(?:[\w-]+\s+){{0,8}}{re.escape(noun[:4])}" if noun else r"(?!one\b)[a-z][\w-]*"
    pattern = cached_re.compile(rf"\b{words[1]}\s+{after}", re.IGNORECASE)
    clauses = []
    for text in texts:
        for s in sentences(text):
            for c in _CLAUSE.split(s) if not s.rstrip().endswith("?") else []:
                found = pattern.search(c)
                if found is not None and len(c.split()) >= 3:
                    lead = len(c[: found.start()].split())
                    clauses.append((c if lead <= _LEAD_WORDS else c[found.start() :]).strip().rstrip(".!?"))
    if not clauses:
        return None
    return clauses[0] if side == "old" else clauses[-1]


def _numbered(side: str, texts: Sequence[str]) -> str | None:
    """The first (old) or last (new) version number the chat names, when it names two or more."""
    seen: list[str] = []
    for text in texts:
        for token in _VERSION_TOKEN.findall(text):
            if token.lower() not in (s.lower() for s in seen):
                seen.append(token)
    if len(seen) < 2:
        return None
    return seen[0] if side == "old" else seen[-1]
