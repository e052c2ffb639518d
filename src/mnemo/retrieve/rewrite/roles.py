"""Named roles: "the plumber" -> "the plumber Gareth" when the conversation gave the role a name."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.implicit import is_role
from mnemo.retrieve.rewrite.namekind import CALENDAR_WORD
from mnemo.retrieve.rewrite.names import PETS, is_pet
from mnemo.retrieve.rewrite.resolution import Resolution

from . import cached_re

_NAME = r"((?:Dr\.?\s+|Mrs?\.?\s+|Ms\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"


def latest_name(patterns: Sequence[str], context: Sequence[Mapping[str, str]]) -> str | None:
    """The name the first of ``patterns`` to match in the latest message captures (group 1), or
    None; a captured determiner ("the", "my") is no name."""
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        for pattern in patterns:
            for found in cached_re.finditer(pattern, text):
                name = found.group(1)
                # "on Thursday, the teacher in charge is ...": a day or a month is no one's name
                # "Booked the dentist": a capitalised verb opening a sentence is no name either
                verb = name.endswith("ed") and " " not in name
                if (
                    name.split()[0].lower() not in ("the", "my", "our", "a")
                    and not CALENDAR_WORD.fullmatch(name)
                    and not verb
                ):
                    return name
    return None


def named_role(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The name the conversation gave a role: "Gareth the plumber", "my physio Nadia", "Dr Mbeki"
    for "the doctor", "Pepper" for "the dog" after "a rescue greyhound called Pepper"; the latest
    one wins. None when the role was never named."""
    role = PETS.get(noun.lower()) or re.escape(noun.lower())
    patterns = [
        rf"\b(?i:{role})\s+(?:called|named)\s+{_NAME}",
        rf"{_NAME},?\s+(?:the|my|our|a|an)\s+(?:[a-z]+\s+)?(?i:{role})\b",
        rf"\b(?i:{role}),?\s+{_NAME}",
        # "the teacher in charge is Ms. Adeyemi": a role with its complement, then the copula
        rf"\b(?i:{role})\s+(?:(?:in|on|at|for|of)\s+[a-z]+\s+)(?:is|was)\s+((?:Dr|Mrs?|Ms|Prof)\.?\s+[A-Z][\w'-]+)",
    ]
    if noun.lower() in ("doctor", "dentist", "gp", "vet", "surgeon", "dermatologist"):
        patterns.append(r"\b((?:Dr|Doctor)\.?\s+[A-Z][\w'-]+)")
    return latest_name(patterns, context)


def stated_role(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The name a sentence states for a role: "the letting agent is Sophie", "Sophie is our
    agent"; the latest one wins. Stricter than named_role: no apposition, which a comma fakes
    ("the agent, Brennan never answers")."""
    role = re.escape(noun.lower())
    patterns = [
        rf"\b(?i:{role})\s+(?:is|was)\s+{_NAME}",
        rf"{_NAME}\s+(?:is|was)\s+(?:the|my|our|their)\s+(?:[a-z]+\s+)?(?i:{role})\b",
        # "our new babysitter is a uni student called Maja"
        rf"\b(?i:{role})\s+(?:is|was)\s+(?:a|an|the)\s+(?:(?!and\b|but\b|is\b|was\b|her\b|his\b)[a-z]+\s+){{0,4}}"
        rf"(?:called|named)\s+{_NAME}",
    ]
    return latest_name(patterns, context)


_ROLE_PHRASE = re.compile(r"\bthe\s+([a-z]+)\b")


def name_roles(query: str, context: Sequence[Mapping[str, str]]) -> tuple[str, list[Resolution]]:
    """ "the doctor" -> "the doctor Dr Okonkwo" when the conversation named that role."""
    for match in _ROLE_PHRASE.finditer(query):
        noun = match.group(1)
        if not is_role(noun) and not is_pet(noun):
            continue
        name = named_role(noun, context)
        if name and name.lower() not in query.lower():
            replacement = f"{match.group(0)} {name}"
            rewritten = query[: match.start()] + replacement + query[match.end() :]
            return rewritten, [Resolution(match.group(0), replacement, "implicit", 0.8)]
    return query, []
