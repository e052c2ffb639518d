"""Listed reference words that the query itself frames, so they point at nothing in the chat.

The specification's words ("again", "the same", "another one", "the error") are references when
they lean on the conversation: "can you do the same for staging", "try again". A general question
uses them inside a frame of its own: "why do people wake up at the same time every night" compares
the nights, "why does useEffect run again when ..." repeats what the query names, "one monitor ...
the other" is a pair the query sets up, "the error DNS_PROBE_FINISHED_NXDOMAIN" is named. Pure
functions over the query text.
"""

from __future__ import annotations

import re

from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Words that spread "the same" over several times or things the query counts itself.
_SPREAD = re.compile(
    r"\b(?:every|each|twice|both|two|three|several|multiple|different|per|always|everyone|everybody|anyone)\b",
    re.IGNORECASE,
)
#: "the same" or "similar" with a noun of its own: "the same wall", "the same ip address".
_SAME_NOUN = re.compile(r"\s+(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*", re.IGNORECASE)
_NOT_NOUNS = frozenset("for in on at to as with again thing one ones way".split())
#: A verb that carries the chat's thing over to new ones: "apply the same fix", "use the same settings".
_CARRIED = re.compile(
    r"\b(?:apply|applying|use|using|copy|copying|do|doing|set\s+up|put|try|make|keep)\s+$", re.IGNORECASE
)
_OTHER = re.compile(r"\bother\b", re.IGNORECASE)
#: Plural things that share it: "rows with the same customer id", "people who have the same name".
_SHARED_BY = re.compile(
    r"\b[a-z]{3,}s\s+(?:with|that\s+have|who\s+have|having|sharing|have|share)\s+(?:always\s+)?$", re.IGNORECASE
)
#: Two things it serves: "the same power supply for a raspberry pi 4 and a pi 5".
_FOR_BOTH = re.compile(
    r"(?:\s+[a-z][\w-]*){0,2}?\s+(?:for|between|across|on|in)\s+(?:[^,?.;]|\.\b)*?\s+and\s+", re.IGNORECASE
)

#: The kinds of thing a problem word names as the first half of a compound: "the feature flag
#: approach", "the bug tracker", "the error handling".
_COMPOUND_HEADS = frozenset(
    "flag flags branch branches request requests toggle toggles tracker trackers bounty bounties report reports"
    " handling handler handlers bars set sets page pages list lists margin margins rate rates bound bounds"
    " term terms budget type types template templates repellent spray bite bites zapper".split()
)
#: A name the problem word is given in the query: a code-like token, a quote or an error number.
_NAMED_AFTER = re.compile(
    r"\s+(?:[\"'‘“`]|[A-Z0-9_]{4,}\b|[A-Za-z]+[_.:][\w.:]+|\d{3}\b"
    # "the error AccessDenied": a CamelCase name that says it is an error ("GitHub's" is a possessor)
    r"|[A-Z][a-z]+(?:[A-Z][a-z]+)*?(?:Error|Exception|Denied|Failure|Failed|Refused|Timeout|Exceeded|NotFound"
    r"|Invalid|Forbidden|Unauthorized|Unavailable)\b"
    r"|(?:of|with)\s+(?!it\b|that\b|this\b|them\b|there\b|here\b)\w"
    # "the error code 4C", "the bug in the pentium fdiv instruction", "the bug behind the heartbleed vulnerability"
    r"|codes?\s+[A-Z0-9]|(?:in|behind)\s+(?:the\s+)?(?:[a-z]+\s+){0,2}?(?:[A-Z][\w-]*|[a-z]+\d[\w-]*)\b"
    r"|behind\s+the\s+\w+\s+(?:vulnerability|outage|breach|crash|incident)"
    r"|that\s+causes\b)"
)
_PROBLEM_PHRASES = frozenset({"the error", "the problem", "the issue", "the bug", "the feature"})

#: A question about how things work in general, whose clause has its own subject: "why does useEffect
#: run again", "why does ssh ask me again", "is it true house prices go up again", "what does it
#: mean when the engine light ... goes off again".
_GENERAL_FRAME = re.compile(
    r"^\s*(?:why\s+(?:does|do|would|will|is|are|did)\s+(?!it\b|that\b|this\b|they\b|he\b|she\b|you\b|we\b|i\b)"
    r"|how\s+come\s+(?!it\b|that\b|this\b|they\b)|is\s+it\s+true\b"
    r"|what\s+does\s+it\s+mean\s+(?:when|if)\b"
    # a generic subject: "if you fail your driving test can you book again", "can kids get it again"
    r"|if\s+(?:you|someone|somebody|people)\s+(?!do\b|did\b)\w+|can\s+(?:kids|children|people|adults|dogs|cats)\b)",
    re.IGNORECASE,
)
#: A noun right before "again" - the deed's own object ("catch covid again", "give blood again") - and
#: not a verb that takes "again" bare ("try again", "run again") or a pronoun ("do it again").
_OWN_OBJECT_BEFORE = re.compile(
    r"\b(?!(?:it|that|this|them|those|these|one|me|us|him|her|so|there|try|run|check|do|say|explain|start|restart|fail"
    r"|fails|failed|happen|happens|work|works|send|ask|call|test|look|go|come|see|book|retry|reload|refresh|in|up|out"
    r"|back|on|off|over|down|again|ever|once|twice|all|everything|anything|something)\b)[a-z][a-z-]{2,}\s+$",
    re.IGNORECASE,
)
_QUESTION_OPENING = re.compile(r"^\s*(?:how|can|could|why|is|are|does|do|should|when|will|what)\b", re.IGNORECASE)
_DEFINITE = re.compile(r"\bthe\s+[a-z]", re.IGNORECASE)
#: "one airpod", "one eye", "one monitor": the query's own first of a pair, a numeral before a noun
#: ("that one and rerun the other" counts nothing).
_ONE_OF_PAIR = re.compile(
    r"(?<!\bthat\s)(?<!\bthis\s)(?<!\bthe\s)(?<!\bfirst\s)(?<!\bwhich\s)(?<!\bany\s)\bone\s+([a-z][\w-]*)",
    re.IGNORECASE,
)
_NOT_PAIRED = frozenset("more thing time day way another".split())


def points_nowhere(phrase: str, query: str, start: int, end: int) -> bool:
    """Whether the listed ``phrase`` at ``query[start:end]`` is framed by the query itself."""
    low = phrase.lower()
    if low in ("the same", "similar") and _COMPARED_PAIR.search(query):
        return True  # "are utf-8 and unicode the same thing", "how similar are crocodiles and alligators"
    if low in ("the same", "similar"):
        return _spread_same(query, start, end)
    if low in _PROBLEM_PHRASES:
        return _named_problem(query, end) or (low == "the feature" and bool(_DESCRIBED_FEATURE.match(query, end)))
    if low == "as usual":
        return bool(_DESPITE.match(query, end))
    if low == "again":
        return _repeated_in_own_frame(query, start, end)
    if low in ("another one", "the other one"):
        return own_pair(query, start) or bool(_LOST_OWN.search(query[:start]))
    if low == "last time":
        return bool(_LAST_TIME_ASKED.search(query[:start] + "|" + query[end:]))
    if low == "like before":
        return bool(_OWN_BEFORE.search(query[:start] + "|" + query[end:]))
    return False


#: "when was the last time house prices fell", "the tests that failed last time": "last time" with a
#: clause of its own to date, or in a relative clause of a thing the query names.
_LAST_TIME_ASKED = re.compile(
    r"\bthe\s+\|\s+(?!around\b|too\b|though\b|again\b|and\b|or\b|but\b|for\b|on\b|in\b|at\b|with\b)[a-z]"
    r"|\b(?:that|which)\s+[a-z]+\s+\|",
    re.IGNORECASE,
)
#: "grow back like before after root rot", "get back to running like before": a before of the
#: query's own ("after" the harm it names, or "back" to a state).
_OWN_BEFORE = re.compile(
    r"\bback\b[^|]*\||\|\s*(?:after|since)\s+(?:a|an|the|my|his|her|their|being|having)\b"
    # "after upgrading to python 3.12 ... like before", "like before in windows 10", "made to work like before"
    r"|\b(?:after|since)\s+[a-z]+ing\b|\|\s*(?:in|on|with)\s+[a-z0-9]|\bmade\s+to\s+[a-z]+\s+\|"
    # "what a row looked like before an update": "like" belongs to the verb, "before" to its own event
    r"|\b(?:look|looks|looked|looking|sound|sounds|sounded|seem|seems|seemed|feel|feels|felt)\s+\|",
    re.IGNORECASE,
)
#: "X and Y are the same", "how similar are X and Y": the query compares its own pair.
_COMPARED_PAIR = re.compile(
    r"\band\b(?:[^,?.;]|\.\b)*\b(?:are|is|were)\s+(?:not\s+)?(?:exactly\s+|really\s+|basically\s+)?(?:the\s+same|similar)\b"
    r"|\bhow\s+similar\s+(?:are|is)\b"
    r"|^\s*(?:are|is|were)\s+(?:[^,?.;]|\.\b)+\band\b(?:[^,?.;]|\.\b)+\b(?:the\s+same|similar)\b",
    re.IGNORECASE,
)
#: "the feature importance chart", "the feature on an iphone that reads texts out loud": a feature
#: the query describes itself.
_DESCRIBED_FEATURE = re.compile(
    r"\s+(?:importance|engineering|extraction|flag|flags|request|requests|set|sets|store|branch)\b"
    r"|\s+(?:on|in|of|for)\s+(?:[^,?.;]|\.\b){2,40}?\s+(?:that|which)\s+(?:[a-z]+ly\s+)?[a-z]+s\b",
    re.IGNORECASE,
)
#: "as usual before a colonoscopy", "as usual with a mild cold": as normal despite what the query names.
_DESPITE = re.compile(
    r"\s+(?:before|with|inside|during|while|after|if|when|despite"
    # "as usual at school" is where; "as usual on thursday" is only when, and the habit may be the chat's
    r"|(?:on|in|at)(?!\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|\s+the\s+\d|\s+\d|\s+(?:next|this|the\s+weekend)\b))"
    r"\s+(?:a|an|my|the)?\s*\w",
    re.IGNORECASE,
)
#: "if you lose your passport ... another one", "my sd card just died - should I buy another one".
_LOST_OWN = re.compile(
    r"\b(?:your|my|our|his|her|their)\s+(?:[\w'-]+\s+){0,3}?(?:[\w-]+)\s+(?:just\s+)?"
    r"(?:died|broke|is\s+broken|got\s+stolen|was\s+stolen|cracked)|\blos[et]\s+(?:your|my|our|his|her|their)\s+\w",
    re.IGNORECASE,
)


def own_pair(query: str, start: int) -> bool:
    """ "if I lose one airpod can I buy another one", "one eye weaker than the other": the pair's first
    is the query's own "one" + noun before the reference."""
    return any(
        m.group(1).lower() not in STOPWORDS and m.group(1).lower() not in _NOT_PAIRED
        for m in _ONE_OF_PAIR.finditer(query[:start])
    )


def _repeated_in_own_frame(query: str, start: int, end: int) -> bool:
    """ "how soon can you give blood again", "why does useEffect run again": a repeat of the query's
    own deed - after its own object in a question (unless a definite after it points back: "coffee
    again after the extraction"), or in a question about how things work."""
    own_object = _OWN_OBJECT_BEFORE.search(query[:start]) and not _DEFINITE.search(query[end:])
    if own_object and _QUESTION_OPENING.match(query):
        return True
    frame = _GENERAL_FRAME.search(query)
    # "if you update the firmware do you have to do that again": the chat's firmware, no general you
    return bool(frame) and not (frame.group(0).lower().startswith("if") and _DEFINITE.search(query))


def _spread_same(query: str, start: int, end: int) -> bool:
    """ "the same time every night", "the same wall twice", "the same ip address to two devices":
    a noun of its own, compared across what the query counts."""
    noun = _SAME_NOUN.match(query, end)
    if noun is None or noun.group(0).split()[0].lower() in _NOT_NOUNS:
        return False
    if _OTHER.search(query):
        return False  # "other users with the same problem", "the same fix for the other services": the chat's
    if _SHARED_BY.search(query[:start]) or _FOR_BOTH.match(query, noun.end()):
        return True  # "rows with the same customer id", "the same power supply for a pi 4 and a pi 5"
    if _CARRIED.search(query[:start]):
        return False  # "apply the same fix to both services": the chat's fix, carried over
    return bool(_SPREAD.search(query))


def _named_problem(query: str, end: int) -> bool:
    """ "the feature flag approach", "the error DNS_PROBE_FINISHED_NXDOMAIN", "the problem of
    conflicting edits": a kind or a name, not the problem the chat had."""
    nxt = cached_re.match(r"\s+([a-z]+)\b", query[end:], flags=re.IGNORECASE)
    if nxt is not None and nxt.group(1).lower() in _COMPOUND_HEADS:
        return True
    return bool(_NAMED_AFTER.match(query, end))
