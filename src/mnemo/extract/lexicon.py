"""The per-language word lists the rule engine reads; the data lives in ``mnemo.extract.langs``.

Verb patterns are written as word forms: ``"wohn*"`` matches any token (surface or lemma) starting
with ``wohn``; a form without ``*`` must match exactly. Prefixes make the rules work without a
lemmatizer (the core install), and lemmas from spaCy/simplemma catch irregular forms on top.
"""

from __future__ import annotations

from dataclasses import dataclass


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def phrases(text: str) -> tuple[tuple[str, ...], ...]:
    """'|'-separated phrases, longest first, so "no longer" wins over "no"."""
    found = [tuple(p.split()) for p in text.split("|") if p.strip()]
    return tuple(sorted(found, key=len, reverse=True))


@dataclass(frozen=True, slots=True)
class VerbRule:
    """A verb (by forms) that, with one of ``preps`` before its object, means ``relation``.

    ``preps`` empty: the object is the verb's direct object ("I own a Tesla").
    """

    relation: str
    forms: tuple[str, ...]
    preps: frozenset[str] = frozenset()
    #: a noun that carries the relation ("a new job at Fidelity"): may follow a determiner
    noun: bool = False

    def matches(self, low: str, lemma: str) -> bool:
        return any(_form_matches(form, low) or _form_matches(form, lemma) for form in self.forms)


def _form_matches(form: str, word: str) -> bool:
    if form.endswith("*"):
        return word.startswith(form[:-1])
    return word == form


@dataclass(frozen=True, slots=True)
class Lexicon:
    code: str
    #: detection profile: frequent words that are typical of the language
    profile: frozenset[str]
    first_person: frozenset[str]  # subject pronouns that become "you" (I, we, ...)
    first_object: frozenset[str]  # reflexive/object forms that still mean the speaker (me, mi, ...)
    possessive: frozenset[str]  # my, our ...
    second_person: frozenset[str]  # the assistant: never a fact subject
    he: frozenset[str]
    she: frozenset[str]
    they: frozenset[str]
    it: frozenset[str]
    determiners: frozenset[str]  # dropped at the start of an entity
    function: frozenset[str]  # words that end an entity (prepositions, adverbs, auxiliaries, ...)
    coordinators: frozenset[str]
    subordinators: frozenset[str]  # a clause starting with one of these is kept
    skip_clause: frozenset[str]  # conditional/temporal openers whose clause states no current fact
    negations: frozenset[str]
    negation_phrases: tuple[tuple[str, ...], ...]
    hedges: tuple[tuple[str, ...], ...]
    irrealis: tuple[tuple[str, ...], ...]  # wants, plans, futures: not facts
    corrections: tuple[tuple[str, ...], ...]
    change_markers: frozenset[str]  # "now": the new value replaces the old one
    question_words: frozenset[str]
    question_openers: frozenset[str]  # auxiliaries that open a yes/no question
    reactions: frozenset[str]
    copulas: tuple[str, ...]
    have: tuple[str, ...]
    verbs: tuple[VerbRule, ...]
    numbers: dict[str, int]
    year_words: frozenset[str]  # "years" in an age or a duration
    age_markers: frozenset[str]  # "old", "alt"
    duration_preps: tuple[tuple[str, ...], ...]
    duration_units: frozenset[str]
    time_phrases: tuple[tuple[str, ...], ...]
    time_preps: frozenset[str]  # "in 2019", "en mayo"
    months: frozenset[str]
    name_nouns: frozenset[str]
    called: tuple[str, ...]  # "is called", "se llama", "heißt"
    favorite: frozenset[str]
    favorite_prefix: str  # German compounds: "Lieblingsfarbe"
    topics: dict[str, str]  # word after "favorite" -> canonical topic (color, food, ...)
    friend_words: frozenset[str]
    friend_preps: frozenset[str]  # "friends with"
    family: frozenset[str]
    name_links: frozenset[str]  # "University of Washington": joiners inside a name
    #: descriptive adjectives dropped at the start of an object ("a new bike" → bike)
    fillers: frozenset[str] = frozenset()
    #: endings of job nouns, which Romance languages use without an article ("soy enfermera")
    profession_endings: tuple[str, ...] = ()
    #: relative pronouns that open a clause about the previous noun ("a brother who lives ...")
    relatives: frozenset[str] = frozenset()
    #: verb endings of the future tense ("viviré", "habiterai", "trasferirò"): a plan, not a fact
    future_endings: tuple[str, ...] = ()

    @property
    def time_phrases_first(self) -> frozenset[str]:
        return frozenset(p[0] for p in self.time_phrases if len(p) == 1) | self.months
