"""Ties between the people of a conversation and the words said of them (for described.py).

Three ties are read:

- the stretch of a sentence a name owns: from the last comma, conjunction or "I" before the name
  to the next one after it, unless another name comes first ("Mr Achebe, £35/hr in person, or Ms
  Varga, online only": "in person" is Mr Achebe's). A verb of saying ends the stretch ("Jakob
  said delivery is quick": the delivery is not Jakob's); a negated stretch ("Felix can't bring the
  projector") and a question ("Felix, can you bring it?") tie nothing;
- a named speaker's own first-person clauses ("Bram: I'll handle the demo");
- the answer to a recent question ("Noor: who's bringing the projector?" - "Felix: me"; "when is
  Kofi's parent-teacher conference?" - "at 4:30 with Mr Bianchi"): whoever answers "me", or the one
  person the answer's first part names, takes the question's words. A refusal takes nothing.

The ties of one conversation are computed once and cached: a query with several descriptions, or
a long context, reads the messages once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from mnemo.retrieve.rewrite.implicit import LIGHT
from mnemo.retrieve.rewrite.names import NOT_NAMES
from mnemo.store.sql import STOPWORDS

from . import cached_re

_NOT_CONTENT = STOPWORDS | LIGHT | frozenset("thanks thank please cheers sorry".split())
_WORD = re.compile(r"[a-z][a-z']{2,}")
_SENTENCE = re.compile(r"(?:[^.!?;\n]|\.\b)+[.!?;\n]*")
#: Where a name's stretch of a sentence begins or ends: a comma, a conjunction, the speaker's "I".
_BOUNDARY = re.compile(
    r"[,;:]|\b(?:and|or|but|so|because|while|whereas|though|although)\b|(?<![\w'])I(?:'m|'ll|'ve|'d)?(?![\w'])"
)
#: Verbs of saying and thinking: what follows is what was said, not a deed of the sayer.
_SAYING = re.compile(
    r"\b(?:said|says|say|told|tells|asked|asks|thinks|thought|reckons|reckoned|mentioned|wrote|claims|claimed"
    r"|heard|hears|knows|knew)\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"n't\b|\b(?:not|never|cannot|can't|won't|no\s+longer|nobody|sorry)\b", re.IGNORECASE)
_COORDINATED = re.compile(r"\s*(?:,|&|and|or|,\s*and)?\s*", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"(?<![\w'])(?:I|I'll|I'm|I've|I'd|me|my|mine)(?![\w'])")
_ANSWER_ME = re.compile(r"^\W*(?:me|i|i will|i can|i do|i did|i am|i'll|i've|i'm|mine|yes,? me)\b", re.IGNORECASE)
_GENERIC_SPEAKERS = frozenset("user assistant system tool human ai bot model function".split())
_TITLE_DOT = re.compile(r"\b(Mr|Mrs|Ms|Dr|Prof|St)\.")
_LABEL = re.compile(r"^\s*\[?([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)\]?\s*:\s+")
#: How many messages back a question may be for an answer to take its words ("Felix, can you?" -
#: "sorry, I can't" - "Astrid: I will").
_QUESTION_REACH = 2


def stems(text: str) -> set[str]:
    """Content-word stems (first five letters); hyphenated words count word by word."""
    words = _WORD.findall(text.lower().replace("-", " "))
    return {w[:5] for w in words if w not in _NOT_CONTENT and len(w) > 2 and "'" not in w}


def nouns(text: str) -> set[str]:
    """The words of a text whole, plurals read as singular ("tutors" -> "tutor"), so that a role
    noun meets its noun and not its verb ("teaching")."""
    words = _WORD.findall(text.lower().replace("-", " "))
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in words}


@dataclass(frozen=True, slots=True)
class Ties:
    """What the conversation tied to one person."""

    own: frozenset[str] = frozenset()  # stems of what they said, did or were asked and answered
    own_nouns: frozenset[str] = frozenset()  # whole words they said of themselves or answered for
    near_nouns: frozenset[str] = frozenset()  # the words of the sentences that name them
    clauses: tuple[str, ...] = ()  # the clauses that name them (lower case)


@dataclass(slots=True)
class _Building:
    own: set[str] = field(default_factory=set)
    own_nouns: set[str] = field(default_factory=set)
    near_nouns: set[str] = field(default_factory=set)
    clauses: list[str] = field(default_factory=list)

    def frozen(self) -> Ties:
        return Ties(frozenset(self.own), frozenset(self.own_nouns), frozenset(self.near_nouns), tuple(self.clauses))


def person_ties(names: Sequence[str], context: Sequence[Mapping[str, str]]) -> dict[str, Ties]:
    """The ties of each name (as written in the conversation) over the messages."""
    messages = tuple((str(m.get("name") or m.get("role") or ""), str(m.get("content") or "")) for m in context)
    return _cached_ties(tuple(dict.fromkeys(names)), messages)


@lru_cache(maxsize=64)
def _cached_ties(names: tuple[str, ...], messages: tuple[tuple[str, str], ...]) -> dict[str, Ties]:
    building = {name: _Building() for name in names}
    questions: list[tuple[int, str]] = []
    for at, (role, content) in enumerate(messages):
        speaker, text = speaker_and_text(role, content)
        text = _TITLE_DOT.sub(r"\1", text)  # "Mr. Bianchi": the title's full stop ends no sentence
        for sentence in _SENTENCE.findall(text):
            _sentence_ties(sentence, names, building)
        if speaker in building:
            for clause in _clauses(text):  # "Bram: I'll handle the demo", not "... and Sanjay will"
                if _FIRST_PERSON.search(clause) and not _NEGATION.search(clause):
                    building[speaker].own |= stems(clause)
                    building[speaker].own_nouns |= nouns(clause)
        asked = next((q for when, q in reversed(questions) if at - when <= _QUESTION_REACH), None)
        answerer = _answerer(speaker, text, names) if asked else None
        if answerer and asked:
            building[answerer].own |= stems(asked)  # "who's bringing the projector?" - "Felix: me"
            building[answerer].own_nouns |= nouns(asked)
        if "?" in text:
            questions.append((at, text))
    return {name: b.frozen() for name, b in building.items()}


def _clauses(text: str) -> list[str]:
    cuts = [0, *(m.start() for m in _BOUNDARY.finditer(text) if m.group(0)[:1] != "I"), len(text)]
    return [text[a:b] for a, b in pairwise(cuts) if text[a:b].strip(" ,;:")]


def _sentence_ties(sentence: str, names: Sequence[str], building: dict[str, _Building]) -> None:
    """Give each name of a sentence the words of its own stretch of it."""
    spots = sorted((m.start(), m.end(), name) for name in names for m in name_pattern(name).finditer(sentence))
    if not spots:
        return
    near = nouns(sentence)
    owned: list[tuple[str, str]] = []
    for index, (start, end, name) in enumerate(spots):
        left = spots[index - 1][1] if index else 0
        right = spots[index + 1][0] if index + 1 < len(spots) else len(sentence)
        before = sentence[_lead(sentence, left, start) : start]
        after = sentence[end : _tail(sentence, end, right)]
        if after.startswith("'s"):  # "Kofi's parent-teacher conference": Kofi owns it, is not it
            after = cached_re.sub(r"^'s\s+[\w-]+", "", after)
        stretch = f"{before} {after}"
        # a question states nothing of the people it names ("Felix, can you bring the projector?")
        stated = not sentence.rstrip().endswith("?") and not _NEGATION.search(stretch)
        owned.append((name, stretch if stated else ""))
        building[name].near_nouns |= near
        building[name].clauses += [c.lower() for c in cached_re.split(r"[,;:]", sentence) if name.split()[-1] in c]
    for index, (name, text) in enumerate(owned):
        group = [text]  # "Rhys and Tomasz are bringing it": a coordinated name shares the predicate
        for step in (-1, 1):
            at = index + step
            while 0 <= at < len(spots) and _COORDINATED.fullmatch(_between(sentence, spots, min(at, at - step))):
                group.append(owned[at][1])
                at += step
        building[name].own |= stems(" ".join(group))


def _lead(sentence: str, left: int, start: int) -> int:
    """Where a name's stretch begins: after the last boundary before it ("..., the agent is Sophie"),
    or the one before that for a name in apposition ("the electrician who rewired the kitchen, Abdi, left")."""
    breaks = list(_BOUNDARY.finditer(sentence, left, start))
    if not breaks:
        return left
    apposed = breaks[-1].group(0) == "," and not sentence[breaks[-1].end() : start].strip()
    if apposed and cached_re.match(r"[\w' .-]*,", sentence[start:]) and len(breaks) > 1:
        return breaks[-2].end()
    return left if apposed and cached_re.match(r"[\w' .-]*,", sentence[start:]) else breaks[-1].end()


def _tail(sentence: str, end: int, right: int) -> int:
    """Where a name's stretch ends: at a verb of saying (kept), else at the last comma or
    conjunction before the next name ("Mr Achebe, in person, or Ms Varga"), else at the next name."""
    said = _SAYING.search(sentence, end, right)
    if said:
        return said.end()
    mine = cached_re.compile(r"(?<![\w'])I(?:'m|'ll|'ve|'d)?(?![\w'])").search(sentence, end, right)
    if mine:
        right = mine.start()  # "Felix is presenting, I'm the projector person": the rest is the speaker's
    breaks = [b for b in _BOUNDARY.finditer(sentence, end, right) if b.group(0)[:1] != "I"]
    # a boundary before a capitalised word opens someone else's clause, named or not ("Hiroko does
    # wheel throwing, Baptiste does the glaze demo")
    subject = next((b for b in breaks if cached_re.match(r"\s*[A-Z][a-z]", sentence[b.end() :])), None)
    if subject is not None:
        return subject.start()
    return breaks[-1].start() if breaks and right < len(sentence) else right


def _between(sentence: str, spots: Sequence[tuple[int, int, str]], index: int) -> str:
    """The text between the name at ``index`` and the next one."""
    return sentence[spots[index][1] : spots[index + 1][0]]


def _answerer(speaker: str, text: str, names: Sequence[str]) -> str | None:
    """Who an answer says it is: the speaker of "me"/"I will", or the one name its first part has;
    nobody for a refusal ("sorry, I can't")."""
    first = cached_re.split(r"[,;.!?\u2014]", text, maxsplit=1)[0]
    if _NEGATION.search(first):
        return None
    if speaker in names and _ANSWER_ME.match(text):
        return speaker
    named = [n for n in names if name_pattern(n).search(first)]
    one = {n.split()[-1] for n in named}  # "the guy Stefan" and "Stefan" are one person
    return min(named, key=len) if len(one) == 1 else None


@lru_cache(maxsize=256)
def name_pattern(name: str) -> re.Pattern[str]:
    """A name found by its last word ("Mr Bianchi" as "Bianchi")."""
    return cached_re.compile(rf"(?<![\w]){re.escape(name.split()[-1])}(?![\w])")


def speaker_and_text(role: str, content: str) -> tuple[str, str]:
    """The speaker (a name label in the text, or the message's name) and what they said."""
    label = _LABEL.match(content)
    if label and label.group(1).split()[0].lower() not in NOT_NAMES:
        return label.group(1), content[label.end() :]
    return ("" if role.lower() in _GENERIC_SPEAKERS else role), content
