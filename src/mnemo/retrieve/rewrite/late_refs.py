"""References added after the word-level pass of detect.py: people described by what they do
(described.py) and what a told change made new or old (changes.py). Each replaces a plain implicit
reading of the same words, so the resolver tries the richer reading first.
"""

from __future__ import annotations

from mnemo.retrieve.rewrite.changes import changed_noun, changed_spans, changed_text
from mnemo.retrieve.rewrite.described import descriptions as person_descriptions
from mnemo.retrieve.rewrite.described import mentioned, stated_descriptions
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.said import line_messages


def with_changes(query: str, found: list[Reference], context_text: str) -> list[Reference]:
    """ "the new name", "the old address" after a change the conversation told (changes.py); the
    change reading replaces a plain implicit reading of the same words."""
    messages = line_messages(context_text)
    for start, end, side in changed_spans(query):
        if not changed_text(side, messages, changed_noun(query[start:end])):
            continue
        overlapping = [r for r in found if r.start < end and start < r.end]
        if all(r.kind == "implicit" and start <= r.start and r.end <= end for r in overlapping):
            found = [r for r in found if r not in overlapping]
            found.append(Reference(query[start:end], "implicit", start, end, noun=side))
    return found


def with_described_people(query: str, found: list[Reference], known: set[str], context_text: str) -> list[Reference]:
    """ "the projector person", "whoever handles repairs", "Leo's teacher" (described.py), when
    the conversation has their words. A role already read as implicit ("the teacher") stays so:
    the resolver tries the description first and keeps the implicit reading's fallbacks."""
    for d in person_descriptions(query):
        if not mentioned(d, known):
            continue
        overlapping = [r for r in found if r.start < d.end and d.start < r.end]
        if not overlapping:
            found.append(Reference(query[d.start : d.end], "role", d.start, d.end, noun=d.head))
        elif all(r.kind == "implicit" and d.start <= r.start and r.end <= d.end for r in overlapping):
            # "the online tutor" read as implicit: the same reading, over the whole description
            found = [r for r in found if r not in overlapping]
            found.append(Reference(query[d.start : d.end], "implicit", d.start, d.end, noun=d.head))
    for d in stated_descriptions(query, [{"content": context_text}]):  # "the code owner": "Bongani is the code owner"
        if not any(r.start < d.end and d.start < r.end for r in found):
            found.append(Reference(query[d.start : d.end], "role", d.start, d.end, noun=d.head))
    return found
