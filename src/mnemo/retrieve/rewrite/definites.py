"""Definite noun phrases that lean on the conversation: "the croquetas place you mentioned", "the next
dose", "the part", "the old one", "the martial art", "the interview" - each a reference of its own
when the conversation says which one it is.
"""

from __future__ import annotations

from mnemo.retrieve.rewrite.aged import aged_spans
from mnemo.retrieve.rewrite.anchoring import descriptions
from mnemo.retrieve.rewrite.backref import BACKREF
from mnemo.retrieve.rewrite.classed import class_spans
from mnemo.retrieve.rewrite.counted import counted_spans
from mnemo.retrieve.rewrite.datenouns import deed_date_spans
from mnemo.retrieve.rewrite.health import dose_spans
from mnemo.retrieve.rewrite.indefinite import ONE, one_spans
from mnemo.retrieve.rewrite.occasions import occasion_spans
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.shaped import shaped_spans
from mnemo.retrieve.rewrite.spares import part_spans


def definite_references(
    query: str, context_text: str, found: list[Reference], covered: list[tuple[int, int]]
) -> list[Reference]:
    """The query's leaning definites that no reference found so far overlaps; ``covered`` grows."""
    out: list[Reference] = []
    back = BACKREF.search(query)  # "the croquetas place you mentioned": definite by pointing back
    if back and not any(r.start < back.end(1) and back.start() < r.end for r in found):
        out.append(Reference(query[back.start() : back.end(1)], "implicit", back.start(), back.end(1)))
        covered.append((back.start(), back.end(1)))
    spans = dose_spans(query, context_text) + part_spans(query, context_text) + aged_spans(query, context_text)
    spans += class_spans(query, context_text)  # "the martial art": the one the conversation named
    spans += shaped_spans(query, context_text)  # "the quote": the £240 the garage quoted
    spans += occasion_spans(query, context_text)  # "the meeting": the sprint planning at 10
    spans += counted_spans(query, context_text)  # "the new plants": a monstera and a fiddle leaf fig
    spans += [(s, e, f"date:{deed}") for s, e, deed in deed_date_spans(query, context_text)]  # "the start date"
    spans += [(s, e, ONE) for s, e in one_spans(query)]  # "book one": the truck the chat said to book
    for start, end, noun in spans:
        # "the next dose": of the medicine named; "the part": the one the conversation found at fault
        if not any(s < end and start < e for s, e in covered):
            out.append(Reference(query[start:end], "implicit", start, end, noun=noun))
            covered.append((start, end))
    for start, end, noun in descriptions(query, context_text):  # "the interview": the one at Stripe
        if not any(s < end and start < e for s, e in covered):
            out.append(Reference(query[start:end], "implicit", start, end, noun=noun, described=True))
    return out
