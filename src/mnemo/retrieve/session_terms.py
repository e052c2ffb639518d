"""From parsed query terms to what the full-text index is asked: typo fixes and synonyms added.

Stemming is the index's own (FTS5's porter tokenizer stems query and content alike), so
``migrating`` already finds ``migration``. What this module adds:

- typo tolerance: a word the store has (almost) never seen is matched against the store's
  vocabulary (the ``items_vocab`` table, stemmed) within a small edit distance, and the closest
  well-attested term joins the query (``postgress`` → ``postgres``);
- synonyms: members of the word's synonym group (compared stem by stem) join the query.

Each user term becomes a ``TermGroup``: its variants are searched as one concept, so a session
matching ``postgres`` and ``postgresql`` covers one term, not two.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from mnemo.retrieve.query_language import ParsedQuery, Term, fts_any

#: Words shorter than this are never corrected: too many real words are one edit apart.
MIN_TYPO_LENGTH = 5
#: A word seen in at most this many messages may be a typo worth correcting.
RARE_DOCS = 1
#: Suffixes the stemmer strips; a vocabulary stem plus one of these is compared to the typed word.
_SUFFIXES = ("", "s", "es", "e", "ed", "ing", "ion", "er", "y")


class Vocabulary(Protocol):
    def stem_words(self, words: Sequence[str]) -> dict[str, list[str]]: ...
    def vocabulary_counts(self, terms: Sequence[str]) -> dict[str, int]: ...
    def vocabulary_near(self, first: str, min_len: int, max_len: int) -> list[tuple[str, int]]: ...


@dataclass(frozen=True, slots=True)
class TermGroup:
    """One query term and the variants searched on its behalf."""

    label: str
    variants: tuple[Term, ...]
    required: bool
    #: Each variant as the index stems it (a tuple of stems; several for a phrase).
    patterns: tuple[tuple[str, ...], ...]
    #: Inverse document frequency weight of the rarest variant (rarer terms matter more).
    weight: float
    corrected: tuple[str, ...] = ()
    #: Messages holding the term (its most common form); what matching it costs the full-text index.
    docs: int = 0

    @property
    def match(self) -> str:
        return fts_any(self.variants) or '""'


@dataclass(frozen=True, slots=True)
class ExpandedQuery:
    parsed: ParsedQuery
    groups: tuple[TermGroup, ...]

    @property
    def match(self) -> str:
        """FTS5 expression matching any variant of any positive term."""
        return fts_any(v for g in self.groups for v in g.variants) or '""'

    def candidate_match(self, budget: int) -> str:
        """The expression that finds candidates: the rarest terms whose matches fit ``budget`` rows.

        BM25 scores every message that matches any term, so one everyday word ("run", "file") would
        cost more than the rest of the search; it still counts when the candidates are scored.
        Required terms and phrases are always kept; so is the rarest term.
        """
        ranked = sorted(self.groups, key=lambda g: g.docs)
        kept, spent = [], 0
        for position, group in enumerate(ranked):
            optional = not group.required and not any(v.is_phrase for v in group.variants)
            if position > 0 and optional and spent + group.docs > budget:
                continue
            kept.append(group)
            spent += group.docs
        return fts_any(v for g in self.groups if g in kept for v in g.variants) or '""'

    def excluded_match(self) -> str | None:
        return fts_any(self.parsed.excluded)

    def required_groups(self) -> tuple[TermGroup, ...]:
        return tuple(g for g in self.groups if g.required)

    def as_dict(self) -> dict[str, object]:
        return {
            **self.parsed.as_dict(),
            "expanded": {g.label: [v.text for v in g.variants] for g in self.groups},
            "corrected": {g.label: list(g.corrected) for g in self.groups if g.corrected},
        }


def expand_query(
    parsed: ParsedQuery,
    vocab: Vocabulary,
    synonyms: Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]],
    total_docs: int,
) -> ExpandedQuery:
    """Typo fixes and synonyms for every positive term; ``synonyms`` is keyed by stemmed words."""
    words = sorted({w for t in parsed.positive for w in t.words})
    stemmed = _first_stems(vocab.stem_words(words), words)
    counts = vocab.vocabulary_counts(sorted(set(stemmed.values())))
    groups = []
    for term in parsed.positive:
        key = tuple(stemmed[w] for w in term.words)
        variants = [term]
        corrected: list[str] = []
        if not term.is_phrase and counts.get(key[0], 0) <= RARE_DOCS:
            fix = correct_typo(term.words[0], key[0], counts.get(key[0], 0), vocab)
            if fix is not None:
                variants.append(Term((fix,)))
                corrected.append(fix)
        variants += [Term(s) for s in synonyms.get(key, ()) if Term(s) not in variants]
        docs = [counts.get(k, 0) for k in key] + [_docs_of(fix, vocab) for fix in corrected]
        rarest = min((d for d in docs if d > 0), default=1)
        weight = math.log(1 + total_docs / rarest)
        groups.append(
            TermGroup(
                label=term.text,
                variants=tuple(variants),
                required=term in parsed.required,
                patterns=_variant_patterns(variants, vocab),
                weight=max(weight, 0.1),
                docs=max(docs) if docs else 0,
                corrected=tuple(corrected),
            )
        )
    return ExpandedQuery(parsed, tuple(groups))


def correct_typo(word: str, stem: str, docs: int, vocab: Vocabulary) -> str | None:
    """The best-attested indexed term within a small edit distance of ``word``, or None."""
    if len(word) < MIN_TYPO_LENGTH or word.isdigit():
        return None
    budget = 1 if len(word) < 8 else 2
    candidates = vocab.vocabulary_near(word[0], max(2, len(stem) - budget - 3), len(word) + budget)
    best: tuple[int, int, str] | None = None
    for term, count in candidates:
        if term == stem or count < max(2, 3 * docs):
            continue
        distance = min(bounded_distance(word, term + suffix, budget) for suffix in _SUFFIXES)
        if distance <= budget and (best is None or (distance, -count) < best[:2]):
            best = (distance, -count, term)
    if best is None:
        return None
    term = best[2]
    # the index stems query words again: keep only a term that stems to itself
    return term if vocab.stem_words([term]).get(term, [None])[0] == term else None


def bounded_distance(a: str, b: str, bound: int) -> int:
    """Optimal-string-alignment edit distance (a swap of two neighbours costs 1), capped at bound + 1."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    previous2: list[int] | None = None
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if previous2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > bound:
            return bound + 1
        previous2, previous = previous, current
    return min(previous[-1], bound + 1)


def stem_synonyms(
    index: Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]], vocab: Vocabulary
) -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The synonym index keyed by stemmed words, so ``migrating`` finds the group of ``migration``."""
    words = sorted({w for key in index for w in key})
    stemmed = _first_stems(vocab.stem_words(words), words)
    keyed: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for key, others in index.items():
        bucket = keyed.setdefault(tuple(stemmed[w] for w in key), [])
        bucket.extend(o for o in others if o not in bucket)
    return {key: tuple(others) for key, others in keyed.items()}


def _first_stems(found: Mapping[str, list[str]], words: Sequence[str]) -> dict[str, str]:
    return {w: (found.get(w) or [w])[0] for w in words}


def _variant_patterns(variants: Sequence[Term], vocab: Vocabulary) -> tuple[tuple[str, ...], ...]:
    words = sorted({w for v in variants for w in v.words})
    stemmed = _first_stems(vocab.stem_words(words), words)
    return tuple(dict.fromkeys(tuple(stemmed[w] for w in v.words) for v in variants))


def _docs_of(term: str, vocab: Vocabulary) -> int:
    return vocab.vocabulary_counts([term]).get(term, 0)
