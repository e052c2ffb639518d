"""Cases a review of the rewriter found wrong, kept so they stay right: odd text in a copula, echo
questions that ask, typing slips against real words, negations that are no problems, names
before nouns in -ing, short questions about the world, comparisons with nothing to compare,
"then" in a question, software that freezes, quoted messages.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.problems import problem_text
from mnemo.retrieve.rewrite.specify import specifications
from mnemo.retrieve.rewrite.spelling import as_written
from mnemo.retrieve.rewrite.tidy import tidy
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize("reply", ["it's a 日本", "it's a ___!", "Well, a --", "It's a 2-hour paper."])
def test_a_copula_or_fragment_without_a_name_specifies_nothing_and_never_raises(reply: str) -> None:
    context = said("I bought a new lamp", reply)
    assert specifications(context, extract(context)) == []
    result = QueryRewriter(cache_ttl=0).rewrite("is it bright?", context)
    assert result.expanded and "lamp" in result.expanded


@pytest.mark.parametrize("echo", ["Shall I book it?", "From Domino's?", "Since March?", "To Friday?"])
def test_an_echo_question_that_asks_specifies_nothing(echo: str) -> None:
    context = said("The hotel in Rome is 120 a night", echo)
    assert specifications(context, extract(context)) == []


def test_the_suggested_name_merges_with_the_thing_requested_not_the_request_word() -> None:
    context = said("any ideas for a day trip from Lisbon?", "Sintra is the classic one: palaces and gardens.")
    assert specifications(context, extract(context)) == [("Sintra", "the Sintra day trip from Lisbon")]
    wish = said("I want to run a half marathon next spring", "The Bath Half on 15 March is flat and fast.")
    assert [merged for _, merged in specifications(wish, extract(wish))] == ["the Bath Half marathon"]
    gerund = said("I need a break from the kids", "Parenting is exhausting, try a weekend away.")
    assert specifications(gerund, extract(gerund)) == []


@pytest.mark.parametrize(("typed", "written"), [("printer", "painter"), ("house", "horse"), ("price", "prize")])
def test_a_changed_letter_is_no_typing_slip(typed: str, written: str) -> None:
    assert as_written(typed, said(f"the {written} is here")) == typed


@pytest.mark.parametrize(
    ("said_before", "query"),
    [
        ("my sister keeps talking about this new show", "why is this so popular?"),
        ("I can't wait for the trip!", "why is this so expensive?"),
        ("It isn't far from the hotel", "any tips to avoid this?"),
    ],
)
def test_a_negation_or_a_why_question_is_no_problem_report(said_before: str, query: str) -> None:
    assert problem_text(query, "this", said(said_before)) is None


def test_a_problem_clause_keeps_a_name_s_own_case() -> None:
    assert problem_text("is there a fix for this?", "this", said("numPy 2.0 breaks my build")) == (
        "this (numPy 2.0 breaks my build)"
    )


@pytest.mark.parametrize("phrase", ["the Paris wedding", "the Christmas shopping", "the rally", "my ally"])
def test_nouns_after_names_and_in_ally_are_kept(phrase: str) -> None:
    assert tidy(phrase) == phrase


@pytest.mark.parametrize(
    ("turns", "query"),
    [
        (("I finally fixed the leaking kitchen tap",), "how long is the wait?"),
        (("I finally fixed the leaking kitchen tap",), "what is the weather?"),
        (("I finally fixed the leaking kitchen tap",), "what time does the film start?"),
        (("My knee hurts",), "how much is the deposit?"),
        (("Tomorrow I'm meeting Sarah",), "which is nicer"),
        (("Did you try Aldi?", "lol no, Mum says hi"), "which is cheaper?"),
        (("two quotes: Hartley 3,100 and Flowline 2,650",), "which is cheaper, Lidl or Aldi?"),
    ],
)
def test_short_questions_about_the_world_and_comparisons_with_no_pair_are_left_alone(
    turns: tuple[str, ...], query: str
) -> None:
    assert expand(query, said(*turns)) == query


def test_a_comparison_after_an_opening_comma_still_takes_the_pair() -> None:
    rewritten = expand("ok, so which is cheaper?", said("two quotes: Hartley 3,100 and Flowline 2,650"))
    assert "Hartley" in rewritten and "Flowline" in rewritten


def test_then_in_a_question_is_a_time_whatever_the_opening() -> None:
    assert "3am" in expand("so what did you do then?", said("The server went down at 3am"))


def test_software_that_may_freeze_is_a_referent_not_weather() -> None:
    assert "Ubuntu" in expand("do you think it might freeze my laptop?", said("I installed the new Ubuntu beta"))


def test_a_quoted_message_stays_verbatim_and_the_references_outside_it_resolve() -> None:
    context = said("Priya texted me: 'call him first'", "Who?")
    rewritten = expand("what did she mean by 'call him first'?", context)
    assert "Priya" in rewritten and "'call him first'" in rewritten


def test_a_pasted_wall_of_text_is_passed_through_quickly() -> None:
    query = "the cat sat on it " * 200  # 3,600 characters
    result = QueryRewriter(cache_ttl=0).rewrite(query, said("the cat sat on the mat"))
    assert result.expanded == query.strip() and not result.was_rewritten and "longer than" in result.reason
