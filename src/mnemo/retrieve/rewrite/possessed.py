"""Things known by their owner: "Julien's band", "my grandfather's watch", "her brother's tent".

The phrase rules read "my grandfather's watch" as the owner alone, a person; these rules add the
thing owned. "Pedro's coming" is "Pedro is coming" and owns nothing.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.bare import looks_plural, past_participle, trim
from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.namekind import LOWER_LETTER, WORD
from mnemo.retrieve.rewrite.names import (
    COMMON_VERBS,
    FEMALE_NOUNS,
    IRREGULAR_PAST,
    MALE_NOUNS,
    NOT_NAMES,
    PERSON_NOUNS,
    PHRASE_BREAKERS,
)
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: A second noun after the owned one, as a compound's head: "tomato *sauce*", "pull *request*".
_COMPOUND_HEAD = re.compile(r"\s+([a-z]{3,})\b(?!['’])")


def _noun_like(word: str) -> bool:
    """A word that can head a compound: no function word, verb form or adverb ("Tom's car keeps",
    "Dad's phone died", "Ana's dog barks" stop at the first noun)."""
    low = word.lower()
    return not (
        low in STOPWORDS
        or low in PHRASE_BREAKERS
        or low in COMMON_VERBS
        or low in IRREGULAR_PAST
        or past_participle(low)
        or low.endswith(("ly", "ing"))
        or (low.endswith("s") and not low.endswith("ss"))
    )


def possessed(text: str) -> list[tuple[int, Candidate]]:
    """ "Julien's band", "Gabriel's pull request": a thing or person known by its owner."""
    found: list[tuple[int, Candidate]] = []
    for match in _POSSESSED.finditer(text):
        noun = match.group(2).lower()
        owner = match.group(1)
        start = match.start()
        if " " in owner and owner.split()[0].lower() in NOT_NAMES | STOPWORDS:  # "Tell Omar's": Omar's
            owner, start = owner.split()[1], match.start(1) + len(owner.split()[0]) + 1
        named_after = cached_re.match(rf"\s+{WORD}", text[match.end() :])  # "Ahmed's daughter Noor": Noor stands for it
        if (
            not named_after
            and owner.lower() not in NOT_NAMES
            and noun not in STOPWORDS
            and noun not in PHRASE_BREAKERS
            and not past_participle(noun)
            and noun not in _PROGRESSIVE  # "Pedro's coming too": "Pedro is coming", no possession
        ):
            role = cached_re.match(r"\s+([a-z]+)\b", text[match.end() :])  # "Northgate's account manager": a role
            if role and role.group(1) in PERSON_NOUNS:
                noun = role.group(1)
            kind = "person" if noun in PERSON_NOUNS else "thing"
            gender = "f" if noun in FEMALE_NOUNS else "m" if noun in MALE_NOUNS else None
            phrase = f"{owner}'s {match.group(2)}" + (f" {noun}" if role and noun == role.group(1) else "")
            compound = _COMPOUND_HEAD.match(text, match.end()) if kind == "thing" else None
            if compound and _noun_like(compound.group(1)):
                phrase = f"{phrase} {compound.group(1)}"  # "Marcella Hazan's tomato sauce": a compound's head
                noun = compound.group(1).lower()
            found.append((start, Candidate(phrase, kind, gender=gender, plural=looks_plural(noun))))
    # "grandma's 90th", "Tom's 40th": a birthday by its owner and its number, the occasion itself
    for birthday in _NUMBERED_BIRTHDAY.finditer(text):
        if birthday.group(1).lower() not in STOPWORDS | NOT_NAMES:  # "it's 30th in the table": "it is"
            found.append((birthday.start(), Candidate(birthday.group(0), "thing")))
    return found


#: Verbs whose "-ing" form follows a name's "'s" as "is" ("Pedro's coming", "Jonah's thinking").
_PROGRESSIVE = frozenset(
    """coming going doing bringing making leaving working thinking looking trying getting taking having running
    playing staying moving flying driving hosting cooking sending joining helping starting finishing waiting
    planning visiting arriving travelling traveling""".split()
)
#: ... or an officer written in capitals: "Acme's CTO".
#: The owner may have a family name too: "Omar Farouk's episode".
_POSSESSED = re.compile(rf"(?<!\w)((?:{WORD}\s+)?{WORD})'s\s+({LOWER_LETTER}{{3,}}|CTO|CEO|CFO|COO|CIO|CISO|CMO|VP)\b")
_NUMBERED_BIRTHDAY = re.compile(r"(?<![\w'])([A-Za-z][\w-]*)'s\s+\d{1,3}(?:st|nd|rd|th)(?!\w)")
_PERSON_OWNED = re.compile(
    r"\b(my|your|his|her|our|their|the)\s+((?:[a-z][\w-]*\s+)?[a-z][\w-]*)'s\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)",
    re.IGNORECASE,
)


def person_owned(text: str) -> list[tuple[int, Candidate]]:
    """ "my grandfather's watch", "her brother's tent": a thing known by a person noun's owner,
    which the phrase rules read as the owner alone."""
    found: list[tuple[int, Candidate]] = []
    for match in _PERSON_OWNED.finditer(text):
        owner = match.group(2).split()[-1].lower()
        thing = trim(match.group(3))
        if owner not in PERSON_NOUNS or not thing or thing.split()[0].lower() in PERSON_NOUNS:
            continue
        head = thing.split()[-1].lower()
        phrase = f"{match.group(1).lower()} {match.group(2)}'s {thing}"
        found.append((match.start(), Candidate(phrase, "thing", plural=looks_plural(head))))
    return found


#: A child by age: "my 4 year old", "our 3-year-old", "my 10yo", "her six-month-old".
_AGED_CHILD = re.compile(
    r"\b(my|our|his|her|their|your)\s+((?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|thirteen|fourteen|fifteen|sixteen)(?:[- ]?(?:year|month|week)s?[- ]old|\s?yo|\s?y/o))\b",
    re.IGNORECASE,
)


def aged_children(text: str) -> list[tuple[int, Candidate]]:
    """ "my 4 year old refuses to eat anything green": a child named by age is a person, not the
    phrase "year old refuses" that the noun-phrase rules would read."""
    return [
        (m.start(), Candidate(f"{m.group(1).lower()} {m.group(2)}", "person", salience=1.2))
        for m in _AGED_CHILD.finditer(text)
    ]


#: Kin words a family uses as names: "grandad's 90th", "mum is coming friday". (With "my" before
#: them they are phrases the noun-phrase rules read.)
_KIN_NAMES = {
    **dict.fromkeys("grandad granddad grandpa dad daddy papa grandfather".split(), "m"),
    **dict.fromkeys("grandma granny gran nan nana nanna mum mom mummy mommy mama grandmother auntie".split(), "f"),
}
_KIN = re.compile(rf"(?<![\w-])({'|'.join(_KIN_NAMES)})(?='s\b|\b)", re.IGNORECASE)
_OWNERS = frozenset("my our your his her their the a an".split())


def kin_names(text: str) -> list[tuple[int, Candidate]]:
    """ "grandad's 90th is in june": a kin word without an owner is used as a name, a person."""
    found = []
    for match in _KIN.finditer(text):
        before = text[: match.start()].split()[-1:]
        if before and before[0].lower() in _OWNERS:
            continue
        if cached_re.match(r"\s+[A-Z][a-z]", text[match.end() :]):
            continue  # "Grandma Rosa", "Auntie Grace": a title before the name, which names her
        word = match.group(1)
        found.append(
            (
                match.start(),
                Candidate(
                    word[0].upper() + word[1:].lower(),
                    "person",
                    salience=0.6,
                    gender=_KIN_NAMES[word.lower()],
                    hint="kin",
                ),
            )
        )
    return found
