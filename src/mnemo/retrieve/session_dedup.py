"""Near-duplicate sessions collapse into one result (pure functions).

Two sessions are near-duplicates when the words of their opening messages and best-matching ones —
leaving out the query's own words, which every result shares — overlap heavily (the smaller set
largely inside the larger). That
catches a session resumed or re-run from another one, and a second go at the same task, without
merging two sessions that merely answer the same query. Only sessions of the same project collapse:
the same words in another codebase are other work. Of a group, the most recent session that
is about as complete as the most complete one is shown, and the others are listed as "also in".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mnemo.store.sql import STOPWORDS

_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
#: Share of the smaller signature found in the larger at or above which two sessions are near-duplicates.
DUPLICATE_SIMILARITY = 0.6
#: Signatures with fewer words than this are never called duplicates.
MIN_SIGNATURE = 8
#: A session counts as complete when it has at least this share of the group's largest message count.
COMPLETE_SHARE = 0.6


@dataclass(frozen=True, slots=True)
class DedupCandidate:
    session_id: str
    score: float
    ended_at: float | None
    message_count: int
    signature: frozenset[str]
    project: str | None = None


def signature(texts: Iterable[str], ignore: Iterable[str] = ()) -> frozenset[str]:
    """Informative lower-cased words of ``texts``, minus ``ignore`` (the query's words)."""
    skip = set(STOPWORDS) | {w.lower() for w in ignore}
    return frozenset(w for text in texts for w in (m.lower() for m in _WORD.findall(text)) if w not in skip)


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Containment of the smaller signature in the larger: a shorter first attempt or a resumed copy
    of a session is mostly inside the fuller one. Tiny signatures say too little to compare."""
    if min(len(a), len(b)) < MIN_SIGNATURE:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def collapse(ranked: Sequence[DedupCandidate], threshold: float = DUPLICATE_SIMILARITY) -> list[list[int]]:
    """Groups of indexes into ``ranked`` (best first); each group's first index is the one to show.

    Groups keep the rank of their best member, so collapsing never pushes a topic down.
    """
    groups: list[list[int]] = []
    for index, candidate in enumerate(ranked):
        home = next(
            (g for g in groups if any(_duplicates(candidate, ranked[m], threshold) for m in g)),
            None,
        )
        if home is None:
            groups.append([index])
        else:
            home.append(index)
    return [_representative_first(group, ranked) for group in groups]


def _duplicates(a: DedupCandidate, b: DedupCandidate, threshold: float) -> bool:
    """Same project (the same work resumed or redone there) and heavily overlapping words."""
    return a.project == b.project and similarity(a.signature, b.signature) >= threshold


def _representative_first(group: list[int], ranked: Sequence[DedupCandidate]) -> list[int]:
    if len(group) == 1:
        return group
    largest = max(ranked[i].message_count for i in group)
    complete = [i for i in group if ranked[i].message_count >= COMPLETE_SHARE * largest]
    chosen = max(complete, key=lambda i: (ranked[i].ended_at or 0.0, ranked[i].message_count))
    return [chosen, *(i for i in group if i != chosen)]
