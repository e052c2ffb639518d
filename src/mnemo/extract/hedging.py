"""Hedges, corrections and questions: sentence-level markers that change what a fact is worth.

Hedged facts are kept with lower confidence (seed: −0.2); negated facts are reported with
``negated`` set and never stored as positive; a correction raises confidence (+0.3) and lets the
new value supersede the old one of the same (subject, relation).
"""

from __future__ import annotations

from collections.abc import Sequence

from mnemo.extract.lexicon import Lexicon
from mnemo.extract.phrases import find_phrase, match_phrase
from mnemo.extract.tokens import Tok

BASE_CONFIDENCE = 0.9
HEDGE_PENALTY = 0.2
CORRECTION_BONUS = 0.3


def strip_hedges(toks: Sequence[Tok], lex: Lexicon) -> tuple[list[Tok], bool]:
    """The sentence without its hedge phrases ("I think", "vielleicht"), and whether it had any."""
    kept: list[Tok] = []
    hedged = False
    i = 0
    while i < len(toks):
        length = match_phrase(toks, i, lex.hedges)
        if length:
            hedged = True
            i += length
            if i < len(toks) and toks[i].low in ("that", "que", "che", "dass"):
                i += 1
            continue
        kept.append(toks[i])
        i += 1
    return kept, hedged


def strip_correction(toks: Sequence[Tok], lex: Lexicon) -> tuple[list[Tok], bool]:
    """A leading correction marker ("Actually", "En fait", "Eigentlich"), removed."""
    start = 0
    while start < len(toks) and toks[start].pos == "PUNCT":
        start += 1
    length = match_phrase(toks, start, lex.corrections)
    if length:
        rest = list(toks[start + length :])
        while rest and rest[0].text in (",", ":", "!"):
            rest = rest[1:]
        return rest, True
    return list(toks), False


def is_question(toks: Sequence[Tok], lex: Lexicon) -> bool:
    if not toks:
        return False
    if toks[-1].text == "?" or toks[0].text == "¿":
        return True
    first = toks[0].low
    if toks[0].dep == "mark":  # parsed as a subordinator: "Cuando era niño ..." states, it does not ask
        return False
    return first in lex.question_words and len(toks) > 2 and toks[1].low not in lex.first_person


def opens_question(toks: Sequence[Tok], lex: Lexicon) -> bool:
    """A clause that asks rather than states: starts with a question word or an inverted verb."""
    if not toks:
        return False
    first = toks[0].low
    return first in lex.question_words or first in lex.question_openers or toks[0].text == "¿"


def confidence(hedged: bool, negated: bool, correction: bool) -> float:
    value = BASE_CONFIDENCE
    if hedged:
        value -= HEDGE_PENALTY
    if correction:
        value += CORRECTION_BONUS
    elif negated:
        value -= HEDGE_PENALTY
    return round(max(0.05, min(1.0, value)), 4)


def irrealis(toks: Sequence[Tok], lex: Lexicon) -> bool:
    return find_phrase(toks, lex.irrealis) is not None
