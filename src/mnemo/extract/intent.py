"""What a user turn does: react, ask, state one fact, state several, or correct an earlier one."""

from __future__ import annotations

import re
from enum import StrEnum

from mnemo.extract.lexicon import Lexicon


class Intent(StrEnum):
    REACTION = "REACTION"
    PURE_QUESTION = "PURE_QUESTION"
    QUESTION_WITH_FACT = "QUESTION_WITH_FACT"
    FACT_STATEMENT = "FACT_STATEMENT"
    MULTIPLE_FACTS = "MULTIPLE_FACTS"
    CORRECTION = "CORRECTION"


#: Relations that only qualify another fact; "I have two cats" is one fact, not two.
QUALIFIERS = frozenset({"time", "duration", "quantity"})
_WORDS = re.compile(r"\w+", re.UNICODE)


def classify(text: str, lex: Lexicon | None, relations: list[str], question: bool, correction: bool) -> Intent:
    """Intent from the turn's surface and what extraction found in it (pure, no model)."""
    main = [r for r in relations if r not in QUALIFIERS]
    if correction and main:
        return Intent.CORRECTION
    if question:
        return Intent.QUESTION_WITH_FACT if main else Intent.PURE_QUESTION
    if len(main) >= 2:
        return Intent.MULTIPLE_FACTS
    if main:
        return Intent.FACT_STATEMENT
    words = [w.lower() for w in _WORDS.findall(text)]
    if lex is not None and words and words[0] in lex.question_words and len(words) > 2:
        return Intent.PURE_QUESTION
    return Intent.REACTION
