"""Lexical cohesion: a pronoun's referent is the person the query's own words were said about.

"did she pick an agency yet?" after "Caroline ... researching adoption agencies" and a later
"Melanie finished her pottery class": recency says Melanie, but the query continues the thread
about agencies, and the thread's person is Caroline. A text stays on a topic by repeating its
words (lexical chains), so a person mentioned in a message that shares a content word (by stem)
with the query is the likelier referent. Only a tie-breaker: the boost is moderate, agreement
(gender, number) still filters first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.implicit import LIGHT
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: How much a shared content word counts for a person: enough to beat one step of recency.
BOOST = 2.5
_WORD = re.compile(r"[a-z][a-z'-]{2,}")


def _stems(text: str) -> set[str]:
    """Content-word stems: an inflection cut, then the first five letters, so "agency"/"agencies",
    "meeting"/"meet" and "walks"/"walking" meet."""
    return {
        _SUFFIX.sub("", w)[:5]
        for w in _WORD.findall(text.lower())
        if w not in STOPWORDS and w not in LIGHT and len(w) > 2
    }


_SUFFIX = re.compile(r"(?<=\w{3})(?:ing|ed|es|s)$")
#: Where one clause of a message ends and the next, about someone else, may begin.
_CLAUSE = re.compile(r"[.;!?\n]+\s*|,\s+|\s+(?:and|but|while|whereas)\s+(?=[A-Z])")
_PERSONAL = re.compile(r"\b(?:she|he|her|him|his)\b")
_LABEL = re.compile(r"^\s*\[?([A-Z][\w'-]+)\]?\s*:\s")


def cohesive(query: str, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]) -> list[Candidate]:
    """The candidates with the people of messages that share a content word with the query
    weighted up; everything else unchanged."""
    candidates = _same_deed(query, candidates, context)
    wanted = _stems(query)
    if not wanted:
        return list(candidates)
    linked = _linked_in_clauses(wanted, candidates, context)
    for message in context if not linked else ():  # no clause says it: the message's people, as before
        text = str(message.get("content") or "")
        if _stems(text) & wanted:
            low = text.lower()
            linked.update(c.text.lower() for c in candidates if c.kind == "person" and c.text.lower() in low)
    if not linked:
        return list(candidates)
    return [
        replace(c, salience=c.salience * BOOST) if c.kind == "person" and c.text.lower() in linked else c
        for c in candidates
    ]


def _linked_in_clauses(
    wanted: set[str], candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> set[str]:
    """The people of the clauses that share the most content words with the query ("Noor set up our
    sentry alerts and Camille owns the schedules": "alert" is Noor's clause); a pasted line's speaker
    ("Keisha: the wifi bill is in my name") is its clause's person."""
    people = [c for c in candidates if c.kind == "person"]
    shared: dict[str, int] = {}
    for message in context:
        for line in str(message.get("content") or "").split("\n"):
            label = _LABEL.match(line)
            previous: set[str] = set()
            for clause in _CLAUSE.split(line):
                low = (clause or "").lower()
                named = {c.text.lower() for c in people if c.text.lower() in low}
                if not named and _PERSONAL.search(low):
                    named = previous  # "Greta has been amazing, she walks my dog": she is the clause before's
                previous = named or previous
                overlap = len(_stems(clause) & wanted) if clause else 0
                if not overlap:
                    continue
                # "would she use it" after "We use Figma": the object of the shared verb is not its subject
                named = {name for name in named if not _object_of(low, name, wanted)}
                if label:
                    named = named | {c.text.lower() for c in people if c.text.lower() == label.group(1).lower()}
                for name in named:
                    shared[name] = shared.get(name, 0) + overlap
    most = max(shared.values(), default=0)
    return {name for name, count in shared.items() if count == most}  # the people the query's words say most of


def _object_of(clause: str, name: str, wanted: set[str]) -> bool:
    """Whether ``name`` follows one of the query's own words in the clause ("use figma")."""
    before = clause[: clause.find(name)].split()
    return bool(before) and bool(_stems(before[-1]) & wanted)


#: "did she ask", "has he signed", "she called": a person pronoun and the verb it is the subject of.
_PRONOUN_DEED = re.compile(
    r"\b(?:(?:did|does|do|has|have|had|will|would|can|could|should)\s+(?:he|she)\s+(?:\w+\s+)?([a-z]{3,})"
    r"|(?:he|she)\s+([a-z]{3,}(?:ed|s)))\b",
    re.IGNORECASE,
)
#: How much being the subject of the query's own verb counts: more than recency, like a known gender.
DEED_BOOST = 2.0


def _same_deed(query: str, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]) -> list[Candidate]:
    """ "what exactly did she ask?" after "Hannah took notes and Priya asked about the freeze": the
    person the conversation made the subject of the query's verb, when exactly one person was."""
    found = _PRONOUN_DEED.search(query)
    verb = (found.group(1) or found.group(2)).lower() if found else ""
    if len(verb) < 3 or verb in STOPWORDS or verb in LIGHT:
        return list(candidates)
    base = cached_re.sub(r"(?:ed|es|s|d)$", "", verb) if len(verb) > 4 else verb
    forms = rf"{re.escape(base)}(?:e|es|ed|d|s|ing)?\b"  # "asked", "presents": not "preserved"
    text = " ".join(str(m.get("content") or "") for m in context)
    doers = [
        c
        for c in candidates
        if c.kind == "person"
        and c.text[:1].isupper()
        and cached_re.search(rf"(?<!\w){re.escape(c.text)}\s+(?:\w+ly\s+|also\s+|just\s+)?{forms}", text)
    ]
    if len(doers) != 1:
        return list(candidates)
    return [replace(c, salience=c.salience * DEED_BOOST) if c is doers[0] else c for c in candidates]


#: "add it to that job", "book it for friday": the query's verb and its pronoun object.
_VERB_IT = re.compile(r"\b([a-z]{3,})\s+(?:it|them)\b", re.IGNORECASE)


def same_object(query: str, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]) -> list[Candidate]:
    """ "add it to that job" after "I'd add a cleanup step ...": the thing the chat gave the same
    verb as its object, weighted up; everything else unchanged."""
    found = _VERB_IT.search(query)
    verb = found.group(1).lower() if found else ""
    if len(verb) < 3 or verb in STOPWORDS or verb in LIGHT or verb in _WEAK_VERBS:
        return list(candidates)
    forms = rf"{re.escape(verb)}(?:s|es|ed|d|ing)?"
    text = " ".join(str(m.get("content") or "") for m in context)
    objects = [
        m.group(1).lower()
        for m in cached_re.finditer(rf"\b{forms}\s+((?:a|an|the|my|our|your)\s+[\w-]+(?:\s+[\w-]+)?)", text, re.I)
    ]
    heads = {o.split()[-1] for o in objects}
    if not heads:
        return list(candidates)
    return [
        replace(c, salience=c.salience * DEED_BOOST) if c.kind == "thing" and c.text.lower().split()[-1] in heads else c
        for c in candidates
    ]


#: Verbs too general for their object to say which thing: "get it", "do it", "have it".
_WEAK_VERBS = frozenset("get got do did have has had make made take took put see saw find".split())
