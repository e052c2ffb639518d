"""Which occurrence an ordinal picks from a told sequence: "the first time", "the first trip", "the
second outage", "the last visit".

A chat often tells two or more dated happenings ("I ran a 10k in April in 52 minutes and another one
in September in 49"; "a flu jab on Monday and a COVID booster on Thursday"). "what was my pace the
first time" picks one of them by its place in the telling; no list of options is counted. The
chat's own "first <noun>" ("The first time was in June") is taken as it stands; else the dated
clauses that name the noun, else all the dated clauses, in the order told. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.quoting import quoted
from mnemo.retrieve.rewrite.said import line_messages
from mnemo.retrieve.rewrite.told_sequence import dated_clauses, told_clauses
from mnemo.retrieve.rewrite.wordfind import stems

from . import cached_re

_POSITION = {"first": 0, "second": 1, "third": 2, "last": -1}
#: "the first time", "that first trip", "my second appointment", "the last visit".
_OCCURRENCE = re.compile(
    r"\b(?:the|that|this|my|our|his|her|their)\s+(first|second|third|last)\s+([a-z][\w-]*)\b(?:\s+round\b)?",
    re.IGNORECASE,
)
#: Happenings a sequence is told of (and versions, which a chat tells the same way); any other noun
#: is an item of a list ("that first method") or a period the anchoring rules date ("the first week").
_HAPPENINGS = frozenset(
    """time trip visit appointment injury outage incident crash test exam game match race shoot session
    interview call meeting attempt try run repair inspection increase raise rise hike gig date review
    offer quote delivery order booking flight stay surgery operation scan jab shot treatment round
    release deploy deployment migration upgrade update install build draft batch season term course
    semester job payment bill invoice letter complaint claim move holiday vacation event party version""".split()
)
#: A following phrase that makes the ordinal the query's own: "the first version of java", "the
#: first time ever", "the last commit in git".
_OWN_SCOPE = re.compile(
    r"\s+(?:of|ever|in\s+(?:recorded\s+)?(?:history|git|the\s+world)|to\s+[a-z]+|for\s+(?:a|an|any)\b"
    # "my first appointment with a physiotherapist", "the last game in the Zelda series"
    r"|with\s+(?:a|an|any)\b|(?:in|of|on)\s+the\s+(?-i:[A-Z]))"
    # "the first time I meet a horse": a clause in the present is any time, not one told
    r"|\s+(?:i|you|we|he|she|they|people|someone|a|an)\s+(?!(?:[a-z]+ed|went|did|saw|had|got|came|was|were|made|took"
    r"|met|ran|rode|bought|told|said|tried|flew|drove|wrote|sat|swam|heard|found|left|paid)\b)[a-z]+",
    re.IGNORECASE,
)
#: A verb in the past: "was", "did", "went", "have helped", "tried".
_PAST = re.compile(
    r"\b(?:was|were|did|didn't|had|went|got|made|took|gave|told|said|came|saw|felt|paid|ran|been|[a-z]{3,}ed)\b"
    r"|\b(?:should|could|would|might|must)(?:n't)?\s+(?:(?:i|we|you|they|he|she|it)\s+)?have\s+[a-z]+",
    re.IGNORECASE,
)
_MAX_WORDS = 14
#: Verbs too plain to say which happening a clause tells: "the first time I tried ...".
_LIGHT = frozenset("tried did got went had was were made took".split())
_OWN_CLAUSE = re.compile(r"\s+(?:i|we|you|he|she|they)\s+([a-z]+)", re.IGNORECASE)


def occurrence_spans(query: str, context_text: str) -> list[tuple[int, int]]:
    """Where the query picks a told happening by its place ("the first trip"), when the chat tells
    a sequence for it: its own "first trip", or two dated happenings and a noun of happening."""
    spans = []
    sequence: bool | None = None  # whether the chat dates two happenings, found at the first need
    for m in _OCCURRENCE.finditer(query):
        noun = m.group(2).lower()
        if noun not in _HAPPENINGS or _OWN_SCOPE.match(query, m.end()):
            continue  # "that first method", "the first week": a list's item or a period, read elsewhere
        if sequence is None and _looks_back(query, m.start()):
            sequence = len(dated_clauses([context_text])) >= 2
        told = _looks_back(query, m.start()) and bool(sequence)
        if not (told or _said_in_order(m.group(1), noun, context_text)):
            continue
        quote = occurrence_text(m.group(0), line_messages(context_text))
        if quote is not None and _fits_own_clause(query, m.end(), quote):
            spans.append((m.start(), m.end()))
    return spans


def occurrence_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the first trip (We spent Christmas with my in-laws in Porto)": the happening the ordinal
    picks, quoted after it; None when the chat tells no sequence."""
    m = _OCCURRENCE.match(reference)
    if m is None:
        return None
    which, noun = m.group(1).lower(), m.group(2).lower()
    texts = [str(message.get("content") or "") for message in context]
    literal = [c for c in told_clauses(texts) if _said_in_order(which, noun, c)]
    if literal:
        return _quoted(reference, literal[0])
    dated = dated_clauses(texts)
    named = [c for c in dated if cached_re.search(rf"\b{re.escape(noun[:4])}", c, re.IGNORECASE)]
    pool = named if len(named) >= 2 else dated  # "the second outage" of two dated outages, else of all
    if len(pool) < 2:
        return None
    at = _POSITION[which]
    return _quoted(reference, pool[at]) if -len(pool) <= at < len(pool) else None


def _fits_own_clause(query: str, end: int, quote: str) -> bool:
    """ "the first time I tried kombucha": a clause of the query's own after the ordinal must tell
    the quoted happening's own deed ("what he told me the first time I called": "I called ...")."""
    clause = _OWN_CLAUSE.match(query, end)
    if clause is None:
        return True
    verb = clause.group(1).lower()
    return verb not in _LIGHT and bool(stems(verb) & stems(quote))


def _looks_back(query: str, start: int) -> bool:
    """Whether the query asks about something past ("what was my pace", "why did I", "what could I
    have done") or takes a thing from the happening ("the alpha from the first round"): "so that it
    throws on the second call" is any call."""
    return bool(_PAST.search(query)) or bool(cached_re.search(r"\bfrom\s+$", query[:start], re.IGNORECASE))


def _said_in_order(which: str, noun: str, text: str) -> bool:
    """Whether ``text`` says "<which> <noun>" itself, a word between allowed ("first driving test")."""
    return bool(cached_re.search(rf"\b{which}\s+(?:[a-z][\w-]*\s+)?{re.escape(noun)}\b", text, re.IGNORECASE))


def _quoted(reference: str, clause: str) -> str:
    return quoted(reference, clause, _MAX_WORDS)
