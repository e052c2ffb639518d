"""Implicit references: queries that lean on the conversation without a pronoun.

"what about the price?", "and the deadline?", "any update?", "why not?", "what did the doctor
say?" name no antecedent, yet only make sense about the topic just discussed. Such a query is
*elliptical*: it opens with a follow-up word ("and", "what about", "any"), or it is a short question
whose only content is a definite noun ("the result", "our counteroffer") or nothing at all. A query
that names its own subject (a capitalised name, a number, an identifier) or says enough (three or
more content words) is left alone, which keeps clear queries on the fast path.

The topic it leans on is the conversation's main thing: what the first user message of the window
opened with (centering: the first-mentioned entity of the opening utterance tends to stay the
topic), then how often and how recently a thing was mentioned. People, groups and times are not
topics here; pronouns handle them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.fragments import verbless_fragment
from mnemo.retrieve.rewrite.names import (
    COLLECTIVES,
    COMMON_VERBS,
    PERSON_NOUNS,
    PLURAL_GROUPS,
    QUANTITY,
    TIME_HEADS,
    VAGUE,
    is_pet,
)
from mnemo.retrieve.rewrite.opening import opening as opening_text
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: "any tips for sourdough?", "any ideas about pruning roses": "any" asking about a topic it names.
_ANY_FOR = re.compile(
    r"^\s*any\s+(?:[a-z]+\s+)?(?:tips|ideas|advice|suggestions|recommendations)\s+(?:for|about|on)\s+"
    r"(?!(?:the|that|this|it|them|those|these|my|our|his|her|their)\b)[a-z]{4,}",
    re.IGNORECASE,
)
#: Follow-up openers: the rest of the query continues the previous turn's subject.
OPENER = re.compile(r"^\s*(?:and|so|but|what about|how about|any|anything)\b", re.IGNORECASE)
_WH = frozenset("what who whom whose which when where why how whats who's what's".split())
#: Verbs and adverbs that carry no topic of their own ("what did the doctor *say*", "is it done *yet*").
LIGHT = frozenset(
    """say said says tell told go went goes going gone come came happen happened happens do done get got
    left leave take took think thought know knew mean meant cost costs charge charged work worked start
    started end ended decide decided find found see saw look looked make made else yet still already ever
    really much many long far well new like need needed want wanted ok okay next s t d ll ve re m
    anything something everything anyone someone everyone exactly actually""".split()
)
#: Relational nouns: a price is the price *of* something, a deadline the deadline *for* something.
#: Bare, with "the", they lean on the conversation for that something ("what about the price?").
RELATIONAL = frozenset(
    """price prices cost costs fee fees rent salary budget deadline deadlines date time schedule timeline
    agenda plan plans result results outcome score status update updates progress answer response reply
    feedback decision verdict diagnosis prognosis recovery treatment reason cause effect impact difference
    size length duration capacity total amount number address location venue menu owner author winner
    name names next step steps rest end ending beginning start installation delivery shipping refund
    warranty contract terms offer quote estimate invoice bill review approval rules policy requirements
    risks risk downside downsides upside alternative alternatives options cheapest fastest problem
    error message link password receipt confirmation booking reservation charges penalty penalties""".split()
)
_DEFINITE = re.compile(r"\b(?:the|our)\s+([a-z][\w-]*)", re.IGNORECASE)
_DEFINITION = re.compile(r"^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:a|an)?\s*[a-z]", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z0-9][\w'.\-]*")
#: An amount in a fragment ("for 3 users", "under 150", "500GB") qualifies it; it names no subject.
_AMOUNT = re.compile(r"\d[\d.,]*(?:%|k|gb|mb|tb|kg|g|ml|l|m|km|h|hrs?|mins?|pm|am)?", re.IGNORECASE)
#: Nouns that are no topic: people and groups (pronouns' business), times, vague words.
NOT_TOPICS = (
    PERSON_NOUNS
    | COLLECTIVES
    | PLURAL_GROUPS
    | TIME_HEADS
    | VAGUE
    | frozenset("quarter sprint season hour hours minutes days weeks months years".split())
    # what one books at a place: "a table at Padella" is about Padella
    | frozenset("table slot seat seats spot".split())
)


def elliptical(query: str, known: frozenset[str] | set[str] = frozenset()) -> tuple[str, int, int, str | None] | None:
    """The span that makes the query elliptical (an opener, a definite noun that leans on the
    conversation, or the whole question when it has no content word), or None when the query
    stands on its own. ``known`` holds the conversation's words (lower-case)."""
    words = _WORD.findall(query)
    if not words or len(words) > 10:
        return None
    # "monthly cost for 3 users?": a phrase without a verb asks about the topic (an amount names no subject)
    fragment = verbless_fragment(query, COMMON_VERBS) and not names_something(
        [w for w in words if not _AMOUNT.fullmatch(w)]
    )
    if names_something(words) and not fragment:
        return None
    low = [w.lower().strip("'") for w in words]
    content = [w for w in low if w not in STOPWORDS and w not in _WH and w not in LIGHT and len(w) > 1]
    definite = next((m for m in _DEFINITE.finditer(query) if _leans_on_context(m, query, content, known)), None)
    noun, noun_end = head_noun(query, definite) if definite else (None, 0)
    opener = OPENER.match(query)
    own_complement = opener is not None and _ANY_FOR.match(query)  # "any tips for sourdough?" names its topic
    if opener and not own_complement and (len(content) <= 2 or (definite and len(content) <= 3)):
        return opener.group(0).strip(), opener.start(), opener.end(), noun  # "and the deadline?"
    if _fragment(low, query) or _verbless(low, query) or fragment:
        return query.strip(), 0, len(query.strip()), None  # "deadline?", "how long in the oven?": of the topic
    first = low[0].split("'")[0]
    if not (first in _WH or first in _AUX or query.rstrip().endswith("?")):
        return None  # a statement or a command says what it wants
    if not content and len(words) <= 6:
        return query.strip(), 0, len(query.strip()), None  # "why not?", "who else came?", "what's left to do?"
    following = cached_re.match(r"\s+([a-z]{3,})\s+([a-z]{3,})\b", query[noun_end:])
    if definite and following and following.group(2) in TIME_HEADS and following.group(1) in _VERB_NOUNS:
        return None  # "the sprint end date in jira": a compound that names its own thing
    if definite and len(content) <= 4:
        return query[definite.start() : noun_end], definite.start(), noun_end, noun  # "the result"
    possessive = any(w in ("my", "your", "his", "her", "their") for w in low)
    if possessive or _DEFINITION.match(query):
        return None
    if first in _WH and len(content) <= 2 and len(words) <= 4 and not _own_subject(low):
        return query.strip(), 0, len(query.strip()), None  # "how much flour?", "which step failed?"
    there = _THERE_IS.match(query) or _NEED_ONE.match(query) or _HOW_MANY_NEEDED.match(query)
    if there and _undertaken(known) and not _FURTHER_SUBJECT.search(query[there.end() :]):
        return query.strip(), 0, len(query.strip()), None  # "is there a dress code?" at the show the chat booked
    if _BARE_DEED.match(query):
        return query.strip(), 0, len(query.strip()), None  # "how often should i water?": water what the chat grows
    if first in _AUX and len(content) <= 1 and len(words) <= 6:
        return query.strip(), 0, len(query.strip()), None  # "do we need to bring anything?"
    asks = first in _WH or first == "any" or (first in ("is", "are") and low[1:2] == ["there"])
    if asks and len(words) <= 7 and content and all(map(_generic, content)):
        return query.strip(), 0, len(query.strip()), None  # "how much per month usually?", "any tips?"
    return None


#: "is there a dress code?", "are there any lockers?": a feature asked of the undertaking the chat is about.
_THERE_IS = re.compile(
    r"^\s*(?:so\s+|and\s+|ok\s+)?(?:is|are)\s+there\s+(?:a|an|any)\s+(?:[a-z-]+\s+){0,2}?[a-z-]{3,}(?=\s*\?\s*$|\s)",
    re.IGNORECASE,
)


#: "do I need a special licence?", "do we need a 4x4?": a requirement of the undertaking the chat is about.
_NEED_ONE = re.compile(
    r"^\s*(?:so\s+|and\s+|ok\s+)?do\s+(?:i|we)\s+(?:still\s+|also\s+)?need\s+(?:a|an|any)\s+"
    r"(?:[\w-]+\s+){0,2}?[\w-]{2,}\s*\??\s*$",  # the question ends on the noun: "... to drive to X" says its own
    re.IGNORECASE,
)


#: "how many coats will I need?", "how much should we budget?": an amount for the undertaking.
_HOW_MANY_NEEDED = re.compile(
    r"^\s*(?:so\s+|and\s+|roughly\s+)?how\s+(?:much|many)\s+(?:[a-z]+\s+)?(?:will|do|should|would|shall)\s+"
    r"(?:i|we)\s+(?:need|use|budget|buy|order|get|allow)\s*\??\s*$",
    re.IGNORECASE,
)


def _verbless(low: list[str], query: str) -> bool:
    """A short wh-question with no verb at all: "how long in the oven?", "how many per person?" -
    what it asks about is the topic's (a general question has its verb: "how long do eggs boil")."""
    if not query.rstrip().endswith("?") or len(low) > 6 or low[0] not in ("how", "what", "which", "where", "when"):
        return False
    verbal = (
        _AUX | COMMON_VERBS | {"is", "are", "was", "were", "s", "be", "am", "get", "got", "go", "do", "does", "did"}
    )
    return not any(w in verbal or w.endswith(("ing", "ed")) or "'" in w for w in low[1:])


def _fragment(low: list[str], query: str) -> bool:
    """A question of a relational noun alone, up to three words: "deadline?", "processing time?",
    "and the total?" (a deadline, a time, a total of the topic)."""
    if not query.rstrip().endswith("?") or len(low) > 3:
        return False
    head = low[-1]
    return (head in RELATIONAL or head.removesuffix("s") in RELATIONAL) and not any(
        w in _WH or w in _AUX or w in ("i", "you", "we", "my", "your") for w in low
    )


#: A how/when/where question that ends on its own bare verb: "how often should i water?", "how
#: early should we arrive?", "when do i book?". What is watered or where one arrives is the chat's.
_BARE_DEED = re.compile(
    r"^\s*(?:how\s+(?:often|long|much|many|soon|early|late|far\s+ahead)|when|where|what\s+time)\s+"
    r"(?:should|do|can|must|would|will|could|shall)\s+(?:i|we)\s+(?:\w+ly\s+)?[a-z]{3,}\s*\??\s*$",
    re.IGNORECASE,
)


def _own_subject(low: list[str]) -> bool:
    """ "why do cats purr", "how do magnets work": a question whose auxiliary has a noun for its
    subject names what it asks about; "when should i prune" leaves it to the chat."""
    at = next((n for n, w in enumerate(low[:3]) if w in _AUX), None)
    subject = low[at + 1] if at is not None and at + 1 < len(low) - 1 else ""
    return bool(subject) and subject not in STOPWORDS and subject not in LIGHT and subject.isalpha()


#: Words that ask about something without naming it: "how much per month usually?", "any tips?".
_GENERIC = frozenset(
    """per usually typically normally realistically roughly approximately option options tip tips idea ideas
    way ways person people month months week weeks year years day days hour hours minute minutes price
    expedited cheaper faster better best quickest cheapest total save spend pay""".split()
)


def _generic(word: str) -> bool:
    return word in _GENERIC or word in LIGHT or word in RELATIONAL or (word.endswith("ly") and len(word) > 4)


#: Days and months name a time, not the query's subject ("is the delivery confirmed for Friday?").
_CALENDAR = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|january|february|march|april|june|july|august|september"
    r"|october|november|december",
    re.IGNORECASE,
)
#: Relational nouns that are verbs too, nouns after "the" ("what time is the start?"); "the next"
#: is the speaker's own next occasion ("when is the next match?"), no reference.
_VERB_NOUNS = frozenset({"start", "end", "cost", "costs"})
_TIME_AFTER = re.compile(r"\s+(?:" + "|".join(sorted(TIME_HEADS)) + r")s?\b", re.IGNORECASE)
_AUX = frozenset("did does do is are was were can could will would has have had should shall".split())


def _leans_on_context(match: re.Match[str], query: str, content: list[str], known: frozenset[str] | set[str]) -> bool:
    """A definite noun without a complement ("the price", not "the price of X") that is relational
    (a price is the price of something), a role ("the doctor") or one the conversation mentioned
    ("the refund" after "how long the refund takes")."""
    noun, end = head_noun(query, match)
    if _TIME_AFTER.match(query[end:]):
        return False  # "the next time my laptop overheats": a time, not a thing of the conversation
    # a relational noun that is a verb too ("the start", "the end") is a noun after "the"
    complemented = cached_re.match(r"^\s+(?:of|for|on|to|from|with|about|in|between)\b", query[end:], re.IGNORECASE)
    if (noun not in content and noun not in _VERB_NOUNS) or complemented:
        return False
    stem = noun.removesuffix("s")
    if _bridging(match, query, content, end) or _unseen_part(match, query, content, end, known):
        return True
    described = is_role(stem) or is_pet(stem)  # "the plumber", "the dog": the context may name them
    # "the next dose" after "no more than 3 doses": the plural the conversation used counts too
    told = noun in known or stem in known or f"{noun}s" in known or f"{noun}es" in known
    return noun in RELATIONAL or stem in RELATIONAL or described or told


def _bridging(match: re.Match[str], query: str, content: list[str], end: int) -> bool:
    """A part of an event, a trip or a purchase that the conversation never named, in a short
    question: "how much are the tickets?" after "Mum's 70th is in Kraków" means the tickets for
    that trip (a bridging reference). Only nouns that are parts of such things count: "how long is
    the wait?" or "what is the weather?" ask about the world, not the topic. A noun that is itself
    a complement ("the first step of the tutorial") says what it belongs to."""
    noun = query[match.start(1) : end].strip().lower()
    complement = (
        cached_re.search(r"\bof\s*$", query[max(0, match.start() - 20) : match.start()], re.IGNORECASE) is not None
    )
    return noun in PARTS and not complement and len(content) <= 3


def _unseen_part(
    match: re.Match[str], query: str, content: list[str], end: int, known: frozenset[str] | set[str]
) -> bool:
    """A definite noun the conversation never used, in a question that asks one thing of it and
    nothing else: "when will the valuation happen" after "our remortgage application went in",
    "what time do the doors open" after "booked tickets for the choir concert". Such a noun is
    known to the speaker only through the topic (a bridging reference, beyond the listed PARTS).

    A question that asks about the world is not one of these, and has its tells: a superlative
    ("the biggest"), a place it sits in ("in the uk", "at the airport", "under the hood", "in the human body"), a
    further subject after the noun ("the walrus operator do *in python*"), a date it gives ("two
    days before the election") or more than two other words of content."""
    noun = query[match.start(1) : end].strip().lower()
    words = [w for w in noun.split() if w not in STOPWORDS]
    if any(w in known or w.removesuffix("s") in known or f"{w}s" in known for w in words):
        return False  # a noun the chat used is the anaphor's business, not a bridge
    if not _undertaken(known):
        return False  # "how much is the deposit?" after "my knee hurts": nothing there has parts
    if any(is_role(f) or is_pet(f) or f in _OCCASIONS for w in words for f in (w, w.removesuffix("s"))):
        return False  # "when is the boss back": a person; "what time does the film start": an occasion of its own
    if _WORLD & set(noun.split()) or any(w.endswith("est") and len(w) > 4 for w in noun.split()):
        return False
    if (
        _LOCATED.search(query[: match.start()])
        or _FURTHER_SUBJECT.search(query[end:])
        or _DATED_BY.search(query[: match.start()])
    ):
        return False
    own = set(noun.split())
    others = [w for w in content if w not in own and not (w.endswith("ly") and len(w) > 4)]
    if cached_re.search(r"\bwhat\s+time\b", query, re.IGNORECASE):
        others = [w for w in others if w != "time"]  # "what time": a wh-phrase, not a subject
    return len(others) <= 2 and len(content) <= 4


def _undertaken(known: frozenset[str] | set[str]) -> bool:
    """Whether the chat is about an undertaking with parts of its own: something booked, bought,
    applied for or being written, or an occasion with a date ("the 21st", "on monday", "at 4pm")."""
    return bool(known & _UNDERTAKING) or any(_DATED.fullmatch(word) for word in known)


#: Words of an undertaking: a booking, a purchase, an application, a plan, a piece of work.
_UNDERTAKING = frozenset(
    """booked booking bought buying ordered order signed registered applied application applying planning
    planned organising organizing hosting arranging scheduled appointment tickets ticket reservation
    draft drafting writing finished submitted enrolled entered invited joining joined visiting renting rented
    hiring hired adopting adopted moving switching enrolling subscribed subscribing renovating repainting
    decorating redoing building baking cooking training learning""".split()
)
_DATED = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|weekend|january|february|march|april|may|june"
    r"|july|august|september|october|november|december|\d{1,2}(?:st|nd|rd|th|am|pm)|\d{1,2}:\d\d"
)
#: Occasions in their own right: "the film" is a film, not a part of whatever was discussed.
_OCCASIONS = frozenset("film movie meeting party concert show gig conference festival".split())
#: Nouns of the world at large: "what's the weather like" never means the weather of the topic.
_WORLD = frozenset(
    "weather forecast news time wait traffic internet world sun moon sky law government economy market".split()
)
#: A definite noun as a place something sits in: "in the uk", "under the hood", "in the human body".
_LOCATED = re.compile(
    r"\b(?:in|at|under|into|inside|across|around|over|through|within|throughout|along|beside|near|past|of)\s+$",
    re.IGNORECASE,
)  # "of": "the first step of the tutorial" says itself what its noun belongs to
#: A noun that dates something else: "two days before the election" asks about a date of the world.
_DATED_BY = re.compile(r"\b(?:before|after|until|till|since)\s+$", re.IGNORECASE)
#: A prepositional phrase after the noun with a word of content: the query says what it is about.
_FURTHER_SUBJECT = re.compile(
    r"\b(?:in|on|at|for|from|with|about|into|under|over|near|by|between|out\s+of|off|onto|through|across|inside|around)\s+(?:(?:the|a|an|my|our|your)\s+)?"
    r"(?!(?:it|them|this|that|there|here|me|us|you|him|her)\b)[a-z][\w-]{2,}",
    re.IGNORECASE,
)


#: Parts and stages of events, trips, purchases and procedures: what a bridging "the X" names.
PARTS = frozenset(
    """tickets ticket ceremony reception fare fares flight flights booking rehearsal race match game round
    final heat lesson lessons class session procedure operation surgery removal repair rebuild fitting
    appointment interview exam itinerary route programme program lineup setlist speech speeches catering
    invitations invites registration entry tuition course retest inspection checkout check-in pickup
    drop-off transfer layover connection""".split()
)


def leaning_definites(query: str, known: frozenset[str] | set[str]) -> list[tuple[str, int, int, str]]:
    """Every definite noun of the query that the conversation mentioned ("the results" after "the
    results are in"), as (text, start, end, noun): in a query that already has a pronoun, each
    reference is resolved on its own ("did she send the results"). Relational nouns alone are not
    enough here: "the rent when that happened" is the speaker's rent."""
    words = _WORD.findall(query)
    low = [w.lower().strip("'") for w in words]
    content = [w for w in low if w not in STOPWORDS and w not in _WH and w not in LIGHT and len(w) > 1]
    out = []
    for match in _DEFINITE.finditer(query):
        noun, end = head_noun(query, match)
        if _leans_on_context(match, query, content, known) and {noun, noun.removesuffix("s")} & set(known):
            out.append((query[match.start() : end], match.start(), end, noun))
    return out


def is_role(noun: str) -> bool:
    """A person by what they do: listed roles and the agent suffixes ("dentist", "optician")."""
    return noun in PERSON_NOUNS or (len(noun) > 5 and noun.endswith(("ist", "ician", "ologist")))


#: Adjectives in -ly, which modify a noun rather than a verb: "the early repayment charges".
_LY_ADJECTIVES = frozenset("early daily weekly monthly yearly quarterly nightly hourly friendly elderly".split())


def head_noun(query: str, match: re.Match[str]) -> tuple[str, int]:
    """The head noun of "the ..." and where it ends: the last word of the run of content words,
    or the one before it when the phrase is the subject of an auxiliary ("did the doctor *prescribe*")."""
    run: list[re.Match[str]] = []
    for word in cached_re.finditer(r"[A-Za-z][\w'-]*", query[match.start(1) :]):
        low = word.group(0).lower()
        adverb = low.endswith("ly") and len(low) > 4 and low not in _LY_ADJECTIVES
        if low in STOPWORDS or low in LIGHT or adverb or len(run) == 3:
            break
        if run and low.endswith("ed") and len(low) > 4:
            break  # "the landlord answered": a past-tense verb after the noun is its predicate
        if run and low.endswith("ing") and len(low) > 4:
            break  # "is the cat eating?": a progressive verb after the noun is its predicate
        run.append(word)
    if not run:
        return match.group(1).lower(), match.end(1)
    # the question's own clause: a long text is read only up to 200 characters back
    # the auxiliary stands just before the phrase, which is its subject: "how did the doctor prescribe";
    # a phrase later in the question ("how do i bleed the radiators in the back bedroom") is no subject
    clause = query[max(0, match.start() - 200) : match.start()]
    asked = cached_re.search(r"\b(?:did|does|do|will|would|can|could|should)\s*$", clause, re.IGNORECASE)
    chosen = run[-2] if asked and len(run) >= 2 else run[-1]
    return chosen.group(0).lower(), match.start(1) + chosen.end()


def names_something(words: Sequence[str]) -> bool:
    """A capitalised word after the first, a number or an identifier: the query has its own subject."""
    return any(
        (n and w[:1].isupper() and w.lower() not in ("i", "i'm", "i've") and not _CALENDAR.fullmatch(w))
        or any(ch.isdigit() for ch in w)
        or cached_re.search(r"[_./]", w.rstrip("."))
        for n, w in enumerate(words)
    )


def topic(
    context: Sequence[Mapping[str, str]],
    candidates: Sequence[Candidate],
    query: str,
    skip: set[str] | None = None,
    recent: bool = False,
) -> Candidate | None:
    """The thing the conversation is about, or None; never one the query already names. ``recent``
    favours the last exchange over the opening (a bare follow-up: "why?", "and then?")."""
    opening = _last_exchange(context) if recent else opening_text(context)
    query_words = {w.lower() for w in _WORD.findall(query)}
    best: tuple[float, Candidate] | None = None
    people = {c.text.lower() for c in candidates if c.kind == "person" and not c.pronominal}
    for candidate in candidates:
        head = _head(candidate.text)
        if candidate.kind not in ("thing", "place") or _not_topic(candidate.text, head):
            continue
        if QUANTITY.fullmatch(candidate.text) or (_THOUSANDS.fullmatch(candidate.text) and _priced(candidate, context)):
            continue  # "1h20", "21.99", "£200k": an amount is said about the topic, not it ("the 10k" is a race)
        if candidate.text.lower() in people:
            continue  # "Sione" read both ways: a person is not a topic
        owned = cached_re.sub(
            r"^[\w-]+'s\s+", "", candidate.text
        )  # "Aroha's pottery class": the owner is not the topic
        words = {w.lower().strip(".,") for w in owned.split()} - {"the", "my", "your", "our", "a", "an"}
        if not words or words & query_words or (skip and any(s in candidate.text.lower() for s in skip if len(s) > 2)):
            continue
        bare = owned.lower().removeprefix("the ").removeprefix("my ").removeprefix("your ")
        score = candidate.salience * (1.0 + 0.3 * (candidate.mentions - 1))
        if bare and bare in opening:
            score *= 2.5  # what the conversation opened with stays its topic
        if candidate.kind == "place":
            score *= 0.6
        if best is None or score > best[0]:
            best = (score, candidate)
    return best[1] if best else None


_THOUSANDS = re.compile(r"[£$€]?\d[\d.,]*k")


def _priced(candidate: Candidate, context: Sequence[Mapping[str, str]]) -> bool:
    """Whether the chat writes the candidate with a currency sign: "£200k" is money."""
    sign = cached_re.compile(rf"[£$€]{re.escape(candidate.text)}\b")  # compiled once per amount
    return any(sign.search(str(m.get("content") or "")) for m in context)


def _not_topic(text: str, head: str) -> bool:
    """Whether a candidate's head makes it no topic: a person, a time, a vague word, a group. A
    group named with a modifier is a place or a service ("the food bank", "the book club")."""
    if head in COLLECTIVES and _modified(text):
        return False
    return head in NOT_TOPICS or _singular(head) in NOT_TOPICS


def _modified(text: str) -> bool:
    words = [w for w in text.lower().split() if w not in ("the", "my", "our", "your", "a", "an")]
    return len(words) >= 2 and words[-2].isalpha() and words[-2] not in STOPWORDS


def _singular(word: str) -> str:
    """ "weekends" -> "weekend", "friends" -> "friend": a plural's head for the word lists."""
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def _head(text: str) -> str:
    """ "the hiring plan for the data team" -> "plan": the noun before an attachment."""
    return cached_re.split(r"\s+(?:for|of|from|with|in|called|named)\s+", text.lower(), maxsplit=1)[0].split()[-1]


def _last_exchange(context: Sequence[Mapping[str, str]]) -> str:
    """The latest user message, lower-case: what a bare follow-up question continues."""
    last = next((m for m in reversed(list(context)) if str(m.get("role") or "").lower() in ("user", "human")), None)
    return str(last.get("content") or "").lower() if last else ""
