"""An "it" or "its" whose antecedent is in the query itself, or that stands for nothing.

"why is it that", "take it personally" (idioms and clefts), "my grandad keeps repeating stories,
should I point it out to him?" (the query's own matter), "how do I get rid of moss? it keeps coming
back" (a thing it names bare), "mock a function so that it returns ..." (a thing it brings in
with "a"), "what eviction policies does Redis support when it reaches maxmemory?" (the main clause's
thing). own_situation.py asks these for every "it" the detector found.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite import cached_re
from mnemo.retrieve.rewrite.names import PERSON_NOUNS
from mnemo.retrieve.rewrite.own_statement import after_statement
from mnemo.retrieve.rewrite.reference import Reference


def own_it(query: str, ref: Reference, before: str) -> bool:
    """An "it" of an idiom, of the query's own matter, or of a thing the query names bare."""
    if _in_idiom(query, ref):
        return True  # "why is it that", "was it Cohen or Buckley", "take it personally"
    if after_statement(query, ref) and (_MATTER_VERB_BEFORE.search(before) or _MATTER_AFTER.match(query[ref.end :])):
        return True  # "my grandad keeps repeating stories, should I point it out to him?"
    if _EXPLAINED.search(before):
        return True  # "why is the sky blue? explain it like i'm 8"
    if _WHO_MADE.match(before):
        return True  # "who founded Wikipedia, and when did he launch it?"
    if _BARE_THING.search(before) and not cached_re.search(r"\b(?:that|this)\b", before, re.IGNORECASE):
        return True  # "how do I get rid of moss on a patio? it keeps coming back"
    if _SUBORDINATE_IT.search(before) and _MAIN_CLAUSE_THING.search(before) and not _EARLIER_POINTER.search(before):
        return True  # "what eviction policies does Redis support when it reaches maxmemory?"
    thing = any(m.group(1).lower() not in PERSON_NOUNS for m in _AN_ARTICLE.finditer(before))
    return bool(_TIMED_IT.search(before) and thing and _VERB_AFTER.match(query[ref.end :]))


def _in_idiom(query: str, ref: Reference) -> bool:
    """Whether the "it" at ``ref`` is the first "it" of an idiom or cleft around it."""
    offset = max(0, ref.start - 40)
    for match in _IDIOM_IT.finditer(query[offset : ref.end + 30]):
        first = cached_re.search(r"\bit\b", match.group(0), re.IGNORECASE)
        if first is not None and offset + match.start() + first.start() == ref.start:
            return True
    return False


def introduced_thing(before: str, pronoun: str) -> bool:
    """A thing the query brings in with "a"/"an" before an "it"/"its" of its own clause or of a
    clause the query ties to it ("so that", "each time", "without ...ing", "how big")."""
    # an idiom's "it" ("does it depend on how big it is") and "so that" are no earlier pointer
    plain = _IDIOM_IT.sub(" ", cached_re.sub(r"\bso\s+that\b", "", before))
    if cached_re.search(r"\b(?:it|this|that)\b(?!\s+(?:is|was)\b)", plain, re.IGNORECASE):
        return False  # an "it" or "that" before may be the chat's: "it" follows it
    introduced = [m for m in _NEW_THING.finditer(before) if m.group(1).lower() not in _NOT_THINGS]
    if not introduced:
        return False
    if pronoun == "its":
        return True
    return bool(_TIED_CLAUSE.search(before[introduced[0].end() :]))


#: Idioms and clefts whose "it" stands for nothing.
_IDIOM_IT = re.compile(
    r"\bwhy\s+(?:is|was)\s+it\s+that\b|\b(?:is|was)\s+it\s+(?:really\s+)?(?-i:[A-Z])[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*)*\s+or\s+"
    r"|\bit(?:'s|\s+is)\s+(?:high\s+)?about\s+time\b|\bit(?:'s|\s+has)\s+been\s+(?:\w+\s+)?(?:years?|months?|weeks?|days?|ages|"
    r"a\s+while|forever)\s+since\b|\bhow\s+long\s+(?:does|did|will|would|should)\s+it\s+(?:usually|typically|normally|"
    r"generally|actually|roughly)\s+take\s+(?:to|for)\b|\b(?:take|takes|taking|took)\s+it\s+(?:personally|to\s+heart)\b"
    r"|\b(?:keep|keeps|keeping)\s+it\s+(?:quiet|secret)\b|\bwithout\s+making\s+it\s+(?:worse|awkward|weird)\b"
    r"|\b(?:does|did|will|would)\s+it\s+(?:really\s+)?(?:depend\s+on|matter\s+(?:which|whether|if|how|what|when|who))\b"
    r"|\b(?:handle|deal\s+with|hate|love|like|mind|stand|appreciate)\s+it\s+(?:when|if)\b|(?<=\w,\s)(?:and\s+)?if\s+it\s+(?:does|is|isn't|doesn't)\s*,"
    # "does it help to wear compression socks", "does it usually rain in Kyoto", "is it a legal requirement to"
    r"|\b(?:does|did|would|will)\s+it\s+(?:really\s+|actually\s+)?(?:help|hurt|matter|pay|cost|burn)\s+to\s+\w+\s+(?!it\b)\w+"
    r"|\b(?:does|did|will)\s+it\s+(?:usually\s+|often\s+|ever\s+|normally\s+)?(?:rain|snow|get\s+cold|get\s+dark)\b"
    # "does it make a difference which RAM slots ...", "is it 'hear, hear' or 'here, here'"
    r"|\b(?:does|did|would|will)\s+it\s+make\s+(?:a|any|much\s+of\s+a)\s+difference\b|\b(?:is|was)\s+it\s+['\"\u2018\u201c]"
    r"|\b(?:is|was)\s+it\s+(?:a\s+|an\s+)?(?:legal\s+)?(?:requirement|rule|law|myth|tradition|custom|bad\s+luck|good\s+luck"
    r"|legal|illegal|mandatory|compulsory)\s+(?:to|for|that|in)\b",
    re.IGNORECASE,
)


#: Raising a matter with someone: "point it out to him", "bring it up with her", "tell him it
#: bothers me", "without him taking it personally", "keep it quiet".
_MATTER_VERB_BEFORE = re.compile(
    r"\b(?:point|bring|raise|mention|bringing|pointing|raising|mentioning|taking|take|takes|keep|keeping|"
    r"tell\s+(?:him|her|them)|telling\s+(?:him|her|them))\s+$",
    re.IGNORECASE,
)


_MATTER_AFTER = re.compile(
    r"^\s+(?:out\b|up\b|personally\b|to\s+heart\b|quiet\b|secret\b|bothers\b|upsets\b|hurts\b|annoys\b)",
    re.IGNORECASE,
)


#: "why is the sky blue? explain it": the question the query asked before.
_EXPLAINED = re.compile(r"\?\s*(?:can\s+you\s+|please\s+)?(?:explain|describe)\s+$", re.IGNORECASE)


#: "who founded Wikipedia": the thing the question asks about, named by the query.
_WHO_MADE = re.compile(
    r"^\s*who\s+(?:founded|invented|wrote|created|built|designed|discovered|directed|painted|composed|started|"
    r"sang|recorded|developed)\s+(?:the\s+)?(?-i:[A-Z])",
    re.IGNORECASE,
)


_NOT_BARE = (
    r"(?!(?:the|a|an|my|your|our|his|her|their|this|that|these|those|it|them|him|me|us|some|any|to|up|out|off|"
    r"down|on|in|at|for|with|from|about|into|over|back|away|again|more|less|so|too|very|really|just|still|"
    r"i|you|he|she|we|they|people|someone|anyone)\b)"
)


#: A thing the query names without a determiner as what it wants gone: "get rid of moss ... it keeps
#: coming back". (Other bare objects, "if I add spinach, will it hold together", are often not what
#: the "it" is: the lasagne of the chat is.)
_BARE_THING = re.compile(rf"\bget\s+rid\s+of\s+{_NOT_BARE}[a-z]+\b", re.IGNORECASE)


#: "rest a roast chicken after it comes out of the oven": a time clause about the thing just named.
_TIMED_IT = re.compile(r"\b(?:before|after|until|once|when)\s+$", re.IGNORECASE)


_AN_ARTICLE = re.compile(
    r"\b(?:a|an)\s+(?:[a-z-]+\s+)?(?!(?:in|on|out|up|off|for|to|at|back|down)\b)([a-z]+)\b(?=\s+(?:after|before|until|once|when|out|in|on|for)\b)",
    re.IGNORECASE,
)


_VERB_AFTER = re.compile(
    r"(?:'s|\s+(?:is|was|gets|goes|comes|starts|stops|cools|finishes|runs|turns)\b)", re.IGNORECASE
)


#: An "it" opening a clause the main clause governs: "when it", "before it", "when you wrap it".
_SUBORDINATE_IT = re.compile(
    r"\b(?:when|whenever|before|after|until|once|while|because)\s+(?:(?:you|we|i|people)\s+[a-z]+\s+)?$",
    re.IGNORECASE,
)


#: A thing the main clause names: a name written with a capital, a bare subject ("why does bread").
_MAIN_CLAUSE_THING = re.compile(
    r"(?<=\s)(?-i:[A-Z])[a-z]\w+|^(?:why|how|when)\s+(?:does|do|is|can|will)\s+"
    r"(?!(?:the|a|an|my|your|our|it|i|you|we|they|he|she|this|that)\b)[a-z]\w+",
    re.IGNORECASE,
)


_EARLIER_POINTER = re.compile(r"\b(?:it|its|this|that|these|those|them|they|he|she|the\s+same)\b", re.IGNORECASE)


_NEW_THING = re.compile(
    r"\b(?:a|an)\s+(?:[\w-]+\s+){0,2}?([a-z][\w-]*)\b(?=\s+(?:to|in|on|by|so|that|and|or|would|is|lose|get|\w+s\b)|\s*[,?]|$)",
    re.IGNORECASE,
)


#: Nouns "a"/"an" brings in that no "it" takes up: amounts, times, people.
_NOT_THINGS = frozenset(
    "lot bit few couple little while day week month year time hour minute person friend kid child".split()
)


#: A clause the query ties to the thing it named: "so that", "each time", "without installing".
_TIED_CLAUSE = re.compile(
    r"\b(?:so\s+that|each\s+time|every\s+time|how\s+(?:big|long|much|old|fast|often)|without\s+(?:actually\s+)?\w+ing|"
    r"why\s+(?:can|does|would)|once|until|whenever)\b(?:[^,;.?]|\.\b)*$",
    re.IGNORECASE,
)
