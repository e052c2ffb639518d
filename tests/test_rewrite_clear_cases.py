"""Query rewriting, seventh pass: clear queries left alone - the impersonal "they", general cases that bind
their own pronouns, "again", reported "that" - and pronouns the query itself takes up."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.internal import case_named_before
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


_FAMILY = said("my cousins Aziz and Leyla are visiting from Baku", "Lovely! How long are they staying?", "two weeks")


@pytest.mark.parametrize(
    "query",
    [
        "how do they get the caffeine out of tea",
        "why do they paint runway lines white",
        "what do they usually test at an eye exam",
        "in norway do they expect you to take your shoes off",
    ],
)
def test_an_impersonal_they_is_left_alone(query: str) -> None:
    assert expand(query, _FAMILY) == query


@pytest.mark.parametrize(
    "query",
    ["how do they compare to last year", "what do they eat for breakfast", "how did they like the museum"],
)
def test_a_they_of_particular_people_is_still_resolved(query: str) -> None:
    assert "Aziz" in expand(query, _FAMILY)


def test_a_compound_after_a_question_keeps_its_last_noun_as_head() -> None:
    query = "how do i paint the radiators in the spare bedroom"
    found = [r for r in detect(query, "the spare bedroom is cold and the bedroom door sticks") if r.kind == "implicit"]
    assert all(r.noun != "spare" for r in found)


def test_a_definite_written_in_full_in_the_chat_is_left_alone() -> None:
    context = said("the spare bedroom is freezing", "Are the radiators warm at the top?", "no, cold")
    assert expand("how do i bleed the radiators in the spare bedroom", context).endswith("spare bedroom")


def test_a_long_day_has_no_it() -> None:
    context = said("finished the quarterly report at last", "Well done!")
    query = "it's been a really long week, suggest a quick dinner with eggs"
    assert expand(query, context) == query


@pytest.mark.parametrize(
    "query",
    [
        "make sure that the weekly export finishes before noon",
        "is it true that charging a laptop overnight wears the battery",
    ],
)
def test_a_reported_that_opens_no_description(query: str) -> None:
    context = said("the weekly export and adaptive charging are both on", "Good to know.")
    assert expand(query, context) == query


def test_again_after_a_named_subject_is_left_alone() -> None:
    context = said("the kids are bored", "Maybe a museum?")
    query = "it's snowing in Tromsø again, any indoor ideas for two kids"
    assert expand(query, context) == query


def test_again_alone_still_asks_the_chat() -> None:
    context = said("we're reading The Left Hand of Darkness for book club", "A classic.")
    assert "Left Hand of Darkness" in expand("who's the author again", context)


def test_a_span_counted_from_the_querys_own_deed_is_left_alone() -> None:
    context = said("my trip to Lagos was a mess", "Sorry to hear that.")
    query = "draft a complaint that my bag was delayed and i got it three days later"
    assert expand(query, context) == query


@pytest.mark.parametrize(
    "query",
    [
        "if a docker container exceeds its memory limit, does it get killed or throttled?",
        "when a dog stops drinking for a day, should its owner take it to a vet?",
        "how long should a 6 year old read each night before she gets tired?",
        "when a teammate rewrites history on main, how can they get the lost commits back?",
        "it's been snowing for two days in Sapporo, are the trains still running?",
    ],
)
def test_a_general_case_binds_its_own_pronouns(query: str) -> None:
    context = said("my daughter Aiko and our cat Momo are both fine", "Good to hear.", "the CI runner is slow")
    assert expand(query, context) == query


def test_a_case_needs_an_indefinite_after_its_opener() -> None:
    assert not case_named_before("should i buy a new charger or will".split(), "it")


def test_a_group_the_query_names_takes_their() -> None:
    context = said("our CI runs contract tests", "Fine.")
    query = "how does the broker warn the mobile team when their contract breaks"
    assert expand(query, context) == query


def test_again_inside_a_general_case_is_the_cases_own() -> None:
    context = said("we publish order events to kafka", "Keyed by order id?", "yes")
    query = "if a consumer crashes before committing its offset, will the event be read again"
    assert expand(query, context) == query


def test_a_case_after_an_auxiliary_binds_only_a_later_clause() -> None:
    context = said("my Lenovo laptop keeps freezing", "How old is it?", "three years")
    assert expand("would a clean reinstall fix it?", context) != "would a clean reinstall fix it?"


def test_generic_they_is_off_when_the_chat_names_a_trade() -> None:
    context = said("the movers from Britannia arrive at 8am tomorrow", "Have you packed the kitchen?")
    assert "movers" in expand("how do they pack fragile stuff?", context)
