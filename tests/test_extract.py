"""Fact extraction with the real spaCy models (EN/FR/ES) and the rule path (DE/IT): every convention
of the issue, coreference, hedging, negation and corrections in each language, intents, languages."""

from __future__ import annotations

import importlib.util

import pytest

from mnemo import extract
from mnemo.extract.intent import Intent
from mnemo.extract.language import detect
from mnemo.extract.pipeline import Extractor
from mnemo.extract.tokens import path_for

HAS_SPACY = importlib.util.find_spec("spacy") is not None
needs_spacy = pytest.mark.skipif(not HAS_SPACY, reason="the 'nlp' extra (spaCy models) is not installed")


def triples(text: str, lang: str | None = None, context: tuple[str, ...] = ()) -> set[tuple[str, str, str]]:
    return {f.triple for f in extract(text, lang, context) if not f.negated}


def negated(text: str, lang: str | None = None) -> set[tuple[str, str, str]]:
    return {f.triple for f in extract(text, lang) if f.negated}


# -- the conventions of the issue, one case each -------------------------------------------------

CONVENTIONS = [
    ("My name is Alex Thompson", {("you", "name", "alex thompson")}),
    ("I live in Seattle and work at Microsoft", {("you", "lives_in", "seattle"), ("you", "works_at", "microsoft")}),
    ("my favorite color is blue", {("you", "favorite_color", "blue")}),
    ("My sister Anna lives in Berlin", {("anna", "lives_in", "berlin")}),
    ("My brother lives in Boston", {("my brother", "lives_in", "boston")}),
    ("I have a dog", {("you", "has", "dog")}),
    ("I own a Tesla", {("you", "owns", "tesla")}),
    ("I went to Stanford", {("you", "went_to", "stanford")}),
    ("I visited Lisbon", {("you", "went_to", "lisbon")}),
    ("I took part in the city marathon", {("you", "participated_in", "city marathon")}),
    ("John is my friend", {("you", "friend_of", "john")}),
    ("I have two cats", {("you", "has", "cats"), ("cats", "quantity", "2")}),
    ("I've worked at Shopify for five years", {("you", "works_at", "shopify"), ("shopify", "duration", "5 years")}),
    ("I was born in Dublin", {("you", "born_in", "dublin")}),
    ("I moved from Toronto", {("you", "moved_from", "toronto")}),
    ("I'm 34 years old", {("you", "age", "34")}),
    ("I'm a nurse", {("you", "is", "nurse")}),
    ("We live in Denver", {("you", "lives_in", "denver")}),
    ("John and Mary live in Paris", {("john", "lives_in", "paris"), ("mary", "lives_in", "paris")}),
    ("I visited Japan in 2019", {("you", "went_to", "japan"), ("japan", "time", "2019")}),
]


@needs_spacy
@pytest.mark.parametrize(("text", "expected"), CONVENTIONS)
def test_english_conventions(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert triples(text) == expected


@needs_spacy
def test_friend_of_is_one_symmetric_fact_with_the_speaker_first() -> None:
    assert triples("Sarah and I are friends") == {("you", "friend_of", "sarah")}
    assert triples("My friend Tom lives in Leeds") == {("tom", "lives_in", "leeds"), ("you", "friend_of", "tom")}


MULTILINGUAL = [
    ("Vivo en Madrid.", "es", {("you", "lives_in", "madrid")}),
    ("Me llamo Lucía y tengo 28 años.", "es", {("you", "name", "lucía"), ("you", "age", "28")}),
    ("Mi hermana Carmen vive en Barcelona.", "es", {("carmen", "lives_in", "barcelona")}),
    ("Je travaille chez Airbus.", "fr", {("you", "works_at", "airbus")}),
    ("J'habite à Lyon depuis trois ans.", "fr", {("you", "lives_in", "lyon"), ("lyon", "duration", "3 ans")}),
    ("Ma couleur préférée est le rouge.", "fr", {("you", "favorite_color", "rouge")}),
    ("Ich bin 30 Jahre alt.", "de", {("you", "age", "30")}),
    (
        "Ich wohne in München und arbeite bei Siemens.",
        "de",
        {("you", "lives_in", "münchen"), ("you", "works_at", "siemens")},
    ),
    ("Meine Lieblingsfarbe ist Grün.", "de", {("you", "favorite_color", "grün")}),
    ("Mi sono trasferito da Torino.", "it", {("you", "moved_from", "torino")}),
    ("Ho due gatti.", "it", {("you", "has", "gatti"), ("gatti", "quantity", "2")}),
    ("Lavoro presso Fiat da cinque anni.", "it", {("you", "works_at", "fiat"), ("fiat", "duration", "5 anni")}),
]


@needs_spacy
@pytest.mark.parametrize(("text", "lang", "expected"), MULTILINGUAL)
def test_each_language_maps_to_the_canonical_taxonomy(text: str, lang: str, expected: set) -> None:
    assert triples(text) == expected  # language detected, not given
    assert {f.lang for f in extract(text)} == {lang}


def test_german_and_italian_take_the_rule_path() -> None:
    assert path_for("de") == "rules" and path_for("it") == "rules"
    if HAS_SPACY:
        assert path_for("en") == path_for("fr") == path_for("es") == "spacy"


# -- coreference ---------------------------------------------------------------------------------


@needs_spacy
def test_pronouns_resolve_within_a_turn_and_across_turns() -> None:
    assert triples("I met John yesterday. He works at Google.") == {("john", "works_at", "google")}
    extractor = Extractor()
    extractor.extract("My cousin Maria just called me.")
    assert {f.triple for f in extractor.extract("She lives in Madrid now.")} == {("maria", "lives_in", "madrid")}
    assert triples("Trabaja en Google.", context=("Ayer conocí a Pedro en una fiesta.",)) == {
        ("pedro", "works_at", "google")
    }
    assert triples("Er arbeitet bei Google.", context=("Ich habe gestern Thomas getroffen.",)) == {
        ("thomas", "works_at", "google")
    }


def test_an_unresolvable_pronoun_yields_no_fact() -> None:
    assert triples("He works at Google.", "en") == set()


# -- hedging, negation, corrections in every language --------------------------------------------

HEDGED = [
    ("I think my wife works at the hospital.", "My wife works at the hospital.", "en"),
    ("Creo que mi padre vive en Málaga.", "Mi padre vive en Málaga.", "es"),
    ("Je pense que ma mère habite à Nice.", "Ma mère habite à Nice.", "fr"),
    ("Ich glaube, meine Mutter wohnt in Leipzig.", "Meine Mutter wohnt in Leipzig.", "de"),
    ("Forse mia madre abita a Bari.", "Mia madre abita a Bari.", "it"),
]


@needs_spacy
@pytest.mark.parametrize(("hedged", "plain", "lang"), HEDGED)
def test_hedged_facts_are_kept_with_lower_confidence(hedged: str, plain: str, lang: str) -> None:
    facts, sure = extract(hedged), extract(plain)
    assert [f.triple for f in facts] == [f.triple for f in sure] != []
    assert all(f.hedged and not f.negated and f.lang == lang for f in facts)
    assert not sure[0].hedged and facts[0].confidence < sure[0].confidence


NEGATED = [
    ("I don't live in Paris anymore.", ("you", "lives_in", "paris")),
    ("Ya no vivo en Bilbao.", ("you", "lives_in", "bilbao")),
    ("Je n'habite plus à Paris.", ("you", "lives_in", "paris")),
    ("Ich wohne nicht mehr in Frankfurt.", ("you", "lives_in", "frankfurt")),
    ("Non vivo più a Venezia.", ("you", "lives_in", "venezia")),
    ("I have no kids.", ("you", "has", "kids")),
    ("Ich habe keine Kinder.", ("you", "has", "kinder")),
]


@needs_spacy
@pytest.mark.parametrize(("text", "triple"), NEGATED)
def test_negated_facts_never_come_out_positive(text: str, triple: tuple[str, str, str]) -> None:
    assert triples(text) == set()
    assert negated(text) == {triple}


CORRECTIONS = [
    ("Actually I work at Amazon, not Google.", ("you", "works_at", "amazon"), ("you", "works_at", "google")),
    ("En realidad trabajo en BBVA, no en Santander.", ("you", "works_at", "bbva"), ("you", "works_at", "santander")),
    ("En fait je travaille chez Orange, pas chez SFR.", ("you", "works_at", "orange"), ("you", "works_at", "sfr")),
    ("Eigentlich arbeite ich bei SAP, nicht bei Oracle.", ("you", "works_at", "sap"), ("you", "works_at", "oracle")),
    ("In realtà lavoro presso Eni, non presso Enel.", ("you", "works_at", "eni"), ("you", "works_at", "enel")),
]


@needs_spacy
@pytest.mark.parametrize(("text", "new", "old"), CORRECTIONS)
def test_corrections_state_the_new_value_and_deny_the_old(text: str, new: tuple, old: tuple) -> None:
    analysis = Extractor().analyse(text)
    assert analysis.intent == Intent.CORRECTION
    assert {f.triple for f in analysis.facts if f.correction and not f.negated} == {new}
    assert {f.triple for f in analysis.facts if f.negated} == {old}


@needs_spacy
def test_plans_questions_and_reactions_state_no_facts() -> None:
    for text in (
        "I think I'll probably move to Austin next year.",
        "Quiero vivir en Japón.",
        "Vielleicht ziehe ich nächstes Jahr nach Wien.",
        "Where do you live?",
        "Do you work at Google?",
        "¿Dónde puedo comer bien en Lisboa?",
        "haha nice",
        "Merci beaucoup, c'est super !",
    ):
        assert triples(text) == set(), text


# -- intents ---------------------------------------------------------------------------------------


@needs_spacy
@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("thanks, that's great!", Intent.REACTION),
        ("👍", Intent.REACTION),
        ("Where should I eat tonight?", Intent.PURE_QUESTION),
        ("I live in Portland, any tips for hiking nearby?", Intent.QUESTION_WITH_FACT),
        ("I live in Seattle.", Intent.FACT_STATEMENT),
        ("I have two cats.", Intent.FACT_STATEMENT),
        ("I live in Seattle and work at Microsoft.", Intent.MULTIPLE_FACTS),
        ("Actually I live in Tacoma, not Seattle.", Intent.CORRECTION),
    ],
)
def test_intent_of_a_turn(text: str, intent: Intent) -> None:
    assert Extractor().analyse(text).intent == intent


# -- languages -------------------------------------------------------------------------------------


@pytest.mark.core
@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("I live in Seattle and I work at a bank", "en"),
        ("Vivo en Madrid con mi hermana", "es"),
        ("J'habite à Lyon avec ma sœur", "fr"),
        ("Ich wohne in München mit meiner Frau", "de"),
        ("Abito a Milano con mia moglie", "it"),
        ("Saya tinggal di Jakarta dan bekerja di sana setiap hari", None),
        ("", None),
        ("🎉🎉🎉", None),
    ],
)
def test_language_detection(text: str, lang: str | None) -> None:
    assert detect(text) == lang


@pytest.mark.core
def test_rule_path_needs_no_model() -> None:
    """German and Italian run on rules only; this is also what the core install does for them."""
    assert triples("Ich arbeite seit fünf Jahren bei BMW.") == {
        ("you", "works_at", "bmw"),
        ("bmw", "duration", "5 jahren"),
    }
    assert triples("Mia sorella Giulia abita a Milano.") == {("giulia", "lives_in", "milano")}
    assert negated("Non ho figli.") == {("you", "has", "figli")}
