"""The two alternatives "the former" and "the latter" count: "Porcelain tile or luxury vinyl
plank", "either generic loratadine for 4.99 or Clarityn for 11", "a regular B-tree, or a BRIN
index if rows are inserted in order".

"The former" and "the latter" are defined over a pair of alternatives, and the alternatives of a
chat are joined by "or" far more than by "and": a later "warmth and sound" is no choice, while
"tile or vinyl" three messages back still is. So the latest "or" of the recent messages is read
first, and only when none is found does the caller fall back to other pairs. Each side is cut to
its name: what follows a boundary (a colon, "either", "between") and precedes a comma, an
attachment ("for 4.99", "in february") or a relative clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from mnemo.retrieve.rewrite.wordfind import sentences
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: How many of the latest messages may hold the pair.
_WINDOW = 6
#: The joint of two alternatives: "A or B", "A, or B", "A vs B".
_OR = re.compile(r",?\s+(?:or|vs\.?|versus)\s+", re.IGNORECASE)
#: Where the first alternative starts: after the last of these.
_LEAD = re.compile(r"(?::\s|;\s|\beither\s|\bbetween\s|\s[-–—]\s)", re.IGNORECASE)
#: Where a side's name ends: a comma, a bracket, an attachment, a relative clause or an adverb of time.
_END = re.compile(
    r",|\(|\s(?:for|in|at|on|from|with|which|that|who|if|when|because|so|about|behind|near|by|now|soon|today"
    r"|tomorrow|is|are|was|were|has|have|gives|costs|will|would)\b",
    re.IGNORECASE,
)
#: Words that open a clause, not a name: a side that starts with one is no alternative.
_CLAUSE_OPENERS = frozenset("i you we he she they it there this that these those what which who how".split())
_LONGEST = 6


def alternative_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two sides of the latest explicit choice of the recent messages ("between A and B",
    "either A or B", a question "A or B?"), else of the latest "or", cut to their names, or []."""
    plain: list[str] = []
    for sentence in _recent_sentences(context):
        asked = sentence.endswith("?")
        sentence = sentence.rstrip(".?!")
        chosen = _between(sentence) or (_sides(sentence) if asked else [])  # "Postgres or MongoDB?" asks to choose
        if chosen:
            return chosen
        if not plain:
            plain = _sides(sentence)
    return plain


def _recent_sentences(context: Sequence[Mapping[str, str]]) -> Iterator[str]:
    """The sentences of the latest messages, newest first."""
    for message in reversed(list(context)[-_WINDOW:]):
        for sentence in reversed(sentences(str(message.get("content") or ""))):
            yield sentence.strip()


_AND = re.compile(r",?\s+and\s+", re.IGNORECASE)


def joined_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """With no "or" at all, the latest two things joined by "and" ("front brake pads now (180) and a
    timing belt soon (650)"), each cut to its name."""
    for sentence in _recent_sentences(context):
        joints = list(_AND.finditer(sentence))
        if len(joints) != 1:
            continue
        before, after = sentence[: joints[0].start()], sentence[joints[0].end() :]
        first, second = _last_phrase(_cut(before)), _name(after)
        if _fits(first) and _fits(second) and len(first.split()) <= 4:
            return [first, second]
    return []


def _between(sentence: str) -> list[str]:
    """ "choosing between Terraform and Pulumi", "either A or B": a choice said to be one."""
    found = cached_re.search(r"\b(?:between\s+(.+?)\s+and\s+|either\s+(.+?),?\s+or\s+)(.+)$", sentence, re.IGNORECASE)
    if found is None:
        return []
    first, second = _name(found.group(1) or found.group(2)), _name(found.group(3))
    if cached_re.fullmatch(r"[\d:.]+\s?(?:am|pm)?", first.lower()) or cached_re.fullmatch(
        r"[\d:.]+\s?(?:am|pm)?", second.lower()
    ):
        return []  # "between 2pm and 4pm": a span of time, no choice
    return [first, second] if _fits(first) and _fits(second) else []


def _sides(sentence: str) -> list[str]:
    joints = list(_OR.finditer(sentence))  # "A or B": the main joint
    if not joints:
        return []
    # with several "or"s, the one after a comma is the main joint
    main = next((j for j in joints if j.group(0).startswith(",")), joints[-1] if len(joints) == 1 else None)
    if main is None:
        return []
    before, after = sentence[: main.start()], sentence[main.end() :]
    leads = list(_LEAD.finditer(before))
    first = _name(before[leads[-1].end() :]) if leads else _last_phrase(_cut(before) if "," in before else before)
    second = _name(after)
    return [first, second] if _fits(first) and _fits(second) else []


def _name(side: str) -> str:
    """A side cut to its name; a side that opens with a verb ("stay on the Halifax tracker",
    "move them to EventBridge") is named by the phrase its verb leads to."""
    words = side.strip().split()
    if len(words) >= 3 and words[0].islower() and words[0] in _CHOICE_VERBS:  # "Go for the backend" is a name
        at = next((n for n, w in enumerate(words[1:], 1) if w[:1].isupper() or w.lower() in _DETERMINERS), None)
        if at is not None:
            side = " ".join(words[at:])
    return _cut(side)


def _fits(name: str) -> bool:
    return bool(name) and not _opens_clause(name) and len(name.split()) <= _LONGEST


_DETERMINERS = frozenset("the a an my our your their his her".split())
#: Verbs that lead into an alternative: "stay on the Halifax tracker", "should i use uuid4".
_CHOICE_VERBS = frozenset(
    """use stay move keep switch go buy rent take get book remortgage sell hire lease upgrade downgrade pay wait
    choose pick try order install run migrate refinance fly drive visit""".split()
)


def _cut(side: str) -> str:
    found = _END.search(side.strip())
    name = side.strip()[: found.start()] if found else side.strip()
    return name.strip(" .:;'\"")


def _last_phrase(side: str) -> str:
    """ "should we go with Terraform" -> "Terraform": the phrase closing a lead-in."""
    words = side.split()
    for n in range(len(words) - 1, -1, -1):
        if words[n].lower() in _DETERMINERS or (words[n][:1].isupper() and (n == 0 or not words[n - 1][:1].isupper())):
            return " ".join(words[n:]).strip(" ,")
        if words[n].lower() in STOPWORDS or words[n].lower() in _CHOICE_VERBS or len(words) - n > 3:
            return " ".join(words[n + 1 :]).strip(" ,")
    return " ".join(words).strip(" ,")


def _opens_clause(side: str) -> bool:
    return side.split()[0].lower() in _CLAUSE_OPENERS
