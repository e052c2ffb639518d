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

from mnemo.retrieve.rewrite.implicit import RELATIONAL
from mnemo.retrieve.rewrite.names import PERSON_NOUNS
from mnemo.retrieve.rewrite.temporal import TIME
from mnemo.store.sql import STOPWORDS

_FOLLOW_UP = re.compile(
    r"^\s*(?:what\s+about|how\s+about|and|what\s+if\s+it's)\s+((?:(?:the|a|an|my|your|our)\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)"
    r"\s*\??\s*$",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"\?|^(?:what|which|who|where|when|why|how|is|are|was|were|do|does|did|can|could|will|would|should)\b",
    re.IGNORECASE,
)
_INDEFINITE = re.compile(r"\b(?:a|an)\s+(?:[a-z][\w'-]*\s+){0,2}?[a-z][\w'-]*\b")
_DEFINITE = re.compile(r"\b(?:the|my|your|our)\s+(?:[a-z][\w'-]*\s+){0,2}?[a-z][\w'-]*\b")
_NAME = re.compile(r"(?<=\s)(?-i:[A-Z][a-z][\w'-]*)(?:\s+(?-i:[A-Z][a-z][\w'-]*))?")
#: The verb whose object a bare word replaces: "can I take ibuprofen with sertraline?".
_OBJECT = re.compile(r"\b(?:take|use|eat|drink|buy|try|get|mix|add|give|book|visit|see|watch|read)\s+([a-z][\w-]+)\b")


def follow_up_opener(query: str) -> tuple[str, int, int] | None:
    """ "what about cambodia": the opener of a noun-phrase follow-up (text, start, end), or None.
    The whole query is the opener and a phrase with no verb, so it continues something said."""
    found = _FOLLOW_UP.match(query)
    if found is None or any(w.lower() in _VERBS for w in found.group(1).split()):
        return None
    opener = query[: found.start(1)].rstrip()
    return opener.strip(), len(opener) - len(opener.lstrip()), len(opener)


#: Verbs that make a follow-up a clause of its own ("and is it open?" is no noun phrase).
_VERBS = frozenset("is are was were do does did can could will would should has have had be".split())


def swapped(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest user question with the follow-up's phrase in the slot of its shape, or None."""
    found = _FOLLOW_UP.match(query)
    if found is None:
        return None
    phrase = found.group(1).strip()
    words = phrase.lower().split()
    if words[-1] in RELATIONAL or words[-1] in STOPWORDS or len(words[-1]) < 3:
        return None  # "what about the price?": the same topic, not a swapped argument
    if words[0] in ("a", "an") and not query.lstrip().lower().startswith("and"):
        return None  # "how about a walk": a suggestion, not an argument of the last question
    question = _last_question(context)
    if question is None:
        return None
    if TIME.search(phrase) or words[-1] in _TIME_WORDS:  # "what about tomorrow": only for a time asked about
        when = TIME.search(question)
        return question[: when.start()] + phrase + question[when.end() :] if when else None
    slot = _slot(phrase, words, question)
    named = slot is not None and slot[2][:1].isupper()
    if slot is not None and not named and _is_person(words[-1]) != _is_person(slot[2].lower().split()[-1]):
        return None  # "and the kids?" never takes the place of "my flight"
    if slot is None or slot[2].lower() == phrase.lower():
        return None
    return question[: slot[0]] + phrase + question[slot[1] :]


_TIME_WORDS = frozenset("tomorrow today tonight yesterday weekend morning evening afternoon night week month".split())


def _is_person(word: str) -> bool:
    return word in PERSON_NOUNS or word.rstrip("s") in PERSON_NOUNS or word in _PEOPLE


_PEOPLE = frozenset("kids children parents people adult adults baby babies toddler teenager teenagers old".split())


def _last_question(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest user message, when it asks something, within the last three messages."""
    for message in list(context)[-3:][::-1]:
        if str(message.get("role") or "").lower() in ("user", "human"):
            text = str(message.get("content") or "").strip()
            return text if _QUESTION.search(text) else None
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
    found = next((m for m in pattern.finditer(text) if m.group(0).split()[-1].lower() not in STOPWORDS), None)
    return (found.start(), found.end(), found.group(0)) if found else None
