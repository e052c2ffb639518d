"""The new and the old of a change the conversation told: "the new name" after "rename the package
from mnemo-core to mnemo-engine", "the new place" after "we move into the flat on Kastanienallee",
"the new blood pressure one" after "switched me from amlodipine to ramipril".

A change names what was and what is: "from X to Y", "renamed to Y", "moved into Y". "the new/
latest/current <noun>" is Y and "the old/previous/original <noun>" is X. Only nouns that a change
replaces are read ("name", "place", "version", "one", ...), so "the new pricing" of a launch is
left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

#: "the new name", "the old place", "the new blood pressure one".
CHANGED = re.compile(
    r"\b(?:the|my|our|your)\s+(new|latest|current|old|previous|original|former)\s+"
    r"((?:[a-z]+\s+){0,2}?(?:name|names|place|flat|house|home|address|version|one|value|setting|number|provider"
    r"|tariff|plan|dose|tag|branch|url|endpoint|host|server|path|id))\b",
    re.IGNORECASE,
)
_VERBS = (
    r"(?:renam|mov|switch|chang|migrat|upgrad|bump|replac|swapp?|updat|mov|transferr?|convert|port)"
    r"(?:e|es|ed|ing)?"
)
_THING = (
    r"((?:the\s+|a\s+|an\s+)?[\w./:@%+#-]+"
    r"(?:\s+(?!(?:in|on|at|for|and|but|last|this|next|is|was|are|were|yesterday|today|tonight|ago|earlier|now)\b)"
    r"[\w./:@%+#-]+){0,3}?)"
)
#: Where the changed thing ends: punctuation, or a word that starts a time or another clause.
_STOP_WORDS = "in|on|at|last|this|next|and|but|because|so|yesterday|today|tonight|ago|earlier|now"
_END = rf"(?=\s*(?:[,;!?]|\.\B|$|\s(?:{_STOP_WORDS})\b))"
_FROM_TO = re.compile(
    rf"\b{_VERBS}\b(?:[^.;!?]|\.\b){{0,60}}?\bfrom\s+{_THING}\s+(?:to|into|for|with)\s+{_THING}" + _END,
    re.IGNORECASE,
)
#: "moved into the flat on Kastanienallee": a named place says which flat.
_WHERE = r"((?:\s+(?:on|in|at)\s+(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)?)"
_TO = re.compile(rf"\b{_VERBS}\b\s+(?:(?:it|them|us|me|him|her)\s+)?(?:in)?to\s+{_THING}{_WHERE}{_END}", re.IGNORECASE)


#: The changes that make a new one of each noun: a name by renaming, a place by moving.
_CHANGE_OF = {
    "name": "renam",
    "place": "mov",
    "flat": "mov",
    "house": "mov",
    "home": "mov",
    "address": "mov",
    "version": "(?:bump|upgrad|updat|migrat)",
}
_OWN_COMPLEMENT = re.compile(r"^\s+(?:of|for)\s", re.IGNORECASE)


#: Heads a modifier makes another thing: "my old phone number" is not the provider that changed.
_SPECIFIC = frozenset("name names number address id url path host server endpoint tag branch".split())


def changed_spans(query: str) -> list[tuple[int, int, str]]:
    """(start, end, "new"/"old") for each "the new <noun>" / "the old <noun>" of the query that does
    not say whose it is itself ("the new version of python" is Python's, "my old phone number" a
    phone's)."""
    out = []
    for m in CHANGED.finditer(query):
        words = m.group(2).lower().split()
        if _OWN_COMPLEMENT.match(query[m.end() :]) or (len(words) > 1 and words[-1] in _SPECIFIC):
            continue
        old = m.group(1).lower() in ("old", "previous", "original", "former")
        out.append((m.start(), m.end(), "old" if old else "new"))
    return out


def changed_text(side: str, context: Sequence[Mapping[str, str]], noun: str = "") -> str | None:
    """What the latest change the conversation told made new ("new") or left behind ("old"); a
    noun with a change of its own ("name": renaming) takes only that change."""
    verb = _CHANGE_OF.get(noun.lower().removesuffix("s"))
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        both = [m for m in _FROM_TO.finditer(text) if _by(m, verb)]
        if both:
            found = both[-1]
            return (found.group(2) if side == "new" else found.group(1)).rstrip(".:")
        only = [m for m in _TO.finditer(text) if _by(m, verb)]
        if only and side == "new":
            return (only[-1].group(1) + only[-1].group(2)).rstrip(".:")
    return None


def _by(match: re.Match[str], verb: str | None) -> bool:
    return verb is None or cached_re.match(verb, match.group(0), re.IGNORECASE) is not None


def changed_noun(reference: str) -> str:
    """The head noun of "the new <noun>"."""
    return reference.split()[-1].lower()


#: Nouns for a change of an amount and the verbs that make it: "that increase" after "raise the rent".
_AMOUNT_CHANGES = {
    "increase": "rais|increas|hik|put(?:ting)?\\s+up|bump",
    "rise": "rais|increas|hik|put(?:ting)?\\s+up|bump",
    "hike": "rais|increas|hik|put(?:ting)?\\s+up|bump",
    "raise": "rais|increas|hik|put(?:ting)?\\s+up|bump",
    "reduction": "cut|reduc|lower|drop|decreas",
    "decrease": "cut|reduc|lower|drop|decreas",
}


def amount_change(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "that increase" after "my landlord wants to raise the rent by 18%": "the rent increase"."""
    verbs = _AMOUNT_CHANGES.get(noun.lower())
    if verbs is not None:
        pattern = cached_re.compile(
            rf"\b(?:{verbs})(?:e|es|ed|ing|s)?\s+(?:the|my|our|your|their|his|her)\s+([a-z]+)\b", re.IGNORECASE
        )
        for message in reversed(list(context)):
            found = list(pattern.finditer(str(message.get("content") or "")))
            if found:
                return f"the {found[-1].group(1).lower()} {noun.lower()}"
    return moved_amount(noun, context)  # "that jump": a figure that moved by itself


_UP = "went\\s+up|rose|jumped|spiked|climbed|increased|doubled|tripled|surged|soared|grew"
_DOWN = "went\\s+down|fell|dropped|dipped|decreased|halved|declined|plunged|plummeted|shrank"
#: Nouns of a change an amount undergoes by itself, with the verbs that tell it ("went from" tells any).
_MOVES = {
    **dict.fromkeys("jump spike surge increase rise growth climb bump".split(), _UP),
    **dict.fromkeys("drop dip fall decline decrease slump plunge".split(), _DOWN),
    **dict.fromkeys("change swing shift".split(), f"{_UP}|{_DOWN}"),
}


def moved_amount(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "that jump" after "our churn rate went from 3% to 5.5%": "the churn rate jump" (the subject
    of an intransitive change to an amount), or None."""
    verbs = _MOVES.get(noun.lower())
    if verbs is None:
        return None
    pattern = cached_re.compile(
        rf"(?:\b(?:the|my|our|your|their|his|her|its)\s+|(?:^|[.:;!?]\s+))"
        rf"(?!(?:the|my|our|your|their|his|her|its)\s)((?:[A-Za-z][\w-]*\s+){{0,2}}?[a-z][\w-]*)\s+(?:has\s+|had\s+)?"
        rf"(?:(?:{verbs}|went|has\s+gone|had\s+gone)\s+(?:up\s+|down\s+)?(?:from|to|by)\s+[£$€]?\d"
        rf"|(?:{verbs})\b)",
        re.IGNORECASE | re.MULTILINE,
    )
    for message in reversed(list(context)):
        found = list(pattern.finditer(str(message.get("content") or "")))
        if found:
            return f"the {found[-1].group(1).lower()} {noun.lower()}"
    return None
