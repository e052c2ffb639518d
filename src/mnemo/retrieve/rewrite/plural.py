"""Choosing what "they" and "them" stand for: a group, two people named together, an organisation,
or (for an object "them") several things.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.lexicon import geographic
from mnemo.retrieve.rewrite.lists import find_list
from mnemo.retrieve.rewrite.names import COLLECTIVES, PERSON_NOUNS, PLURAL_GROUPS, QUANTITY
from mnemo.retrieve.rewrite.plain_names import acting_department
from mnemo.retrieve.rewrite.ranked import best
from mnemo.retrieve.rewrite.said import conversation_text
from mnemo.retrieve.rewrite.tidy import TIME_UNITS
from mnemo.store.sql import STOPWORDS

from . import cached_re

_OWNERS = frozenset({"the", "my", "your"})
#: A counted plural is a group too: "got two tickets ... add them to my wallet".
_COUNTS = frozenset("two three four five six seven eight nine ten both".split()) | {str(n) for n in range(2, 100)}
#: Identifier shapes: a digit or an underscore ("S3", "v2", "tenant_id"); a company's inner capital
#: ("OpenAI changed their prices") is no such sign.
IDENTIFIER = re.compile(r"[\d_]")


def plural_referent(
    low: str,
    candidates: Sequence[Candidate],
    context: Sequence[Mapping[str, str]] = (),
    before: str = "",
    after: str = "",
) -> tuple[str, float] | None:
    """ "they", "them": a group, two people just named together, an organisation, or (for "them") things."""
    addressed = bool(_ADDRESSED.search(before))  # "ring them": someone who answers, never things
    teams = [c for c in candidates if c.kind != "place" and c.head in PLURAL_GROUPS | COLLECTIVES]
    # "they" acts: a determiner-led group ("the kids"), not a bare plural noun ("numbers")
    groups = [c for c in candidates if c.kind != "place" and c.plural and _leads_group(c.text)]
    if addressed:  # "ring them": people ("my parents"), not "two options"
        groups = [c for c in groups if _people(c)]
    elif low == "they" and _AGENT_PREDICATE.match(after):  # "are they sending the report": not "three issues"
        groups = [c for c in groups if _people(c) or not set(c.text.lower().split()[:2]) & _COUNTS]
    places = {c.text for c in candidates if c.kind == "place"}
    # "next June in Jaipur": a name also read as a place is none of "the two people"
    people = [
        c for c in candidates if c.kind == "person" and not c.plural and c.text[:1].isupper() and c.text not in places
    ]
    people = [c for c in people if not c.speaker] or people  # "they" are not the two talking
    if any({c.head or "", (c.head or "").removesuffix("s")} & (PERSON_NOUNS | PLURAL_GROUPS) for c in groups):
        people = [c for c in people if c.hint != "kin"]  # "dad ... mom" are "my parents", named as a group
    recent = [c for c in people if c.last_seen == min(p.last_seen for p in people)] if people else []
    if len(recent) >= 2:  # "Gwen and Oskar are planning ...": "they" are the two people
        first, second = sorted(recent[:2], key=lambda c: c.order)
        return f"{first.text} and {second.text}", 0.75
    couple = _couple(recent, people, context) if len(recent) == 1 else None
    if couple is not None:  # "Anjali got engaged to Marcus" ... "Marcus has never been": the two of them
        return couple, 0.7
    # "Stripe changed their fees": an organisation; so is a venue the chat went to ("dinner at Dishoom
    # ... do they take reservations"), while a town or a country is where, not who
    named = [
        c
        for c in candidates
        if c.kind == "thing"
        and (c.text[:1].isupper() or _NUMBERED_FIRM.fullmatch(c.text))  # "7-Eleven"
        # a firm the chat already calls "they" ("from B&H, they have a bundle") is read as plural
        and (not c.plural or (c.text[-1:] != "s" and " " not in c.text))
        and (not IDENTIFIER.search(c.text) or _NUMBERED_FIRM.fullmatch(c.text))  # "S3", "AV 011": no one
        and not geographic(c.text)  # "in Galway", "the visa application for Japan": the embassy acts, not Japan
    ]
    named += _senders(candidates, {c.text for c in named})  # "call them" after "a letter from HMRC"
    # "book them online" after "single tickets", "return them" (the shoes) before one person: an object
    # "them" is things before an organisation; a subject "they" acts, and a thing seldom does
    countable = best([c for c in candidates if _countable_plural(c)], high=0.5) if low == "them" else None
    listed = find_list(context, named=True) if low == "them" and not addressed else []
    countable = None if addressed else countable
    if len(listed) >= 2 and all(IDENTIFIER.search(i) for i in listed):  # "rerun them": the failing tests listed
        countable = (", ".join(listed[:-1]) + f" and {listed[-1]}", 0.6)
    if low == "they" and _FAILING.match(after):  # "could they be failing": the tests, not CI that runs them
        failing = best([c for c in candidates if _countable_plural(c) and not _people(c)], high=0.6)
        if failing:
            return failing
    team = best(teams, high=0.8)
    return (
        (_apposed(team, context) if team else None)
        or best(groups, high=0.7)
        or pair(candidates)
        or countable
        or _department(context)  # "finance wants it under 200k": the department that acts
        or best(named, high=0.6)  # "Stripe changed their fees": an organisation
        # one person only as a singular "they" of unknown gender: "Mehmet ... his mum" is "he"
        or best(
            [c for c in candidates if c.kind == "person" and c.text[:1].isupper() and not c.speaker and not c.gender],
            high=0.5,
        )
        # "how long do they keep in the fridge": with no one in sight, things that "they" can be
        or (best([c for c in candidates if _countable_plural(c)], high=0.5) if _THING_PREDICATE.match(after) else None)
        # "referred me to a dermatologist ... what will they do": a role of no known gender, a singular "they"
        or (_one_role(candidates) if low == "they" else None)
    )


#: The organisation a thing came from: "the letter from HMRC", "a letter from the DVLA" (a phrase may run
#: on into its participle: "the letter from HMRC saying").
_SENDER = re.compile(
    r"\b(?:from|by)\s+((?:the\s+)?(?-i:[A-Z][\w&.-]*)(?:\s+(?-i:[A-Z][\w&.-]*)){0,2})(?:\s+[a-z]+ing)?$", re.IGNORECASE
)


#: A firm whose name opens on a number: "7-Eleven", "3M", "23andMe".
_NUMBERED_FIRM = re.compile(r"\d+(?:-[A-Z][a-z]+|[A-Z]+|and[A-Z]\w*)")


def _senders(candidates: Sequence[Candidate], known: set[str]) -> list[Candidate]:
    """The organisations named inside the chat's things, as things of their own: who "they" are
    in "call them" after "I got a letter from HMRC"."""
    found = []
    for c in candidates:
        sender = _SENDER.search(c.text) if c.kind == "thing" else None
        if sender and sender.group(1) not in known and not geographic(sender.group(1)):
            found.append(replace(c, text=sender.group(1), salience=c.salience * 0.9))
    return found


def _one_role(candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    """The person the chat names only by a role of no gender ("a dermatologist"), the latest of
    several, or None."""
    roles = [
        c
        for c in candidates
        if c.kind == "person" and not c.speaker and not c.gender and not c.plural and c.head in PERSON_NOUNS
    ]
    if not roles:
        return None
    # "my GP referred me to a dermatologist": the role the chat brought in last is the one now meant
    latest = min(roles, key=lambda c: (c.last_seen, -c.order))
    return latest.text, 0.45


#: What breaks, said after a subject "they": "could they be failing", "are they still flaky".
_FAILING = re.compile(
    r"^\s+(?:still\s+)?(?:be\s+|being\s+|keep\s+)?(?:failing|crashing|breaking|erroring|timing\s+out|flaky|flaking|broken"
    r"|failed|fail|crash|break|leaking|leak)\b",
    re.IGNORECASE,
)

#: What things do, said after a subject "they": "how long do they keep", "do they need a coat",
#: "are they safe for cats". Acts that want an agent ("how do they train guide dogs") are not here.
_THING_PREDICATE = re.compile(
    r"^\s+(?:keep|last|need|cost|fit|taste|grow|work|break|spoil|freeze|go\s+off|expire|survive|weigh|shed|bite"
    r"|come\s+in|stay|hold|smell|look|contain|count|matter|run|get\s+along)\b",
    re.IGNORECASE,
)
#: Acts only someone does, said after a subject "they": "are they sending the report", "did they
#: reply", "what did they quote".
_AGENT_PREDICATE = re.compile(
    r"^\s+(?:(?:already|still|ever|actually|finally)\s+)?(?:send|sending|sent|say|said|saying|reply|replied"
    r"|replying|respond|responded|email|emailed|call|called|ring|rang|charge|charged|quote|quoted|offer|offered"
    r"|promise|promised|confirm|confirmed|decide|decided|agree|agreed|approve|approved|refund|refunded"
    r"|invoice|invoiced|deliver|delivering|delivered|hire|hired|pay|paid|want|wanted|think|thought)\b",
    re.IGNORECASE,
)
#: Units of measure: "3 kilos", "two litres" are an amount, not a group of things.
_MEASURES = frozenset(
    """kilo kilogram gram pound ounce litre liter pint gallon mile kilometre kilometer metre meter foot feet
    inch yard cup tablespoon teaspoon tbsp tsp euro dollar quid buck pence cent percent point""".split()
)


def _department(context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    found = acting_department(context)
    return (found, 0.6) if found else None


def _people(group: Candidate) -> bool:
    return (group.head or "").removesuffix("s") in PERSON_NOUNS | PLURAL_GROUPS or group.kind == "person"


def _leads_group(text: str) -> bool:
    """ "the kids", "my parents", "two tickets": a determiner or a count before a plural; "ten
    weeks" is a length of time, not a group that acts."""
    words = text.lower().split()
    if words[0] in _OWNERS or (words[0].endswith("'s") and len(words) > 1):  # "Omar's cousins"
        return True
    unit = words[-1].rstrip("s")
    return words[0] in _COUNTS and unit not in TIME_UNITS and unit not in _MEASURES


#: A verb of talking to someone right before "them": "ring them", "email them", "complain to them".
_ADDRESSED = re.compile(
    r"\b(?:ring|call|phone|email|e-mail|text|message|contact|ask|tell|chase|ping|write\s+to|complain\s+to"
    r"|speak\s+to|talk\s+to"
    # "present the revised ones to them", "send the draft over to them": a recipient
    r"|(?:present|show|pitch|send|sent|explain|give|sell|propose|introduce|forward|hand|suggest|mention|break)"
    r"(?:\s+(?!to\b)[\w'-]+){0,4}\s+(?:over\s+)?to)\s+$",
    re.IGNORECASE,
)


def _apposed(team: tuple[str, float], context: Sequence[Mapping[str, str]]) -> tuple[str, float]:
    """A collective the conversation named in apposition, by its name: "my bank, Monzo, froze ..." and
    "the desert tour company, Sahara Trails" are Monzo and Sahara Trails."""
    text = conversation_text(context)
    pattern = rf"(?i:{re.escape(team[0])})(?:,[ ]+|[ ]+(?i:called|named)[ ]+)([A-Z][\w&'-]*(?:[ ]+[A-Z][\w&'-]*)*)"
    named = cached_re.search(pattern, text)
    return (named.group(1), team[1]) if named and named.group(1).lower() not in STOPWORDS else team


def _countable_plural(candidate: Candidate) -> bool:
    """ "got new running shoes ... return them": a plural thing, not an amount of time or money."""
    return (
        candidate.kind == "thing"
        and candidate.plural
        and not QUANTITY.fullmatch(candidate.text)
        and not span_of_time(candidate)
    )


def span_of_time(candidate: Candidate) -> bool:
    """ "the month", "two weeks", "six hours": how long something took, never what "it" or "that
    repair" points at ("the 2023 season" names more than a span)."""
    words = candidate.text.lower().split()
    if words and words[0] in _SPAN_PREPOSITIONS:
        words = words[1:]  # "within 10 days", "for two weeks"
    return 0 < len(words) <= 2 and words[-1].rstrip("s") in TIME_UNITS


_SPAN_PREPOSITIONS = frozenset("within for in after over about around".split())


def _couple(
    recent: Sequence[Candidate], people: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> str | None:
    """The two people of the latest of the last three messages that names two, one of them the
    person named last: "they" continue the pair the conversation introduced together."""
    for message in list(context)[-3:][::-1]:
        text = str(message.get("content") or "")
        named = [c for c in people if cached_re.search(rf"(?<!\w){re.escape(c.text)}(?!\w)", text)]
        # "my friend Anjali" and "Anjali" are one person: the shorter reading is the one kept
        named = [c for c in named if not any(o is not c and o.text in c.text for o in named)]
        if len(named) >= 2:
            if recent[0] not in named:
                return None
            first, second = sorted(named[:2], key=lambda c: text.find(c.text))
            return f"{first.text} and {second.text}"
    return None


def pair(candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    """Two named things of the latest message stand for "they"/"those" ("Qdrant and Milvus")."""
    places = {c.text for c in candidates if c.kind == "place"}
    named = [
        c
        for c in candidates
        if c.kind == "thing"
        and c.last_seen == 0
        and c.text[:1].isupper()
        and " " not in c.text
        and c.text not in places
    ]
    return (f"{named[0].text} and {named[1].text}", 0.7) if len(named) >= 2 else None
