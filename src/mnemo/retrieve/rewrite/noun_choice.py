"""Choosing by the reference's own noun: "that guy" the latest name of the class, "that model" the
product named, "that config" the salient thing's config, "that bug" the problem named. Split from
choose.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.health import (
    GENERIC_MEDICINE,
    medicine_like,
)
from mnemo.retrieve.rewrite.lexicon import geographic
from mnemo.retrieve.rewrite.names import (
    ANY_GIVEN_NAME,
    PERSON_NOUNS,
    PLACE_NOUNS,
    PROBLEM_WORDS,
    QUANTITY,
    fold,
    proper_name,
)
from mnemo.retrieve.rewrite.plural import span_of_time
from mnemo.retrieve.rewrite.ranked import best
from mnemo.retrieve.rewrite.tidy import without_determiner

from . import cached_re

#: Nouns that stand in for the thing itself: "that one", "that stuff" is the thing, not "the X one".
PRO_NOUNS = frozenset({"one", "stuff", "thing"})


def class_noun(noun: str) -> bool:
    stem = noun.lower().removesuffix("'s").rstrip("s")
    return stem in PERSON_NOUNS | _PERSON_WORDS or stem in PLACE_NOUNS | _PLACE_WORDS


#: General words for a written document, and the kinds of document a chat names.
_DOCUMENT_WORDS = frozenset("document doc file writeup write-up".split())
_DOCUMENTS = frozenset(
    """postmortem post-mortem report spec specification proposal contract agreement invoice plan brief memo rfc
    runbook playbook policy letter cv resume statement quote estimate minutes agenda handbook guide""".split()
)


def through_noun(noun: str, candidates: Sequence[Candidate], said: str = "") -> tuple[str, float] | None:
    """What "that <noun>" is, by the noun: a name of its class, a named product, a problem, a
    document, or the salient thing's <noun>. ``said`` is the chat's text (for "The Red Lion in
    Didsbury": Didsbury is where the venue is)."""
    stem = noun.lower().removesuffix("'s").rstrip("s")
    around = {m.group(1) for m in _IN_PLACE.finditer(said)} if stem in _VENUE_WORDS else set()
    if stem in _ORGANISATION_WORDS and (firm := _organisation(candidates)):
        return firm, 0.75  # "is that company remote-friendly" after "an offer from Stripe": Stripe
    if class_noun(noun):
        # "that guy", "that place": a class noun stands for the latest name of its class
        people = stem in PERSON_NOUNS | _PERSON_WORDS
        persons = {c.text.lower() for c in candidates if c.kind == "person"}
        named = [c for c in candidates if c.text[:1].isupper() and c.kind == ("person" if people else "place")]
        if stem in _VENUE_WORDS:  # "that pub" is The Red Lion, never Didsbury: a venue is no town
            named = [c for c in named if not geographic(without_determiner(c.text)) and c.text not in around]
        if not people and (not named or stem in ("place", "spot")):  # "that place": a named restaurant too
            named = [
                c for c in candidates if c.text[:1].isupper() and c.kind == "thing" and c.text.lower() not in persons
            ]
        if stem in _VENUE_WORDS and not [c for c in named if not geographic(without_determiner(c.text))]:
            named = (
                [  # "staying at the Ritz in Madrid": the venue's name after its article
                    c
                    for c in candidates
                    if c.kind == "thing" and without_determiner(c.text)[:1].isupper() and not geographic(c.text)
                ]
                or named
            )
        headed = [
            c
            for c in candidates
            if c.text[:1].isupper() and c.kind != "time" and c.text.lower().rstrip("s").endswith(stem)
        ]
        if headed:  # "that hotel" -> "Labadi Beach Hotel": a name whose own head is the noun
            return min(headed, key=lambda c: (c.last_seen, -c.salience)).text, 0.85
        if named:
            latest = min(named, key=lambda c: (c.last_seen, -c.salience))
            return latest.text, 0.75
    if stem in PRO_NOUNS:  # "who wrote that one?": the latest salient thing itself
        things = [c for c in candidates if c.kind == "thing" and not QUANTITY.fullmatch(c.text) and not span_of_time(c)]
        # "with Dana Reyes": a name read more as a person than as a thing is nobody's "that one"
        people = {c.text: c.salience for c in candidates if c.kind == "person"}
        unpersoned = [c for c in things if people.get(c.text, 0.0) < c.salience]
        return best(unpersoned or things, high=0.6)
    # the noun alone ("how many changes did they make") adds nothing to "those changes"
    named = [
        c
        for c in candidates
        if c.kind != "place" and stem in c.text.lower() and _singular(without_determiner(c.text).lower()) != stem
    ]
    found = best(named, high=0.9)
    if found is None and GENERIC_MEDICINE.fullmatch(noun):  # "this pill": the medicine the chat named
        medicine = best([c for c in candidates if c.kind == "thing" and medicine_like(c.text)], high=0.8)
        if medicine:
            return f"the {without_determiner(medicine[0])} {noun}", medicine[1]
    if found is None and stem in _PRODUCT_CLASSES:
        found = _product(noun, candidates)  # "that model": "Fluidmaster 400"; "that rule": "no-unused-vars"
        if found:
            return found
    if found is None and stem in _DOCUMENT_WORDS:  # "that document" after "Was there a postmortem?"
        documents = [c for c in candidates if c.kind == "thing" and c.head.rstrip("s") in _DOCUMENTS]
        if documents:
            return best(documents, high=0.75)
    if found is None and stem in PROBLEM_WORDS:  # "that bug" after "a memory leak in the image resizer"
        problem = best([c for c in candidates if c.kind == "thing" and is_problem(c)], high=0.75)
        if problem:
            return problem
    if found is None:  # "that config" with only "Terraform" in the context: "the Terraform config"
        top = best([c for c in candidates if c.kind == "thing" and not span_of_time(c) and not _amount(c)], high=0.6)
        if top is None:
            return None
        bare = without_determiner(top[0])
        if bare.lower().rstrip("s").endswith(stem) or "'s " in bare:
            return None  # no "the story story", no "the Olu's team quarter"
        return f"the {bare} {noun}", top[1]
    text, confidence = found
    inside = cached_re.search(rf"\b{re.escape(stem)}s?\s+[a-z]+ing\b", text.lower())  # "the clause banning all pets"
    # "the boat cruise" is already that boat's phrase: no "the boat cruise boat"
    inside = inside or cached_re.search(rf"\b{re.escape(stem)}s?\b", text.lower())
    if not text.lower().rstrip("s").endswith(stem) and not inside:  # "that error" -> "the TimeoutError error"
        text = f"{text} {noun}"
    return text, confidence


def _singular(word: str) -> str:
    """ "branches" -> "branch", "boxes" -> "box", "tills" -> "till": the noun alone, whatever its plural."""
    return cached_re.sub(r"(ch|sh|ss|x|z)es$", r"\1", word).rstrip("s")


def _amount(candidate: Candidate) -> bool:
    """ "about a dozen", "a couple": how many, never what the noun belongs to."""
    return without_determiner(candidate.text).lower() in _AMOUNT_WORDS


_AMOUNT_WORDS = frozenset("dozen dozens couple few hundred hundreds thousand thousands handful lot lots bunch".split())
#: Nouns for a kind of named product or setting: "that model" is the product the conversation named.
_PRODUCT_CLASSES = frozenset(
    """model brand make product app tool library package plugin rule flag setting command option parameter
    variable""".split()
)
#: Of those, the ones the name stands for alone ("Fluidmaster 400"), not with the noun ("the X rule").
_NAMED_ALONE = frozenset("model brand make product app tool library package plugin command".split())
#: The written shape a named setting or command has: "allow_major_version_upgrade", "--legacy-peer-deps",
#: "git filter-repo --path .env".
_SETTING_SHAPE = re.compile(r"^[\w.-]*[_][\w.-]*|^--?[a-z][\w-]*|^[A-Z][A-Z0-9]*_[A-Z0-9_]+")
_COMMAND_SHAPE = re.compile(
    r"^(?:git|npm|npx|pip|yarn|pnpm|docker|kubectl|helm|terraform|brew|apt|apt-get|cargo|go|python|make|curl|ssh"
    r"|gh|aws|gcloud|az|psql|redis-cli)\s+\S"
)
_SHAPES = {
    "setting": _SETTING_SHAPE,
    "flag": _SETTING_SHAPE,
    "option": _SETTING_SHAPE,
    "parameter": _SETTING_SHAPE,
    "variable": _SETTING_SHAPE,
    "command": _COMMAND_SHAPE,
}
_PRODUCT_SHAPE = re.compile(r"^[A-Z]|\d|[-_.]\w|^'")


def _product(noun: str, candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    """The most salient name-shaped thing (a capital, a digit, an identifier) for "that model", "that rule"."""
    names = [
        c
        for c in candidates
        if c.kind == "thing"
        and _PRODUCT_SHAPE.search(without_determiner(c.text))
        and not QUANTITY.fullmatch(c.text)
        and not span_of_time(c)
    ]
    stem = noun.lower().rstrip("s")
    shaped = [c for c in names if _SHAPES.get(stem) and _SHAPES[stem].search(without_determiner(c.text))]
    # "that setting": the identifier last written, not the tool's name
    latest = min(shaped, key=lambda c: (c.last_seen, -c.salience)).text if shaped else ""
    top = (latest.split(" = ")[0], 0.7) if shaped else best(names, high=0.7)  # "x = true": the setting x
    if top is None:
        return None
    alone = stem in _NAMED_ALONE
    return (top[0] if alone else f"the {without_determiner(top[0])} {noun}"), top[1]


_PERSON_WORDS = frozenset("guy person woman man lady bloke chap girl boy".split())
#: "The Red Lion in Didsbury": the name after "in" is where the named thing is.
_IN_PLACE = re.compile(r"(?-i:[A-Z])[\w'-]+\s+in\s+((?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)")
#: Venues, which a town or a country the lexicon knows is not.
_VENUE_WORDS = frozenset("restaurant bar pub cafe shop store hotel clinic venue taverna gym museum hostel".split())
#: Nouns for an organisation, which the chat names with a capital ("Stripe", "Octopus Energy").
_ORGANISATION_WORDS = frozenset(
    "company firm employer business startup agency bank supplier provider insurer airline retailer brand".split()
)


def _organisation(candidates: Sequence[Candidate]) -> str | None:
    """The latest capitalised name no first name opens (a firm, whichever kind the cues gave it)."""
    named = [
        c
        for c in candidates
        if proper_name(c.text)
        and c.kind in ("thing", "person")
        and c.text.split()[0].lower() not in ("the", "my", "our", "your", "a", "an")  # "The Red Lion": a venue
        and fold(c.text.split()[0]) not in ANY_GIVEN_NAME
    ]
    return min(named, key=lambda c: (c.last_seen, -c.salience)).text if named else None


_PLACE_WORDS = frozenset("place spot restaurant bar pub cafe shop store hotel clinic venue taverna".split())


def is_problem(candidate: Candidate) -> bool:
    low = candidate.text.lower()
    return any(word in low for word in PROBLEM_WORDS)
