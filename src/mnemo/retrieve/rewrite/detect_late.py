"""The late stages of ambiguity detection (detect.py runs them last).

First the readings that need the whole conversation and replace the word-level references they
cover: a venue, a reason, a total, a series, a quantity, a numbered unit, one of the chat's own
turns, an elided object, people described by role and things that changed. Then the last filters:
what a quote or set phrase holds, what the chat names in full, a general case, the user's own deed
or situation, and a listed phrase the query frames itself.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.beginnings import beginning_spans
from mnemo.retrieve.rewrite.datenouns import numbered_unit_spans
from mnemo.retrieve.rewrite.ellipsis import elided_span
from mnemo.retrieve.rewrite.implicit import names_something
from mnemo.retrieve.rewrite.inert import inert_spans
from mnemo.retrieve.rewrite.internal import states_case
from mnemo.retrieve.rewrite.kind_of import kind_of_thing
from mnemo.retrieve.rewrite.late_refs import with_changes, with_described_people
from mnemo.retrieve.rewrite.meta import meta_spans
from mnemo.retrieve.rewrite.moments import moment_spans
from mnemo.retrieve.rewrite.occurrences import occurrence_spans
from mnemo.retrieve.rewrite.own_frame import points_nowhere
from mnemo.retrieve.rewrite.own_situation import own_situation
from mnemo.retrieve.rewrite.pointer_spans import tokens
from mnemo.retrieve.rewrite.quantity import quantity_spans
from mnemo.retrieve.rewrite.reason import reason_span
from mnemo.retrieve.rewrite.recurring import series_spans
from mnemo.retrieve.rewrite.reference import Reference, in_place_of
from mnemo.retrieve.rewrite.self_contained import counted_from_own_deed, named_in_full
from mnemo.retrieve.rewrite.told_times import told_time_spans
from mnemo.retrieve.rewrite.totals import total_span
from mnemo.retrieve.rewrite.venues import venue_span
from mnemo.retrieve.rewrite.versions import version_spans

from . import cached_re


def with_context_spans(query: str, context_text: str, known: set[str], found: list[Reference]) -> list[Reference]:
    """``found`` with the readings only the conversation licenses; none without a conversation."""
    if not context_text.strip():
        return found
    venue = venue_span(query) if all(r.kind == "implicit" for r in found) else None
    if venue is not None:  # "any good seafood restaurants?" after a chat about Porto: Porto's, no "about Porto"
        found = [Reference(query[venue[0] : venue[1]], "implicit", *venue, noun="town:")]
    why = reason_span(query, context_text)
    if why is not None and not any(r.start < why[1] and why[0] < r.end for r in found):
        found.append(Reference(query[why[0] : why[1]], "implicit", why[0], why[1], noun="why"))  # "did she say why"
    total = total_span(query, context_text) if not found else None
    if total is not None:  # "how many rows in total": of what the chat counted
        found.append(Reference(query[total[0] : total[1]], "implicit", total[0], total[1], noun="total"))
    # each reading replaces the word-level ones it covers, in this order (a later one wins an overlap)
    found = _in_place(query, found, _tagged_spans(query, context_text))
    found = _with_versions(query, context_text, found)
    bare = elided_span(query, context_text)
    later = [(s, e, "told:") for s, e in told_time_spans(query, context_text)]  # "what happened this morning"
    found = _in_place(query, found, later + ([(bare[0], bare[1], "elided")] if bare else []))  # "from before i started"
    # "the projector person", "the code owner", "the new name" (late_refs.py)
    return with_changes(query, with_described_people(query, found, known, context_text), context_text)


def _tagged_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """The readings tagged by what resolves them, as (start, end, tag)."""
    return [
        *((s, e, f"series:{word}") for s, e, word in series_spans(query, context_text)),  # "the same one": the 1:1
        *((s, e, f"quantity:{word}") for s, e, word in quantity_spans(query, context_text)),  # "paying that much"
        *((s, e, f"unit:{unit}") for s, e, unit in numbered_unit_spans(query, context_text)),  # "the second day"
        *meta_spans(query),  # "my first question": the chat's turn
        *moment_spans(query),  # "what you suggested at the start"
        *((s, e, "occurrence:") for s, e in occurrence_spans(query, context_text)),  # "the first trip"
        *beginning_spans(query, context_text),  # "at first": the story's earliest told
    ]


def _in_place(query: str, found: list[Reference], spans: list[tuple[int, int, str]]) -> list[Reference]:
    for start, end, tag in spans:
        found = in_place_of(found, Reference(query[start:end], "implicit", start, end, noun=tag))
    return found


def _with_versions(query: str, context_text: str, found: list[Reference]) -> list[Reference]:
    """ "the old one": the before of a change told. A phrase the chat wrote as such ("the old index")
    is a fuller mention's ("the old index on email") when another finder read it."""
    for start, end, tag in version_spans(query, context_text):
        phrase = query[start:end].lower()
        if phrase.endswith((" one", " ones")) or phrase not in context_text.lower():
            found = in_place_of(found, Reference(query[start:end], "implicit", start, end, noun=tag))
        elif not any(r.start < end and start < r.end for r in found):
            found.append(Reference(query[start:end], "implicit", start, end, noun=tag))
    return found


def kept_references(query: str, context_text: str, known: set[str], found: list[Reference]) -> list[Reference]:
    """The references that survive the last filters, in order of position."""
    inert = inert_spans(query)  # quotes, "that's fine", "for the next hour", "what do they call" (inert.py)
    found = [r for r in found if not any(s <= r.start and r.end <= e for s, e in inert)]
    found = [r for r in found if not named_in_full(r, context_text)]
    if states_case([w.lower() for w, _, _ in tokens(query)]):  # "when a developer force-pushes, ... the commits"
        found = [r for r in found if r.kind != "implicit" and r.text.lower() != "again"]
    # the chat's last turn asked: a clause the query opens with may be the answer, not a matter of its own
    answering = context_text.rstrip().endswith("?")
    found = [r for r in found if not counted_from_own_deed(query, r) and not own_situation(query, r, known, answering)]
    found = [kind_of_thing(query, r) for r in found]  # "that kind of routine": the routine the chat named
    found = [_once_more(query, r) for r in found]  # "go over that one more time": "that", not "that one"
    found = [r for r in found if not _first_thing_to_do(query, r)]  # "the first thing I should pack"
    found = [r for r in found if not _own_scope(query, r)]  # "the night before a job interview"
    # "the error 'card declined'": a listed phrase the query frames itself, whichever finder took it
    found = [r for r in found if not (r.kind == "implicit" and points_nowhere(r.text, query, r.start, r.end))]
    if [r.text.lower() for r in found] == ["again"] and names_something(
        cached_re.findall(r"[A-Za-z0-9][\w'.-]*", query)
    ):
        return []  # "it's raining in Glasgow again": a repeat of what the query names itself
    return sorted(found, key=lambda r: r.start)


def _once_more(query: str, ref: Reference) -> Reference:
    """ "that one more time" is "that" and "one more time"; any other reference as it is."""
    if ref.kind == "demonstrative" and (ref.noun or "").lower() == "one" and _MORE_TIME.match(query, ref.end):
        word = ref.text.split()[0]
        return Reference(word, "demonstrative", ref.start, ref.start + len(word))
    return ref


#: An indefinite scope of the reference's own: "the night before a job interview", "the latest
#: version of a package", "the one with the highest interest".
_OWN_INDEFINITE_SCOPE = re.compile(
    r"\s+(?:(?:of|before|after)\s+(?:a|an|any|every)\s|with\s+the\s+(?:[a-z]+est|most|least)\b"
    # "the migration of monarch butterflies": a bare noun phrase owns it
    r"|of\s+(?!(?:the|a|an|my|our|your|his|her|their|this|that|these|those|it|them|us|you|which|what)\b)"
    r"[a-z]+\s+[a-z]+s\b)",
    re.IGNORECASE,
)


def _own_scope(query: str, ref: Reference) -> bool:
    """Whether a definite or ordinal reference takes an indefinite scope right after it, which makes
    it any such thing, not one the chat told of."""
    return ref.kind in ("implicit", "ordinal", "temporal") and bool(_OWN_INDEFINITE_SCOPE.match(query, ref.end))


def _first_thing_to_do(query: str, ref: Reference) -> bool:
    """ "the first thing I should pack", "the next thing to try": the first of what to do, no item of
    the chat's lists."""
    return bool(_ORDINAL_WORD.fullmatch(ref.text)) and bool(A_THING_TO_DO.match(query, ref.end))


_ORDINAL_WORD = re.compile(r"(?:the\s+)?(?:first|next|last|second|only)", re.IGNORECASE)
A_THING_TO_DO = re.compile(
    r"\s+things?\s+(?:(?:I|you|we|they|one)\s+(?:should|need|must|have|ought|can|could|would)|to)\b", re.IGNORECASE
)
_MORE_TIME = re.compile(r"\s+more\s+times?\b", re.IGNORECASE)
