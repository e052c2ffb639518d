"""Fragment follow-ups: "and to Florence?" after "is there a direct train from Milan to Venice?".

A fragment that is only a prepositional phrase is an ellipsis of the previous question with that
phrase swapped: the speaker keeps everything else ("a direct train from Milan") and changes one
argument, marked by its preposition. Reconstructing the question by the substitution keeps all of
its content, which appending a topic cannot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.names import PERSON_NOUNS

from . import cached_re

_PREPOSITION = r"(to|from|in|at|on|for|with|by|near|into|over|under|via|without|per)"
_FRAGMENT = re.compile(
    rf"^\s*(?:and|or|but|what\s+about|how\s+about)\s+{_PREPOSITION}\s+((?:[^?.!]|\.\b){{1,40}}?)\s*[?.!]*\s*$"
    # a bare phrase asked on its own: "in navy?", "for 6 people?"
    rf"|^\s*{_PREPOSITION}\s+((?:[\w'.%£$-]+\s*){{1,3}}?)\s*\?\s*$",
    re.IGNORECASE,
)
_ARGUMENT = (
    r"(?:the\s+|a\s+|an\s+)?[\w'-]+(?-i:\s+[A-Z][\w'-]*)*(?:\s+\d[\w.]*)?"
    # a lower-case compound runs to its head: "for jet lag", not "for jet"
    r"(?:\s+(?!(?:and|or|but|in|on|at|for|with|to|from|of|if|when|is|are|was|do|does|i|we|you)\b)[a-z][a-z'-]*(?=\s*[?.!,]?\s*$))?"
)


QUESTION_START = re.compile(
    r"^(?:what|whats|which|who|whos|where|wheres|when|why|how|hows|is|are|was|were|do|does|did|can|could|will|would"
    r"|should|shall|any)\b",
    re.IGNORECASE,
)


#: A question asked after a statement in the same message: "mortgage of 250k over 25 years, what's the payment".
ASKED = re.compile(r"[,;:]\s*(?:what|what's|which|how|is|are|does|do|can|could|will|would)\b", re.IGNORECASE)


def fragment_opener(query: str, context_text: str = "") -> tuple[str, int, int] | None:
    """ "and to Vis?": the opener of a prepositional fragment (text, start, end), or None. It is
    elliptical even when it names something: the frame it continues is missing. A bare phrase
    ("in navy?") counts only when a question of the conversation has that preposition to swap."""
    found = _FRAGMENT.match(query)
    if found is None:
        return None
    if found.group(1) is None:  # no opener: the bare phrase is the reference
        preposition = found.group(3).lower()
        asked = [
            line
            for line in context_text.splitlines()
            if "?" in line or QUESTION_START.match(line) or ASKED.search(line)
        ]
        if not any(cached_re.search(rf"\b{preposition}\s+\w", line, re.IGNORECASE) for line in asked):
            return None  # "for real?", "in person?": no question to continue
        return query.strip(), len(query) - len(query.lstrip()), len(query.rstrip())
    opener = query[: found.start(1)].rstrip()
    return opener.strip(), len(opener) - len(opener.lstrip()), len(opener)


def substitute(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest user message, when it is a question, with the fragment's phrase swapped in; or None."""
    fragment = _FRAGMENT.match(query)
    if fragment is None:
        return None
    preposition = (fragment.group(1) or fragment.group(3)).lower()
    argument = (fragment.group(2) or fragment.group(4)).strip()
    pattern = cached_re.compile(rf"\b{preposition}\s+({_ARGUMENT})", re.IGNORECASE)
    for message in reversed(list(context)):
        if str(message.get("role") or "").lower() not in ("user", "human"):
            continue
        text = str(message.get("content") or "").strip()
        if not (text.endswith("?") or QUESTION_START.match(text) or ASKED.search(text)):
            return None  # a fragment continues the latest question; after a statement it adds to it
        phrases = list(pattern.finditer(text))
        if not phrases:
            return _in_indefinite_slot(preposition, argument, text)
        found = phrases[-1]  # the last such phrase: "from Milan to Venice" -> "to Venice"
        end = found.end(1)
        unit = cached_re.match(rf"\s+{re.escape(argument.split()[-1])}\b", text[end:], re.IGNORECASE)
        if unit and len(argument.split()) > 1:
            end += unit.end()  # "over 25 years" -> "over 30 years", not "over 30 years years"
        rebuilt = text[: found.start(1)] + argument + text[end:]
        return rebuilt if rebuilt.endswith("?") or not query.rstrip().endswith("?") else rebuilt.rstrip(".!") + "?"
    return None


_INDEFINITE = re.compile(
    r"\b(?:a|an)\s+(?!(?:lot|bit|few|little|couple)\b)[a-z][\w'-]*(?:\s+(?:year|month|week)s?\s+old)?\b"
)


def _in_indefinite_slot(preposition: str, argument: str, question: str) -> str | None:
    """ "and for a 6 year old?" after "how much paracetamol can an adult take?": a "for" phrase the
    question lacks takes the place of its one indefinite noun (the one it was asked for)."""
    slots = list(_INDEFINITE.finditer(question))
    if preposition != "for" or not cached_re.match(r"(?:a|an)\s", argument, re.IGNORECASE) or len(slots) != 1:
        return None
    slot = slots[0]
    if _personal(argument) != _personal(slot.group(0)):
        return None  # "and for a learner driver?" is whom "a dashcam" is for, not a dashcam
    if argument.lower().endswith(" one") and cached_re.match(r"\s+[a-z]{3,}\b", question[slot.end() :]):
        argument = argument[: -len(" one")]  # "a thyroid one" for "a cholesterol test": the modifier swaps
    return question[: slot.start()] + argument + question[slot.end() :]


#: Words for people by age or role that a "for" fragment may swap for another: "an adult" - "a 6 year old".
_PEOPLE = frozenset(
    "adult adults child children kid kids baby toddler teenager teen person old man woman driver learner beginner"
    " pensioner senior couple family".split()
)


def _personal(phrase: str) -> bool:
    words = phrase.lower().split()
    return bool(words) and (words[-1] in _PEOPLE or words[-1] in PERSON_NOUNS)


#: Words that open a question of its own, however short: "best budget headphones?", "any tips?".
_OWN_OPENERS = frozenset(
    """what who whom whose which when where why how whats what's who's did does do is are was were can could
    will would has have had should shall any best top cheapest good recommended difference define meaning""".split()
)
#: Words that make a phrase a clause: a verb, or a pronoun that would carry one.
_CLAUSAL = frozenset(
    """i you we me my your our he she they it is are was were be am get got go do does did need want use make
    take have has can could should would will""".split()
)
#: A complement that names what the phrase is about: "of low iron", "to lisbon", "about tax".
_OWN_COMPLEMENT = re.compile(
    r"(?<!number )(?<!amount )(?<!quantity )(?<!list )(?<!kind )(?<!type )(?<!range )(?<!size )(?<!cost )(?<!price )"
    r"\b(?:of|to|about)\s+(?!(?:the|a|an|it|them|this|that|each|all|both|look|watch|expect|avoid|use|get|take|make|try|"
    r"bring|pack|wear|book|see|visit|pay|buy|know|check|consider|start|keep|ask)\b)[a-z]{3,}",
    re.IGNORECASE,
)
_FUNCTION = frozenset("and or for in on at per by with without from after before during the a an any some".split())
#: Words that ask something of a topic: amounts, times, sizes, rules, costs, kinds.
_ASKED_OF = frozenset(
    """cost costs price prices fee fees rent budget charge charges deposit time times age hours duration length
    size range capacity number amount total limit limits allowance requirements rules policy warranty deadline
    specs availability parking insurance tax discount tuition processing recovery waiting delivery installation
    typical usual average minimum maximum max min roughly typically usually otherwise instead quantity
    symptoms risks effects models options alternatives""".split()
)
_TOKEN = re.compile(r"[A-Za-z0-9£$€][\w'.£$%-]*")


def verbless_fragment(query: str, verbs: frozenset[str] = frozenset()) -> bool:
    """A question of a noun phrase without a verb: "luggage allowance?", "monthly cost for 2
    users?", "thread safe?", "closed on sundays?". In a conversation such a phrase asks about the
    topic (the luggage allowance of the train the chat booked); a question of its own has a verb,
    a question word or a name ("best budget headphones?" opens with what it wants). One sentence
    of up to eight words; ``verbs`` (the caller's list of common verbs) may not open it."""
    stripped = query.strip()
    if not stripped.endswith("?") or cached_re.search(r"[.!;:]\s", stripped):
        return False
    words = _TOKEN.findall(stripped)
    if words and words[0].lower() in ("and", "so", "ok", "also"):
        words = words[1:]
    if not words or len(words) > 8 or words[0].lower() in _OWN_OPENERS:
        return False
    if any(w[:1].isupper() for w in words[1:]):
        return False  # a name says what the question is about
    low = [w.lower() for w in words]
    if low[0] in verbs:
        return False  # "explain recursion?", "convert 5 miles to km?": a command of its own
    if _OWN_COMPLEMENT.search(stripped):
        return False  # "symptoms of low iron?", "cheap flights to lisbon?": the phrase names its own topic
    # after its first word a verb's form is the phrase's noun or participle: "monthly cost", "closed on sundays"
    if any(w in _CLAUSAL for w in low):
        return False
    # "vegan lasagne recipe?": three words of content name a thing of their own, unless one of them
    # asks something of the topic ("typical number of guests", "running cost per year")
    content = [w for w in low if w.isalpha() and w not in _FUNCTION]
    return len(content) < 3 or any(w in _ASKED_OF for w in content)
