"""The beginning of a story the chat told: "did they include fitting at first", "why was the image so
huge at first", "what openings was I playing when I first joined", "counting from when I first
applied".

"at first" and "to begin with" in a question about the past point at the earliest of the
happenings the chat told (its first dated clause) or, with none dated, at the user's first sentence
about the query's own thing. "when I first <verb>" points at the user's sentence with that verb.
What the assistant said first ("what you suggested at first") is moments.py's. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.quoting import quoted
from mnemo.retrieve.rewrite.said import line_messages
from mnemo.retrieve.rewrite.told_sequence import dated_clauses
from mnemo.retrieve.rewrite.wordfind import sentences, stems

from . import cached_re

#: Not "originally" or "initially": "who originally designed Rust" asks history, not the chat.
_AT_FIRST = re.compile(r"\b(?:at\s+first|to\s+begin\s+with)\b", re.IGNORECASE)
#: "when I first joined", "when we first moved in": the deed's verb says which sentence.
_FIRST_DEED = re.compile(
    r"\bwhen\s+(?:i|we)\s+first\s+([a-z]{3,})(?:\s+(?:in|out|up|back|over|on))?\b"
    r"|\bwhat\s+(?:i|we)\s+([a-z]{3,})(?:\s+up)?\s+first\b",
    re.IGNORECASE,
)
#: The assistant's beginnings ("you suggested at first") and the user's turns ("what I asked
#: originally") belong to the conversation, not to the story.
_ABOUT_TURNS = re.compile(r"\byou\b|\b(?:asked|said|mentioned|wrote|told\s+you)\b", re.IGNORECASE)
_MAX_WORDS = 16


def beginning_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, "beginning:at-first|deed") for each pointer at the story's beginning the chat
    can answer."""
    if _ABOUT_TURNS.search(query):
        return []
    messages = line_messages(context_text)  # with no role, a line reads as the user's
    found = []
    for m in _FIRST_DEED.finditer(query):
        told = beginning_text(m.group(0), "deed", messages, query)
        if told and _PAST_VERB.fullmatch(m.group(1) or m.group(2)) and _object_told(query, m.end(), told):
            found.append((m.start(), m.end(), "beginning:deed"))
    for m in _AT_FIRST.finditer(query):
        told = beginning_text(m.group(0), "at-first", messages, query)
        if told and _PAST_QUESTION.search(query) and _subject_of_the_chat(query, context_text):
            found.append((m.start(), m.end(), "beginning:at-first"))
    return found


#: A question about the past by its auxiliary, not by any "-ed" word ("feel tired at first").
_PAST_QUESTION = re.compile(
    r"\b(?:was|were|did|didn't|wasn't|weren't|had)\b|\b(?:should|could|would)(?:n't)?\s+(?:\w+\s+)?have\s+[a-z]+",
    re.IGNORECASE,
)
#: A subject the chat supplies: a pronoun or the user's own ("did they include fitting at first");
#: "did the Beatles struggle at first" asks about its own.
_OF_THE_CHAT_SUBJECT = re.compile(
    r"\b(?:was|were|did|didn't|had|should|could|would)\s+(?:i|we|you|he|she|they|my|our)\b", re.IGNORECASE
)
_PAST_VERB = re.compile(r"[a-z]+ed|set|met|ran|got|went|began|started|joined|moved|saw|took|made|had", re.IGNORECASE)


#: "why was the image so huge": a definite subject, which the chat must have named.
_DEFINITE_SUBJECT = re.compile(r"\b(?:was|were|did|had)\s+(?:the|that|this)\s+([a-z]{3,})\b", re.IGNORECASE)


def _subject_of_the_chat(query: str, context_text: str) -> bool:
    """Whether the question's subject is the chat's: a pronoun or the user's own ("did they include
    fitting at first"), or a definite noun the chat named ("was the image so huge"); "did the
    Beatles struggle at first" and "did humans farm wheat at first" ask about their own."""
    if _OF_THE_CHAT_SUBJECT.search(query):
        return True
    definite = _DEFINITE_SUBJECT.search(query)
    return definite is not None and bool(stems(definite.group(1)) & stems(context_text))


def _object_told(query: str, end: int, told: str) -> bool:
    """ "when I first started my career": an object of the query's own must be in the told sentence."""
    after = cached_re.match(r"\s+(?:my|our|the|a|an|this|that)\s+([a-z]+)", query[end:], re.IGNORECASE)
    return after is None or bool(stems(after.group(1)) & stems(told))


def beginning_text(reference: str, which: str, context: Sequence[Mapping[str, str]], query: str) -> str | None:
    """ "at first (Bright Windows quoted us 5200 in January)", or None."""
    told = _first_deed(reference, context) if which == "deed" else _earliest(context, query)
    return quoted(reference, told, _MAX_WORDS) if told else None


def _first_deed(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The user's sentence that tells the deed by its verb: "joined" finds "I joined the chess club"."""
    verb = _FIRST_DEED.match(reference)
    if verb is None:
        return None
    root = (verb.group(1) or verb.group(2)).lower()
    root = root[:-2] if root.endswith("ed") and len(root) > 5 else root[:4]  # "applied" -> "appli", "set" -> "set"
    pattern = cached_re.compile(rf"\b(?:I|we)\b(?:[^.?!]|\.\b){{0,40}}?\b{re.escape(root)}", re.IGNORECASE)
    users = [str(m.get("content") or "") for m in context if str(m.get("role") or "user").lower() == "user"]
    return next((s for text in users for s in sentences(text) if pattern.search(s)), None)


def _earliest(context: Sequence[Mapping[str, str]], query: str) -> str | None:
    """The first dated clause of a told sequence, else the first user sentence with the query's own
    word; None for a chat that tells no beginning."""
    texts = [str(m.get("content") or "") for m in context]
    dated = dated_clauses(texts)
    if len(dated) >= 2:
        return dated[0]
    own = {w for w in stems(query) if len(w) == 4}
    users = [str(m.get("content") or "") for m in context if str(m.get("role") or "user").lower() == "user"]
    return next((s for text in users for s in sentences(text) if own & stems(s) and len(stems(s)) >= 3), None)
