"""A when-question names an event without dating it: "when did the uk switch to decimal money?" -
"On 15 February 1971". The question is no "when" clause of its own (it asks for the date), and its
answer holds the date; "back then" is the answer's date and the question's event, said as a clause:
"in 1971, when the uk switched to decimal money".
"""

from __future__ import annotations

import re

#: "when did X <verb> ...", "when was the wedding", "when is X due": a question asking for a date.
WHEN_QUESTION = re.compile(
    r"^\s*(?:and\s+|so\s+|ok\s+)?when\s+(did|was|were|is|are|will|do|does)\s+((?:[^?.!;]|\.\b)+)", re.IGNORECASE
)
#: Irregular pasts of verbs a when-question asks about.
_IRREGULAR = {
    "go": "went",
    "get": "got",
    "take": "took",
    "come": "came",
    "make": "made",
    "buy": "bought",
    "leave": "left",
    "begin": "began",
    "become": "became",
    "break": "broke",
    "run": "ran",
    "win": "won",
    "lose": "lost",
    "find": "found",
    "give": "gave",
    "have": "had",
    "do": "did",
    "see": "saw",
    "meet": "met",
    "pay": "paid",
    "send": "sent",
    "spend": "spent",
    "sell": "sold",
    "tell": "told",
    "fly": "flew",
    "drive": "drove",
    "write": "wrote",
    "fall": "fell",
    "hold": "held",
    "keep": "kept",
    "build": "built",
    "bring": "brought",
    "choose": "chose",
    "know": "knew",
    "grow": "grew",
    "put": "put",
    "set": "set",
    "cut": "cut",
    "quit": "quit",
    "split": "split",
    "shut": "shut",
    "hurt": "hurt",
    "read": "read",
    "sit": "sat",
    "stand": "stood",
}
_DETERMINERS = frozenset("the a an my our your his her their".split())


def when_question_event(text: str) -> str | None:
    """The event a when-question asks to date, as a clause ("when the uk switched to decimal money",
    "when the wedding was"), or None when the text asks no such question."""
    found = WHEN_QUESTION.match(text)
    if found is None:
        return None
    auxiliary, rest = found.group(1).lower(), found.group(2).strip()
    if auxiliary in ("did", "do", "does"):
        words = rest.split()
        at = _verb_at(words)
        if at is None:
            return None
        past = _past(words[at].lower()) if auxiliary == "did" else words[at].lower()
        return "when " + " ".join([*words[:at], past, *words[at + 1 :]])
    return f"when {rest} {auxiliary}"  # "when was the wedding" -> "when the wedding was"


def _verb_at(words: list[str]) -> int | None:
    """Where the question's verb stands: the first word before a preposition that no preposition
    or determiner governs ("the big evacuation of children from london *start* in ww2"), else the
    word after the subject ("we *move* our hosting", "python 2 officially *reach* end of life")."""
    for n in range(1, len(words) - 1):
        low, before = words[n].lower(), words[n - 1].lower()
        if words[n + 1].lower() in _PREPOSITIONS and before not in _PREPOSITIONS | {"of"} | _DETERMINERS:
            if low in _PARTICLES and n >= 2:
                return n - 1  # "get back from spain": the verb before its particle
            if not low.endswith("ly") and low not in _DETERMINERS | _ADVERBS:
                return n
    size = 2 if words and words[0].lower() in _DETERMINERS else 1
    while size < len(words) and (words[size][:1].isupper() or words[size][:1].isdigit()):
        size += 1  # "the UK", "python 2", "Vantage Cloud": a name runs on
    while size < len(words) and (words[size].lower().endswith("ly") or words[size].lower() in _ADVERBS):
        size += 1  # "officially", "last"
    return size if size < len(words) else None


_PREPOSITIONS = frozenset("from to in on at with into for after before during".split())
_PARTICLES = frozenset("back up out off down over away".split())
_ADVERBS = frozenset("last first ever just really actually finally still".split())


def _past(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in tuple("aeiou"):
        return verb[:-1] + "ied"
    return verb + "ed"
