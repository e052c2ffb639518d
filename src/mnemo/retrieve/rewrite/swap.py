"""Noun-phrase follow-ups: "what about cambodia" after "can I just turn up in Vietnam ... or do I
need to sort something first?", "and a 6 year old?" after "how much vitamin D should an adult take?".

Like a prepositional fragment (fragments.py), the follow-up repeats the last question with one
argument swapped; here the argument is a noun phrase, and the slot it takes is found by its shape:
a name takes the question's (first) name, a phrase with "a/an" its indefinite phrase, a phrase with
"the/my/your" its definite one, a bare word the object of the question's verb. Relational nouns
("what about the price?") ask about the same topic and are left to the topic rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.clause import looks_verbal
from mnemo.retrieve.rewrite.dates import without_preposition
from mnemo.retrieve.rewrite.fragments import ASKED, QUESTION_START
from mnemo.retrieve.rewrite.implicit import RELATIONAL
from mnemo.retrieve.rewrite.lexicon import kinds_of
from mnemo.retrieve.rewrite.names import AUXILIARIES, COMMON_VERBS, PERSON_NOUNS
from mnemo.retrieve.rewrite.temporal import TIME
from mnemo.store.sql import STOPWORDS

from . import cached_re

_FOLLOW_UP = re.compile(
    r"^\s*(?:what\s+about|how\s+about|and|what\s+if\s+it's)\s+((?:(?:the|a|an|my|your|our)\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)"
    r"\s*\??\s*$",
    re.IGNORECASE,
)
_WORD = (
    r"(?!(?:to|for|with|from|in|on|at|by|of|and|or|but|is|are|was|were|every|each|this|that|now|today|tonight)\b)"
    r"[a-z][\w'-]*"
)
_INDEFINITE = re.compile(rf"\b(?:a|an)\s+(?:{_WORD}\s+){{0,3}}{_WORD}\b")
_DEFINITE = re.compile(rf"\b(?:the|my|your|our)\s+(?:{_WORD}\s+){{0,3}}{_WORD}\b")
_NAME = re.compile(r"(?<=\s)(?-i:[A-Z][a-z][\w-]*)(?:\s+(?-i:[A-Z][a-z][\w-]*))?")
#: Openers that make the follow-up a clause or a request, not a phrase ("and we get sushi", "a coffee please").
_NOT_A_PHRASE = frozenset("i we you he she they it there here".split())
#: The verb whose object a bare word replaces: "can I take ibuprofen with sertraline?".
_OBJECT = re.compile(r"\b(?:take|use|eat|drink|buy|try|get|mix|add|give|book|visit|see|watch|read)\s+([a-z][\w-]+)\b")


#: The noun a follow-up reference carries: it is swapped into the last question or left alone.
FOLLOW_UP = "follow-up"


def follow_up_opener(query: str) -> tuple[str, int, int] | None:
    """ "what about cambodia": the opener of a noun-phrase follow-up (text, start, end), or None.
    The whole query is the opener and a phrase with no verb, so it continues something said."""
    found = _FOLLOW_UP.match(query)
    if found is None or any(w.lower() in _VERBS for w in found.group(1).split()):
        return None
    opener = query[: found.start(1)].rstrip()
    return opener.strip(), len(opener) - len(opener.lstrip()), len(opener)


#: Verbs that make a follow-up a clause of its own ("and is it open?" is no noun phrase).
_VERBS = AUXILIARIES | {"do", "be"}


def swapped(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest user question with the follow-up's phrase in the slot of its shape, or None."""
    found = _FOLLOW_UP.match(query)
    if found is None:
        return None
    phrase = found.group(1).strip()
    words = phrase.lower().split()
    lower_word = not phrase[:1].isupper()
    if words[0] in ("a", "an") and words[-1] == "one" and len(words) >= 3:
        return _swap_modifier(words[:-1], context)  # "and a 3kg one?" after "roast a 2kg chicken"
    if words[-1] in RELATIONAL or words[-1] in STOPWORDS or (lower_word and len(words[-1]) < 3):
        return None  # "what about the price?": the same topic, not a swapped argument
    if words[0] in _NOT_A_PHRASE or words[-1] in ("please", "thanks", "pls"):
        return None  # "and we get sushi tonight?", "and a coffee please": a clause or a request
    if words[0] in ("a", "an") and query.lstrip().lower().startswith("how about"):
        return None  # "how about a walk": a suggestion, not an argument of the last question
    question = last_question(context)
    if question is None:
        return None
    if TIME.search(phrase) or words[-1] in _TIME_WORDS:  # "what about tomorrow": only for a time asked about
        return _swap_time(phrase, question)
    slot = _same_kind_slot(phrase, question) or _slot(phrase, words, question)
    named = slot is not None and slot[2][:1].isupper()
    if slot is not None and not named and _is_person(words[-1]) != _is_person(slot[2].lower().split()[-1]):
        return None  # "and the kids?" never takes the place of "my flight"
    if slot is not None and phrase[:1].isupper() and len(words) == 1 and not named:
        return None  # "what about Sam": a name takes only a name's place
    if slot is None or slot[2].lower() == phrase.lower():
        return None
    return question[: slot[0]] + phrase + question[slot[1] :]


def _same_kind_slot(phrase: str, question: str) -> tuple[int, int, str] | None:
    """ "what about cats" after "can dogs eat grapes": the question's word of the same kind (an
    animal, not the food), by the lexicon; None when no single word shares a kind."""
    kinds = _kinds_of_word(phrase)
    if not kinds or " " in phrase.strip():
        return None
    slots = [
        m for m in cached_re.finditer(r"[a-z][\w-]*", question, re.IGNORECASE) if _kinds_of_word(m.group(0)) & kinds
    ]
    slots = [m for m in slots if m.group(0).lower() != phrase.lower()]
    return (slots[0].start(), slots[0].end(), slots[0].group(0)) if len(slots) == 1 else None


def _kinds_of_word(word: str) -> frozenset[str]:
    low = word.lower()
    return kinds_of(low) or (kinds_of(low[:-1]) if low.endswith("s") else frozenset())


def _swap_modifier(modified: list[str], context: Sequence[Mapping[str, str]]) -> str | None:
    """ "and a 3kg one?": the question's indefinite phrase with its head kept ("a 3kg chicken")."""
    question = last_question(context)
    slot = _MODIFIED.search(question) if question else None
    if question is None or slot is None:
        return None  # "a chicken" has no modifier to swap
    return question[: slot.start()] + " ".join([*modified, slot.group(1)]) + question[slot.end() :]


#: An indefinite phrase with one modifier before its head: "a 2kg chicken", "a 5-year fix".
_MODIFIED = re.compile(r"\b(?:a|an)\s+(?!(?:lot|bit|few|little|couple)\b)[\w.-]+\s+([a-z][\w-]*)\b", re.IGNORECASE)


def _swap_time(phrase: str, question: str) -> str | None:
    """ "and tomorrow?" after "is the pool open today?": the question's time, its preposition kept."""
    when = TIME.search(question) or _TIME_WORD.search(question)
    if when is None:
        return None
    core = without_preposition(when.group(0))
    start = when.start() + when.group(0).find(core)
    return question[:start] + without_preposition(phrase) + question[start + len(core) :]


_TIME_WORD = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this\s+(?:week|weekend|morning|evening))\b", re.IGNORECASE
)
_TIME_WORDS = frozenset("tomorrow today tonight yesterday weekend morning evening afternoon night week month".split())


def _is_person(word: str) -> bool:
    return word in PERSON_NOUNS or word.rstrip("s") in PERSON_NOUNS or word in _PEOPLE


_PEOPLE = frozenset("kids children parents people adult adults baby babies toddler teenager teenagers old".split())


def last_question(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest user message, when it asks something, within the last three messages."""
    for message in list(context)[-3:][::-1]:
        if str(message.get("role") or "").lower() in ("user", "human"):
            text = str(message.get("content") or "").strip()
            return text if "?" in text or QUESTION_START.match(text) or ASKED.search(text) else None
    return None


def _slot(phrase: str, words: list[str], question: str) -> tuple[int, int, str] | None:
    """(start, end, text) of the question's phrase that the follow-up's phrase replaces."""
    if words[0] in ("a", "an"):
        return _first(_INDEFINITE, question)
    if words[0] in ("the", "my", "your", "our"):
        return _first(_DEFINITE, question)
    if (len(words) == 1 and (phrase[:1].isupper() or not question.islower())) or _is_person(words[-1]):
        name = _first(_NAME, question)  # "what about cambodia", "and Theo's sister?": the name's slot
        if name is not None:
            return name
    obj = _OBJECT.search(question)
    if obj is None or obj.group(1) in STOPWORDS:
        return None
    return obj.start(1), obj.end(1), obj.group(1)


def _first(pattern: re.Pattern[str], text: str) -> tuple[int, int, str] | None:
    """The first phrase of the pattern, cut before a verb ("an adult take in winter" -> "an adult")."""
    for found in pattern.finditer(text):
        words = found.group(0).split()
        keep = 1
        while keep < len(words) and not (looks_verbal(words[keep].lower()) or words[keep].lower() in COMMON_VERBS):
            keep += 1
        if keep == 1 and len(words) > 1 and pattern is not _NAME:
            continue  # a determiner and a verb: no phrase
        phrase = " ".join(words[:keep]) if pattern is not _NAME else found.group(0)
        if phrase.split()[-1].lower() not in STOPWORDS:
            return found.start(), found.start() + len(phrase), phrase
    return None
