"""Bridging definites, answers that name what a question asked for, possessive "her" before an
ordinal, mentions known by their attachment, and noun phrases that end before a verb.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.grammar_fit import is_possessive_her
from mnemo.retrieve.rewrite.implicit import elliptical
from mnemo.retrieve.rewrite.tidy import tidy
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core

# --- bridging: "the tickets" of the trip just discussed ---------------------------------------------

REUNION = said(
    "the family reunion is in Galway in August",
    "Are you driving over?",
    "no, flying from Bristol",
)


@pytest.mark.parametrize("query", ["how much are the tickets?", "what time does the ceremony start?"])
def test_a_definite_noun_the_conversation_never_named_takes_its_topic(query: str) -> None:
    rewritten = expand(query, REUNION)
    assert rewritten != query and "reunion" in rewritten


def test_a_definite_noun_that_is_itself_a_complement_or_a_long_question_is_left_alone() -> None:
    # "of the tutorial" says what the step belongs to; a question with four content words says enough
    assert elliptical("what was the first step of the tutorial?", frozenset()) is None
    assert elliptical("how does the immune system fight a virus quickly?", frozenset()) is None
    for query in ("What was the first step of the tutorial?", "how does the immune system fight a virus quickly?"):
        assert expand(query, REUNION) == query


def test_a_weekday_or_month_does_not_make_a_query_self_contained() -> None:
    context = said("Noor is collecting her new Volvo on Friday", "Exciting! Which colour?", "dark blue")
    assert elliptical("is the delivery confirmed for Friday?", frozenset()) is not None
    assert "Volvo" in expand("is the delivery confirmed for Friday?", context)
    # a real name in the query still makes it its own subject
    assert elliptical("is the delivery confirmed for Noor?", frozenset()) is None


# --- answers: the name that answers "which one?" or "who?" comes first ------------------------------


def test_the_answer_to_which_one_is_the_thing_named() -> None:
    context = said("booked a guesthouse in Cork for two nights", "Nice - which one?", "Ashgrove House, by the river")
    assert "Ashgrove House" in expand("does it have parking?", context)


def test_the_answer_to_who_is_a_person() -> None:
    context = said(
        "the agency from Lund & Berg wants the brief by Monday",
        "Who's your contact there?",
        "Wairimu Njoroge, she runs the accounts",
    )
    people = {c.text for c in extract(context) if c.kind == "person"}
    assert "Wairimu Njoroge" in people
    assert "Wairimu Njoroge" in expand("can you send her the brief?", context)


def test_a_sentence_opener_that_is_no_answer_fragment_stays_a_word() -> None:
    context = said(
        "who looks after the parser crate now?",
        "According to the changelog, Nadia Petrov took over in v2.",
        "good to know",
    )
    people = {c.text for c in extract(context) if c.kind == "person"}
    assert "According" not in people and "Nadia Petrov" in people


# --- "her" before an ordinal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "possessive"),
    [
        ("what did the vet say at her first checkup?", True),
        ("when is her next appointment?", True),
        ("should I call her first?", False),
        ("I saw her last week", False),
        ("tell her first thing tomorrow", False),
    ],
)
def test_her_before_an_ordinal_is_possessive_only_when_a_noun_follows(query: str, possessive: bool) -> None:
    assert is_possessive_her(query, query.index("her") + 3) is possessive


def test_possessive_her_before_an_ordinal_is_rewritten_with_s() -> None:
    context = said("we adopted a kitten, Juniper", "Lovely! How old is she?", "ten weeks")
    assert "Juniper's first" in expand("what should I ask at her first checkup?", context)


# --- mentions known by their attachment, phrases that end before a verb --------------------------------


def test_a_mention_with_only_an_attachment_is_specific() -> None:
    context = said("any book tips?", "Try Gödel, Escher, Bach; the chapter on recursion is the best part.", "ok")
    assert "the chapter on recursion" in expand("is that chapter hard to follow?", context)


def test_an_attachment_that_is_a_time_or_a_bare_one_is_not_kept() -> None:
    context = said("we found a maths tutor for Leo", "How often does the tutor come?", "the tutor on Tuesdays, 5pm")
    assert "on Tuesdays" not in expand("is that tutor expensive?", context)


def test_a_noun_phrase_ends_before_a_verb_with_an_object_pronoun() -> None:
    context = said("Arjun wants us to try pair programming on Fridays", "Some like it.", "half the squad loves it")
    texts = {c.text.lower() for c in extract(context)}
    assert "the squad loves" not in texts and "half the squad loves" not in texts


# --- relational nouns that are verbs too, "them", tidied phrases ---------------------------------------


def test_a_relational_noun_that_is_also_a_verb_leans_on_the_conversation_after_the() -> None:
    context = said("Ife is running the Brighton half marathon on Sunday", "Aiming for a time?", "under two hours")
    assert elliptical("what time is the start?", frozenset()) is not None
    assert "marathon" in expand("what time is the start?", context)


def test_a_relational_word_before_a_time_noun_is_no_reference() -> None:
    context = said("we had a call about the roadmap", "Anything decided?", "not really")
    query = "What should I do the next time my laptop overheats?"
    assert elliptical(query.lower(), frozenset()) is None
    assert expand(query, context) == query


def test_object_them_takes_a_plural_thing_before_a_single_person() -> None:
    context = said("Priya's thesis advisor is Dr. Lindahl", "Strict?", "very, he returned her draft with 200 notes")
    rewritten = expand("how long will it take her to address them?", context)
    assert "200 notes" in rewritten and "Lindahl" not in rewritten


@pytest.mark.parametrize(
    ("phrase", "tidied"),
    [
        ("the API returns", "the API"),
        ("parse_amount returns", "parse_amount"),
        ("tax returns", "tax returns"),  # a plural noun after a common noun stays
        ("the pool size also", "the pool size"),
        ("Melanie yesterday", "Melanie"),
        ("the mouse keeps disconnecting", "the mouse"),
        ("the Paris wedding", "the Paris wedding"),  # a noun in -ing after a name stays
        ("the Amazon returns", "the Amazon returns"),  # a plural noun after a name stays
        ("my sister Rukayat might", "my sister Rukayat"),
        ("the dress for", "the dress"),
        ("the first", "the first"),  # the only word after the determiner is kept
        ("FastAPI Depends", "FastAPI Depends"),  # a capitalised word is a name, not a verb
        ("Siew Ling", "Siew Ling"),
        ("the wedding", "the wedding"),
        ("the Fernández family", "the Fernández family"),
        ("the sounds fun", ""),  # "That sounds fun": a demonstrative subject, no noun
        ("the new", ""),
        ("the constantly", ""),
        ("the new sunscreen", "the new sunscreen"),
        ("the two", ""),  # "the two of them": a count, no thing
        ("Beatriz's wedding", "Beatriz's wedding"),  # a noun in -ing after a possessive stays
        ("the two flats", "the two flats"),
    ],
)
def test_tidy_cuts_what_cannot_end_a_noun_phrase(phrase: str, tidied: str) -> None:
    assert tidy(phrase) == tidied


def test_candidates_come_out_tidied() -> None:
    context = said("the mouse keeps disconnecting", "That sounds annoying. Try a new battery.", "ok")
    texts = {c.text for c in extract(context)}
    assert "the mouse" in texts
    assert not any(t.endswith(("keeps disconnecting", "keeps")) or t.startswith("the sounds") for t in texts)


@pytest.mark.parametrize("word", ["tonight", "already"])
def test_adverbs_and_indefinite_pronouns_opening_lower_case_chat_are_no_names(word: str) -> None:
    context = said(f"{word} was a mess, the kids were loud", "Sorry to hear.", "yeah")
    assert word.capitalize() not in {c.text for c in extract(context) if c.kind == "person"}


def test_a_name_in_is_or_us_is_one_thing_and_a_span_of_time_is_no_plural_referent() -> None:
    context = said("the Prius failed its MOT on the brake pads", "Did they give you a retest date?", "within 10 days")
    rewritten = expand("will the garage replace those first?", context)
    assert "the brake pads" in rewritten and "10 days" not in rewritten and "Prius" not in rewritten


def test_an_event_named_by_a_gerund_and_its_object_keeps_the_gerund() -> None:
    context = said("load test before migrating the sessions table: 1,200 req/s", "After the migration: 1,900 req/s.")
    assert "migrating the sessions table" in expand("did the error rate go up afterwards?", context)


def test_buying_that_second_hand_is_a_pronoun_not_an_ordinal() -> None:
    found = detect("where can I buy that second hand?", "the Fuji X100 is about 1,400 new")
    assert [(r.text, r.kind) for r in found] == [("that", "demonstrative")]


def test_a_gerund_before_a_plural_noun_modifies_it() -> None:
    texts = {c.text for c in extract(said("I ordered the blue running shoes last time", "The Pegasus 40?"))}
    assert "the blue running shoes" in texts and "the blue running" not in texts
