"""Extraction that needs the dependency parse (EN/FR/ES spaCy models): the word rules alone get these wrong."""

from __future__ import annotations

import importlib.util

import pytest

from mnemo import extract
from mnemo.extract.arcs import coordinated_other, parsed, stranger_subject, subtree_end
from mnemo.extract.langs import LEXICONS
from mnemo.extract.tokens import sentences

HAS_SPACY = importlib.util.find_spec("spacy") is not None
needs_spacy = pytest.mark.skipif(not HAS_SPACY, reason="the 'nlp' extra (spaCy models) is not installed")


def triples(text: str, lang: str) -> set[tuple[str, str, str]]:
    return {f.triple for f in extract(text, lang) if not f.negated}


@needs_spacy
@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        # an unmarked relative clause: the subject of "is based" is the company, not "my brother founded"
        (
            "The company my brother founded is based in Austin, but I live in Denver.",
            "en",
            {("you", "lives_in", "denver")},
        ),
        # "que ... vendió" is skipped by the rules, leaving "vive" subjectless (read as the speaker)
        ("El chico que me vendió la moto vive en Murcia.", "es", set()),
        # a possessed noun coordinated with the subject is a second subject, not a pronoun for the first
        (
            "Ma cousine Julie et son mari habitent à Toulouse.",
            "fr",
            {("julie", "lives_in", "toulouse"), ("son mari", "lives_in", "toulouse")},
        ),
        (
            "Mi prima Elena y su novio viven en Granada.",
            "es",
            {("elena", "lives_in", "granada"), ("su novio", "lives_in", "granada")},
        ),
        # "New" is part of the name (compound), not a filler adjective to drop
        ("Although my parents live in Texas, I was born in New York.", "en", None),
        # "Cuando" opens a subordinate clause (mark), the turn is not a question; the clause ends at its subtree
        ("Cuando era niño vivía en Cádiz, pero ahora trabajo en Iberdrola.", "es", {("you", "works_at", "iberdrola")}),
    ],
)
def test_arc_path(text: str, lang: str, expected: set[tuple[str, str, str]] | None) -> None:
    found = triples(text, lang)
    if expected is not None:
        assert found == expected
    if "New York" in text:
        assert found == {("my parents", "lives_in", "texas"), ("you", "born_in", "new york")}


@needs_spacy
def test_hyphenated_name() -> None:
    """spaCy splits "Clermont-Ferrand" into three name tokens (a tag rule, not an arc, joins them)."""
    assert triples("Je travaille chez Michelin et j'habite à Clermont-Ferrand.", "fr") == {
        ("you", "works_at", "michelin"),
        ("you", "lives_in", "clermont-ferrand"),
    }


@needs_spacy
def test_tokens_carry_arcs_on_the_spacy_path() -> None:
    toks = sentences("My cousin Maria and her husband moved to Lisbon.", "en")[0]
    assert parsed(toks)
    by_text = {t.text: t for t in toks}
    assert by_text["husband"].dep == "conj"
    assert by_text["her"].head == by_text["husband"].i
    assert coordinated_other([by_text["her"], by_text["husband"]], LEXICONS["en"]) == "her husband"


@needs_spacy
def test_subordinate_clause_extent() -> None:
    toks = sentences("Cuando era niño vivía en Cádiz.", "es")[0]
    assert [t.text for t in toks[: subtree_end(toks, 0)]] == ["Cuando", "era", "niño"]
    # a clause that runs to the end of the sentence leaves no main clause: no split
    whole = sentences("Cuando era niño.", "es")[0]
    assert subtree_end(whole, 0) is None


@needs_spacy
def test_the_speaker_stays_the_subject() -> None:
    """The stranger check must not fire on the speaker, family or a possessed noun."""
    lex = LEXICONS["en"]
    for text, verb in [("I live in Denver.", "live"), ("My brother lives in Austin.", "lives")]:
        toks = sentences(text, "en")[0]
        position = next(k for k, t in enumerate(toks) if t.text == verb)
        assert not stranger_subject(toks, position, lex)
    assert triples("My brother lives in Austin and I live in Denver.", "en") == {
        ("my brother", "lives_in", "austin"),
        ("you", "lives_in", "denver"),
    }


@pytest.mark.core
def test_rule_path_has_no_arcs_and_arcs_decline() -> None:
    """German (and every language on the core install) has no parse: the arc helpers answer "don't know"."""
    toks = sentences("Als ich klein war, wohnte ich in Bremen.", "de")[0]
    assert not parsed(toks)
    assert subtree_end(toks, 0) is None
    assert not stranger_subject(toks, 5, LEXICONS["de"])
    assert coordinated_other(toks[:2], LEXICONS["de"]) is None
