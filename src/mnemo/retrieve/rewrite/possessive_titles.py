"""Titles and names built on a possessive: "Schindler's List", "Captain Corelli's Mandolin", "The
Hitchhiker's Guide to the Galaxy", "Grey's Anatomy", "Tom's Diner".

The name reader stops at the apostrophe, so such a title used to leave only its last word ("List")
as a thing and its owner ("Schindler") as a person; "how long is that film" then found neither. A
capitalised word after a capitalised possessive is read as one name here. The owner's own
candidate is kept (the name reader still makes it): "Chen's PR" and "Maria's Spanish class" are
no titles, which is why an acronym after the possessive, or one capital word followed by a common
noun (which it modifies), ends the reading.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.store.sql import STOPWORDS

#: Owner (one or two capitalised words, perhaps after "The"), "'s", then the title's own words,
#: which may go on with "of/to/in/on/and (the)" and further capitalised words.
_TITLE = re.compile(
    r"(?<![\w'])((?:The\s+)?(?:[A-Z][a-z]+\s+)?[A-Z][a-z]+)['’]s\s+"
    r"((?-i:[A-Z][a-z][\w-]*)(?:\s+(?:(?:of|to|in|on|and|from)\s+(?:the\s+)?)?(?-i:[A-Z][a-z][\w-]*)){0,3})"
    r"(?![\w'’-])"
)
#: A lower-case word after a one-word "title" that shows it modified a common noun: "Maria's
#: Spanish class", "Aisha's Python script" (times and function words do not: "Schindler's List
#: last night").
_NEXT_WORD = re.compile(r"\s+([a-z]{3,})\b")
_NOT_NOUNS = frozenset("yesterday today tonight tomorrow last next this again twice recently lately finally".split())
#: Capitalised words that are no title's part: the first person, days, months.
_NOT_TITLE_WORDS = frozenset(
    """I Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July
    August September October November December Mum Mom Dad""".split()
)

#: A preposition of place before the name: "Dishoom in King's Cross", "near Land's End" is a place.
_LOCATIVE = re.compile(r"\b(?:in|at|near|to|around|off)\s+$")


def possessive_titles(text: str) -> list[tuple[int, Candidate]]:
    """(offset, candidate) for each possessive name of the text: a thing, or a place when a
    preposition of place comes before it ("in King's Cross")."""
    found: list[tuple[int, Candidate]] = []
    for match in _TITLE.finditer(text):
        owner, rest = match.group(1), match.group(2)
        first = rest.split()[0]
        if first in _NOT_TITLE_WORDS or owner.split()[-1] in _NOT_TITLE_WORDS or owner == "It":
            continue
        after = _NEXT_WORD.match(text, match.end())
        if " " not in rest and after and after.group(1) not in STOPWORDS and after.group(1) not in _NOT_NOUNS:
            continue  # "Maria's Spanish class": the owner's class; the capital word only modifies it
        name = f"{owner}'s {rest}"
        if _LOCATIVE.search(text[max(0, match.start() - 8) : match.start()]):
            found.append((match.start(), Candidate(name, "place", salience=1.0)))  # "in King's Cross"
            continue
        found.append((match.start(), Candidate(name, "thing", salience=2.2)))
    return found


def title_tails(titles: list[tuple[int, Candidate]]) -> set[str]:
    """The words after each title's apostrophe, lower-case: read alone ("List") they are no referent."""
    return {word.lower() for _, c in titles for word in c.text.split("'s ", 1)[1].split()}
