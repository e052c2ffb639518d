"""Creative works by their title: "that film" after "we watched Schindler's List", "that book"
after "I just finished The Midnight Library".

A demonstrative with the noun of a kind of work ("film", "book", "album") means the work the chat
named, and its title is a capitalised name. The same noun in a reply's verdict ("A powerful film.")
only describes that work, so a mention of the noun wins only when it names the work itself
("the new Nolan film", "the 2019 album").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.names import proper_name

#: Nouns for a kind of creative work.
WORK_NOUNS = frozenset(
    """film movie book novel show series album song play musical podcast documentary episode record memoir
    biography""".split()
)


def names_work(mention: str) -> bool:
    """A mention of the work's noun that says which work: a capital or a number among its words."""
    return any(word[:1].isupper() or any(ch.isdigit() for ch in word) for word in mention.split()[1:])


def titled_work(context: Sequence[Mapping[str, str]]) -> str | None:
    """The most salient capitalised thing of the chat that no one reads as a person, or None."""
    candidates = extract(context)
    people = {c.text.lower() for c in candidates if c.kind == "person"}
    titles = [c for c in candidates if c.kind == "thing" and proper_name(c.text) and c.text.lower() not in people]
    if not titles:
        return None
    return max(titles, key=lambda c: (c.salience, -c.last_seen)).text
