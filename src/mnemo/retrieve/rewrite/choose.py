"""Choosing a candidate for a reference: agreement, recency and salience.

People by number, gender and recency (a known gender beats a guess from a name's shape); things by
recency and frequency; "that migration" by the candidate whose head noun is "migration"; "there"
by the latest place; "the bug" by the latest problem phrase; "that" alone by the matter under
discussion; "that guy" by the latest name of the class.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mnemo.retrieve.rewrite.advice import advice_for
from mnemo.retrieve.rewrite.aged import AGED_REF, aged_text
from mnemo.retrieve.rewrite.alternatives import joined_pair
from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.classed import class_member, class_members, class_of, member_text, plural_class_noun
from mnemo.retrieve.rewrite.cued import verb_cued
from mnemo.retrieve.rewrite.diagnosis import diagnosed
from mnemo.retrieve.rewrite.endorsed import closing_verdict, endorsed, settled_on
from mnemo.retrieve.rewrite.health import (
    DOSE_REF,
    body_part,
    medicine_like,
    put_on,
    taken,
    tended,
)
from mnemo.retrieve.rewrite.implicit import topic as main_topic
from mnemo.retrieve.rewrite.lent import lent_sentence
from mnemo.retrieve.rewrite.locative import fitting_places, located_in
from mnemo.retrieve.rewrite.modified_one import described_one
from mnemo.retrieve.rewrite.namekind import CALENDAR_WORD, EVENT_HEADS
from mnemo.retrieve.rewrite.names import (
    ANY_GIVEN_NAME,
    HAVING_DONE,
    PROBLEM_WORDS,
    QUANTITY,
    TIME_HEADS,
    fold,
)
from mnemo.retrieve.rewrite.noun_choice import PRO_NOUNS, is_problem, through_noun
from mnemo.retrieve.rewrite.nouns import specific_mention
from mnemo.retrieve.rewrite.occasions import occasion_kind, occasion_text
from mnemo.retrieve.rewrite.person_fit import by_agreement, by_owner
from mnemo.retrieve.rewrite.persons import (
    animate_nouns,
    common_word_capitalised,
    ever_placed,
    instance_of_thing,
    named_pets,
    no_single_person,
    placed,
    told_own_deed,
)
from mnemo.retrieve.rewrite.plural import IDENTIFIER, pair, plural_referent, span_of_time
from mnemo.retrieve.rewrite.ranked import best
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.relative import (
    called_place,
    clause_words,
    instance_of,
    named_in,
    phrase_before,
    sentence_with,
)
from mnemo.retrieve.rewrite.reported import judged_figure
from mnemo.retrieve.rewrite.said import conversation_text
from mnemo.retrieve.rewrite.spares import PART_REF, part_text
from mnemo.retrieve.rewrite.taken_up import with_taken_up
from mnemo.retrieve.rewrite.temporal import TIME
from mnemo.retrieve.rewrite.tidy import without_determiner
from mnemo.retrieve.rewrite.verb_kinds import kind_head, kind_heads
from mnemo.retrieve.rewrite.whereabouts import whereabouts
from mnemo.retrieve.rewrite.work import fitting_work, worked_on
from mnemo.store.sql import STOPWORDS

from . import cached_re

POSSESSIVES = {"his", "its", "their", "theirs", "hers"}
_GENERAL_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "some"})
_OWNERS = frozenset({"my", "our", "your", "his", "her", "their"})
#: Groups of people: a chat calls them "they", not "it".
_PEOPLE_GROUPS = frozenset("team committee department squad crew staff family".split())


def choose(
    query: str, ref: Reference, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]] = ()
) -> tuple[str, float] | None:
    """The replacement for one reference and its confidence, or None when nothing fits."""
    low = ref.text.lower()
    if ref.kind == "person":
        return _person(query, ref, candidates, context)
    if ref.kind == "plural":
        return plural_referent(low, candidates, context, query[: ref.start], query[ref.end :])
    if ref.kind == "place" and (where := whereabouts(low, [c.text for c in candidates if c.kind == "place"], context)):
        return where, 0.8  # "here" where the user is now; "there" the place the user settled on
    if ref.kind == "place":  # a named place over a described one ("Boston" over "the support group")
        places = [c for c in candidates if c.kind == "place"]
        places = fitting_places(places, query[: ref.start], conversation_text(context))
        chosen = best([c for c in places if c.text[:1].isupper()] or places, high=0.85)
        named = _apposed_name(chosen[0], context) if chosen else None
        named = named or (located_in(chosen[0], context) if chosen else None)  # "the embassy in London"
        return (named, chosen[1]) if named and chosen else chosen
    if ref.kind == "demonstrative" and ref.noun and ref.noun.lower() in TIME_HEADS:
        return _when(candidates, "in" if ref.noun.lower() in ("year", "month", "week") else "on")
    if ref.kind == "demonstrative" and ref.noun:
        modified = _modified_pro_noun(ref, candidates)  # "that weekend thing": the thing with a weekend
        if modified is None and cached_re.match(r"\s+ones?\b", query[ref.end :]):  # "that greenish one": as described
            described = described_one(ref.noun, candidates, context)
            modified = (f"the {without_determiner(described[0])} {ref.noun}", described[1]) if described else None
        called = called_place(ref.noun, context)  # "that place": "a Thai restaurant called Baan Suan"
        modified = modified or ((called, 0.8) if called else None)
        # "that story" after "the story about Jamie getting lost in Prague": the chat's fuller mention
        fuller = specific_mention(ref.noun, context) if ref.noun.lower() not in TIME_HEADS else None
        if ref.noun.lower() == "one":  # "does that one work with zsh" after "cobra is the usual choice"
            candidates = with_taken_up(candidates, context)
        through = through_noun(ref.noun, candidates, conversation_text(context))
        return modified or said_which(query, ref, candidates, context) or through or fuller
    if ref.kind in ("thing", "demonstrative"):
        return _thing(query, ref, candidates, context)
    if ref.kind == "temporal" and low in ("since then", "back then", "at that time"):
        return _then(low, candidates)
    if ref.kind == "implicit" and DOSE_REF.fullmatch(ref.text):  # "the next dose" of the medicine named
        medicine = best([c for c in candidates if c.kind == "thing" and medicine_like(c.text)], high=0.8)
        return (f"{ref.text} of {without_determiner(medicine[0])}", medicine[1]) if medicine else None
    if ref.kind == "implicit" and ref.noun and occasion_kind(ref.noun):  # "the meeting": the sprint planning
        occasion = occasion_text(ref.text, ref.noun, context)
        return (occasion, 0.75) if occasion else None
    if ref.kind == "implicit" and ref.noun and class_of(ref.noun) and ref.text.lower().startswith("the "):
        return _of_class(query, ref, context)  # "the martial art": "judo"; "the cheeses": every cheese named
    if ref.kind == "implicit" and (PART_REF.fullmatch(ref.text) or AGED_REF.fullmatch(ref.text)):
        # "the part": the one found at fault; "the old one": the other of the kind written beside "new"
        said = conversation_text(context)
        text = part_text(ref.text, said) if PART_REF.fullmatch(ref.text) else aged_text(ref.text, said)
        return (text, 0.8) if text else None
    if ref.kind == "implicit" and low.startswith("the ") and low.split()[-1] in PROBLEM_WORDS:
        problems = [c for c in candidates if c.kind == "thing" and is_problem(c)]
        return best(problems, high=0.9)
    return None


def _of_class(query: str, ref: Reference, context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    """ "the martial art" -> "judo"; a plural ("the cheeses") takes every member named together,
    unless the query restricts it itself ("the cheeses used in a fondue")."""
    noun = ref.noun or ""
    restricted = cached_re.match(r"\s+(?:used|made|in|from|that|which|for|of|you|we)\b", query[ref.end :])
    if plural_class_noun(ref.text.split()[-1]) and not restricted:
        named = class_members(noun, context, query)  # "ricotta, mozzarella and parmesan"
        if len(named) > 1:
            return f"{ref.text} ({', '.join(named[:-1])} and {named[-1]})", 0.8
    member = class_member(noun, context, query)
    return (member_text(ref.text, noun, member), 0.8) if member else None


def _apposed_name(described: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "Abyssinia" for "the Ethiopian place on Grove Street" after "we tried Abyssinia, the Ethiopian
    place on Grove Street": the name a described place was set beside."""
    if described[:1].isupper():
        return None
    name = r"(?-i:[A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*){0,2})"
    pattern = cached_re.compile(rf"\b({name}),\s+{re.escape(described)}", re.IGNORECASE)
    for message in reversed(list(context)):
        found = pattern.search(str(message.get("content") or ""))
        if found and found.group(1)[:1].isupper():
            return found.group(1)
    return None


def _person(
    query: str, ref: Reference, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """ "he", "her": a single person of the pronoun's gender (or none known), not the speakers."""
    low = ref.text.lower()
    gender = "m" if low in ("he", "him", "his", "himself") else "f"
    owned = _next_word(query, ref.end) if low in POSSESSIVES | {"her"} else ""
    people = [
        c
        for c in candidates
        if c.kind == "person"
        and not c.plural
        and c.gender in (gender, None)
        and c.head != owned  # "her sister" is not the sister herself
        and not _named_in(query, c.text)  # "did she teach Ana to cook": she is not Ana
        and not medicine_like(c.text)  # "Lisinopril is commonly started ...": a sentence's subject, no one
    ]
    # the chat's participants are the query's "I" and "you": "she" is someone they talk about
    # "Acme's CTO emailed": the owner of an officer is a firm, unless a first name says otherwise
    owners = {c.text.split("'s ")[0] for c in candidates if c.kind == "person" and "'s " in c.text}
    people = [c for c in people if c.text not in owners or fold(c.text.split()[0]) in ANY_GIVEN_NAME] or people
    subject = low in ("he", "she")  # "did he send the receipts": the speaker who said he would
    people = [c for c in people if not c.speaker or (subject and told_own_deed(c.text, query, context))] or people
    said = conversation_text(context)
    places = {c.text for c in candidates if c.kind == "place"}
    people = [
        c
        for c in people
        if not common_word_capitalised(c.text, said)
        and not instance_of_thing(c.text, said)  # "a free app like Krita ... she can start": Krita is the app
        and not (c.text in places and placed(c.text, said))  # "he grew up in Alexandria": a place
        and not (c.gender is None and c.hint and ever_placed(c.text, said))  # "a flat in Alfama": a place
        and not no_single_person(c.text, said)  # "the engineer from Hotpoint", "City are at home"
    ]
    if not _ADDRESSED.search(query[: ref.start]):  # "ask her if biscuit needs to fast": someone who answers
        people += [p for p in named_pets(candidates) if not _named_in(query, p.text)]  # "make her throw up"
    # "Mrs Abernathy" over "the landlord", "Dr Moreno" over "Biscuit's vet" (an owner's name names no one)
    named = [c for c in people if (c.text[:1].isupper() and not _OWNED_ROLE.fullmatch(c.text)) or c.hint == "pet"]
    # "Northgate's account manager is Ruth Bell": the role's name, not the role
    named = [
        c for c in named if not cached_re.search(rf"{re.escape(c.text)}\s+is\s+(?-i:[A-Z])(?![\w-]*'s)", said)
    ] or named
    chosen = by_owner(by_agreement(named or people, gender), owned, context)
    if not chosen:  # nobody of the pronoun's gender: a name no list knows ("Okonkwo starts on Monday")
        # ... or a pet or a child named by its noun: "my cat keeps scratching the sofa; how do I stop her"
        return _unlisted_name(query, candidates) or best(animate_nouns(candidates), high=0.7)
    return best(chosen, high=0.9 if any(c.gender == gender for c in chosen) else 0.7)


def _thing(
    query: str, ref: Reference, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """ "it", "that", "those": a thing of the same number, or the matter under discussion."""
    low = ref.text.lower()
    plural = low in ("these", "those")
    cued = verb_cued(query, ref, candidates, context)  # "raise it to 1000", "get rid of those", "do that"
    if cued is not None:
        return cued
    if tended(query, ref):  # "should i ice it": the knee, not the 20k a week the runner does
        part = best([c for c in candidates if c.kind == "thing" and body_part(c.text)], high=0.8)
        if part:  # "my left knee clicks": the part itself, whatever the phrase around it
            return f"the {body_part(part[0])}", part[1]
    things = _weighted_things(query, ref, candidates, context)
    advice = advice_for(query, ref, context)
    if advice is not None:
        return advice
    kind_done = taken(query, ref) or tended(query, ref) or worked_on(query)  # the verb chose the kind of thing
    judged = judged_figure(query, ref, context) if low in ("that", "this") else None
    if judged is not None:  # "is that normal?" after "the consumer lag is at 2.3 million": the lag
        return judged, 0.75
    if low in ("that", "this") and ref.kind == "demonstrative" and context and not _SUBJECT_OF_DOES.search(query):
        if kind_done and things:
            return best(things, high=0.8)
        recommended = closing_verdict(context)  # "connect our domain to that" after "Squarespace is perfectly fine"
        if recommended and (named := [c for c in things if recommended.lower() in c.text.lower()]):
            return min(named, key=lambda c: len(c.text)).text, 0.75
        settled = settled_on(context)  # "fit that into 10 minutes" after "I'm thinking of the office move"
        if settled:
            return settled, 0.7
        # "how urgent is that": a demonstrative points at the matter under discussion; "does that
        # come in white" asks about the thing just named, as "does it" would
        found = main_topic(context, [c for c in candidates if c.kind == "thing"], query)
        if found is not None:
            return found.text, 0.75
    top = best(things, high=0.85)
    if top is not None:  # "tiny black flies" that a reply diagnosed as "drain flies"
        return diagnosed(top[0], context), top[1]
    return (pair(candidates) or _joined_things(context)) if plural else None


def _joined_things(context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    """ "claim those" after "i bought a desk chair and a monitor": the two things just joined."""
    joined = joined_pair(list(context)[-2:])
    if len(joined) != 2 or any(len(item.split()) > 4 for item in joined):
        return None
    first, second = (cached_re.sub(r"^(?:a|an)\s+", "the ", item, flags=re.IGNORECASE) for item in joined)
    return f"{first} and {second}", 0.6


def _weighted_things(
    query: str, ref: Reference, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> list[Candidate]:
    """The things a thing pronoun may stand for, of its number, weighted by what the query and the
    conversation say of them."""
    low = ref.text.lower()
    plural = low in ("these", "those")
    # number agreement: "it" is one thing, "those" are several (or a pair)
    things = [
        c
        for c in candidates
        if c.kind == "thing"
        and c.plural == plural
        and not QUANTITY.fullmatch(c.text)
        and not span_of_time(c)
        and c.text.lower().split()[-1] not in _PEOPLE_GROUPS  # "the analytics team" is "they", no "it"
    ]
    # "sells it" after "the house in Galway": a building named by a common noun is a thing one owns too
    known = {c.text.lower() for c in things}
    things += [
        c
        for c in candidates
        if c.kind == "place" and c.plural == plural and _BUILDING.match(c.text) and c.text.lower() not in known
    ]
    # "the Tuesday sync" is when, rather than what, something was said
    things = [replace(c, salience=c.salience * 0.8) if TIME.search(c.text) else c for c in things]
    # "renew it" after "a trip to Thailand": a country or a city is seldom what "it" stands for
    places = {c.text for c in candidates if c.kind == "place" and " " not in c.text and c.text[:1].isupper()}
    things = [replace(c, salience=c.salience * 0.5) if c.text in places else c for c in things]
    if (low == "its" and _FUNCTION_PART.match(query, ref.end)) or _FUNCTION_WORK.search(query):
        functions = [c for c in things if _FUNCTION.search(c.text)]  # "its return type": a function's
        things = functions or things
    things = _of_the_kind_done_to(query, ref, things, context)
    recommended_name = endorsed(context) if low in ("it", "its", "that one", "this one") else None
    if recommended_name:  # "can it ..." after "Then Unleash fits well": the thing recommended
        wanted = recommended_name.lower()
        things = [replace(c, salience=c.salience * 2.0) if wanted in c.text.lower() else c for c in things]
    loan = lent_sentence(query, context) if low in ("it", "that", "this", "them") else None
    if loan:  # "return it to her" after "Aiko lent me her sewing machine": the thing lent
        lent = loan.lower()
        things = [replace(c, salience=c.salience * 2.0) if _bare(c.text) in lent else c for c in things]
    previous = query[: ref.start].lower().split()[-1:]  # "get those valued": the verb of having it done
    done = _DONE_TO.match(query, ref.end) if previous and previous[0] in HAVING_DONE else None
    if done:  # "get those valued" after "The records might be worth getting valued": the things said so
        said = [s for m in context for s in _SENTENCE.split(str(m.get("content") or "")) if done.group(1) in s.lower()]
        things = [
            replace(c, salience=c.salience * 2.0) if any(_bare(c.text) in s.lower() for s in said) else c
            for c in things
        ]
    verb = _verb_of(query, ref)
    if verb:  # "sign it" after "a signed consent form": the thing the conversation tied to that verb
        things = [replace(c, salience=c.salience * 2.0) if _echoes(c.text, verb) else c for c in things]
    return things


def _bare(text: str) -> str:
    return without_determiner(text).lower()


def _of_the_kind_done_to(
    query: str, ref: Reference, things: list[Candidate], context: Sequence[Mapping[str, str]] = ()
) -> list[Candidate]:
    """The things of the kind the query's verb needs, when the conversation has one: "take it" a
    medicine, "mark it as xfail" a test, "restart it" a service."""
    if taken(query, ref):  # "should i take it with food": among the things named, the medicine
        medicines = [c for c in things if medicine_like(c.text)]
        # "lisinopril" over "my blood pressure medication": a possessive common noun names no medicine
        named = [c for c in medicines if c.text.split()[0].lower() not in _GENERAL_DETERMINERS | _OWNERS]
        said = conversation_text(context)
        course = [c for c in named or medicines if put_on(c.text, said)]  # "put me on amoxicillin"
        return course or named or medicines or things  # "Atorvastatin" over "the statin" it is an instance of
    if worked_on(query):
        return fitting_work(query, things, conversation_text(context))
    heads = kind_heads(query[: ref.start], query[ref.end :])
    fitting = [c for c in things if heads and kind_head(_bare(c.text)) in heads]
    return fitting or things  # "water it" a plant, "get it serviced" a vehicle


#: What is done to the pronoun's referent, said after it: "get those valued", "have it checked".
_DONE_TO = re.compile(r"\s+([a-z]{3,}ed)\b(?!\s+(?:the|a|an|my|your|our)\b)", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: A building or a home named by a common noun: "the house", "my flat", "our cottage".
_BUILDING = re.compile(
    r"^(?:the|my|our|his|her|their|your)\s+(?:\w+\s+)?(?:house|flat|apartment|cottage|bungalow|cabin|villa|barn|shed"
    r"|garage|caravan|boat)$",
    re.IGNORECASE,
)
#: "does that come in ...", "will this fit ...": the demonstrative is a subject of an action.
_SUBJECT_OF_DOES = re.compile(
    r"\b(?:does|do|did|will|would|can|could)\s+(?:that|this)\s+(?!mean\b|matter\b)[a-z]+", re.IGNORECASE
)
#: Parts only a function has: "its return type", "its signature", "its docstring".
_FUNCTION_PART = re.compile(
    r"\s+(?:return\s+(?:type|value)|signature|docstring|arguments|args|parameters|params|callers|call\s+sites)\b",
    re.IGNORECASE,
)
#: A function named in the conversation: "tokenize()", "parse_date()", "normalize_phone", "the function x".
_FUNCTION = re.compile(r"^[A-Za-z_][\w.]*\(\)$|^[a-z]+(?:_[a-z0-9]+)+$|\bfunction\b")
#: Work done to a function: "add a docstring to it", "type hints for it", "write tests for it".
_FUNCTION_WORK = re.compile(r"\b(?:docstring|type\s+hints?|return\s+type|signature)\b", re.IGNORECASE)
_OBJECT_OF = re.compile(r"\b([a-z]{3,})\s+(?:it|them|that|this)\b", re.IGNORECASE)


def _verb_of(query: str, ref: Reference) -> str:
    """The verb "it" is the object of ("sign it", "renew it"), or ""."""
    before = query[max(0, ref.start - 20) : ref.end]
    found = _OBJECT_OF.search(before)
    verb = found.group(1).lower() if found and found.end() == len(before) else ""
    return "" if verb in STOPWORDS or verb in _LIGHT_VERBS else verb


_LIGHT_VERBS = frozenset("get got do did does make made take took put have has had use see find need want keep".split())


def _echoes(text: str, verb: str) -> bool:
    """Whether a candidate's words hold a form of the verb ("signed consent form" for "sign")."""
    stem = verb[:-1] if verb.endswith("e") else verb
    participles = {stem + "ed", stem + "d", stem + "en", verb + "ed", verb + "d", verb + "n"}
    return len(stem) >= 4 and any(w in participles for w in text.lower().split())


def _then(low: str, candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    """ "since then", "back then", "at that time": the time the conversation named last."""
    times = best([c for c in candidates if c.kind == "time"], high=0.8)
    if times is None:
        return None
    word = "since" if low == "since then" else "in" if low == "back then" else "at"
    bare = times[0].split(maxsplit=1)[-1] if times[0].split()[0].lower() in ("on", "in", "since") else times[0]
    return f"{word} {bare}", times[1]


def _when(candidates: Sequence[Candidate], preposition: str) -> tuple[str, float] | None:
    """ "that day" -> "on 14 March": the latest time the conversation named."""
    times = [c for c in candidates if c.kind == "time"]
    if not times:
        return None
    latest = min(times, key=lambda c: (c.last_seen, -c.salience))
    bare = latest.text.split(maxsplit=1)[-1] if latest.text.split()[0].lower() in ("on", "in", "since") else latest.text
    return f"{preposition} {bare}", 0.8


def _named_in(query: str, name: str) -> bool:
    """Whether the query itself names this person (a capitalised name, as a whole word)."""
    bare = without_determiner(name)
    if not bare[:1].isupper():
        return False
    # a lower-case query names people in lower case too: "ask her if biscuit needs to fast"
    flags = re.IGNORECASE if len(bare) >= 4 and bare.lower() not in STOPWORDS else 0
    return cached_re.search(rf"(?<!\w){re.escape(bare)}(?!\w)", query, flags) is not None


_OWNED_ROLE = re.compile(r"[A-Z][\w-]*'s\s+[a-z][\w-]*")
#: A verb of talking to someone right before the pronoun: "ask her", "tell him", "email her".
_ADDRESSED = re.compile(
    r"\b(?:ask|tell|call|ring|phone|email|e-mail|text|message|remind|ping|thank)\s+$", re.IGNORECASE
)


def _unlisted_name(query: str, candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    """ "who will onboard him?" after "Oyelaran starts on Monday": with nobody else in sight, an
    unlisted name the cues read as a thing (one that is also a place is a place)."""
    places = {c.text for c in candidates if c.kind == "place"}
    unlisted = [c for c in candidates if name_like(c) and c.text not in places and not _named_in(query, c.text)]
    return best(unlisted, high=0.55)


def name_like(candidate: Candidate) -> bool:
    """A capitalised word or two read as a thing for want of a cue, which a personal pronoun says is
    a name ("Oyelaran starts on Monday ... onboard him"); not an identifier, acronym or time."""
    words = candidate.text.split()
    return (
        candidate.kind == "thing"
        and 1 <= len(words) <= 2
        and all(w[:1].isupper() and not w.isupper() for w in words)
        and not IDENTIFIER.search(candidate.text)
        and not TIME.search(candidate.text)
        and not CALENDAR_WORD.fullmatch(candidate.text)
        and words[-1] not in EVENT_HEADS  # "the Australian Open" is no one a "he" could be
        and not cached_re.search(r"[/.:@]", candidate.text)
    )


def _next_word(query: str, end: int) -> str:
    rest = query[end:].split()
    return rest[0].lower().strip(".,?!") if rest else ""


def said_which(
    query: str, ref: Reference, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """ "that machine my sister has", "that unauthorized error": the named thing of the sentence its
    relative clause or its modifier repeats."""
    modified = _modified_pro_noun(ref, candidates)  # "that weekend thing": a thing the modifier names
    if modified:
        return modified
    words = ref.text.lower().split()
    modifier = words[1] if len(words) == 3 and words[1] not in STOPWORDS and words[1].isalpha() else ""
    said = clause_words(query, ref.end) or ([modifier] if modifier and len(modifier) > 3 else [])
    clause = bool(clause_words(query, ref.end))
    sentence = sentence_with(said, context)
    found = named_in(sentence, candidates) if sentence else None
    instance = instance_of(ref.noun, [{"content": sentence}]) if sentence and ref.noun else None
    if instance:  # "my neighbour Sofia used a firm named AquaFix": the sentence names the noun's instance
        found = Candidate(instance, "thing")
    named = found is not None and cached_re.search(r"[A-Z0-9_./:-]", without_determiner(found.text)) is not None
    if not clause and not named:
        found = None  # a modifier alone ("that audio course") says which only through a name
    before = phrase_before(sentence, said) if sentence and not named and clause else None
    if before:  # "redux toolkit for the cart": the thing its attachment says
        found = Candidate(before, "thing")
    if found is None and ref.noun and (instance := instance_of(ref.noun, context)):
        found = Candidate(instance, "thing")  # "that extension" after "an extension like pg_uuidv7"
    if found is None:
        return None
    bare = without_determiner(found.text)
    noun = ref.noun or ""
    text = bare if noun.lower().rstrip("s") in bare.lower() else f"the {bare} {' '.join(words[1:])}"
    return text, 0.75


def _modified_pro_noun(ref: Reference, candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    """ "that weekend thing", "that chilli stuff": of the things named, the one its modifier names."""
    words = ref.text.lower().split()
    if len(words) != 3 or words[2].rstrip("s") not in PRO_NOUNS:
        return None
    stem = words[1][:-1] if words[1].endswith("s") and len(words[1]) > 4 else words[1]
    fitting = [c for c in candidates if c.kind == "thing" and cached_re.search(rf"\b{re.escape(stem)}", c.text.lower())]
    return best(fitting, high=0.75)
