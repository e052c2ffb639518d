"""Time pointers the query anchors itself.

- A bare "after" or "before" paired with the opposite (or the same) word the query gave an object
  of its own: "what's a good stretch before a run, and a good one after?", "do employers ask for
  references before they make an offer, or only after?", "peak two days after a workout instead of
  the day after".
- "the first week", "the first year" of a thing a general question is about ("is it normal for a
  newborn to lose weight in the first week", "does a car lose most of its value in the first
  year") or of the deed its own statement tells ("I'm quitting smoking tomorrow — what helps with
  the cravings in the first week?").

A query that points anywhere else ("before that date or only after", "what did he plant in the
first week") leaves its time pointer to the conversation. Pure functions over the query text.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite import cached_re
from mnemo.retrieve.rewrite.pointing import DEMONSTRATIVE, PERSONAL, pointer_words

#: A bare time pointer made of "after"/"before": "after", "afterwards", "the day after", "a week before".
_BARE_SIDE = re.compile(
    r"^(?:(?:the|a|an|one|two|three|a\s+few|a\s+couple\s+of)\s+(?:\w+\s+)?(?:days?|nights?|weeks?|months?|years?|"
    r"hours?|mornings?|evenings?)\s+)?(?:after|before|afterwards|beforehand)$",
    re.IGNORECASE,
)
#: "before a run", "after a workout", "before they make a formal offer", "after donating blood".
_ANCHORED_SIDE = re.compile(
    r"\b(?:before|after)\s+(?:a|an|you|they|we|i|people|someone"
    r"|(?!(?:anything|something|nothing|everything|morning|evening|spring|thing)\b)[a-z]{3,}ing)\b",
    re.IGNORECASE,
)
#: "the first week", "in the first year", "after the first year" ("the last night" is more often
#: the chat's trip, whatever the query brings in: "book a nice restaurant for the last night").
_FIRST_PERIOD = re.compile(r"^the\s+first\s+(?:few\s+)?(?:days?|nights?|weeks?|months?|years?)$", re.IGNORECASE)
#: A thing the query asks about in general, as its subject: "for a newborn to", "does a car lose",
#: "should a new sole trader", "the rate on a FlexDirect account" ("should I hire a dog walker" and
#: "paying for a ceramic coating" only bring in an object).
_INDEFINITE_SUBJECT = re.compile(
    r"(?:^|\b(?:does|do|did|can|could|should|would|will|is|are|was|were|when|if|on)\s+)(?:a|an)\s+"
    r"(?!(?:few|lot|bit|couple|little|while)\b)[a-z]|\bfor\s+(?:a|an)\s+(?:[a-z]+\s+){0,2}?[a-z]+\s+to\b",
    re.IGNORECASE,
)
#: What a general question's "first week" can count from: a new or young thing, or a product one holds.
_NEW_THINGS = re.compile(
    r"\b(?:new|newborn|baby|babies|puppy|kitten|toddler|child|business|account|policy|loan|mortgage|card|contract|car"
    r"|lease|tenancy|employee|starter|sole\s+trader)\b",
    re.IGNORECASE,
)
#: A statement of a start, from which "the first week" counts.
_STARTING = re.compile(
    r"\b(?:start|starting|started|begin|beginning|began|quit|quitting|move|moving|moved|adopt|adopting|adopted|join"
    r"|joining|joined|switch|switching|switched|open|opening|opened|launch|launching|launched)\b",
    re.IGNORECASE,
)
#: The asker's own habit ("I usually go for a run after waking up"), not a general question's "usually".
_ASKERS_HABIT = re.compile(
    r"\b(?:i|we)\s+(?:usually|always|normally|often)\b|\bevery\s+(?:day|morning|night|week)\b", re.IGNORECASE
)
#: Words that point themselves: with one, the time may be the conversation's.
_POINTERS = pointer_words(*PERSONAL, *DEMONSTRATIVE)


def paired_side(ref_text: str, before: str) -> bool:
    """Whether a bare "after"/"before" follows an "after"/"before" the query anchored itself. A
    measured side ("the day after") pairs only with the same word ("two days after a workout
    instead of the day after"): "I always moisturise before showering, can I go swimming the week
    after?" is the week after the chat's tattoo."""
    text = ref_text.strip().lower()
    if not _BARE_SIDE.match(text):
        return False
    side = "after" if "after" in text else "before"
    anchored = [m.group(0).split()[0].lower() for m in _ANCHORED_SIDE.finditer(before)]
    if _ASKERS_HABIT.search(before):
        return False  # "I usually go for a run after waking up, can I have black coffee before?": the chat's test
    return bool(anchored) and (" " not in text or side in anchored)


def first_period_of_own(ref_text: str, query: str, stated: bool) -> bool:
    """Whether "the first week" measures from a thing the query brings in or a deed it states."""
    if not _FIRST_PERIOD.match(ref_text.strip().removeprefix("in ").removeprefix("after ")):
        return False
    if _POINTERS.search(_without_leading_it(query).replace(" its ", " ")):
        return False  # ("does a car lose most of its value": the car's own)
    if stated:
        return bool(_STARTING.search(query))  # "I'm quitting smoking tomorrow", not "I've bought new bedding"
    found = _INDEFINITE_SUBJECT.search(query)
    return found is not None and bool(_NEW_THINGS.search(query[found.start() :]))


def _without_leading_it(query: str) -> str:
    """The query without an opening idiom's "it" ("is it normal for ...", "this is it, ...")."""
    query = cached_re.sub(r"^\s*this\s+is\s+it\b", "", query, flags=re.IGNORECASE)
    return cached_re.sub(
        r"\b(?:is|was|does)\s+it\s+(?=normal|okay|ok|safe|true|common|possible|worth)", "", query, flags=re.IGNORECASE
    )
