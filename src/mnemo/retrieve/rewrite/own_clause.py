"""A pointer that takes up the clause the query itself said first.

"I committed a secret key and deleted it in the next commit — is that enough?", "pip says
'externally-managed-environment' on Ubuntu, what does that mean?", "the webpack build prints
hundreds of deprecation warnings, can I hide those?", "I quit smoking 3 months ago, what should I
have noticed by this point?": the query states or asks something of its own, breaks, and its "that",
"those warnings" or time word takes up what it said, in a question about that clause (what it
means, why, how common, how to stop it). A clause that qualifies the chat's proposal ("i have a
stomach ulcer though, is that safe?"), a question whether the chat's idea suits the asker ("does
that still help?", "is that risky?"), a question with no clause before it ("is that normal?") or an
opening that points itself ("he said it's fine, is that true?") leaves the pointer to the
conversation. Pure functions over the query text.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite import cached_re
from mnemo.retrieve.rewrite.names import PERSON_NOUNS
from mnemo.retrieve.rewrite.own_statement import FINITE
from mnemo.retrieve.rewrite.pointing import DEMONSTRATIVE, PERSONAL, pointer_words

#: Where the query's own clause ends: a dash, a comma, a semicolon, or "and"/"or"/"but" after a comma.
_BREAK = re.compile(r"\s*(?:[,;:\u2014\u2013]|\s-\s|\?)\s*(?:(?:and|or|but|so)\s+)?|\s+(?:and|or|but)\s+")
#: Words that point themselves: a clause holding one may itself lean on the conversation.
_POINTERS = pointer_words(*PERSONAL, *DEMONSTRATIVE, "same", "such", "other")
#: A clause about the asker's own people: "my parents are both retiring", "my daughter is 4".
_OWN_PEOPLE = re.compile(r"^\s*(?:my|our)\s+(?P<words>(?:[\w'-]+\s+){0,2}[\w'-]+)", re.IGNORECASE)
_NOT_PLURALS = frozenset("is was has does goes says its this thus".split())
_DEMONSTRATIVES = pointer_words(*DEMONSTRATIVE, "same", "such", r"(?:the|that)\s+other")
#: An existential "there" ("is there a way around that", "there's a table ...") points at nothing.
_EXISTENTIAL = re.compile(
    r"\b(?:is|are|was|were|isn't|aren't)\s+there\b|\bthere(?:'s|\s+(?:is|are|was|were|isn't|aren't)\b)", re.IGNORECASE
)
#: A clause a subordinator opens with its subject: "when I run terraform destroy", "if we upgrade".
_SUBORDINATE_OPENING = re.compile(r"^\s*(?:when|if|once|after|before|since|whenever)\s+(?:i|we|you)\b", re.IGNORECASE)
#: ... or with a subject of its own, for a time pointer to count from: "once contracts have been
#: exchanged", "if validation loss starts going up after epoch 10" (an "if" needs an onset verb).
_SUBORDINATE_EVENT = re.compile(
    r"^\s*(?:(?:when|once|after|before|whenever)\s+(?!(?:he|she|they|it|that|this|those|these|then|there)\b)[a-z]"
    # "if" only with an onset: "if the weather holds" is a condition, "if validation loss starts ..." an event
    r"|if\s+(?!(?:he|she|they|it|that|this|those|these|then|there)\b)[^,;]*\b(?:starts?|begins?|reaches|hits|"
    r"stops|drops|rises|goes\s+up|goes\s+down|breaks|fails)\b)",
    re.IGNORECASE,
)
#: "it's been two years since ...", "it says ...": an opening "it" of the query's own frame.
#: ... and an expletive question's "is it normal for ...", whose "it" is the clause it opens.
_OPENING_IT = re.compile(
    r"^\s*(?:it(?:'s|\s+is|\s+was|\s+has)\s+(?:been\s+)?"
    r"|(?:is|was|isn't)\s+it\s+(?=(?:normal|ok|okay|safe|true|common|possible|bad|wrong|weird|rude|fine)\s+(?:for|to|that)\b))",
    re.IGNORECASE,
)
#: A question's auxiliary: a clause with one asks something (own_statement.FINITE finds a told verb).
_AUXILIARY = re.compile(r"\b(?:do|does|did|can|could|should|would|will)\b", re.IGNORECASE)
#: A deed done to "that": what one pays for, reports or books is a thing or plan of the chat, the
#: query's clause only the circumstance ("our DPO just joined the call, do we have to report that").
_ACTED_ON = re.compile(
    r"\b(?:pay\s+for|report|buy|book|send|order|use|try|get|sign|cancel|return|fix|do|take|switch\s+to|go\s+with"
    r"|pick|choose|apply\s+for|claim|file|submit|install|renew)\s+$",
    re.IGNORECASE,
)
#: Questions about the clause itself - what it means, why, how common, how to handle it - rather than
#: whether the chat's suggestion suits the asker ("would that still be sensible", "is that risky", "does
#: that still help", "would that be covered"). "|" marks where the pointer stands.
_ABOUT_THE_CLAUSE = re.compile(
    r"\b(?:what\s+does|does|what\s+(?:usually\s+|normally\s+|typically\s+)?(?:causes?|would\s+(?:usually\s+|normally\s+)?cause)"
    r"|why\s+(?:is|was|would|does|do|did)"
    r"|how\s+(?:do|can|should)\s+(?:i|we)\s+(?:stop|fix|handle|deal\s+with|ignore|silence|hide|avoid|prevent|get\s+rid\s+of"
    r"|bring|raise|mention|address|talk\s+about)"
    r"|(?:can|should)\s+(?:i|we)\s+(?:just\s+)?(?:hide|ignore|silence|disable|turn\s+off|answer|worry\s+about|be\s+worried\s+about)"
    r"|how\s+often\s+should|which\s+of|validate\s+\w+|handle|a\s+way\s+(?:around|past|to\s+fix)|tell\s+(?:them|him|her)"
    r"|how\s+(?:bad|serious|common|dangerous|normal|likely|unusual|rare)\s+is|what\s+(?:should|can|do)\s+(?:i|we)\s+do\s+about"
    r"|(?:any|a)\s+way\s+to\s+(?:avoid|stop|fix|prevent|undo)|(?:a\s+fix|anything)\s+for|what's\s+(?:causing|behind)"
    r"|(?:can\s+you\s+)?explain|what\s+(?:is|are)\s+(?:the\s+)?(?:usual\s+|common\s+|main\s+|likely\s+|typical\s+)?"
    r"(?:reason|cause)s?\s+for"
    r"|is|are|was|were)\s*\|"
    r"\s*(?!.*\bstill\b)(?:mean|means|happen|a\s+problem|normal|typical|common|usual|high|low|legal|illegal|real|true|enough|good|bad"
    r"|too\s+(?:young|old|long|short|high|low)|even|really|actually|already|exactly|way|kind|be\s+done|\?|$|[a-z]+\s+(?:be\s+)?done)?",
    re.IGNORECASE,
)
#: A question about causes: "what would usually cause |", "the usual reasons for |", "why would |".
_ASKS_CAUSE = re.compile(
    r"\b(?:causes?|cause\s+of|reasons?\s+for|why\s+(?:is|was|would|does|do|did))\s*\|", re.IGNORECASE
)
#: A question whether the chat's proposal fits the asker: "does that apply to me", "will that work for
#: me", "are those a good fit", "can I reach that target".
_FITS_ASKER = re.compile(
    r"\b(?:for|to)\s+(?:me|us|my\s+\w+|our\s+\w+)\b|\ba\s+good\s+fit\b|\bwork\s+for\b|\bapply\s+to\b"
    r"|^that\s+(?:\w+\s+)?too\s+(?:much|many|far|hard|difficult|ambitious|steep|expensive)\b"
    # whether the chat's idea suits: "is that risky", "is that realistic", "is this really necessary"
    r"|^(?:that|this)\s+(?:really\s+|still\s+)?(?:risky|realistic|sensible|wise|a\s+good\s+idea|a\s+bad\s+idea|necessary"
    r"|worth\s+it|advisable|doable|feasible)\b",
    re.IGNORECASE,
)
#: A clause that qualifies what the chat proposed rather than telling a matter of its own: "i have
#: a stomach ulcer though", "we only have an hour too".
_QUALIFYING = re.compile(r"\b(?:though|tho|too|as\s+well|also|anyway)\s*$", re.IGNORECASE)
#: The pointers that take up a clause: "that", "those", "that kind of behaviour", "something like
#: that" and the times it sets ("after that", "since then", "afterwards", "by this point").
TAKES_UP_CLAUSE = re.compile(
    r"^(?:that|this|those|these|that\s+way|(?:that|this|those|these)\s+(?:kind|sort|type)s?\s+of\s+[a-z]+"
    r"|(?:after|before)\s+that|since\s+then"
    r"|afterwards|by\s+(?:then|this\s+point|that\s+point)|(?:at\s+)?(?:this|that)\s+(?:age|point|stage))$",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"^\s*(?:should|can|could|would|will|do|does|did|is|are|was|were|how|what|why|when\s+(?:should|can|do|is)|where|which|who)\b",
    re.IGNORECASE,
)
#: Nouns for a situation or a report the query tells itself.
_SITUATION_NOUNS = frozenset(
    """behaviour behavior habit habits symptom symptoms pattern problem issue error errors warning warnings
    message messages noise noises smell rash pain behaviours calls emails texts charge charges""".split()
)
#: Words a demonstrative may be read as determining that are no nouns ("are those real", "is that even
#: legal") or that name a kind of what the clause tells ("that kind of behaviour").
_NOT_NOUNS = frozenset(
    "real even true legal normal fine ok okay safe enough really actually just still also right kind sort type".split()
)
#: Alternatives the clause lists: "some ... and some ...", "X or Y", "either".
_LISTED = re.compile(r"\bsome\b[^,;]*\band\s+some\b|\b\w+\s+or\s+\w+|\beither\b", re.IGNORECASE)
#: A point in time the clause tells, which its time pointer can count from: "3 months ago", "in
#: June", "back in 2015", "next year", "on Monday", "is 4" (an age, for "at that age").
_DATABLE = re.compile(
    r"\b(?:ago|(?:19|20)\d\d|last\s+(?:week|month|year|night|summer|winter|spring|autumn)|next\s+(?:week|month|year)"
    r"|yesterday|today|tomorrow|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:is|was|turned|turns)\s+\d+)\b",
    re.IGNORECASE,
)
#: Words that set up things of the clause's own for "the same" to compare: "two goroutines", "both".
_AMONG_OWN = re.compile(r"\b(?:two|both|each|between)\b", re.IGNORECASE)
_WORDS_BEFORE = 6
_WORDS_BETWEEN = 8


def own_clause_noun(query: str, start: int, noun: str) -> bool:
    """Whether "that behaviour", "those warnings", "which of those approaches" take up the query's
    own clause: a noun for a situation, or a choice among alternatives the clause lists ("some of
    our images are tagged latest and some with the git sha"). A proposal or an amount ("that dose",
    "that approach", "that target") is the chat's."""
    low = noun.lower()
    if low in _NOT_NOUNS:
        return own_clause_that(query, start)  # "are those real?", "is that even legal?": a bare "that"
    chosen = bool(cached_re.search(r"\bwhich\s+of\s+$", query[:start], flags=re.IGNORECASE))
    if low not in _SITUATION_NOUNS and not (chosen and _LISTED.search(query[:start])):
        return False
    return own_clause_that(query, start)


def own_clause_that(
    query: str, start: int, timed: bool = False, answering: bool = False, known: frozenset[str] | set[str] = frozenset()
) -> bool:
    """Whether the bare "that" at ``start`` follows a clause of the query's own (six words or more,
    with a verb and no pointer of its own) and a break, in a short question. A time pointer
    (``timed``: "after that", "since then") needs a clause that tells, not asks: "should i restart
    from week 1 or pick up where i was before that" dates from the chat. A clause ``answering`` the
    chat's question ("we have 12 partitions, what would usually cause that?") tells a detail of the
    chat's problem, which a question about causes is still about."""
    before = _EXISTENTIAL.sub(" ", query[:start])
    if timed and _ASKING.match(before):
        return False
    breaks = list(_BREAK.finditer(before))
    if not breaks:
        return False
    last = breaks[-1]
    clause, question = before[: last.start()], before[last.end() :]
    if len(question.split()) > _WORDS_BETWEEN + 2 * timed or _DEMONSTRATIVES.search(question):
        return False
    if _POINTERS.search(question) and not _own_people(clause):
        return False  # "can they still pay in after that" takes up "my parents", not anyone the chat named
    if answering and _ASKS_CAUSE.search(question + "|"):
        return False  # "I'm on a Dell XPS, what are the usual reasons for that?": the chat's drain
    if not timed and not _ABOUT_THE_CLAUSE.search(question + "|" + query[start:]):
        return False  # "I work night shifts, would that still be sensible?": whether the chat's idea fits
    if _FITS_ASKER.search(query[start:]) or _FITS_ASKER.search(question):
        return False  # "I started freelancing last year, does that apply to me?": the chat's rule, put to me
    if not timed and _ACTED_ON.search(before):
        return False  # "my practice has a 4 month waiting list, should I just pay for that": the chat's treatment
    if _QUALIFYING.search(clause):
        return False  # "i have a stomach ulcer though, is that safe": the chat's proposal, qualified
    clause = _OPENING_IT.sub("", clause, count=1)
    words = cached_re.findall(r"[\w'=()\[\].-]+", clause)
    finite = bool(FINITE.search(clause) or _AUXILIARY.search(clause) or _SUBORDINATE_OPENING.match(clause))
    own_event = _SUBORDINATE_OPENING.match(clause) or _SUBORDINATE_EVENT.match(clause)
    if timed and not (_DATABLE.search(clause) or own_event):
        return False  # "my back pain has mostly gone over the past few weeks, what else improved since then?"
    return len(words) >= _WORDS_BEFORE - timed and finite and not _leans(clause, known)


def _own_people(clause: str) -> bool:
    """Whether the clause opens on the asker's own people ("my parents", "our twins", "my daughter"),
    whom a pronoun in the question may take up."""
    found = _OWN_PEOPLE.match(clause)
    if found is None:
        return False
    words = found.group("words").lower().replace("'s", "").split()
    return any(w in PERSON_NOUNS or (w.endswith("s") and w not in _NOT_PLURALS and len(w) > 3) for w in words)


def _leans(clause: str, known: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether the clause itself leans on the conversation: a demonstrative or a pointing word
    anywhere ("the same", "then"), or a pronoun among its first three words ("he said it's fine").
    "The same" among two things of the clause's own that the chat never named (``known``: its words)
    is no pointer.
    A later pronoun takes up what the clause named first: "my unit tests pass locally but when
    github actions runs them ...". A relative "that" ("a function that's 400 lines long") points
    nowhere."""
    plain = cached_re.sub(r"(?<=[a-z] )that(?='s|\s+(?:is|are|was|were|has|have)\b)", "", clause, flags=re.IGNORECASE)
    if known and _AMONG_OWN.search(plain):
        # "if two goroutines write to the same map": a sameness among the clause's own things, which
        # the chat never named ("both my daughters had the same virus" after the chat's virus is the chat's)
        plain = cached_re.sub(
            r"\bthe\s+same\s+([a-z]+)",
            lambda m: m.group(0) if m.group(1).lower() in known else "",
            plain,
            flags=re.IGNORECASE,
        )
    if _DEMONSTRATIVES.search(plain):
        return True
    return any(_POINTERS.fullmatch(word) for word in plain.split()[:3])
