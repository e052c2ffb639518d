"""Comparative questions without their options ask about the pair just compared.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.comparison import comparison_frame
from mnemo.retrieve.rewrite.lists import compared_pair
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core

QUOTES = said(
    "two quotes for the boiler: Hartley Heating 3,100 and Flowline 2,650",
    "Flowline's price leaves out the flue, which is usually another 400.",
)


def test_which_is_cheaper_asks_about_the_pair_just_compared() -> None:
    rewritten = expand("so which is actually cheaper?", QUOTES)
    assert "Hartley Heating" in rewritten and "Flowline" in rewritten


def test_the_difference_takes_the_pair_as_between() -> None:
    context = said("I tried the Kobo Clara and the Pocketbook Verse", "The Kobo has the sharper screen.", "ok")
    assert comparison_frame("what's the price difference?", context) == (
        "what's the price difference between Kobo Clara and Pocketbook Verse?"
    )


def test_one_name_in_each_of_the_last_two_messages_is_a_pair() -> None:
    context = said("my broadband with Vodafone is 38 a month", "Community Fibre offers 900 megabits for 29.")
    assert compared_pair(context) == ["Vodafone", "Community Fibre"]
    assert "Vodafone and Community Fibre" in expand("does the cheaper one need a new router?", context)


def test_a_question_naming_its_options_or_a_list_of_three_gets_no_pair() -> None:
    assert comparison_frame("which is cheaper, Hartley Heating or Flowline?", QUOTES) is None
    listed = said("we looked at Lisbon, Porto and Seville", "All three are warm in May.")
    assert compared_pair(listed) == []
    assert comparison_frame("which is cheaper?", listed) is None


def test_a_question_that_compares_nothing_is_no_comparison() -> None:
    assert comparison_frame("which bus goes to the airport?", QUOTES) is None
    assert comparison_frame("what's the difference between a flue and a vent?", QUOTES) is None
