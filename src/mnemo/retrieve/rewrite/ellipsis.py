"""A verb whose object the query leaves out because the chat gave it: "show my step counts from
before i started" after "I started physio for my knee three weeks ago" means before I started physio.

A verb of beginning or ending (start, stop, quit, join, leave, switch) that closes its clause with
no object has lost it; the chat's own clause with the same verb and the same subject has it. The
rewrite puts the object back after the verb ("before i started physio").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.dates import TIME

from . import cached_re

_VERBS = r"started|stopped|quit|joined|left|switched|began|finished|moved|changed"
#: "before i started", "since we switched?": a subject and a bare verb ending the clause.
_BARE = re.compile(
    rf"\b(?:before|after|since|when|until)\s+(i|we|he|she|they)\s+({_VERBS})(?=\s*(?:[?!,;]|\.\B|$|and\b|but\b|so\b))",
    re.IGNORECASE,
)
#: Where the chat's object ends: a time, a purpose, a reason or a clause.
_OBJECT_END = re.compile(
    r"\s+(?:for|because|since|ago|last|this|on|in|at|about|and|but|so|when|after|before|two|three|four|a\s+few"
    r"|\d+)\b|[.,;!?]",
    re.IGNORECASE,
)


#: The time a chat's clause gives its deed: "in september", "three weeks ago", "last month".
_WHEN = re.compile(
    rf"\s+(?:{TIME.pattern}|(?:a\s+few|a\s+couple\s+of|two|three|four|five|six|\d+)\s+(?:days|weeks|months|years)\s+ago"
    r"|last\s+(?:week|month|year|summer|winter|spring|autumn))",
    re.IGNORECASE,
)


def elided_span(query: str, context_text: str) -> tuple[int, int] | None:
    """Where the bare verb stands, when the chat has the same verb with an object, or None."""
    found = _BARE.search(query)
    if found is None or _object(found.group(1), found.group(2), context_text) is None:
        return None
    return found.start(2), found.end(2)


def elided_text(verb: str, subject: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "started physio": the verb with the object the chat gave it, or None."""
    text = "\n".join(str(m.get("content") or "") for m in context)
    done = _object(subject, verb, text)
    return f"{verb} {done}" if done else None


def subject_before(query: str, start: int) -> str:
    words = query[:start].split()
    return words[-1] if words else ""


def _object(subject: str, verb: str, text: str) -> str | None:
    """The object of the chat's latest "<subject> <verb> X", cut where its clause goes on."""
    pattern = cached_re.compile(
        rf"\b{re.escape(subject)}\s+(?:just\s+|finally\s+|only\s+)?{re.escape(verb)}\s+([^\n]+)", re.I
    )
    found = list(pattern.finditer(text))
    if not found:
        return None
    rest = found[-1].group(1)
    end = _OBJECT_END.search(rest)
    words = (rest[: end.start()] if end else rest).split()[:4]
    if not words or (words[0].lower() in ("to", "the", "a", "an", "my") and len(words) == 1):
        return None
    when = _WHEN.match(rest[end.start() :]) if end else None  # "moved to Bristol in september": when too
    return " ".join(words) + (f" {when.group(0).strip()}" if when else "")
