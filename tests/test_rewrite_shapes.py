"""Query rewriting, seventh pass: nouns that name a written form (the £240 quote, /users/me, ECONNRESET) and
options told apart by price; and the definites that say which thing themselves, left alone."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.properties import property_spans
from mnemo.retrieve.rewrite.shaped import shaped_spans
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (("the roofer quoted £1,850 to redo the flashing",), "is the quote fair for a terrace", "£1,850 quote"),
        (
            ("our app polls GET /v1/orders/status every second",),
            "can you add caching to the endpoint",
            "/v1/orders/status",
        ),
        (
            ("we shipped 3.2.0 last night and it broke imports", "Pin 3.1.4 meanwhile."),
            "how do i yank the broken release",
            "3.2.0",
        ),
        (("test_invoice_rounding fails on CI only",), "why would the test pass locally", "test_invoice_rounding"),
        (("the worker dies with ECONNREFUSED on startup",), "what usually causes that error", "ECONNREFUSED"),
        (("Lena opened #4411 for the retry fix",), "ask her to rebase the pr", "#4411"),
        (("my savings account pays 4.2% until june",), "can i lock in that rate", "4.2% rate"),
    ],
)
def test_a_shaped_noun_takes_the_token_of_its_shape(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


def test_a_query_that_writes_the_token_keeps_its_noun_alone() -> None:
    context = said("we shipped 3.2.0 last night", "Noted.")
    query = "how do i deprecate the release 3.2.0 on npm"
    assert "release" not in [r.noun for r in detect(query, "we shipped 3.2.0 last night")]
    assert expand(query, context) == query


def test_an_error_token_gets_no_second_error() -> None:
    context = said("the import raises UnicodeDecodeError on row 12", "Check the encoding.")
    assert "UnicodeDecodeError error" not in expand("how do i catch that error", context)


def test_an_amount_at_another_time_is_not_the_one_written() -> None:
    context = said("bought 10 Nvidia shares at $480 in March", "Noted.")
    assert "$480 price" not in expand("what was the price a month before i bought", context)


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (("our flight boards at gate B42 at 9:10",), "is the gate far from security", "gate B42"),
        (("Mia is at 38.9°C and cranky",), "is the temperature too high for a toddler", "38.9°C"),
        (("we beat the Harriers 3-1 on saturday",), "who scored in the final minutes, the score flattered us", "3-1"),
        (("i cant open grafana.internal.io since lunch",), "is the site down for everyone", "grafana.internal.io"),
    ],
)
def test_everyday_shapes(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns, "Noted."))


def test_a_shaped_noun_that_modifies_the_next_noun_is_left_alone() -> None:
    assert shaped_spans("what is the weight limit for cabin bags", "my case weighs 23kg") == []


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # bare amounts, no currency sign
        (
            ("two broadband deals: Zen at 32/month and Hyperoptic at 25/month",),
            "does the cheaper deal need a contract",
            "Hyperoptic",
        ),
        # the noun picks the message: car quotes, not the later home ones
        (
            (
                "car insurance: Admiral quoted 640 and Direct Line 590",
                "Check the excess.",
                "home insurance: Aviva quoted 310 and Churchill 260",
            ),
            "does the cheaper car quote include a courtesy car",
            "Direct Line",
        ),
        (
            ("our warehouses: ANALYTICS_WH is 9k a month, LOADER_WH about 2k",),
            "can we shrink the expensive warehouse",
            "ANALYTICS_WH",
        ),
        # an option named by the phrase its attachment follows
        (
            ("two rooms left: a twin at 90 and a suite with a view of the bay at 210",),
            "does the pricier room have a bath",
            "a suite",
        ),
    ],
)
def test_a_price_adjective_picks_the_option_by_its_price(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns, "Noted."))


def test_a_price_adjective_with_no_prices_is_no_choice() -> None:
    assert property_spans("is the cheaper flight worth it", set(), said("we fly to Oslo in May", "Nice.")) == []


def test_that_deadline_is_the_date_of_the_sentence_the_query_repeats() -> None:
    context = said(
        "when is the vat return due?",
        "Online returns are due by 7 May; paper ones by 7 April.",
        "i also need to register my company",
        "Register within 3 months, so by 12 June.",
    )
    assert "7 May deadline" in expand("what happens if i file online after that deadline", context)
    by_the = said("the auditor wants the plan by the 30th", "Then a short plan is enough.")
    assert "the 30th deadline" in expand("can we finish before that deadline", by_the)


def test_an_adverb_after_a_capitalised_noun_is_no_head() -> None:
    found = [r for r in detect("ask him if that PR still needs a review", "PR #12") if r.kind == "demonstrative"]
    assert found and found[0].noun == "PR"


def test_that_volume_is_the_rate_written() -> None:
    context = said("postgres or dynamo for the events service?", "Depends on the load.", "about 350 writes/sec at peak")
    assert "350 writes/sec" in expand("would that volume be fine on one postgres box", context)


def test_a_modifier_the_chat_never_wrote_names_another_thing() -> None:
    context = said("my savings account pays 4.2% until june", "Nice rate.")
    assert "4.2%" not in expand("what is the exchange rate for euros today", context)
    assert "4.2% rate" in expand("can i lock in that rate", context)


def test_the_error_from_earlier_is_the_error_token() -> None:
    context = said("getting ECONNREFUSED from the redis client on startup", "Is redis up?", "yes, in docker")
    assert "ECONNREFUSED" in expand("can you show me the error from earlier", context)
    reading = said("my blood pressure this morning was 138/88", "A bit high; measure again tonight.")
    assert "138/88" in expand("log the reading from earlier in my notes", reading)


@pytest.mark.parametrize(
    ("turns", "query"),
    [
        (("Mia has a fever of 38.5°C",), "what's the temperature in Tokyo today?"),
        (("my passport renewal is due by 14 March",), "when is the deadline to register to vote in the UK?"),
        (("we flew BA 117 last week",), "how long is the flight to Tokyo from Sydney?"),
        (("the fix is in utils/dates.py",), "how do I open the file in read mode in python?"),
        (("Lena opened #4411 for the retry fix",), "what goes in the PR template on GitHub?"),
        (("flights: KLM £780 or TAP £640",), "is the expensive olive oil actually healthier?"),
    ],
)
def test_a_shaped_or_priced_noun_that_says_which_itself_is_left_alone(turns: tuple[str, ...], query: str) -> None:
    assert expand(query, said(*turns, "Noted.")) == query


def test_a_pill_named_by_its_condition_is_the_drug_for_it() -> None:
    context = said(
        "my gp put me on sertraline for anxiety last month",
        "Any side effects?",
        "my husband takes atorvastatin",
        "Some statins are best taken in the evening.",
    )
    assert "sertraline" in expand("can i take the anxiety pill with coffee", context)
