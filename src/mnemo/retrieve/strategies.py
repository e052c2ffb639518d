"""Retrieval strategies for iterative search. Each returns a ranking ``{row key: score}``.

exact (BM25 over the query's terms), semantic (vector similarity), concept (BM25 over the
query's terms plus their synonyms; facts a message stated are in its full-text keys, so this also
matches through the extracted facts), temporal (items inside the time windows the
query names) and neighbours (turns next to the best ones). Scope filters are the store's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime

import numpy as np

from mnemo.records import SearchFilter
from mnemo.retrieve.hybrid import MAX_LEXICAL_TERMS
from mnemo.retrieve.temporal import TimeWindow, anchored_window, event_anchors
from mnemo.store.base import Store, Traits
from mnemo.store.sql import STOPWORDS

Ranking = dict[int, float]
VectorSearch = Callable[[np.ndarray, int, SearchFilter], list[tuple[int, float]]]


def exact(store: Store, terms: Sequence[str], flt: SearchFilter, limit: int) -> Ranking:
    terms = list(dict.fromkeys(terms))[:MAX_LEXICAL_TERMS]
    return dict(store.lexical(terms, flt, limit)) if terms else {}


def exact_later(store: Store, terms: Sequence[str], flt: SearchFilter, limit: int) -> Callable[[], Ranking] | None:
    """``exact`` started now, on a store that ranks on another machine (``lexical_later``:
    PostgreSQL), so the server works while this process embeds the query; None otherwise."""
    later = getattr(store, "lexical_later", None)
    terms = list(dict.fromkeys(terms))[:MAX_LEXICAL_TERMS]
    pending = later(terms, flt, limit) if later is not None and terms else None
    if pending is None:  # the store ranks now or not at all (a server sharing this machine's cores)
        return None
    return lambda: dict(pending.result())


def semantic(vector: np.ndarray | None, search: VectorSearch | None, flt: SearchFilter, limit: int) -> Ranking:
    if vector is None or search is None:
        return {}
    return dict(search(vector, limit, flt))


def temporal_filter(flt: SearchFilter, window: TimeWindow) -> SearchFilter | None:
    """The filter narrowed to an absolute window; None when the two do not overlap."""
    if not window.absolute:
        return None
    start = max(filter(None, (flt.since, window.start)), default=None)
    end = min(filter(None, (flt.until, window.end)), default=None)
    if start and end and start >= end:
        return None
    return replace(flt, since=start, until=end)


def in_windows(times: Mapping[int, float | None], windows: Sequence[TimeWindow], order: Sequence[int]) -> Ranking:
    """Pool items whose time falls in any window, in the order they already rank."""
    inside = []
    for key in order:
        epoch = times.get(key)
        when = datetime.fromtimestamp(epoch, tz=UTC) if epoch is not None else None
        if any(w.contains(when) for w in windows):
            inside.append(key)
    return {k: float(len(inside) - i) for i, k in enumerate(inside)}


def neighbours(
    store: Store,
    order: Sequence[int],
    flt: SearchFilter,
    top: int,
    traits: dict[int, Traits],
    gap_seconds: float = 3600.0,
) -> Ranking:
    """The turns just before and after the best results, when they belong to the same session.

    In a conversation the answer often sits next to the turn that matches the question's words
    ("What have you been researching?" / "Adoption agencies."). Rows are written in conversation
    order, so a neighbour is the adjacent row key, accepted only within the same session and a
    short time gap. Only the keys' ``traits`` are read (never their text); ``traits`` is the
    caller's cache and gains the neighbours' entries, read in one light query.
    """
    parents = list(order[:top])
    wanted = {k + d for k in parents for d in (-1, 1)} - set(parents)
    if not wanted:
        return {}
    missing = sorted(k for k in wanted | set(parents) if k not in traits)
    if missing:
        traits.update(store.traits(missing, flt))
    ranking: Ranking = {}
    for position, key in enumerate(parents):
        parent = traits.get(key)
        if parent is None or parent.session_id is None:
            continue
        for other in (key - 1, key + 1):
            near = traits.get(other)
            if near is None or other in parents or near.session_id != parent.session_id:
                continue
            if parent.ts is not None and near.ts is not None and abs(parent.ts - near.ts) > gap_seconds:
                continue
            ranking[other] = max(ranking.get(other, 0.0), float(top - position))
    return ranking


_NAMEISH = re.compile(r"(?<![\w'])([^\W\d_][\w'\-]*)")
#: Roles that are not people: "user" or "assistant" in a query is not a speaker's name.
_GENERIC_ROLES = frozenset("user assistant system tool human ai bot model function".split())


def named_people(query: str) -> set[str]:
    """Lower-cased capitalised words of the query that could name a speaker ("Caroline", "Dr")."""
    found = set()
    for match in _NAMEISH.finditer(query):
        word = match.group(1).removesuffix("'s")
        low = word.lower()
        if word[:1].isupper() and low not in STOPWORDS and low not in _GENERIC_ROLES and len(word) > 1:
            found.add(low)
    return found


def event_windows(store: Store, query: str, flt: SearchFilter, terms: Callable[[str], list[str]]) -> list[TimeWindow]:
    """Windows for "before the move" / "after my trip to Paris": the event's time is that of the
    best lexical match for its phrase in scope; an event the store does not know adds no window."""
    windows = []
    for direction, phrase in event_anchors(query):
        found = exact(store, terms(phrase), flt, 1)
        times = store.times(list(found), flt) if found else {}
        epoch = next((t for t in times.values() if t is not None), None)
        if epoch is not None:
            windows.append(anchored_window(direction, phrase, datetime.fromtimestamp(epoch, tz=UTC)))
    return windows
