"""What a verb or frame around "it", "that" or "those" says it stands for, before any ranking:
"how much was it in total" (the things summed), "set reminders for this" (the medicine), "do that"
(the deed proposed), "raise it to 1000" (the thing given an amount), "get rid of those" (the
diagnosis), "move that to friday" (the visit booked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.booked import booked_visit
from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.diagnosis import remedied
from mnemo.retrieve.rewrite.health import medicine_like
from mnemo.retrieve.rewrite.namekind import EVENT_HEADS
from mnemo.retrieve.rewrite.proposal import proposed_deed, suggested_course, timed_task
from mnemo.retrieve.rewrite.ranked import best
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.said import conversation_text
from mnemo.retrieve.rewrite.scaled import changed_amount, scaled_object
from mnemo.retrieve.rewrite.spares import faulty_part
from mnemo.retrieve.rewrite.temporal import find_anchor, without_preposition
from mnemo.retrieve.rewrite.totals import TOTAL, summed

#: A reminder asked for what the pronoun stands for: "set reminders for this", "remind me about it".
_REMINDED = re.compile(r"\b(?:reminders?\s+(?:for|about)|remind\s+me\s+(?:about|of))\s+$", re.IGNORECASE)


#: A comparison of times: "can she start earlier than that", "any later than that".
_COMPARED_TIME = re.compile(r"\b(?:earlier|later|sooner)\s+than\s+$", re.IGNORECASE)


#: A verb of repair whose object is the part that failed: "replace it", "can I fix it myself".
_REPAIRED = re.compile(r"\b(?:replace|replacing|repair|repairing|swap|swapping|change|changing)\s+$", re.IGNORECASE)
_REPAIR_OR_REPLACE = re.compile(r"\b(?:repair|fix)(?:ing)?\b.*\breplac|\breplac\w*\b.*\b(?:repair|fix)", re.IGNORECASE)
#: Verbs that end or renew an agreement: "the letter ending it", "can I cancel it early".
_ENDED = re.compile(
    r"\b(?:end|ending|ends|cancel|cancelling|canceling|terminate|terminating|renew|renewing|extend|extending)\s+$",
    re.IGNORECASE,
)
_AGREEMENTS = frozenset(
    """lease contract subscription membership tenancy policy agreement mortgage loan insurance rental cert
    certificate licence license passport visa domain registration permit""".split()
)
#: What only an event does: "is it happening", "is it still on", "when does it take place".
_HAPPENS = re.compile(
    r"^\s+(?:happening|happen|happens|taking\s+place|take\s+place|takes\s+place|going\s+ahead|still\s+on|on\s+(?:this|next)\b)",
    re.IGNORECASE,
)
_EVENT_WORDS = frozenset(
    """festival concert match game party parade fair market show event race marathon meeting wedding ceremony
    conference gig exhibition tournament carnival celebration screening""".split()
)


def _event_named(text: str) -> bool:
    last = text.split()[-1]
    return last.lower() in _EVENT_WORDS or last in EVENT_HEADS


def verb_cued(
    query: str, ref: Reference, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """The thing the query's own verb or frame picks for the pronoun, or None."""
    low, before = ref.text.lower(), query[: ref.start]
    if low in ("it", "that", "this") and TOTAL.search(query):
        items = summed(context)  # "how much was it in total": the pizza, garlic bread and delivery
        if items:
            return items, 0.7
    if _REMINDED.search(before):  # "set reminders for this" after "vet prescribed antibiotics"
        medicine = best([c for c in candidates if c.kind == "thing" and medicine_like(c.text)], high=0.75)
        if medicine:
            return medicine
    # "should I replace it myself" after "the battery died"; "repair or replace it" weighs the whole thing
    if low == "it" and _REPAIRED.search(before) and not _REPAIR_OR_REPLACE.search(query):
        part = faulty_part(conversation_text(context))
        if part:
            return f"the {part}", 0.75
    if low in ("it", "that", "this") and _ENDED.search(before):  # "the letter ending it": the lease
        agreement = best([c for c in candidates if c.kind == "thing" and c.head in _AGREEMENTS], high=0.75)
        if agreement:
            return agreement
    if low == "it" and _HAPPENS.match(query[ref.end :]):  # "is it happening while we're there": the festival
        event = best([c for c in candidates if c.kind == "thing" and _event_named(c.text)], high=0.75)
        if event:
            return event
    if low == "that" and _COMPARED_TIME.search(before):  # "start earlier than that": the date the chat gave
        anchor = find_anchor(context, wants_date=True)
        if anchor is not None and anchor.time:
            return without_preposition(anchor.time), 0.7
    task = timed_task(before, query[ref.end :], context) if low in ("that", "it", "this") else None
    if task is not None:  # "how long does that take" after "says to clean the condenser coils"
        return f"{ref.text} ({task})", 0.7
    deed = proposed_deed(before, context) if low == "that" else None
    if deed is not None:  # "ok do that" after "what if we put the college friends at the round table"
        return f"that ({deed})", 0.7
    course = suggested_course(before, context, query[ref.end :]) if low == "that" else None
    if course is not None:  # "how much would that save" after "You could cache the dependencies"
        return f"that ({course})", 0.7
    scaled = scaled_object(before, query[ref.end :], context)
    if scaled is not None:  # "raise it to 1000" after "set the rate limit at 500": the rate limit
        return scaled, 0.75
    changed = changed_amount(query[ref.end :], context) if low == "it" else None
    if changed is not None:  # "why it went up" after "4.2% monthly churn": the churn
        return changed, 0.7
    remedy = remedied(before, context)
    if remedy is not None:  # "get rid of those" after "That sounds like mealybugs": the pest, not the leaves
        return remedy, 0.75
    visit = booked_visit(query, ref, context)
    return (visit, 0.75) if visit is not None else None  # "move that to friday" after "booked the dentist"
