"""Which dated event a query fits: crude stems of the query's own words, counted over each
message's stretch of talk. Lets "when it all started" pick "the outage started at 14:05" over a
later date, and "at that stage of my recovery" the surgery whose replies talk of recovery.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.dates import TIME
from mnemo.store.sql import STOPWORDS

from . import cached_re

_STEM_SKIP = frozenset(
    "what when where which who how does did done doing have has had will would could should can may might"
    " been being were was are is get got give gave make made take took think know want need said say tell told"
    " still also just really again ever even like then that this there".split()
)


def _stems(text: str) -> set[str]:
    """Crude stems (the first five letters) of a text's content words: "started" and "start",
    "recovery" and "recovering" meet; no lemmatiser, so it fits the per-query budget."""
    words = [w.removesuffix("'s") for w in cached_re.findall(r"[a-z][a-z'-]{2,}", text.lower())]  # "car's": "car"
    versions = cached_re.findall(r"\b[a-z]\d+(?:\.\d+)+\b", text.lower())  # "v2.4" is a release, whole
    return {w[:5] for w in words if w not in STOPWORDS and w not in _STEM_SKIP and not _UNIT_WORD.fullmatch(w)} | set(
        versions
    )


_UNIT_WORD = re.compile(r"(?:day|night|morning|evening|afternoon|weekend|week|month|year|time|stage|point)s?")


def topic_stems(query: str) -> frozenset[str]:
    """The query's own content words (time words aside) that an event may fit."""
    return frozenset(_stems(query))


def segment_fits(recent: Sequence[Mapping[str, str]], topic: frozenset[str]) -> list[int]:
    """How well each message's stretch of talk fits the topic: its own shared stems plus those of
    the undated replies that follow it ("our band played the Fringe on 18 August" - "how was the
    crowd?" - "we sold 40 CDs" is one stretch about the gig)."""
    own = [len(_stems(str(m.get("content") or "")) & topic) for m in recent]
    dated = [bool(TIME.search(str(m.get("content") or ""))) for m in recent]
    fits = list(own)
    for i in range(len(recent)):
        for j in range(i + 1, min(i + 3, len(recent))):
            if dated[j]:
                break
            fits[i] += own[j]
    return fits


#: Where one clause of a message ends and the next begins: "on the 2nd, installed ... and my Wi-Fi".
_CLAUSE_BREAK = re.compile(r"[,;](?!\d)\s*|:\s+|(?<=[.!?])\s+|\s+(?:and|but|then)\s+")


def talked_about_time(
    text: str, found_times: Sequence[str], later: Sequence[Mapping[str, str]], topic: frozenset[str]
) -> tuple[str, str] | None:
    """Of a message's several times, the one whose clause the rest of the conversation and the query
    go on to talk about, with that clause: "upgraded to Sequoia on the 2nd, installed a new VPN client
    on the 5th" then "the timing points at the VPN client" makes "before then" the 5th. None when one
    time, no talk of any clause, or a tie (the first time stays, as the writer put it first)."""
    if len(found_times) < 2:
        return None
    talked = set(topic).union(*(_stems(str(m.get("content") or "")) for m in later))
    if not talked:
        return None
    clauses = _CLAUSE_BREAK.split(text)
    scored: list[tuple[int, str, str]] = []
    for time in found_times:
        clause = next((c for c in clauses if time in c), None)
        if clause is None:
            return None  # a time across a clause break ("May 3, 2024"): no clause of its own
        scored.append((len(_stems(clause.replace(time, " ")) & talked), time, clause))
    best = max(score for score, _, _ in scored)
    top = [(time, clause) for score, time, clause in scored if score == best]
    return top[0] if best and len(top) == 1 else None
