"""Query expansion for iterative search: synonyms, generalisation, context terms, feedback terms.

Pure functions over text. Synonyms come from the shared, user-editable synonyms file
(``retrieve/synonyms.py``); generalisation drops the most specific qualifiers of a long query;
feedback (pseudo-relevance) picks the terms the previous round's top results share.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from mnemo.store.sql import STOPWORDS, query_terms

Synonyms = Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]]

#: Words that carry no topic even though they are not stopwords; never used as feedback terms.
_BLAND = frozenset(
    """yeah yes really just like know think thanks thank good great awesome cool nice love glad sure got get
    also much lot lots one time things thing something way well make made going gonna want wanted
    hey wow amazing totally definitely pretty still even always never sounds look looks
    feel felt say said tell told day today see seen can will would could should unless though although
    every first last next maybe""".split()
)


def synonym_terms(query: str, synonyms: Synonyms, limit: int = 8) -> list[str]:
    """Words of the synonyms of the query's terms and two-word phrases, not already in the query."""
    words = query_terms(query)
    have = set(words)
    grams = [(w,) for w in words] + [tuple(words[i : i + 2]) for i in range(len(words) - 1)]
    found: list[str] = []
    for gram in grams:
        for other in synonyms.get(gram, ()):
            found.extend(w for w in other if w not in have and w not in STOPWORDS)
    return list(dict.fromkeys(found))[:limit]


def generalise(query: str) -> str | None:
    """A broader form of a long query: its informative terms minus the most specific ones.

    Without a taxonomy, "specific" is approximated by position: qualifiers tend to come last in
    questions ("activities ... with her family in June"), so the last third is dropped.
    """
    words = query_terms(query)
    if len(words) < 4:
        return None
    keep = words[: max(2, math.ceil(len(words) * 2 / 3))]
    return " ".join(keep)


def context_terms(messages: Sequence[Mapping[str, str]], query: str, limit: int = 4) -> list[str]:
    """The most frequent informative words of the recent conversation that the query lacks."""
    have = set(query_terms(query))
    counts: Counter[str] = Counter()
    for weight, message in enumerate(reversed(list(messages)[-10:])):
        for term in query_terms(str(message.get("content", ""))):
            if term not in have and term not in _BLAND and len(term) > 2 and not term.isdigit():
                counts[term] += 1.0 / (1 + weight)
    return [t for t, _ in counts.most_common(limit)]


def feedback_terms(query: str, top_texts: Sequence[str], pool_texts: Iterable[str] = (), limit: int = 5) -> list[str]:
    """Terms the top results share (pseudo-relevance feedback), rarer in the wider pool first.

    A term scores by the rank-weighted number of top results containing it, times a rarity
    factor from the pool (a term in every candidate says nothing about relevance).
    """
    have = set(query_terms(query))
    pool = [set(query_terms(t)) for t in pool_texts]
    scores: Counter[str] = Counter()
    for rank, text in enumerate(top_texts):
        for term in dict.fromkeys(query_terms(text)):  # text order: ties break the same way every run
            if term in have or term in _BLAND or len(term) < 3 or term.isdigit():
                continue
            scores[term] += 1.0 / (1 + rank)
    if pool:
        for term in list(scores):
            share = sum(term in terms for terms in pool) / len(pool)
            scores[term] *= math.log(1 + 1 / max(share, 1 / len(pool)))
    # ties (one document, or terms every top result shares): longer, more specific words first
    ranked = sorted((t for t, s in scores.items() if s > 0), key=lambda t: (-round(scores[t], 9), -len(t)))
    return ranked[:limit]
