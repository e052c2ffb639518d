"""Where a message matches the query, found in Python the way the full-text index matches.

The index stems words with the porter stemmer; so does this: each message word that could match
(it shares a prefix with a query stem) is stemmed once through the store's own tokenizer, and a
query term matches where a message word — or, for a phrase, consecutive words — has its stems.
Cheaper than FTS5's highlight() (which re-runs the whole query per row), and it says which query
term each match belongs to.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: Runs of letters and digits: the unicode61 tokenizer splits on everything else, "_" included.
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: Letters of a stem a candidate word must start with (porter stems are prefixes, bar y → i).
_PREFIX = 3
_NEXT_WORD = re.compile(r"[\W_]*?([^\W_]+)", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Marked:
    """A message's text, its matched spans ([start, end) offsets) and each span's query-term index."""

    text: str
    spans: tuple[tuple[int, int], ...] = ()
    groups: tuple[int, ...] = ()


def words_of(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def candidate_words(texts: Iterable[str], patterns: Sequence[Sequence[tuple[str, ...]]]) -> set[str]:
    """Distinct lower-cased words of ``texts`` that share a prefix with some pattern stem."""
    prefixes = {stem[:_PREFIX] for group in patterns for pattern in group for stem in pattern}
    return {w for text in texts for w in words_of(text) if w[:_PREFIX] in prefixes}


def find_matches(text: str, patterns: Sequence[Sequence[tuple[str, ...]]], stems: Mapping[str, str]) -> Marked:
    """Spans of ``text`` matching ``patterns`` (per query term, stem tuples of its variants)."""
    finder = _finder(tuple(w for w, stem in stems.items() if any(stem == p[0] for g in patterns for p in g)))
    if finder is None:
        return Marked(text)
    spans: list[tuple[int, int]] = []
    groups: list[int] = []
    position = 0
    while (hit := finder.search(text, position)) is not None:
        found = _longest_at(text, hit, patterns, stems)
        if found is None:
            position = hit.end()
            continue
        group, end = found
        spans.append((hit.start(), end))
        groups.append(group)
        position = end
    return Marked(text, tuple(spans), tuple(groups))


@functools.lru_cache(maxsize=64)
def _finder(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """A regex finding any of ``words`` as a whole token (letters/digits not continuing on either side)."""
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])", re.IGNORECASE)


def _longest_at(
    text: str, hit: re.Match[str], patterns: Sequence[Sequence[tuple[str, ...]]], stems: Mapping[str, str]
) -> tuple[int, int] | None:
    """The longest pattern starting at ``hit``, as (query-term index, end offset)."""
    first = stems.get(hit.group().lower())
    best: tuple[int, int, int] | None = None  # (size, group, end)
    for group, variants in enumerate(patterns):
        for pattern in variants:
            if pattern[0] != first or (best is not None and len(pattern) <= best[0]):
                continue
            end = _rest_matches(text, hit.end(), pattern[1:], stems)
            if end is not None:
                best = (len(pattern), group, end)
    return None if best is None else (best[1], best[2])


def _rest_matches(text: str, position: int, rest: tuple[str, ...], stems: Mapping[str, str]) -> int | None:
    """End offset when the words after ``position`` have the stems ``rest`` in order, else None."""
    for stem in rest:
        word = _NEXT_WORD.match(text, position)
        if word is None or stems.get(word.group(1).lower()) != stem:
            return None
        position = word.end()
    return position
