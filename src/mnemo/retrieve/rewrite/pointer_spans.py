"""Where a query's temporal pointers are: "after that", "the day before", "while we're away".

The phrase rules (timeref.py), the grammar of time clauses (timeclause.py) and a dated absence
(absence.py) each find spans; this module merges them and drops the ones that are no pointer in
this query: "at the same time" (a manner), a closing "then" of consequence ("ok restart it then"),
a clause whose "it" the query itself names, an absence the chat never dated.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.absence import absence_period, is_absence
from mnemo.retrieve.rewrite.internal import plural_before, thing_named_before
from mnemo.retrieve.rewrite.internal_people import person_named_before
from mnemo.retrieve.rewrite.timeclause import clause_spans
from mnemo.retrieve.rewrite.timeref import TEMPORAL_POINTER, simultaneous_spans
from mnemo.retrieve.rewrite.timeref import pointers as time_pointers

from . import cached_re

TOKEN = re.compile(r"[A-Za-z0-9_][\w.\-']*[\w]|[A-Za-z0-9_]|[^\w\s]")


def tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def temporal_pointer_spans(query: str, context_text: str) -> list[tuple[int, int]]:
    """The temporal pointers of the query as merged (start, end) spans. Time clauses ("a week
    before we go live") point at the conversation only when there is one."""
    manner = simultaneous_spans(query)
    spans = [(m.start(), m.end()) for m in TEMPORAL_POINTER.finditer(query)] + time_pointers(query)
    clauses = [c for c in clause_spans(query) if not _own_object(query, *c)] if context_text.strip() else []
    # "if the parcel comes while i'm out": an absence is a reference only when the chat dated one
    absences = [(s, e) for s, e in clauses if is_absence(query[s:e])]
    if absences and absence_period([{"content": context_text}]) is None:
        clauses = [c for c in clauses if c not in absences]
    spans = _merged(spans + clauses)
    spans = [(s, e) for s, e in spans if not any(s < me and ms < e for ms, me in manner)]
    spans = [(s, e) for s, e in spans if not _ALTERNATIVE_TIME.search(query[:s])]  # "before a workout or after"
    # "if i wait till wednesday will it be cheaper then": a bare "then" after the query's own time is that time
    spans = [(s, e) for s, e in spans if not (query[s:e].lower() == "then" and _OWN_TIME.search(query[:s]))]
    # "are they easy to look after", "she takes after her dad": a phrasal verb's particle, no time
    spans = [(s, e) for s, e in spans if not (query[s:e].lower() == "after" and _PHRASAL_AFTER.search(query[:s]))]
    if _CONSEQUENCE_THEN.search(query) and not _WH_QUESTION.search(query):  # "ok restart it then": "in that case"
        spans = [(s, e) for s, e in spans if query[s:e].lower() != "then"]
    return spans


_PHRASAL_AFTER = re.compile(
    r"\b(?:look|looks|looking|looked|take|takes|took|taking|named|name|ask|asks|asked|asking|chase|chasing|chased"
    r"|run|running|ran|go|going|went|come|coming|came)\s+$",
    re.IGNORECASE,
)


#: The other half of a choice between two times of the query's own event: "should I eat before a
#: workout or after?" - the "after" is after the workout, no time of the conversation.
_ALTERNATIVE_TIME = re.compile(
    r"\b(?:before|after|during)\s+(?:[^,.;?!]|\.\b){1,40}?\s+or\s+(?:just\s+|right\s+)?$", re.IGNORECASE
)


#: A time the query names itself: a weekday, a month, a date, "tomorrow", "next week", a clock time.
_OWN_TIME = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|june|july|august|september"
    r"|october|november|december|tomorrow|tonight|next\s+(?:week|month|year)|\d{1,2}(?::\d{2})?\s*(?:am|pm)"
    r"|\d{1,2}(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)


#: "then" closing a reply that opens with an assent ("ok restart it then", "fine, book it then"):
#: the consequence of what was said, no point in time.
_CONSEQUENCE_THEN = re.compile(
    r"^\s*(?:ok|okay|fine|alright|all\s+right|right|so|well|yes|yeah|yep|sure|cool|great)\b.*\bthen\W*$", re.IGNORECASE
)


#: A question word: "so what did you do then?" asks about a time, whatever its opening.
_WH_QUESTION = re.compile(r"\b(?:what|when|where|who|why|how|which)\b|\?", re.IGNORECASE)


def _own_object(query: str, start: int, end: int) -> bool:
    """Whether a time clause's "it" is a thing the query names before it ("make sure the deploy
    waits until I approve it"), or its "he"/"she"/"they" someone the query names ("why does my cat
    knead blankets before she lies down"): then the clause is the query's own condition, no pointer."""
    found = cached_re.search(r"\b(it|he|she|they)\b", query[start:end], re.IGNORECASE)
    if found is None:
        return False
    before = [w.lower() for w, _, _ in tokens(query[: start + found.start()])]
    pronoun = found.group(1).lower()
    if pronoun == "it":
        return thing_named_before(before, "")
    if pronoun == "they":
        return plural_before(before)
    return person_named_before(before, pronoun, "")


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping pointer spans (from the phrase and the grammar rules) as one span each."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
