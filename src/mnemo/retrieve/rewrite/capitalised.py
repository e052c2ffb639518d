"""Capitalised names of a message as people, places or things: "Aunt Rosa", "Dr. Nguyen", "the
Canon R6 Mark II", "Hartmann GmbH", "JD Sports". Split from candidates.py, which gathers these with
the message's noun phrases, identifiers and other mentions.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.gender import TITLES, gender_hint, gender_of, noun_gender
from mnemo.retrieve.rewrite.namekind import CALENDAR_WORD, SHORT_DAYS, WORD, name_kind, title_opener
from mnemo.retrieve.rewrite.names import (
    FEMALE_NOUNS,
    FIRST_NAMES,
    KIN_ABROAD,
    MALE_NOUNS,
    NOT_NAMES,
    PERSON_NOUNS,
    fold,
)
from mnemo.retrieve.rewrite.noun_phrases import PLURAL_VERB
from mnemo.store.sql import STOPWORDS

#: A name: up to three capitalised words in the letters of the Latin scripts ("Siobhán", "Björn",
#: "Nguyễn"), each perhaps with a lower-case hyphenated part ("Hyun-woo"); titles and institutions
#: join their words with "of (the)": "The Remains of the Day", "Bank of Ireland"; names of other
#: languages with their particles: "Tasca do Chico", "Rio de Janeiro", "Ludwig van Beethoven".
_JOINER = r"\s+(?:of\s+(?:the\s+)?|&\s+|(?:d[aeiou]s?|del|della|van|von|de\s+la|van\s+der|van\s+den)\s+)"
_NAME = re.compile(
    # an acronym may open a firm's name: "JD Sports", "BT Sport", "HSBC Bank"
    rf"(?<![\w])((?:(?-i:[A-Z]{{2,4}})\s(?={WORD}))?{WORD}(?:-[a-z]+)?(?:(?:[- ]|{_JOINER}){WORD}(?:-[a-z]+)?){{0,3}}"
    # a model number keeps its product: "Raspberry Pi 5", "Pixel 8a", "Galaxy S24" (not "March 2023")
    rf"(?:(?<=[a-z])\s\d{{1,3}}[a-z]?(?![\w:,/-])(?!\.\d))?"
    # a firm's legal form is part of its name: "Hartmann GmbH", "Nordwind AG", "Acme Inc"
    r"(?:\s(?:GmbH|AG|KG|LLC|LLP|PLC|plc|Inc|SA|BV|NV|AB|Oy|SpA|SRL|Pty)(?![\w-]))?)('s)?(?![\w-])"
)
_NUMBERED = re.compile(r"\s\d{1,3}[a-z]?$")


_NP_BEFORE_PLACE = re.compile(
    r"\b(?:the|a|an|my|our|your|their)\s+(?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*\s+(?:in|at|near|to|from)\s+$"
)


_TITLE_BEFORE = re.compile(r"\b(Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+$")


#: What follows a name that is the whole answer: a comma, a dash, a bracket or the message's end.
_FRAGMENT_END = re.compile(r"\s*(?:[,;(\u2014-]|$)")
#: ... or a judgement of the one named: "Who should I captain?" - "Haaland looks best, ...".
_JUDGED_ANSWER = re.compile(
    r"\s+(?:looks|seems|is|would\s+be|'s|has\s+been)\s+(?:the\s+)?"
    r"(?:best|better|safest|strongest|good|great|ideal|your)\b"
)


#: An office a department names: "the VP of Sales", "our Head of Marketing", "Director of Engineering".
_OFFICE_OF = re.compile(
    r"\b(?:VP|SVP|EVP|Vice\s+President|[Hh]ead|Director|Chief|[Mm]anager|[Ll]ead|Dean|Minister|Secretary)\s+of\s+$"
)


#: What follows a verb, not a name, at a sentence's start: a determiner, a pronoun or a gerund.
_IMPERATIVE = re.compile(
    r"\s+(?:the|a|an|your|my|our|their|his|her|its|it|them|this|that|these|those|some|any|each|every|[a-z]+ing)\b"
)
_SEASONS = frozenset("spring summer autumn winter".split())
#: Days as a rota writes them ("Mon–Wed", "Tue and Thu"): times, no names. "Sun" is one only in a
#: range ("Thu–Sun"); elsewhere it is the sun or a title ("Klara and the Sun").
_DAYS_SHORT = frozenset(day.lower() for day in SHORT_DAYS)
_SUN_IN_RANGE = re.compile(r"[–/-]\s*$|^\s*[–/-]")

_LEGAL_FORM = re.compile(
    r"\s(?:GmbH|AG|KG|LLC|LLP|PLC|plc|Inc|Ltd|Limited|Corp|Corporation|SA|BV|NV|AB|Oy|SpA|SRL|Pty)$"
)


def named(
    text: str,
    inside: set[str],
    written: frozenset[str] = frozenset(),
    answer: str = "",
    common: frozenset[str] = frozenset(),
) -> tuple[list[tuple[int, Candidate]], set[str]]:
    """The capitalised names of a message as people, places or things, and every name seen."""
    found: list[tuple[int, Candidate]] = []
    names: set[str] = set()
    for match in _NAME.finditer(text):
        name, start = match.group(1), match.start()
        if _NUMBERED.search(name) and (
            CALENDAR_WORD.fullmatch(name.split()[-2]) or fold(name.split()[-2]) in FIRST_NAMES
        ):
            name = name.rsplit(" ", 1)[0]  # "May 12": a date; "Leo 7": an age; no model number
        title = TITLES.get(name.split()[0].lower()) if " " in name else None
        lead = name.split()[0].lower()
        kin = _KIN_BEFORE.search(text[max(0, start - 18) : start])
        if " " in name and lead in KIN_TITLES:
            found.append((start, Candidate(name, "person", gender=_kin_gender(lead))))  # "Aunt Rosa" is how
            names.add(name.lower())  # the family names her, and "Grandma June" is no month
            continue
        whole_title = " " in name and title_opener(lead, name, text[:start])
        if whole_title:
            pass  # "finished The Remains of the Day", "the Do Not Call registry": the title's own word
        elif " " in name and (lead in NOT_NAMES or title is not None or lead in PERSON_NOUNS - KIN_ABROAD):
            name, start = name.split(" ", 1)[1], start + len(name.split(" ", 1)[0]) + 1
        elif kin and " " not in name:  # "put aunt Rosa at table 4": the kin word written lower-case
            found.append(
                (
                    start - len(kin.group(0)),
                    Candidate(f"{kin.group(1)} {name}", "person", gender=_kin_gender(kin.group(1))),
                )
            )
            names.add(f"{kin.group(1)} {name}".lower())
            continue
        first = name.split()[0].lower()
        function_word = first in NOT_NAMES or first in TITLES or name.lower() in STOPWORDS
        if not whole_title and (function_word or name.lower() in _SEASONS):
            continue  # "Spring (late March) for cherry blossoms": a season opening a sentence is a time
        if name.lower() in _DAYS_SHORT or (
            name == "Sun" and (_SUN_IN_RANGE.search(text[:start]) or _SUN_IN_RANGE.match(text[match.end() :]))
        ):
            continue  # "Shreya has Mon–Wed, Tom has Thu–Sun": days, no things
        before, after = text[:start], text[match.end() :]
        if _OFFICE_OF.search(before[-24:]):
            continue  # "the VP of Sales, Ricardo": the department names the office, no referent of its own
        titled = _TITLE_BEFORE.search(before[-8:])
        if titled:  # "Dr. Nguyen", "Mr Lindqvist": a person, and the title may say the gender
            title = TITLES[titled.group(1).lower()]
            name = f"{titled.group(1)} {name}"
            found.append((start, Candidate(name, "person", gender=title or None)))
            names.add(name.lower())
            continue
        opener = not before.strip() or before.rstrip()[-1:] in ".!?:\n"
        if opener and _imperative_opener(name, after):
            continue  # "Worth asking the teacher ...", "Send the report ...": a verb opening a sentence
        kind, weight = _kind_of(name, before, after, bool(match.group(2)))
        if _LEGAL_FORM.search(name):
            kind, weight = "thing", max(weight, 1.5)  # "Hartmann GmbH": a firm, whatever cue reads a person
        names.add(name.lower())
        if opener and weight < 1.5 and kind in ("thing", "agent") and name.lower() in written:
            weight = 1.5  # "Redis is now used ...": a sentence opener the conversation writes as a name
        elif opener and kind == "agent" and name.lower() in common:
            kind = "thing"  # "Cranberry can increase ..." after "cranberry juice": a common noun, no one
        if (
            answer == "who"
            and start == 0
            and kind in ("thing", "agent")
            and (_FRAGMENT_END.match(after) or _JUDGED_ANSWER.match(after))
        ):
            kind, weight = "person", max(weight, 1.0)  # "Who's the contact?" - "Katrin Vogel, ...": a person
        if weight == 0.0 and answer and start == 0 and kind == "thing":
            weight = 1.5  # "what did the doctor prescribe?" - "Sertraline, 50mg ...": the answer's first word
        if weight == 0.0 or (kind == "thing" and name.lower() in inside):
            continue  # "the Berlin marathon" stands for Berlin here
        if kind == "agent":  # both readings, the person a little less likely than the thing
            found.append((start, Candidate(name, "person", salience=0.6 * weight, hint=gender_hint(name))))
            found.append((start, Candidate(name, "thing", salience=weight)))
            continue
        gender = gender_of(name) or noun_gender(before) if kind == "person" else None
        hint = gender_hint(name) if kind == "person" and gender is None else None
        # "the ryokan in Kyoto", "the billing service to Kubernetes": a name in a phrase attached
        # to a noun phrase says where that thing is or goes; the noun phrase is what is talked about
        attached = kind != "person" and " & " not in name and bool(_NP_BEFORE_PLACE.search(before[-40:]))
        agreeing = kind == "thing" and bool(PLURAL_VERB.match(after))  # "The Pegasus are half a size too small"
        found.append(
            (
                start,
                Candidate(
                    name, kind, salience=weight * (0.5 if attached else 1.0), gender=gender, hint=hint, plural=agreeing
                ),
            )
        )
        if kind == "place":  # "in Rust", "to Redis": places and things share the cue words
            found.append((start, Candidate(name, "thing", salience=0.5 if attached else 1.2)))
    return found, names


#: Kin words a family puts before a name: "Aunt Rosa", "grandma rose", "Uncle Dev".
KIN_TITLES = frozenset("aunt auntie uncle grandma grandpa granny grandad granddad nana nan gran cousin".split())
#: ...but "my aunt Fatima" is the role and the name, which the role-noun pass reads already.
_KIN_BEFORE = re.compile(
    r"(?<!\bmy )(?<!\bour )(?<!\bhis )(?<!\bher )(?<!\byour )(?<!\btheir )"
    r"\b(aunt|auntie|uncle|grandma|grandpa|granny|grandad|granddad|nana|nan|gran|cousin)\s+$"
)


def _kin_gender(kin: str) -> str | None:
    low = kin.lower()
    return "f" if low in FEMALE_NOUNS else "m" if low in MALE_NOUNS else None


def _imperative_opener(name: str, after: str) -> bool:
    """A single capitalised word opening a sentence that goes straight on to a determiner, a pronoun
    or a gerund is a verb or an adverb ("Tell the dentist", "Send it over", "Worth asking"), unless it
    is a listed first name ("Anna the ...")."""
    return " " not in name and fold(name.lower()) not in FIRST_NAMES and bool(_IMPERATIVE.match(after))


def _kind_of(name: str, before: str, after: str, possessive: bool) -> tuple[str, float]:
    """name_kind, except that an ampersand joins a firm or its product, never a place ("Farrow & Ball")."""
    kind, weight = name_kind(name, before, after, possessive)
    return ("thing" if " & " in name and kind == "place" else kind), weight
