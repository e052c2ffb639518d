"""A candidate referent: a person, place, thing or time the conversation mentioned, with its salience."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Candidate:
    text: str
    kind: str  # person, place, thing
    salience: float = 1.0
    gender: str | None = None  # "m", "f" or None
    plural: bool = False
    last_seen: int = 0  # messages back from the latest (0 = the latest message)
    mentions: int = 0
    #: A guess at the gender from the shape of an unlisted name ("Lucía", "Lorenzo"): a tie-breaker only.
    hint: str | None = None
    #: Position among the mentions of the message it was last seen in ("Gwen and Oskar": 0, 1).
    order: int = 0
    #: A person only because the conversation calls the name "he"/"she" (often a pet): still a topic.
    pronominal: bool = False
    #: A participant of the chat (a speaker label or a named role): the query's "I" or "you".
    speaker: bool = False

    @property
    def head(self) -> str:
        return self.text.split()[-1].lower()
