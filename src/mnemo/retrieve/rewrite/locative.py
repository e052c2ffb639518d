""" "There" with no named place: the latest locative phrase of the conversation.

"I quit my job at the bank" - "how long had I worked there?": "there" is a place adverb, so it
takes the object of the latest locative preposition ("at the bank", "in the garden") when the
conversation names no place. A time noun after the preposition ("in the morning") is no place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.lexicon import geographic
from mnemo.retrieve.rewrite.names import PLACE_NOUNS
from mnemo.retrieve.rewrite.timeref import TIME_NOUN

from . import cached_re

_LOCATIVE = re.compile(
    rf"\b(?:at|in|inside|outside)\s+((?:the|my|our|his|her|their|your)\s+(?!{TIME_NOUN}\b)[a-z][\w-]*"
    r"(?:\s+(?!and\b|but\b|or\b|for\b|to\b|with\b|on\b|in\b|at\b)[a-z][\w-]*)?)\b",
    re.IGNORECASE,
)


def locative(context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    """The latest "at/in the X" of the conversation, as a place for "there", or None."""
    for message in reversed(list(context)):
        found = list(_LOCATIVE.finditer(str(message.get("content") or "")))
        if found:
            return found[-1].group(1), 0.6
    return None


def located_in(name: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the embassy in London" for "there" when the chat named London only to locate a place of a
    kind ("at the embassy in london"): the place itself, with its town; or None."""
    text = "\n".join(str(m.get("content") or "") for m in context)
    inside = cached_re.search(rf"\b(the\s+([a-z]+))\s+in\s+{re.escape(name)}\b", text, re.IGNORECASE)
    return f"{inside.group(1)} in {name}" if inside and inside.group(2).lower() in PLACE_NOUNS else None


#: Verbs of staying somewhere, whose "there" is a town or a country rather than a venue.
_SOJOURN = re.compile(r"\b(?:stay|staying|live|living|rent|renting|settle|base\s+ourselves|holiday)\s+$", re.IGNORECASE)


def _home(place: str, said: str) -> bool:
    """Whether the chat gives ``place`` as where the speakers live: "we live in Tucson"."""
    return bool(
        cached_re.search(
            rf"\b(?:i|we)\s+(?:live|lived|'m\s+based|am\s+based|are\s+based|'re\s+based)\s+in\s+{re.escape(place)}\b",
            said,
            re.IGNORECASE,
        )
    )


def fitting_places(places: list[Candidate], before: str, said: str) -> list[Candidate]:
    """The places "there" can be: never where the speakers live ("we live in Tucson"), and a town
    or a country after a verb of staying ("a good area to stay there": Stockholm, not Spotify);
    all of them when the rule would leave none."""
    places = [c for c in places if not _home(c.text, said)] or places
    if _SOJOURN.search(before):
        places = [c for c in places if geographic(c.text)] or places
    return places
