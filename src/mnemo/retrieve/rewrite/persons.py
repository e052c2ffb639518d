"""Who a personal pronoun can be, beyond the people the candidates list: a pet the chat names ("our
dog miso"), and who it cannot - an instance of a thing's noun ("an app like Krita"), a name written
only as a place ("grew up in Alexandria"), a capitalised plural opening a sentence ("Grapes can be
toxic"). Split from choose.py; names are looked up with plain string search, not a regex per name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.lexicon import kinds_of
from mnemo.retrieve.rewrite.names import ANY_GIVEN_NAME, CHILD_NOUNS, PERSON_NOUNS, fold, is_pet
from mnemo.retrieve.rewrite.wordfind import word_at
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: "the dog miso", "our cat Pixel": a pet and its name.
_PET_NAMED = re.compile(r"^(?:the|our|my|his|her|their)\s+([a-z]+)\s+([A-Za-z][\w-]+)$", re.IGNORECASE)


def named_pets(candidates: Sequence[Candidate]) -> list[Candidate]:
    """A pet the chat names is someone a "he" or "she" can be: its name, as a person."""
    found = []
    for c in candidates:
        match = _PET_NAMED.match(c.text) if c.kind == "thing" else None
        if match and is_pet(match.group(1)) and match.group(2).lower() not in STOPWORDS:
            found.append(replace(c, text=match.group(2), kind="person", hint="pet"))
    return found


_OWNED_ANIMATE = re.compile(r"^(?:my|our|the|your)\s+(?:[a-z-]+\s+)?([a-z]+)$", re.IGNORECASE)


def animate_nouns(candidates: Sequence[Candidate]) -> list[Candidate]:
    """A pet or a child named only by its noun ("my cat", "our baby", "my old dog"): someone a "he"
    or "she" can be when the chat names no person."""
    found = []
    for c in candidates:
        match = _OWNED_ANIMATE.match(c.text) if c.kind == "thing" and not c.plural else None
        if match and (is_pet(match.group(1)) or match.group(1).lower() in CHILD_NOUNS):
            found.append(replace(c, kind="person", hint="pet"))
    return found


_ANIMAL_KINDS = frozenset({"dog breed", "cat breed", "animal", "bird", "fish"})
_ANIMAL_WORDS = frozenset("greyhound puppy kitten pup foal rescue breed mare stallion gelding".split())


_SEEMING = frozenset("looks look looked sounds sound sounded seems seem seemed feels feel felt".split())


def instance_of_thing(name: str, said: str) -> bool:
    """ "an app like Krita", "a tool called Renovate": the name is an instance of a thing's noun."""
    for before in _words_before(name, said):
        if len(before) >= 2 and before[-1] in ("like", "called", "named"):
            noun = before[-2]
        elif len(before) >= 3 and before[-2:] == ["such", "as"]:
            noun = before[-3]
        else:
            continue
        if noun in STOPWORDS or noun in _SEEMING:
            continue  # "I called Marta": a subject who phoned; "looks like Dan's run": a guess, no instance
        # "a cockapoo called Biscuit": an animal's name is someone's
        animal = is_pet(noun) or bool(kinds_of(noun) & _ANIMAL_KINDS) or noun in _ANIMAL_WORDS
        return noun not in PERSON_NOUNS and not animal
    return False


_PLACE_LEADS = frozenset("in to from at near around visit visiting".split())


def placed(name: str, said: str) -> bool:
    """Whether the chat writes the name only after a preposition of place ("grew up in Alexandria")."""
    uses = [before[-1] for before in _words_before(name, said) if before]
    return bool(uses) and all(u in _PLACE_LEADS for u in uses)


def ever_placed(name: str, said: str) -> bool:
    """Whether the chat writes the name after "in" or "near" at least once ("a flat in Alfama"): said
    of a name only its shape calls a person, a place."""
    return any(before and before[-1] in ("in", "near") for before in _words_before(name, said))


def _words_before(name: str, said: str) -> list[list[str]]:
    """The three lower-case words before each whole-word use of ``name`` (no regex per name: a
    conversation has many names and the pattern cache is small)."""
    found = []
    at = word_at(said, name)
    while at != -1:
        found.append(said[max(0, at - 40) : at].lower().split()[-3:])
        at = word_at(said, name, at + len(name))
    return found


def common_word_capitalised(text: str, said: str) -> bool:
    """ "Grapes can be toxic": a plural opening a sentence, whose singular the chat writes as a
    common noun ("ate a grape"), is no person."""
    if " " in text or not text[:1].isupper() or not text.endswith("s") or len(text) < 5:
        return False
    singular = text.lower()[:-1]
    return any(before and before[-1] in _ARTICLES for before in _words_before(singular, said.lower()))


_ARTICLES = frozenset("a an the some this that".split())


def told_own_deed(name: str, query: str, context: Sequence[Mapping[str, str]]) -> bool:
    """Whether a speaker of a pasted chat ("Jonas: ... sending the receipts tonight") said the deed
    the query asks about ("did he send the receipts"): then "he" is that speaker, not a listener."""
    asked = {w[:5] for w in cached_re.findall(r"[a-z]{4,}", query.lower()) if w not in STOPWORDS}
    label = cached_re.compile(rf"^\s*\[?{re.escape(name)}\]?\s*:\s+(.*)$", re.IGNORECASE | re.DOTALL)
    for message in context:
        own = label.match(str(message.get("content") or ""))
        if own and asked & {w[:5] for w in cached_re.findall(r"[a-z]{4,}", own.group(1).lower()) if w not in STOPWORDS}:
            return True
    return False


def no_single_person(name: str, said: str) -> bool:
    """Whether the chat writes a name as a firm someone is from ("the engineer from Hotpoint") or as
    a plural that acts ("City are at home"): no "he" or "she"."""
    for match in cached_re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", said):
        before = said[max(0, match.start() - 30) : match.start()].lower().split()
        after = said[match.end() : match.end() + 12].lower().split()
        owner = said[match.end() : match.end() + 2] == "'s"  # "best man at Jamie's wedding": Jamie is someone
        if len(before) >= 2 and before[-1] in ("from", "at") and before[-2].rstrip("s") in PERSON_NOUNS and not owner:
            return True
        coordinated = bool(before) and before[-1] in ("and", "&", "with")  # "Amani and Tom are": both people
        given = fold(name.split()[0]) in ANY_GIVEN_NAME
        if after and after[0] in ("are", "were", "have") and not coordinated and not given:
            return True
    return False
