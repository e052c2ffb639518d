"""References whose antecedent is a situation, a person or a time the query sets up itself.

A query often tells its own situation first and then asks about it: "my wife wants to quit her
job to open a bakery — how do we plan our finances for a change like that?", "my grandad keeps
telling the same stories, should I point it out to him?". It brings in its own person: "email a
university professor to ask if she'll write me a letter", "who created the Linux kernel, and when
did he release it?". Or it anchors its own time: "how long after you pass is the certificate
valid?", "how many novels did Charles Dickens finish before he died?". In each the reference points
at nothing of the conversation, and rewriting it with a conversation's referent breaks a clear
query. The readings here are checked after detection (detect.py) and drop such references; an
"it" is read by own_it.py, a statement before the question by own_statement.py.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite import cached_re
from mnemo.retrieve.rewrite.names import FEMALE_NOUNS, MALE_NOUNS, PERSON_NOUNS
from mnemo.retrieve.rewrite.own_bare import bare_thing_before, conditioned_thing
from mnemo.retrieve.rewrite.own_clause import TAKES_UP_CLAUSE, own_clause_noun, own_clause_that
from mnemo.retrieve.rewrite.own_generic import generic_definite
from mnemo.retrieve.rewrite.own_it import introduced_thing, own_it
from mnemo.retrieve.rewrite.own_sets import ALTERNATIVES, PLACED_BETWEEN, own_member
from mnemo.retrieve.rewrite.own_statement import after_statement
from mnemo.retrieve.rewrite.own_time import first_period_of_own, paired_side
from mnemo.retrieve.rewrite.pointing import pointer_words
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.store.sql import STOPWORDS

#: "a change like that", "a question like that", "or is that a myth?", "what does that mean":
#: a bare "that"/"this" judging or describing what was just said.
_SITUATION_THAT = re.compile(
    r"(?:\b(?:a|an|the)\s+(?:change|question|situation|request|comment|move|decision|thing|message|"
    r"remark|reply|answer|offer|problem|habit|behaviour|behavior)\s+like\s+|\bor\s+is\s+|\bwhat\s+does\s+|"
    r"\bwhat\s+do\s+(?:you|i)\s+make\s+of\s+|\bhow\s+(?:do|should|would|can)\s+i\s+(?:respond|react|reply)\s+to\s+)"
    r"$",
    re.IGNORECASE,
)


#: A subject or possessive pronoun of a person, with its contraction.
_SUBJECT_PRONOUN = re.compile(r"^(?:he|she|they)(?:'ll|'s|'d|'re|'ve)?$|^(?:his|their)$", re.IGNORECASE)
#: Time clauses the query anchors itself: "before he died", "after you pass", "after eating".
_OWN_TIME_CLAUSE = re.compile(
    r"^(?:in\s+the\s+(?:\w+\s+)?(?:years?|months?|weeks?|days?)\s+)?(?:before|after|until|since)\s+"
    r"(?:(?:you|one)\s+\w+|\w+ing\b)",
    re.IGNORECASE,
)
_PERSON_CLAUSE = re.compile(
    r"^(?:in\s+the\s+(?:\w+\s+)?(?:years?|months?)\s+)?(?:before|after|until|since)\s+(?:he|she)\s+\w+", re.IGNORECASE
)
#: A person the query names in full before the pronoun: "Charles Dickens", "Winston Churchill".
_FULL_NAME = re.compile(r"\b[A-Z][a-z]+\s+[A-Z][a-z]+\b")


def own_situation(
    query: str, ref: Reference, known: frozenset[str] | set[str] = frozenset(), answering: bool = False
) -> bool:
    """Whether ``ref`` points at something the query itself sets up (its own statement, quote,
    pair, person, time, place or thing) or is part of an idiom, so that it points at nothing of the
    conversation. ``known`` holds the conversation's words (a demonstrative's noun the chat never
    used, described by a relative clause, is the query's own description); ``answering`` says the
    chat's last turn asked a question, which the query's first clause may answer."""
    low = ref.text.lower()
    before = query[: ref.start]
    if low in ("itself", "themselves", "himself", "herself"):
        return True  # a reflexive is bound inside its own clause: "while `[]` itself is truthy"
    if low.startswith("that") and _CONJUNCTION_THAT.search(before):
        return True  # "so that late payments can be charged": a conjunction, no demonstrative
    if low in ("that", "this", "it") and (_QUOTED.search(before) or _OWN_MATERIAL.search(before)):
        return True  # 'my boss said "we'll revisit it in Q3" — what does that mean?'
    if (low in ("that", "this", "these") or _JUDGED_NOUN.match(low)) and _own_statement_that(query, ref, before):
        return True
    thing = _THATS_THE_THING.match(query)
    if thing is not None and ref.start < thing.end():
        return True  # "that's the thing about remote work, ...": an idiom
    if low == "it" and own_it(query, ref, before):
        return True
    if _own_clause_pointer(query, ref, answering, known):
        return True  # "I deleted the key in the next commit — is that enough?": the query's own clause
    if low in ("it", "its") and _own_thing_it(query, ref, before, known):
        return True
    if low in ("it", "its") and introduced_thing(before, low):
        return True  # "should a puppy get its first jabs?", "mock a function so that it returns ..."
    if low in ("that", "this", "it", "them") and _WH_THEN_AND.match(before):
        return True  # "why does your heart rate go up when you stand, and when should that be a concern?"
    if ref.kind in ("person", "plural") and _own_people(query, ref, before):
        return True
    if ref.kind in ("temporal", "place") and _own_time_or_place(query, ref, before):
        return True
    if (
        ref.kind in ("ordinal", "implicit", "plural")
        and _PAIR.search(PLACED_BETWEEN.sub(" ", before))
        and _PAIRED_REF.match(low)
    ):
        return True  # "the difference between a list and a tuple, and when would you use one over the other?"
    if own_member(query, ref.text, ref.kind, before):
        return True  # "poetry or uv, and does the latter ...", "two job offers ... the second one"
    if low == "the other" and ALTERNATIVES.search(before):
        return True  # "Polars or pandas, and why is one so much quicker than the other?"
    if low in ("the same", "at the same time") and (
        _PAIR.search(before)
        or _SAME_AS.match(query[ref.end :])
        or (_JOINED.search(before) and _SAME_NOUN.match(query[ref.end :]))
    ):
        return True  # "can you use retinol and vitamin c in the same routine", "the same rules ... as"
    if ref.kind == "implicit" and (_COUNTRY.match(ref.text) or _TITLED.match(ref.text)):
        return True  # "from the UK": a name
    if low in ("they", "them") and _PLURAL_OPENING.match(before):
        return True  # "those little silica gel packets that come in shoe boxes — are they toxic?"
    if ref.kind == "implicit" and generic_definite(query, ref.text):
        return True  # "how long before a flight should you get to the airport": any airport
    if ref.kind == "ordinal" and cached_re.match(r"the\s+(?:First|Second|Third|Last)\b", ref.text):
        return True  # "the First World War": a name
    if _MATERIAL_AFTER_COLON.search(before):
        return True  # "make this more formal: can we push the meeting to thurs": the query's own text
    asks_name = bool(_ASKS_NAME.search(before))
    if low == "that" and asks_name and _DESCRIBED.match(query[ref.end :]):
        return True  # "what's the name of that saving rule where you ..."
    if low.startswith(("that ", "those ", "these ")) and ref.noun and (asks_name or ref.noun.lower() not in known):
        return bool(_DESCRIBED.match(query[ref.end :]))  # "that campaign where people don't mow ..."
    return False


def _own_clause_pointer(
    query: str, ref: Reference, answering: bool = False, known: frozenset[str] | set[str] = frozenset()
) -> bool:
    """A pointer that takes up the clause the query said first: "that", "those warnings", "since then"."""
    low = ref.text.lower()
    timed = ref.kind == "temporal" or low.endswith((" point", " age", " stage"))
    if TAKES_UP_CLAUSE.match(low) and own_clause_that(query, ref.start, timed, answering, known):
        return True
    # "the webpack build prints hundreds of deprecation warnings, can I hide those warnings?"
    noun = ref.noun if ref.kind == "demonstrative" and _DEMONSTRATIVE_NOUN.match(low) else None
    return bool(noun) and own_clause_noun(query, ref.start, str(noun))


def _own_thing_it(query: str, ref: Reference, before: str, known: frozenset[str] | set[str]) -> bool:
    """An "it" or "its" whose thing the query names or states itself."""
    after = query[ref.end :]
    if ref.text.lower() == "its":  # "where does macos keep its wallpapers", "one pytest test by its name"
        return bool(_OWNER_IN_CLAUSE.search(before)) and not _EARLIER_POINTERS.search(before)
    if _JUDGED_IT.match(after) and own_clause_that(query, ref.start):
        return True  # "why do cats knock things off tables, is it a hunting instinct?": the query's own clause
    if _after_own_it(query, ref, known):
        return True  # "mock a function so that it returns a different value each time it's called"
    # "if I run git gc on a huge repo does it shrink ...", "if I freeze cooked rice and reheat it later"
    return conditioned_thing(before, after) or bare_thing_before(before, after)


def _after_own_it(query: str, ref: Reference, known: frozenset[str] | set[str]) -> bool:
    """Whether an earlier "it" of the same sentence is the query's own: the later one continues it."""
    sentence_start = max(query.rfind(". ", 0, ref.start), query.rfind("? ", 0, ref.start)) + 1
    for found in cached_re.finditer(r"\bit\b", query[sentence_start : ref.start], flags=re.IGNORECASE):
        start = sentence_start + found.start()
        if _ASKED_IT.search(query[:start]):
            continue  # "does it matter what time i take it": an expletive "it" holds no thing to continue
        if own_situation(query, Reference(query[start : start + 2], "thing", start, start + 2), known):
            return True
    return False


def _own_statement_that(query: str, ref: Reference, before: str) -> bool:
    """A bare "that"/"this" about the query's own statement, report, condition or number."""
    if after_statement(query, ref) and _SITUATION_THAT.search(before):
        return True  # "my wife wants to open a bakery — how do we plan for a change like that?"
    if _REPORTED_OPENING.match(query) and _BREAK.search(before):
        return True  # "I read somewhere that eating late makes you gain weight — any truth to that?"
    if _CONDITION_OPENING.match(query) and _BREAK.search(before):
        return True  # "if I sell shares at a loss, can I use that to reduce the tax?"
    if ref.start == 0 and _CATAPHORIC.match(query):
        return True  # "these are the vows we wrote: '...' — do they sound cheesy?"
    or_is = cached_re.search(r"\bor\s+is\s+$", before, re.IGNORECASE)
    return bool(or_is and _OR_IS_THAT.match(query[ref.start :])) and len(before.split()) >= 5


def _own_people(query: str, ref: Reference, before: str) -> bool:
    """A pronoun for a person or people the query brings in itself."""
    low = ref.text.lower()
    if _SUBJECT_PRONOUN.match(_word_at(query, ref)) and (_introduced_person(before, low) or _wh_person(before)):
        return True  # "email a university professor to ask if she'll write me a letter"
    if low == "their" and _PLURAL_ASKED.search(before):
        return True  # "what age do kids usually lose their first tooth"
    plural = _PLURAL_SUBJECT.match(before)
    if plural and _real_plural(plural.group("plural")) and (low == "their" or _SUBORDINATE.search(before)):
        return True  # "why shouldn't babies be given honey before they turn one?"
    return low in ("they", "them", "their") and bool(_PEOPLE_COMPOUND.search(before))  # "do tradespeople ..."


def _own_time_or_place(query: str, ref: Reference, before: str) -> bool:
    """A time clause the query anchors itself, a "then" its own time or condition fixes, a "there"
    after the place it names."""
    low = ref.text.lower()
    span = query[ref.start :]
    plural = _PLURAL_SUBJECT.match(before)
    if plural and _real_plural(plural.group("plural")) and _THEIR_TIME.match(span):
        return True  # "why shouldn't babies be given honey before they turn one?"
    if ref.kind == "temporal" and _SAME_PERIOD.match(low) and cached_re.match(r"\s+as\b", query[ref.end :]):
        return True  # "do they collect them on the same day as the black bins?"
    if ref.kind == "temporal" and paired_side(ref.text, before):
        return True  # "a good stretch before a run, and a good one after?"
    if ref.kind == "temporal" and first_period_of_own(ref.text, query, after_statement(query, ref)):
        return True  # "is it normal for a newborn to lose weight in the first week"
    if ref.kind == "temporal" and _OWN_TIME_CLAUSE.match(span):
        return True  # "how long is the certificate valid for after you pass?"
    if ref.kind == "temporal" and _PERSON_CLAUSE.match(span) and _FULL_NAME.search(before):
        return True  # "how many novels did Charles Dickens finish before he died?"
    if low in ("then", "back then", "at the time", "at that time", "by then") and _OWN_ERA.search(before):
        return True  # "what did sailors eat in the 1700s, and how did they avoid scurvy back then?"
    if low == "then" and (_CONDITION_OPENING.match(query) or _WHEN_CLAUSE.search(before)):
        return True  # "if inflation is 4% and my savings pay 3%, am I losing money then?"
    return low == "there" and bool(_NAMED_PLACE.search(before))  # "the weather in Lisbon ... swim there"


def _real_plural(word: str) -> bool:
    """A plural noun, not a function word or a word of thanks or advice ("thanks", "tips")."""
    return word.lower() not in STOPWORDS and word.lower() not in _NOT_PLURAL_SUBJECTS


_NOT_PLURAL_SUBJECTS = frozenset("thanks tips ideas options others ones things does goes has was this its yes".split())


def _word_at(query: str, ref: Reference) -> str:
    """The whole word at the reference, its contraction included ("she'll")."""
    match = cached_re.match(r"[\w']+", query[ref.start :])
    return match.group(0) if match else ref.text


#: Words for people the person lists lack, that an indefinite "a" brings into a query.
_MORE_PEOPLE = frozenset("trainer driver worker teacher artist scientist historian musician lecturer".split())
#: "a university professor", "a junior developer", "a brother who ...": a person the query brings
#: in with an indefinite article (any of the three words after it may be the person word).
_INDEFINITE_PERSON = re.compile(r"\b(?:a|an)\s+(?P<words>[\w-]+(?:\s+[\w-]+){0,2})", re.IGNORECASE)


def _introduced_person(before: str, pronoun: str) -> bool:
    """Whether the query brings in a person of the pronoun's gender with "a"/"an" before it."""
    gendered = (
        FEMALE_NOUNS if pronoun.startswith("she") else MALE_NOUNS if pronoun.startswith(("he", "his")) else frozenset()
    )
    for match in _INDEFINITE_PERSON.finditer(before):
        for noun in match.group("words").lower().replace("'s", "").split():
            if noun in gendered or (noun in PERSON_NOUNS and noun not in FEMALE_NOUNS | MALE_NOUNS):
                return True
            if gendered and noun in _MORE_PEOPLE:
                return True  # "a personal trainer ... she'll"
    return False


def _wh_person(before: str) -> bool:
    """ "who created the Linux kernel, and when did he ...": the person the question asks for."""
    # "who should I call first, and ...": an auxiliary after "who" asks the asker, no person of the answer
    asked = r"\s*who\s+(?!(?:should|would|could|can|will|do|does|did|is|are|was|were|might|must)\b)\w+[^,;?]*[,;]"
    return bool(cached_re.match(asked, before, re.IGNORECASE))


#: A quotation of two words or more in the query: what a later "that"/"it" is about.
# (a lookahead checks for the space, so the match stays linear in the quote's length)
_QUOTED = re.compile(
    r"[\"\u201c](?=[^\"\u201d\s]{0,80}\s)[^\"\u201d]{1,300}[\"\u201d]"
    r"|(?<![\w])['\u2018](?=(?:[^'\u2019\s]|'(?=\w)){0,80}\s)(?:[^'\u2019]|'(?=\w)){1,300}['\u2019](?![\w])"
)
#: "I get this error: ModuleNotFoundError ...": the query's own material after a colon.
_OWN_MATERIAL = re.compile(r"\b(?:this|that|the\s+following)\s+\w+\s*:\s*\S+(?:\s+\S+){2,}")
#: "I read (somewhere) that ...", "they say ...": a claim the query reports.
_REPORTED_OPENING = re.compile(
    r"^(?:so\s+|ok\s+)?(?:(?:i|we)(?:'ve|\s+have)?\s+(?:read|heard|saw|seen|was\s+told|were\s+told)\s+"
    r"(?:somewhere\s+|online\s+|recently\s+)?that|(?:they|people)\s+say)\b",
    re.IGNORECASE,
)
#: "if I ...", "suppose we ...": a condition the query states first.
_CONDITION_OPENING = re.compile(
    r"^(?:so\s+|ok\s+|and\s+)?(?:if|suppose|assuming)\s+(?!(?:not|so|yes|no|possible|needed|necessary)\b)\w+\s+\w+",
    re.IGNORECASE,
)
#: "where did that number come from?": a "that" with a noun for a claim or a figure.
_JUDGED_NOUN = re.compile(r"^that\s+(?:number|figure|claim|rule|advice|idea|statistic|stat|saying|amount|percentage)$")
_THATS_THE_THING = re.compile(
    r"^that(?:'s|\s+is)\s+the\s+(?:thing|problem|trouble|issue)\s+(?:about|with)\b", re.IGNORECASE
)
_BREAK = re.compile(r"(?:[,;:!?\u2014\u2013]|\.\B)|\s-\s")
#: "these are the vows we wrote:", "this is my draft:": a demonstrative that points ahead.
_CATAPHORIC = re.compile(r"^(?:these|this)\s+(?:are|is)\s+(?:the|my|our)\s+[^:?]{2,60}:", re.IGNORECASE)
#: "..., or is that a myth?": the query's own claim judged at its end.
_OR_IS_THAT = re.compile(
    r"that\s+(?:just\s+|really\s+|only\s+|all\s+)?(?:(?:a|an)\s+\w+\s*[?.!]*\s*$|(?:possible|true|necessary|allowed|legal|"
    r"needed|required|recommended|safe)\b)",
    re.IGNORECASE,
)
#: A wh-question that names its own matter, then a question about it: "why do people say X, and is
#: that still good advice?" (the clause holds no pronoun of its own).
_WH_THEN_AND = re.compile(
    r"^(?:why|what|how|when|where|which|who|can|could|should|is|are|does|do|did|has|have|will|would)\b(?P<clause>(?:(?!\b(?:it|its|this|that|these|those|they|them|he|she|"
    r"there|then)\b)[^?]){15,}?),\s+(?:and|but|or)\s+(?:\w+\s+){0,6}$",
    re.IGNORECASE,
)
#: "when it's cloudy, ... then": a time the query's own clause sets.
_WHEN_CLAUSE = re.compile(r"\b(?:when|whenever|while|once)\s+(?:it|it's|you|i|we|they|the\s+\w+)\s+\w+", re.IGNORECASE)
#: Alternatives the query weighs: "Polars or pandas", "--soft or --hard".
#: A title of capitalised words: "the World Cup", "the Premier League" is a name.
_TITLED = re.compile(r"^the\s+(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)+$")

#: "guinea pigs and rabbits in the same hutch": two things joined before "the same".
_JOINED = re.compile(r"\b[\w-]+\s+and\s+[\w-]+\b", re.IGNORECASE)
#: A plural the query opens with, as its clause's subject: "Tennis players grunt", "why do babies".
_PLURAL_SUBJECT = re.compile(
    r"^\s*(?:why\s+(?:do|don't|shouldn't|should|can't)|do|does|should|can|how\s+do|when\s+do|are|is\s+it\s+\w+\s+for)?\s*"
    r"(?:[\w-]+\s+){0,2}?(?P<plural>[a-z]{3,}(?<!s)s|children|people)\b(?!\s+(?:is|was)\b)",
    re.IGNORECASE,
)
_THEIR_TIME = re.compile(r"(?:before|after|until|when|once)\s+they\b", re.IGNORECASE)
_SUBORDINATE = re.compile(r"\b(?:before|after|when|whenever|if|until|once|so|because|while)\s+$", re.IGNORECASE)
#: "so that", "now that": "that" as a conjunction.
_CONJUNCTION_THAT = re.compile(
    r"\b(?!(?:ok|okay|and|yeah|yes|well|right|oh|but|so|hmm)\b)\w+[,]?\s+"
    r"(?:so|such|now|given|except|provided|assuming)\s+$",
    re.IGNORECASE,
)

#: "what age do kids usually lose their first tooth": a plural the question asks about.
_PLURAL_ASKED = re.compile(
    r"\b(?:do|does|did|should|can|could|are|were|will|would|why)\s+(?:[a-z]+\s+)?(?:people|children|kids|[a-z]{3,}s)\s+"
    r"(?:usually\s+|often\s+|always\s+|ever\s+|normally\s+|still\s+)?[a-z]+\s+(?:[a-z]+\s+)?$",
    re.IGNORECASE,
)
#: "tradespeople", "salespeople": people in general.
_PEOPLE_COMPOUND = re.compile(r"\b[a-z]+people\b", re.IGNORECASE)

#: An era the query names: "in the 1700s", "in 1989", "in the 19th century", "in the sixties".
_OWN_ERA = re.compile(
    r"\b(?:in|during|by|around)\s+(?:the\s+)?(?:\d{3,4}s?\b|\d{1,2}(?:st|nd|rd|th)\s+century|(?:fifties|sixties|seventies|"
    r"eighties|nineties|middle\s+ages|victorian\s+era|war|january|february|march|april|may|june|july|august|"
    r"september|october|november|december|summer|winter|spring|autumn)\b)",
    re.IGNORECASE,
)
#: A place the query names before "there": "in Lisbon", "to Kyoto".
_NAMED_PLACE = re.compile(
    r"\b(?:in|to|at|visit|visiting|near)\s+(?!(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Spring|Summer|Autumn|Winter)\b)[A-Z][a-z]{2,}|(?:'s|\b(?:a|my|your|our))\s+(?:\w+\s+)?(?:house|home|flat|"
    r"apartment|village|town|city|island)\b"
)

#: A pair the query names: "the difference between X and Y", "X vs Y", "X or Y".
_PAIR = re.compile(
    r"\bbetween\s+(?!(?:now|today|tomorrow|then|here|\d|one|two|three|four|five|six|seven|eight|nine|ten|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)\S.{0,60}?\s+and\s+\S|\b\w+\s+(?:vs\.?|versus)\s+\w+|\b(?:use|using|take|taking)\s+\w+(?:\s+\w+)?\s+and\s+\w+",
    re.IGNORECASE,
)
_SAME_PERIOD = re.compile(r"^(?:on\s+|in\s+|at\s+)?the\s+same\s+(?:day|week|night|time|month|year|weekend)$")
_DEMONSTRATIVE_NOUN = re.compile(r"^(?:that|this|those|these)\s+[a-z]+$")
_ASKED_IT = re.compile(r"\b(?:does|do|did|is|was|will|would|can|could|should)\s+$", re.IGNORECASE)
#: An "it" whose question judges or explains what came before: "is it a hunting instinct", "is it normal".
_JUDGED_IT = re.compile(
    r"\s+(?:just\s+|really\s+|actually\s+)?(?:a|an|because|normal|true|common|genetic)\b", re.IGNORECASE
)
#: An owner "its" takes in its own clause: the subject after a question's auxiliary ("does macos keep
#: its"), or the object just before ("one pytest test by its name").
_OWNER_IN_CLAUSE = re.compile(
    r"\b(?:does|do|did|can|will|should|would)\s+(?!(?:i|you|we|they|he|she|it|this|that|my|your|our|their|the|a|an|his|her)\b)[a-z][\w.-]*"
    r"\s+[a-z]+\s+(?:\w+\s+){0,2}$"
    r"|\b(?:a|an|one|each|every)\s+(?:[\w-]+\s+){0,2}?[a-z][\w-]*\s+(?:by|with|in|on|and)\s+$",
    re.IGNORECASE,
)
_EARLIER_POINTERS = pointer_words("it", "they", "them", "this", "that", "these", "those")
_PAIRED_REF = re.compile(
    r"^(?:them|they|the\s+other|one|either|both|which\s+of\s+them|the\s+same|the\s+former|the\s+latter"
    r"|the\s+(?:better|best|cheaper|faster|safer|right)\s+(?:choice|option|pick|one))$",
    re.IGNORECASE,
)
#: "the same hutch", "the same road rules": a noun right after "the same" (no "the same for my sister").
_SAME_NOUN = re.compile(
    r"^\s+(?!(?:for|to|with|as|again|one|ones|thing|things|here|there|time)\b)[a-z][\w-]*", re.IGNORECASE
)
_SAME_AS = re.compile(
    r"^\s+(?!(?:for|to|with|as|again)\b)[\w-]+\s+(?:[\w-]+\s+){0,4}?(?:as|for\s+\w+\s+and|over\s+and\s+over)\b"
    r"|^\s+(?!(?:for|to|with|as|again)\b)(?:[\w-]+\s+){1,3}?(?:when|whenever|where|"
    r"while|each|every|throughout|across|keeps|again)\b",
    re.IGNORECASE,
)
#: Countries and unions written as "the" and initials: names, no definite reference.
_COUNTRY = re.compile(r"^the\s+(?:UK|US|USA|EU|UAE|UN|NHS)$")
#: A query that opens by describing plural things: "those little silica gel packets that ...".
_PLURAL_OPENING = re.compile(
    r"^(?:those|these)\s+(?:[\w-]+\s+){0,4}?[a-z]+s\s+(?:that|which|who|you|from|in|on)\b", re.IGNORECASE
)
#: "make this more formal: ...", "translate the following: ...": the text after the colon is the query's own.
_MATERIAL_AFTER_COLON = re.compile(
    r"^\s*(?:please\s+|can\s+you\s+)?(?:make|rewrite|reword|translate|fix|proofread|summari[sz]e|shorten|improve|check|"
    r"polish|tidy)\b[^:]{0,40}\b(?:this|the\s+following|below|message|email|text|sentence)\b[^:]{0,20}:",
    re.IGNORECASE,
)
#: "what's the name of that rule where ...": a description asking for its name.
_ASKS_NAME = re.compile(r"(?:\bname\s+(?:of|for)|\bwhat(?:'s|\s+is|\s+was))\s+$", re.IGNORECASE)
#: A relative clause describing the demonstrative's noun: "that campaign where people ...".
_DESCRIBED = re.compile(r"^\s+(?:[\w-]+\s+){0,3}?(?:where|which|who|that|whose)\s+\w+", re.IGNORECASE)
