"""Match strength of messages and sessions: quality of matches, not their number (pure functions).

A message's strength comes from its BM25 score (term rarity, frequency, length) shaped by what a
count of matches misses: how many different query terms it covers, whether they occur close
together, whether they sit in code or a heading, and who said it (a user's question outweighs an
assistant's acknowledgement; a long message that names a term once is a passing mention).
A session's strength is its best messages with decaying weight, so two in-depth messages beat ten
passing ones, times how much of the query the session covers as a whole.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mnemo.retrieve.session_match import Marked

_WORD = re.compile(r"\w+", re.UNICODE)
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s.*$", re.MULTILINE)

#: Weights of a session's best, second and third message; the rest only add a little (log of count).
DEPTH_WEIGHTS = (1.0, 0.5, 0.25)
#: Typical length of a conversation message in words (BM25 length normalisation).
AVERAGE_WORDS = 40
#: Matches this many words apart or fewer count as "near each other".
NEAR_WORDS = 8
#: A message longer than this many words that names one query term once is a passing mention.
PASSING_WORDS = 60
#: A match in a sentence shorter than this many words, with no other match, is an aside.
ASIDE_WORDS = 8
#: Below this many words an assistant message is an acknowledgement more than an explanation.
SHORT_ASSISTANT_WORDS = 12


@dataclass(frozen=True, slots=True)
class MessageFeatures:
    groups: frozenset[int]
    #: Matches per query term (its index).
    counts: Mapping[int, int]
    occurrences: int
    words: int
    near: bool
    emphasis: bool
    #: Every match sits in a short sentence ("I'll use Chrome.", "Verified in Chrome."): an aside.
    asides_only: bool = False


def features(marked: Marked) -> MessageFeatures:
    """What the matches of one message look like."""
    text = marked.text
    starts = [m.start() for m in _WORD.finditer(text)]
    located = [(bisect.bisect_right(starts, s) - 1, g) for (s, _), g in zip(marked.spans, marked.groups, strict=True)]
    regions = _emphasised_regions(text)
    bounds = [m.end() for m in _SENTENCE_END.finditer(text)]
    return MessageFeatures(
        groups=frozenset(marked.groups),
        counts=Counter(marked.groups),
        occurrences=len(located),
        words=len(starts),
        near=_near(located) or any(len(_WORD.findall(text, s, e)) > 1 for s, e in marked.spans),
        emphasis=any(_inside(regions, s) for s, _ in marked.spans),
        asides_only=bool(located) and all(_sentence_words(text, s, bounds) < ASIDE_WORDS for s, _ in marked.spans),
    )


def _sentence_words(text: str, offset: int, bounds: Sequence[int]) -> int:
    """Words in the sentence around ``offset``; ``bounds`` are the sentence ends of ``text``."""
    at = bisect.bisect_right(bounds, offset)
    start = bounds[at - 1] if at else 0
    end = bounds[at] if at < len(bounds) else len(text)
    return len(_WORD.findall(text, start, end))


def message_strength(
    feats: MessageFeatures | None,
    bm25_share: float,
    role: str | None,
    semantic: float,
    group_weights: Sequence[float],
    semantic_weight: float,
) -> float:
    """One message's strength: shaped lexical evidence plus semantic relevance (0 when absent)."""
    lexical = 0.0
    if feats is not None and feats.groups:
        total = sum(group_weights) or 1.0
        coverage = sum(group_weights[g] for g in feats.groups) / total
        lexical = bm25_share * (0.3 + 0.7 * coverage)
        if feats.near:
            lexical *= 1.3
        if feats.emphasis:
            lexical *= 1.2
        if feats.occurrences == 1 and feats.words > PASSING_WORDS:
            lexical *= 0.55  # one word in a long message on something else
        if feats.asides_only and not feats.emphasis:
            lexical *= 0.6
        if role == "assistant" and feats.words < SHORT_ASSISTANT_WORDS:
            lexical *= 0.5
    weight = 1.0 if role == "user" else 0.8
    # meaning counts fully where the words do not match (a paraphrase); where they do, it mostly
    # restates the lexical evidence, and counting it twice favours repeated mentions
    semantic_share = 0.5 if lexical > 0 else 1.0
    return weight * (lexical + semantic_weight * semantic_share * semantic)


def term_score(feats: MessageFeatures, group_weights: Sequence[float], k1: float = 1.2, b: float = 0.75) -> float:
    """BM25 of the message over the query terms, with mnemo's own term weights.

    FTS5's bm25() clamps the weight of a term found in more than half the messages to almost zero,
    which in a small store (a few sessions) erases exactly the terms the query is about.
    """
    norm = k1 * (1 - b + b * feats.words / AVERAGE_WORDS)
    return sum(group_weights[g] * tf * (k1 + 1) / (tf + norm) for g, tf in feats.counts.items())


def session_strength(message_scores: Sequence[float], coverage: float) -> float:
    """Best messages with decaying weight, times the share of the query the session covers."""
    ranked = sorted(message_scores, reverse=True)
    depth = sum(w * s for w, s in zip(DEPTH_WEIGHTS, ranked, strict=False))
    extra = 0.05 * math.log1p(max(0, len(ranked) - len(DEPTH_WEIGHTS)))
    return (depth + extra * (ranked[0] if ranked else 0.0)) * (0.4 + 0.6 * coverage)


def semantic_relevance(cosine: float, floor: float = 0.2, span: float = 0.4) -> float:
    """Cosine similarity mapped to 0..1: below ``floor`` is noise for sentence embeddings."""
    return min(1.0, max(0.0, (cosine - floor) / span))


def coverage(groups: set[int], group_weights: Sequence[float]) -> float:
    total = sum(group_weights) or 1.0
    return sum(group_weights[g] for g in groups) / total


def snippet(marked: Marked, width: int = 240) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A window of about ``width`` characters centred on the densest cluster of matches."""
    text, spans = marked.text, marked.spans
    if len(text) <= width:
        return _collapse(text, spans, 0, len(text))
    centre = _densest(spans, width) if spans else 0
    start = max(0, min(centre - width // 2, len(text) - width))
    while start > 0 and not text[start - 1].isspace() and centre - start < width // 2 + 20:
        start -= 1  # do not cut a word in half
    end = min(len(text), start + width)
    while end < len(text) and not text[end].isspace() and end - start < width + 20:
        end += 1
    body, highlights = _collapse(text, spans, start, end)
    prefix = "… " if start > 0 else ""
    suffix = " …" if end < len(text) else ""
    shifted = tuple((s + len(prefix), e + len(prefix)) for s, e in highlights)
    return prefix + body + suffix, shifted


def _collapse(text: str, spans: Sequence[tuple[int, int]], start: int, end: int) -> tuple[str, tuple]:
    """Text[start:end] with runs of whitespace made one space, spans moved to match."""
    out: list[str] = []
    mapping: dict[int, int] = {}
    previous_space = False
    for index in range(start, end):
        char = text[index]
        mapping[index] = len(out)
        if char.isspace():
            if previous_space or not out:
                continue
            out.append(" ")
            previous_space = True
        else:
            out.append(char)
            previous_space = False
    mapping[end] = len(out)
    kept = tuple(
        (mapping[s], mapping.get(e, len(out))) for s, e in spans if s >= start and e <= end and mapping[s] < len(out)
    )
    return "".join(out).rstrip(), kept


def _densest(spans: Sequence[tuple[int, int]], width: int) -> int:
    best_count, best_centre = 0, spans[0][0]
    for i, (s, _) in enumerate(spans):
        inside = [e for (s2, e) in spans[i:] if s2 - s <= width * 0.6]
        if len(inside) > best_count:
            best_count, best_centre = len(inside), (s + inside[-1]) // 2
    return best_centre


def _near(located: Sequence[tuple[int, int]]) -> bool:
    """Two different query terms within NEAR_WORDS words of each other (or one phrase match)."""
    ordered = sorted(located)
    return any(g1 != g2 and p2 - p1 <= NEAR_WORDS for (p1, g1), (p2, g2) in itertools.pairwise(ordered))


def _emphasised_regions(text: str) -> list[tuple[int, int]]:
    regions = [m.span() for m in _FENCE.finditer(text)]
    regions += [m.span() for m in _INLINE_CODE.finditer(text)]
    regions += [m.span() for m in _HEADING.finditer(text)]
    return regions


def _inside(regions: Sequence[tuple[int, int]], offset: int) -> bool:
    return any(start <= offset < end for start, end in regions)
