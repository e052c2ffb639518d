"""A time the chat already told of: "what happened this morning", "the stuff from the weekend",
"the promise from a couple of weeks back", "a postmortem for last night".

A past time phrase the conversation also said ("This morning the TLS cert expired") points at what
the conversation told of it, when the query frames it as a thing that happened: "what happened T",
"the <noun> from T", "for T" at the end. Without the frame ("what's the weather this
morning") or without the chat's own mention, the phrase is the query's own time. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.quoting import quoted
from mnemo.retrieve.rewrite.wordfind import sentences, stems

from . import cached_re

#: Past times a chat tells of, each with the words it is found by in the chat: "over the weekend"
#: is told as "at the weekend" or "on the weekend", "a couple of weeks back" as "... ago".
_TIME = (
    r"(?P<time>this\s+(?:morning|afternoon)|last\s+(?:night|week|weekend|month)"
    r"|(?:over|at|on|during)?\s*the\s+weekend"
    r"|an?\s+(?:couple\s+of|few)\s+(?:days|weeks|months)\s+(?:back|ago)|a\s+(?:week|month)\s+ago"
    r"|the\s+other\s+(?:day|night|week)|a\s+while\s+(?:ago|back))"
)
#: The frames that ask what happened then: "what happened T", "the <noun> from T", "a postmortem for
#: T" at the end. Not "T's <noun>": "last week's episode" names its own thing.
_FRAMES = tuple(
    re.compile(frame.format(time=_TIME), re.IGNORECASE)
    for frame in (
        r"\bwhat\s+(?:happened|went\s+(?:on|wrong)|(?:i|we|you|they)\s+(?:did|saw|found|ate|said|decided"
        r"|changed|bought|tried|had))\s+{time}\b(?!\s+(?:in|on|at|across|around|with)\b)",  # not "... in the news"
        r"\bthe\s+(?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*\s+(?:from|of)\s+{time}\b",
        # a report of what happened, not a plan: "a postmortem for last night", not "dinner ideas for the weekend"
        r"\b(?:postmortem|post-mortem|summary|report|write-?up|recap|apology|incident\s+report|notes?|timeline)"
        r"\s+for\s+{time}\s*[?.!]?\s*$",
        # "which features did i drop this morning": a deed of the user's own that the chat dated
        r"\b(?:did|had)\s+(?:i|we)\s+[a-z]+(?:\s+(?:up|out|off))?\s+{time}\s*[?.!]?\s*$",
    )
)
_ELSEWHERE = re.compile(
    r"\s+(?:in|on|at|across|around|to|with)\s+(?:(?:the\s+)?(?-i:[A-Z])|the\s+(?:news|world|market|city|country))"
)
#: Things of the world, not of the chat: "the top tech news from last week".
_PUBLIC = re.compile(r"\b(?:news|headlines|weather|stock|market|election|match|episode|scores|results)\b", re.I)
_LEADING = re.compile(r"^(?:over|at|on|during)\s+", re.IGNORECASE)
_CLAUSE_END = re.compile(r",\s+(?:while|but|whereas|though|so)\b|;|\s+-\s+")
_MAX_WORDS = 14


def told_time_spans(query: str, context_text: str) -> list[tuple[int, int]]:
    """Where the query names a past time, in a frame that asks what happened then, that the chat
    also names; an empty list otherwise."""
    spans = []
    for m in (m for frame in _FRAMES for m in frame.finditer(query)):
        start, end = m.span("time")
        if _ELSEWHERE.match(query, end) or _PUBLIC.search(query[max(0, start - 30) : start]):
            continue  # "the dog attack from a few days ago in Leeds": news of a place, not the chat's
        time = _LEADING.sub("", query[start:end])
        if _said_as(time).search(context_text):
            spans.append((start, end))
    return spans


def told_time_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "this morning (the TLS cert on api.example.com expired ...)": what the chat told of that time,
    from the first user sentence that names it, else the first of the assistant's."""
    said = _said_as(_LEADING.sub("", reference))
    by_role = sorted(context, key=lambda m: str(m.get("role") or "").lower() != "user")  # the user's first
    for message in by_role:
        for sentence in sentences(str(message.get("content") or "")):
            found = said.search(sentence)
            if found is None or len(stems(sentence)) < 3:
                continue
            told = (sentence[: found.start()] + " " + sentence[found.end() :]).strip(" ,")
            told = _CLAUSE_END.split(told, maxsplit=1)[0].strip().rstrip(".!?")
            if len(told.split()) >= 3:
                return quoted(reference, told, _MAX_WORDS)
    return None


#: "the week before", "the day after", "the night before": a time told relative to another.
_RELATIVE = re.compile(r"the\s+(?:day|night|morning|evening|week|month|year)\s+(?:before|after)", re.IGNORECASE)


def said_relative_text(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the week before (I'd received a corrected P60 from my old employer)": a relative time a
    statement of the chat opens on in the same words ("The week before, I'd received ..."), with
    what it told then; None otherwise."""
    if not _RELATIVE.fullmatch(reference.strip()):
        return None
    phrase = r"\s+".join(map(re.escape, reference.lower().split()))
    said = cached_re.compile(rf"{phrase}\b,?", re.IGNORECASE)
    for message in context:
        for sentence in sentences(str(message.get("content") or "")):
            found = said.match(sentence.strip())
            if found is None or sentence.rstrip().endswith("?"):
                continue
            told = _CLAUSE_END.split(sentence.strip()[found.end() :], maxsplit=1)[0].strip()
            if len(stems(told)) >= 3:
                return quoted(reference, told, _MAX_WORDS)
    return None


def _said_as(time: str) -> re.Pattern[str]:
    """How the chat says the query's time: its words with any leading preposition, and "back" and
    "ago" for each other."""
    words = time.lower().split()
    pattern = r"\s+".join(re.escape(w) if w not in ("back", "ago") else "(?:back|ago)" for w in words)
    return cached_re.compile(rf"(?:\b(?:over|at|on|during)\s+)?\b{pattern}\b", re.IGNORECASE)
