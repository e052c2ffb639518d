"""When "that" opens a clause, and when a word is a verb.

"make sure that the door is locked", "studies find that people sleep less": "that" after a
predicate or a verb of saying, finding or knowing introduces a clause and points at nothing.
"does Tom know that place?", "did the shop say that was normal?": an object or a verb after it
makes "that" a demonstrative again. detect.py asks these before it makes a reference of "that".
"""

from __future__ import annotations

from mnemo.retrieve.rewrite.names import AUXILIARIES as _AUX
from mnemo.retrieve.rewrite.names import COMMON_VERBS
from mnemo.retrieve.rewrite.names import PUNCTUATION as PUNCT

#: Predicates after which "that" opens a clause ("make sure that", "is it true that"). Verbs of
#: saying and knowing take an object too ("does Tom know that place?"); REPORTING_VERBS and
#: clause_follows decide those.
CLAUSE_PREDICATES = frozenset(
    """sure true confirmed certain clear possible likely obvious aware unlikely note reminder fact idea chance
    sign""".split()
)
#: Verbs right after "that": it is the subject then ("did the shop say that was normal?").
SUBJECT_VERBS = _AUX | frozenset(
    "seems seemed looks looked sounds sounded happens happened works worked means meant helps".split()
)


def verbal_prev(prev: str) -> bool:
    """A verb before "that" that takes an object rather than a clause ("using", "fixed")."""
    verbal = (len(prev) > 4 and prev.endswith(("ing", "ed"))) or prev in COMMON_VERBS
    return verbal and prev not in REPORTING_VERBS and prev not in _CLAUSE_VERBS


#: Verbs in -ed that take a "that" clause rather than an object ("she explained that error codes ...").
_CLAUSE_VERBS = frozenset(
    """promised insisted explained decided agreed warned noted added replied answered argued assumed guessed
    hoped expected announced admitted complained reported stated emailed texted messaged pointed worried
    doubted feared joked""".split()
)


_EED_VERBS = frozenset("agreed freed disagreed refereed guaranteed decreed succeed proceed exceed".split())


def looks_verbal(word: str) -> bool:
    return (
        word in COMMON_VERBS
        # "breed", "speed", "tweed" end in -ed but are no past tense ("agreed" is)
        or (len(word) > 4 and word.endswith(("ed", "ing")) and (not word.endswith("eed") or word in _EED_VERBS))
        or (len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word[:-1] in COMMON_VERBS)
    )


#: "check that all the tests pass": a quantifier after "that" opens the reported clause's subject.
QUANTIFIERS = frozenset("all every each both none".split())
#: Verbs of saying, knowing and checking ("make sure that ..."), after which "that" can open a reported clause.
REPORTING_VERBS = frozenset(
    """say says said think thinks thought know knows knew mean means meant claim claims claimed believe
    believes believed confirm confirms confirmed mention mentions mentioned suggest suggests suggested
    show shows showed prove proves proved notice noticed read hear heard feel felt realise realize find finds found
    realised realized check checks checked verify verifies verified ensure ensures ensured sure saying stating
    states stated explaining explains explained noting notes warning warns warned""".split()
)


def clause_follows(lowered: list[str], start: int) -> bool:
    """A reported clause at ``start``: a subject word that is no verb, then a verb within the next
    three words ("that error E24 means ...", "that water damage voids the cover"); "say that
    again" or "say that was fine" is no such clause."""
    if start >= len(lowered) or lowered[start] in _AUX or lowered[start] in PUNCT:
        return False
    if looks_verbal(lowered[start]) and not _modifying_gerund(lowered, start):
        return False
    for n in range(start + 1, min(start + 4, len(lowered))):
        word, nxt = lowered[n], lowered[n + 1] if n + 1 < len(lowered) else ""
        if word in _AUX or looks_verbal(word):
            return True
        if word in _BARE_VERBS and n > start:
            return True  # "that people sleep less": a plural subject and its verb
        plural_before = len(lowered[n - 1]) > 3 and lowered[n - 1].endswith("s") and not lowered[n - 1].endswith("ss")
        if n > start and plural_before and word.isalpha() and len(word) > 2 and not word.endswith("s") and nxt:
            return True  # "that cold showers boost immunity": a plural subject, a bare verb and more
        if len(word) > 3 and word.endswith(("s", "ed")) and nxt in _OBJECT_STARTS:
            return True  # "voids the cover": an inflected word taking an object is the clause's verb
    return False


def _modifying_gerund(lowered: list[str], start: int) -> bool:
    """An -ing word before a plural noun modifies it: "that standing desks reduce back pain"."""
    nxt = lowered[start + 1] if start + 1 < len(lowered) else ""
    return lowered[start].endswith("ing") and len(nxt) > 3 and nxt.endswith("s") and not nxt.endswith("ss")


#: Base verbs that follow a plural subject in a reported clause.
_BARE_VERBS = frozenset(
    """sleep work eat live earn spend need want like prefer get have do make take use pay buy read watch drink
    feel think know lose gain learn perform sell grow die""".split()
)
_OBJECT_STARTS = frozenset(
    "the a an my our your his her their its this that these those it them him me us no any".split()
)
