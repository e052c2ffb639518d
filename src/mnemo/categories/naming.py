"""Names for clusters from their keywords: class-based TF-IDF over each cluster's texts.

A word names a cluster when it is frequent inside it and rare in the category's other clusters
(c-TF-IDF: term frequency in the cluster times log(1 + average cluster length / the term's
frequency over all clusters)). Words every memory of a kind uses ("prefer", "currently",
"always") are stopwords here, so names say what a cluster is about, e.g. ``git_commit``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

_TOKEN = re.compile(r"[a-z][a-z0-9+#]*")
#: Texts per cluster read for naming; the ones nearest the centroid are passed in first.
MAX_TEXTS = 300
NAME_WORDS = 2
#: Keywords scoring below this share of the cluster's best keyword are left out.
KEEP_SHARE = 0.25

STOPWORDS: frozenset[str] = frozenset(
    """a about above after again against all almost also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each either else even ever every few for
    from further get gets got had has have having he her here hers him his how i if in into is it its itself
    just let like ll me more most much my myself no nor not now of off on once one only or other our ours out
    over own re same she should so some such than that the their them then there these they this those through
    to too under until up very was we were what when where which while who whom why will with would you your
    yours s t d m ve don didn doesn isn wasn aren can't won wouldn shouldn couldn i'm it's that's there's
    really quite still already yet lot lots thing things way ways something anything everything nothing
    prefer prefers preferred preference like likes liked love loves loved enjoy enjoys hate hates dislike
    favourite favorite rather fan fond keen find feel feels usually often sometimes
    always never must should please make sure avoid ensure don't do not need needs allowed ask asking
    currently right now moment today tonight week weeks month months year years day days morning evening
    working work trying going started start just since until next last tomorrow yesterday ago these time
    use using used run running try want wants know see first two three new good better best well much many
    """.split()
)


def tokens(text: str) -> list[str]:
    return [w for w in _TOKEN.findall(text.lower()) if len(w) > 2 and w not in STOPWORDS]


def keywords_per_cluster(clusters: Sequence[Sequence[str]], top: int = 8) -> list[list[str]]:
    """The ``top`` c-TF-IDF keywords of each cluster (a list of its texts)."""
    tokenised = [[tokens(text) for text in texts[:MAX_TEXTS]] for texts in clusters]  # each text once
    singular = _singular_map({w for docs in tokenised for doc in docs for w in doc})
    tokenised = [[[singular.get(w, w) for w in doc] for doc in docs] for docs in tokenised]
    counts = [Counter(w for doc in docs for w in doc) for docs in tokenised]
    total: Counter[str] = Counter()
    for c in counts:
        total.update(c)
    average = sum(sum(c.values()) for c in counts) / max(1, len(counts))
    result: list[list[str]] = []
    for docs, c in zip(tokenised, counts, strict=True):
        documents = Counter(w for doc in docs for w in set(doc))
        size = sum(c.values()) or 1
        # c-TF-IDF, times the share of the word's uses that fall in this cluster: a word every
        # cluster uses (a template, the category's own phrasing) names none of them
        scored = {word: (n / size) * math.log(1.0 + average / total[word]) * (n / total[word]) for word, n in c.items()}
        # a word of one memory does not describe a cluster, unless no word is shared at all
        shared = [w for w in scored if documents[w] >= 2] or list(scored)
        ranked = sorted(shared, key=lambda w: (-scored[w], w))[:top]
        # a keyword must carry a fair share of the best one's weight, or it only adds noise
        result.append([w for w in ranked if scored[w] >= KEEP_SHARE * scored[ranked[0]]])
    return result


def name_from(keywords: Sequence[str], taken: Iterable[str] = (), fallback: str = "misc") -> str:
    """``word1_word2`` from the best keywords, made unique against ``taken``."""
    used = set(taken)
    base = "_".join(keywords[:NAME_WORDS]) or fallback
    if base not in used:
        return base
    for extra in keywords[NAME_WORDS:]:
        candidate = f"{base}_{extra}"
        if candidate not in used:
            return candidate
    number = 2
    while f"{base}_{number}" in used:
        number += 1
    return f"{base}_{number}"


def _singular_map(words: set[str]) -> dict[str, str]:
    """Plural -> singular when both forms occur ("tests" -> "test"), so they count as one word."""
    mapping: dict[str, str] = {}
    for word in words:
        if word.endswith("ies") and word[:-3] + "y" in words:
            mapping[word] = word[:-3] + "y"
        elif word.endswith("s") and not word.endswith("ss") and word[:-1] in words:
            mapping[word] = word[:-1]
    return mapping
