"""What a capitalised word of a message is: a person, a place, a thing, or an agent (either).

Dependency-free cues, no list of every name: a place cue before it ("in", "flew to"), a listed
first name, a person cue ("ask", "told", "my sister"), a pairing with a known name ("Henry and
Paula"), and a sentence opened by it with a verb ("Priyanka approved", "Stripe changed"). A
capitalised word that only opens a sentence is usually just a word and weighs nothing.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.lexicon import geographic
from mnemo.retrieve.rewrite.names import ANY_GIVEN_NAME, FIRST_NAMES, PERSON_NOUNS, fold
from mnemo.store.sql import STOPWORDS

from . import cached_re

_UP = "".join(sorted({chr(c) for c in range(0x41, 0x250) if chr(c).isupper()} | {"Ạ", "Ả", "Ấ", "Ế", "Ễ", "Ộ"}))
_LO = "".join(
    sorted(
        {chr(c) for c in range(0x61, 0x250) if chr(c).islower()} | set("ạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ")
    )
)
WORD = rf"[{_UP}][{_LO}]+"
#: A lower-case letter of the same scripts, for words like ("ragù", "crème", "piñata").
LOWER_LETTER = rf"[{_LO}]"
#: Days as a rota or a timetable writes them short: "Mon–Wed", "Tue and Thu" ("Sun" is apart: the sun too).
SHORT_DAYS = ("Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat")
#: "Tuesdays", "Mondays", "Julys": calendar words a plural hides from the time patterns.
CALENDAR_WORD = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|(?:january|february|march|april|may|june|july|august"
    r"|september|october|november|december)s?",
    re.IGNORECASE,
)
_PLACE_CUE = re.compile(
    r"\b(?:in|at|near|visit|visited|visiting|(?:go|goes|went|going|move|moved|moving|flew|fly|flight|trip|"
    r"travel|travelled|traveled|drove|came|come|back|arrived|flies|flying|lands|landed|landing"
    # a way of getting there: "the 7:15 train to Leeds", "the ferry to Santander", "a drive up to Inverness"
    r"|train|bus|coach|ferry|boat|cruise|drive|ride|journey|shuttle|taxi|transfer|commute|sail|sailing)\s+"
    r"(?:to|from|in|into|(?:in|over|back|down|up)\s+from))\s+$",  # "flying in from São Paulo"
    re.IGNORECASE,
)
_PERSON_CUE_BEFORE = re.compile(
    r"\b(?:ask|asked|tell|told|with|talk to|talked to|call|called|email|emailed|met|meet|"
    r"manager|colleague|friend|boss|teammate|wife|husband|by|from|ping|pinged|"
    r"engaged\s+to|married\s+to|marry|married|marrying|dating|divorced)\s+$",
    re.IGNORECASE,
)
_PERSON_CUE_AFTER = re.compile(r"^\s*(?:said|says|say|mentioned|thinks|thought|wants|wanted|told|asked|suggested|'s)\b")
_SUBJECT_CUE_AFTER = re.compile(
    rf"^(?:\s+and\s+(?:{WORD}|I|(?:his|her)\s+[a-z]+)\b"  # "Gwen and Oskar", "Rania and her sister"
    r"|\s+from\s+[a-z]|\s+[a-z]{3,}ed\b|\s+(?:ran|went|got|made|took|came|met|lost|left|"
    r"won|gave|told|said|wrote|sent|built|bought|found|saw|had|was|did|flew|drove|quit|spent|paid)\b)"
)
#: A sentence opened by a word and then one of these is about that word as an agent ("Marta is
#: reviewing it", "Kofi keeps ..."): a person or an organisation, which only the pronoun can tell.
_AGENT_CUE_AFTER = re.compile(
    r"^\s+(?:is|was|has|had|will|would|can|could|keeps|wants|thinks|says|said|asked|told|just|also|still|"
    r"never|always|[a-z]{3,}ed|took|went|got|made|came|left|gave|wrote|sent|ran|won|lost|met|joined)\b"
)
#: A noun phrase that gives the name: "a studio called", "the app named" (not "I called", "Mum called").
_GIVEN = re.compile(
    r"\b(?:a|an|the|this|that|our|my|his|her|their|some)\s+(?:[\w-]+\s+){0,2}?([a-z-]+)"
    r"(?:\s+(?:in|at|on|near)\s+[A-Z][\w-]*)?\s+(?:called|named)\s+$"  # "a tiny place in Alfama called"
)
#: Nouns of a place one goes to, so a name given to one is a place.
_VENUES = frozenset(
    """studio restaurant cafe café bar pub shop gym hotel place bakery school clinic salon venue club spa hostel
    store market bistro taverna tavern diner pizzeria brewery winery gallery museum theatre theater cinema
    nursery practice surgery office hall park campsite village town""".split()
)
_AND_NAME_BEFORE = re.compile(rf"(?<!\w)({WORD})\s+and\s+$")
_AND_NAME_AFTER = re.compile(rf"^\s+and\s+({WORD})(?!\w)")


def name_kind(name: str, before: str, after: str, possessive: bool) -> tuple[str, float]:
    """What a capitalised word is, and how sure: a cue or a known first name makes a person; a
    city or country the lexicon knows is a place whatever cue reads it as someone ("coming from
    Tokyo", "Lisbon is easy for English speakers")."""
    kind, confidence = _cued_kind(name, before, after, possessive)
    named = fold(name.split()[0]) in ANY_GIVEN_NAME  # "Santiago" may be either
    # a city's own things are a city's: "Berlin's rental market" is no one's
    if kind in ("person", "agent") and not named and geographic(name):
        return "place", 0.9
    return kind, confidence


#: Last words of a capitalised name that make it an event, whoever is near it: "the Australian Open",
#: "the World Cup", "Glastonbury Festival", "the Berlin Marathon".
EVENT_HEADS = frozenset(
    """Open Cup Championship Championships Games Olympics Festival Marathon Prix Bowl Classic Masters Summit Expo
    Derby Awards Fair Regatta Triathlon""".split()
)


def _listed(first: str) -> bool:
    """A listed first name, or a double one whose parts all are ("Mei-Ling", "Jean-Pierre"; not "Coca-Cola")."""
    folded = fold(first)
    parts = folded.split("-")
    return folded in FIRST_NAMES or (len(parts) > 1 and all(part in FIRST_NAMES for part in parts))


def _cued_kind(name: str, before: str, after: str, possessive: bool) -> tuple[str, float]:
    if CALENDAR_WORD.fullmatch(name):  # "the raid on Tuesdays keeps failing": a time, nobody who acts
        return "thing", 0.0
    if " " in name and name.split()[-1] in EVENT_HEADS:  # "his second Australian Open title": an event
        return "thing", 1.0
    if _PLACE_CUE.search(before[-24:]):
        return "place", 1.0
    first = name.split()[0].lower()
    given = _GIVEN.search(before[-48:])  # "a pilates studio called Core Haus": the noun says what it is
    if given and given.group(1).lower() not in PERSON_NOUNS and not possessive and fold(first) not in FIRST_NAMES:
        return ("place", 1.0) if given.group(1).lower() in _VENUES else ("thing", 1.0)
    if _listed(first) or possessive:
        return "person", 1.0
    if _PERSON_CUE_BEFORE.search(before[-20:]) or _PERSON_CUE_AFTER.match(after):
        return "person", 0.8
    previous = before.rstrip(" ,").rsplit(None, 1)[-1].lower() if before.strip() else ""
    if previous in PERSON_NOUNS:  # "my sister Ines", "our dentist Ferreira"
        return "person", 0.9
    paired = _AND_NAME_BEFORE.search(before[-24:]) or _AND_NAME_AFTER.match(after)
    if paired and (
        paired.group(1).lower() in FIRST_NAMES or cached_re.match(r"^\s+(?:are|were|[a-z]{3,}ed)\b", after)
    ):  # "Henry and Paula": both people
        return "person", 0.8
    if paired and cached_re.match(r"^\s+[a-z]{3,}\b", after) and after.split()[0] not in STOPWORDS:
        return "agent", 0.8  # "Ingrid and Lars run ...": people or organisations
    sentence_start = not before.strip() or before.rstrip()[-1:] in ".!?:\n"
    if sentence_start and _looks_like_subject_name(name, after):
        # "Priyanka approved", "Stripe changed": a person or an organisation; a listed name was caught above
        return ("agent", 0.9) if cached_re.match(r"^\s+[a-z]{3,}ed\b", after) else ("person", 0.7)
    if _AGENT_CUE_AFTER.match(after) and not name.lower().endswith(("ing", "ly")):
        return "agent", 0.8  # "Marta is reviewing it", "Stripe changed ...": who or what, the pronoun decides
    # a capitalised word opening a sentence is usually just a word ("Thinking", "About twenty"):
    # it counts only when it is mentioned again (see _note) or has an identifier's shape
    return "thing", 0.0 if sentence_start else 1.5


def _looks_like_subject_name(name: str, after: str) -> bool:
    """ "Priyanka approved", "Gwen and Oskar", "Marcus Chen owns": a sentence opened by a name."""
    if name.lower().endswith(("ing", "ly", "ed", "s")) and " " not in name:
        return False
    if " " in name and cached_re.match(r"^\s+[a-z]+s\b", after):  # a full name then a verb
        return True
    verb_and_object = cached_re.match(r"^\s+[a-z]{3,}\s+(?:me|us|him|her|them|the|a|an|my|his|our|their)\b", after)
    if verb_and_object and after.split()[0] not in STOPWORDS:
        return True  # "Chidi lent me his drill": a verb and its object
    return bool(_SUBJECT_CUE_AFTER.match(after))  # "Rania and her sister", "Gwen and Oskar"


#: Function words that open titles: "The Remains of the Day", "Do Not Call", "To Kill a Mockingbird".
_TITLE_OPENERS = frozenset("the a an do to how what when where why not no all one".split())


def title_opener(lead: str, name: str, before: str) -> bool:
    """A function word written capitalised inside a sentence belongs to the title it opens; at a
    sentence's start ("The Smiths are coming", "Do Mia and Jon know") it is only the opener."""
    if lead not in _TITLE_OPENERS or (len(name.split()) < 3 and lead not in ("the", "do", "to")):
        return False
    return bool(cached_re.search(r"[a-z,]\s+$", before[-3:]))
