"""Whether a pronoun of the query takes its antecedent inside the query itself.

"Where has Melanie camped with her family?", "ask the Patels if they can bring chairs", "rename
load_config and update its docstring", "how do i fix a leaky tap? it drips all night": the pronoun
points at something the query names before it, so it points at nothing of the conversation.
internal.py holds the word-level tests; this module picks the ones that fit the pronoun.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.health import on_course_before
from mnemo.retrieve.rewrite.internal import (
    IDENTIFIER_WORD,
    case_named_before,
    family_before,
    firm_subject_before,
    name_subject_before,
    named_before,
    own_thing_before,
    plural_before,
    plural_subject_before,
    plural_then_clause,
    thing_named_before,
    thing_subject_before,
    things_before,
    title_before,
)
from mnemo.retrieve.rewrite.internal_people import person_named_before
from mnemo.retrieve.rewrite.names import GOING_VERBS
from mnemo.store.sql import STOPWORDS

#: A deed the asker has never done, which a later "it" takes up as a whole.
_NEVER_DONE = re.compile(
    r"\b(?:never|not\s+yet|haven't\s+ever)\s+(?:\w+ed|made|done|tried|seen|been|eaten|ridden|driven|flown|sung|"
    r"grown|built|taken|written|run|swum|worn|bought|sold)\b",
    re.IGNORECASE,
)
#: A command the query runs: "why does npm install take so long and how can I speed it up".
_COMMAND = re.compile(
    r"\b(?:npm|npx|pip|pip3|yarn|pnpm|docker|kubectl|cargo|terraform|poetry)\s+[a-z][\w-]+",
    re.IGNORECASE,
)
#: A question that asks what a thing is, then goes on about it: "what exactly is HTTP/3, and ...".
_DEFINED = re.compile(
    r"^\s*(?:so\s+|and\s+)?what(?:'s|\s+(?:exactly\s+)?is|\s+(?:exactly\s+)?are)\s+"
    # a term being defined: "exactly X", a name or an acronym, or a technical token ("HTTP/3", "k8s");
    # "what's covered under warranty? can I send it back" asks about the chat's thing
    r"(?:exactly\s+[\w/.+#-]+|(?-i:[A-Z0-9])[\w/.+#-]*|[a-z][\w-]*[/.+#\d][\w/.+#-]*)"
    r"[^,;?\u2014]*[,;\u2014]",
    re.IGNORECASE,
)
#: Code in backticks: a thing the query names itself.
_CODE_SPAN = re.compile(r"`[^`\n]+`")


#: A place the query names after "there": "in Paris", "in spain", or "there to do": an existential "there".
_OWN_PLACE = re.compile(
    r"^\s+to\s+(?:do|see|eat|visit)\b|\b(?:in|at|near)\s+(?!(?:the|a|an|my|our|that|this|those|these|what|which|summer"
    r"|winter|spring|autumn|total|time|general|advance|person|case|fact|night|noon|home|work|least|most|all|once)\b)"
    r"(?![a-z]+day\b)[A-Za-z]{3,}",
    re.IGNORECASE,
)


#: A verb of going before "there": "driving there to see it" goes to the chat's place ("what's
#: there to see" is existential).
_MOTION = re.compile(
    rf"\b(?:{'|'.join(sorted(GOING_VERBS | {'stay', 'staying'}))}|take\s+\w+|taking\s+\w+)\s+$", re.IGNORECASE
)


#: Questions that name a condition or a matter by a bare noun: "the symptoms of burnout", "signs of
#: anxiety", "treatment for eczema", "how common is insomnia".
_CONDITION_LEADS = frozenset("of for about with".split())
_CONDITION_HEADS = frozenset("symptoms signs causes treatment treatments cure causes risks effects stages".split())


def _condition_before(lowered: list[str]) -> bool:
    """A bare singular noun after "symptoms of", "treatment for" ... in the query, which a later
    "it" takes up ("... and how do I deal with it")."""
    for n in range(len(lowered) - 2):
        head, lead, noun = lowered[n], lowered[n + 1], lowered[n + 2]
        if head in _CONDITION_HEADS and lead in _CONDITION_LEADS and noun.isalpha() and len(noun) > 3:
            return noun not in STOPWORDS
    return False


def antecedent_in_query(
    query: str,
    words: list[tuple[str, int, int]],
    lowered: list[str],
    i: int,
    kind: str,
    written: frozenset[str] = frozenset(),
) -> bool:
    """Whether the pronoun at ``i`` takes its antecedent inside the query itself (a name, a family,
    the query's own code, a general case, a plural, a thing or a title named before it), so that it
    points at nothing of the conversation."""
    low, start = lowered[i], words[i][1]
    nxt = lowered[i + 1] if i + 1 < len(words) else ""
    other = {"he": "f", "him": "f", "his": "f", "she": "m", "her": "m", "hers": "m"}.get(low)
    if kind in ("person", "plural") and named_before(words[:i], 2 if kind == "plural" else 1, other, written):
        return True  # "Where has Melanie camped with her family?"
    if kind == "plural" and family_before(lowered[:i], words[:i]):
        return True  # "ask the Patels if they can bring chairs": a family named in the query
    if low in ("it", "its") and (
        any(IDENTIFIER_WORD.search(w) for w, _, _ in words[:i])
        or _CODE_SPAN.search(query[:start])
        or _COMMAND.search(query[:start])
    ):
        return True  # "rename load_config and update its docstring", "why does `git pull` say it ...": its own code
    if kind in ("person", "plural", "thing") and case_named_before(lowered[:i], low):
        return True  # "when a cat stops eating, should its owner take it": the case's own cat
    if kind == "plural" and plural_before(lowered[:i], low):
        return True  # "did my parents like the hotel they stayed at": "they" are the parents
    if low == "they" and firm_subject_before(words, i):
        return True  # "does Verizon charge a fee, and will they waive it": the query's own firm
    if low in ("they", "them", "their") and plural_subject_before(lowered[:i]):
        return True  # "why do teenagers sleep so late, and is it bad for them": the query's own teenagers
    if low == "they" and plural_then_clause(lowered[:i]):
        return True  # "store fresh tomatoes so they last longer": the query's own tomatoes
    if low == "them" and things_before(lowered[:i], nxt):
        return True  # "cook dried chickpeas without soaking them": the query names what "them" are
    if low == "there" and _OWN_PLACE.search(query[words[i][2] :]) and not _MOTION.search(query[:start]):
        return True  # "what's near there in Paris", "what's there to do in Osaka": the query's own place
    if low in ("its", "his", "her", "their") and nxt == "own" and i >= 2:
        return True  # "should the new one have its own tests": "own" binds it to its clause's subject
    if low == "its" and thing_subject_before(lowered[:i]):
        return True  # "when the dishwasher finishes its cycle": its owner is the clause's own subject
    if low == "it" and thing_named_before(lowered[:i], nxt) and not on_course_before(query[:start]):
        return True  # "set the oven to 180 and turn it off": the query names what "it" is
    if low == "it" and own_thing_before(lowered[:i]):
        return True  # "how do i fix a leaky tap? it drips all night": the query brought in its own thing
    if low == "it" and _NEVER_DONE.search(query[:start]):
        return True  # "I've never made risotto, is it hard?": the deed the query tells, no thing of the chat
    if low == "it" and _condition_before(lowered[:i]):
        return True  # "what are the symptoms of burnout and how do I deal with it": the query's own burnout
    if low == "it" and name_subject_before(words, i):
        return True  # "I heard that Venice is sinking, how fast is it sinking": the query's own Venice
    if low in ("it", "its") and _DEFINED.match(query[:start]):
        return True  # "what exactly is HTTP/3, and is it worth enabling it": the thing the query asks about
    if low in ("it", "its") and title_before(words[:i]):
        return True  # "who wrote The Remains of the Day and when was it published": the title
    return kind == "person" and person_named_before(lowered[:i], low, nxt)  # "my brother passed his test"
