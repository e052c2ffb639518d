"""Coreference-lite: a mention stack for the current turn plus a buffer of recent turns' entities.

he/she → the last person mentioned (other than the speaker); they → the last group, else the
last person; it/this/that → the last thing (a place, an organisation, something owned). The
current turn's stack is searched first, then the last few entities of earlier turns. No model,
O(1) per lookup: stacks are short lists.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

PERSON, GROUP, THING = "person", "group", "thing"
#: Earlier turns' entities kept for pronouns whose antecedent is not in the turn itself.
BUFFER_SIZE = 10
#: How far back into the buffer a pronoun may reach (the seed's "last 3 named entities").
BUFFER_REACH = 3


@dataclass(slots=True)
class Mentions:
    """The entities of one conversation, most recent last; ``turn`` holds the current turn's."""

    recent: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=BUFFER_SIZE))
    turn: list[tuple[str, str]] = field(default_factory=list)

    def add(self, name: str, kind: str) -> None:
        if name and name != "you":
            self.turn.append((name, kind))

    def resolve(self, pronoun_kind: str) -> str | None:
        wanted = {"he": (PERSON,), "she": (PERSON,), "they": (GROUP, PERSON), "it": (THING,)}[pronoun_kind]
        for kind in wanted:
            for name, found in reversed(self.turn):
                if found == kind:
                    return name
            for name, found in list(reversed(self.recent))[:BUFFER_REACH]:
                if found == kind:
                    return name
        return None

    def end_turn(self) -> None:
        for mention in self.turn:
            if mention in self.recent:
                self.recent.remove(mention)
            self.recent.append(mention)
        self.turn = []
