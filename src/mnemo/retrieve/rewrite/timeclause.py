"""Time expressions whose anchor is an event only the conversation names.

Three grammatical shapes, none of them a phrase list:

* an *ordinal* time noun: "the very first night", "the last day of it", "the final week" - an
  ordinal picks one stretch of an event the conversation described; "the first day of school"
  names its own event and is no pointer;
* a *time clause* whose event is a bare deed: "a couple of days before i bought", "a week before
  we go live", "in the days after we switched versions", "the night we sold all those cds" -
  a relation (or a time noun) followed by a clause whose subject is a pronoun and which carries no
  name, number or date of its own, so the deed is known only from the conversation;
* a *duration question*: "how many days after", "how long before" at the end of a clause;
* an *edge* of an event: "the day of", "at the end of it", "halfway through", "in the run-up".

These spans are kept in the rewrite and the anchor's event is added to them (the clause says how
the time relates to the event; the conversation says which event), see ``appended_text``.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.absence import ABSENCE_CLAUSE
from mnemo.retrieve.rewrite.timeref import TIME_NOUN

from . import cached_re

_ORDINAL = r"(?:first|last|final|second|third|opening|closing)"
_CLAUSE_END = (
    r"(?=\s*(?:[?!,;]|\.\B|$|then\b|and\b|or\b|of\s+(?:it|that|this|them)\b"
    r"|(?:did|does|do|was|were|is|are|will|would|can|could|should|has|have|had)\s))"
)
#: "the very first night", "the last day of it": an ordinal stretch of a known event.
ORDINAL_TIME = re.compile(
    rf"\bthe\s+(?:very\s+)?{_ORDINAL}\s+(?:half\s+)?(?!times?\b){TIME_NOUN}{_CLAUSE_END}(?:\s+of\s+(?:it|that|this|them)\b)?",
    re.IGNORECASE,
)
_SUBJECT = r"(?:i|we|you|he|she|they)"
_RELATION = r"(?:before|after|since|until|till|once)"
_OFFSET = r"(?:(?:a\s+few|a\s+couple\s+of|several|some|a|an|one|two|three|\d+)\s+{0}|(?:in\s+)?the\s+{0}|the\s+{0})"
#: "a couple of days before i bought", "in the days after we switched versions".
_RELATIVE_CLAUSE = (
    rf"(?:{_OFFSET.format(TIME_NOUN)}\s+)?{_RELATION}\s+{_SUBJECT}\s+(?:[a-z][\w'-]*)(?:\s+[a-z][\w'-]*){{0,4}}"
)
#: "the night we sold all those cds": a time noun with a relative clause.
_PAST_VERB = r"(?:[a-z]+ed|sold|won|lost|met|went|got|left|came|saw|spent|had)"
_NOUN_CLAUSE = rf"the\s+{TIME_NOUN}\s+(?:that\s+|when\s+)?{_SUBJECT}\s+{_PAST_VERB}\b(?:\s+[a-z][\w'-]*){{0,4}}"
#: "when we landed", "while we were there": a past "when" clause (a present one is generic:
#: "what do I do when I feel anxious"); a copula only with a place ("when I was little" is a life stage).
#: The speaker's own deed only: "when she showed him" keeps its pronouns as references of their own.
_WHEN_CLAUSE = (
    rf"(?:when|while)\s+(?:i|we)\s+(?:{_PAST_VERB}|(?:was|were)(?=\s+(?:there|here|away|abroad|home|out|back)\b))"
    r"\b(?:\s+[a-z][\w'-]*){0,4}"
    # "book a taxi for when we land": a planned moment the conversation gave
    r"|when\s+(?:i|we)\s+(?:land|arrive|get\s+(?:there|back|in|home)|check\s+in|check\s+out)\b"
    rf"|{ABSENCE_CLAUSE}"  # "while i'm out", "while we're away": an absence the conversation dated (absence.py)
)
TIME_CLAUSE = re.compile(rf"\b(?:{_RELATIVE_CLAUSE}|{_NOUN_CLAUSE}|{_WHEN_CLAUSE})(?=\s*(?:[?!,;]|\.\B|$))")
#: "how many days after", "how long before": a duration measured from a known event.
DURATION = re.compile(rf"\bhow\s+(?:many\s+{TIME_NOUN}|long|soon)\s+(?:before|after|later){_CLAUSE_END}", re.IGNORECASE)
#: The stretch after a known event: "in the weeks that followed", "the days following", "the
#: morning after" is TEMPORAL_POINTER's; a time noun whose relative clause is only "followed".
AFTERMATH = re.compile(
    rf"\b(?:in\s+|during\s+|over\s+)?the\s+(?:(?:few|next|first)\s+)?{TIME_NOUN}\s+(?:that\s+|which\s+)?"
    rf"(?:followed|following){_CLAUSE_END}",  # "the week after" is TEMPORAL_POINTER's ("the week after X")
    re.IGNORECASE,
)
#: "later in the week", "earlier in the day": a stretch of the event's own day or week.
STRETCH = re.compile(rf"\b(?:earlier|later)\s+(?:in|on)\s+the\s+{TIME_NOUN}{_CLAUSE_END}", re.IGNORECASE)
#: "the following Monday", "the previous Friday": a weekday counted from a known event.
FOLLOWING_DAY = re.compile(
    r"\bthe\s+(?:following|previous|preceding)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.IGNORECASE
)
#: "the big day", "the special day": the day of the event the conversation is about (a wedding, a race).
BIG_DAY = re.compile(r"\bthe\s+(?:big|special|actual)\s+(?:day|night)\b", re.IGNORECASE)
#: "on the day", "on the night itself": a bare definite day whose event only the conversation names.
THE_DAY = re.compile(rf"\bon\s+the\s+(?:day|night)(?:\s+itself)?{_CLAUSE_END}", re.IGNORECASE)
#: An edge of a known event: "the day of", "at the end", "halfway through it", "in the run-up to it".
EDGE = re.compile(
    rf"\b(?:the\s+{TIME_NOUN}\s+of(?:\s+(?:it|that))?"
    r"|(?:at|by|towards|near)\s+the\s+(?:very\s+)?(?:start|beginning|end)(?:\s+of\s+(?:it|that))?"
    r"|halfway\s+through(?:\s+(?:it|that))?"
    r"|(?:in\s+)?the\s+(?:lead|run)-up(?:\s+to\s+(?:it|that))?|(?:in\s+the\s+\w+\s+)?leading\s+up\s+to\s+(?:it|that))"
    + _CLAUSE_END,
    re.IGNORECASE,
)
#: Words that give a clause its own anchor: a name, a number, a date word, a possessed object
#: ("since i backed up my mac" says which backup).
_OWN_ANCHOR = re.compile(r"\b(?:[A-Z][a-z]+|\d+|today|tomorrow|tonight|yesterday|now|my|our|your|his|her|their)\b")
_GENERIC = re.compile(r"\b(?:every|each|usually|always|whenever|generally|normally)\b", re.IGNORECASE)


#: "logs from the last hour", "in the last week": a span back from now, no stretch of an event.
_BACK_FROM_NOW = re.compile(r"\b(?:in|over|from|within|for|during)\s+$", re.IGNORECASE)
_NOW_SPANS = re.compile(r"the\s+last\s+(?:hour|minute|week|month|year|quarter)s?", re.IGNORECASE)


def _looking_back(query: str, match: re.Match[str]) -> bool:
    text = match.group(0)
    return bool(_NOW_SPANS.match(text)) and " of " not in text and bool(_BACK_FROM_NOW.search(query[: match.start()]))


def clause_spans(query: str) -> list[tuple[int, int]]:
    """Spans of ordinal time nouns, context-bound time clauses and duration questions.

    A time clause counts only when it has no anchor of its own (a name, a number, a date word)
    and the query is not generic ("what do I eat a few hours before I run, usually").
    """
    spans = [(m.start(), m.end()) for m in ORDINAL_TIME.finditer(query) if not _looking_back(query, m)]
    spans += [(m.start(), m.end()) for m in DURATION.finditer(query)]
    spans += [(m.start(), m.end()) for m in EDGE.finditer(query)]
    for pattern in (AFTERMATH, THE_DAY, FOLLOWING_DAY, STRETCH, BIG_DAY):
        spans += [(m.start(), m.end()) for m in pattern.finditer(query)]
    if not _GENERIC.search(query):
        for match in TIME_CLAUSE.finditer(query.lower()):
            clause = query[match.start() : match.end()]
            if not _OWN_ANCHOR.search(clause.split(None, 1)[-1]):
                spans.append((match.start(), match.end()))
    return spans


def is_appended(reference: str) -> bool:
    """Whether a temporal span keeps its words and takes the anchor after it (an ordinal, a
    time clause, a duration question) rather than being replaced by the anchor."""
    return bool(
        ORDINAL_TIME.fullmatch(reference)
        or DURATION.fullmatch(reference)
        or EDGE.fullmatch(reference)
        or AFTERMATH.fullmatch(reference)
        or THE_DAY.fullmatch(reference)
        or FOLLOWING_DAY.fullmatch(reference)
        or STRETCH.fullmatch(reference)
        or BIG_DAY.fullmatch(reference)
        or TIME_CLAUSE.fullmatch(reference.lower())
    )


def wants_earliest(reference: str) -> bool:
    """ "the very first night" points at the start of what the conversation described: the earliest event."""
    return bool(cached_re.search(r"\b(?:first|opening)\b", reference, re.IGNORECASE))


def appended_text(reference: str, anchor_bare: str) -> str:
    """ "a week before we go live" + "the product launch on 3 October" ->
    "a week before we go live (the product launch on 3 October)"; a bare relation at the end
    ("how many days after") takes the event as its object."""
    if DURATION.fullmatch(reference):
        return f"{reference} {anchor_bare}"
    if EDGE.fullmatch(reference):  # "at the end of it" -> "at the end of the trip", "the day of" -> "the day of X"
        own = cached_re.match(r"^(.*?\b(?:of|to|through))(?:\s+(?:it|that))?$", reference, re.IGNORECASE)
        linker = "" if own else (" to" if reference.lower().endswith("up") else " of")
        return f"{own.group(1) if own else reference}{linker} {anchor_bare}"
    if THE_DAY.fullmatch(reference):  # "on the day" -> "on the day of the Edinburgh half marathon"
        return f"{reference} of {anchor_bare}"
    if ORDINAL_TIME.fullmatch(reference):  # "the last day of it" -> "the last day of the trip"
        own = cached_re.match(r"^(.*?)\s+of\s+(?:it|that|this|them)$", reference, re.IGNORECASE)
        return f"{own.group(1) if own else reference} of {anchor_bare}"
    return f"{reference} ({anchor_bare})"
