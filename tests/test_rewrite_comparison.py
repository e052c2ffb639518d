"""Comparative questions without their options ask about the pair just compared; a message that
says which one a thing is merges with it.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.comparison import comparison_frame
from mnemo.retrieve.rewrite.lists import compared_pair, list_items
from mnemo.retrieve.rewrite.problems import problem_text
from mnemo.retrieve.rewrite.specify import specifications
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


# --- specifications: a later message says which one a thing is ---------------------------------------


@pytest.mark.parametrize(
    ("turns", "query", "merged"),
    [
        (("my aunt's bike got a flat", "Oh no.", "It's a Brompton."), "can it be fixed today?", "Brompton bike"),
        (
            ("my father's camera broke", "Film or digital?", "Film, an old Pentax."),
            "where can I get it repaired?",
            "old Pentax camera",
        ),
        (
            ("I liked the Dell monitor you mentioned", "The 32-inch one?", "yes"),
            "does it come in white?",
            "32-inch Dell monitor",
        ),
    ],
)
def test_a_thing_and_the_message_that_says_which_one_it_is_merge(
    turns: tuple[str, ...], query: str, merged: str
) -> None:
    assert merged in expand(query, said(*turns))


def test_a_reply_that_names_no_model_specifies_nothing() -> None:
    context = said("my cousin's car broke down", "Any idea why?", "It's a long story.")
    found = extract(context)
    assert specifications(context, found) == []
    texts = {c.text for c in found}
    assert not any(t.endswith("story car") for t in texts)
    assert "my cousin's car" in texts  # a thing known by a person noun's owner is a candidate


def test_specifications_pairs_the_specific_with_the_thing_named_first() -> None:
    context = said("Greta lent me her brother's tent for the trip", "Nice of her.", "It's a 3-person MSR.")
    assert specifications(context, extract(context)) == [("3-person MSR", "the 3-person MSR tent")]


# --- a problem pointed at --------------------------------------------------------------------------


def test_a_bare_this_in_a_question_for_a_fix_points_at_the_problem_clause() -> None:
    context = said("The importer crashes on CSV files with a BOM.", "Which version?", "3.2")
    rewritten = expand("is there a workaround for this?", context)
    assert "crashes on CSV files with a BOM" in rewritten


def test_what_caused_that_takes_the_latest_report_of_something_going_wrong() -> None:
    context = said("The weekly dashboard shows signups dropped in June.", "By how much?", "About a third.")
    assert (
        problem_text("what caused that?", "that", context)
        == "that (the weekly dashboard shows signups dropped in June)"
    )


def test_a_question_that_asks_for_no_fix_or_a_context_with_no_problem_is_left_to_the_other_rules() -> None:
    broken = said("The importer crashes on CSV files with a BOM.")
    assert problem_text("can you summarise this?", "this", broken) is None
    assert problem_text("why is this so popular?", "this", said("We adopted the new design system.")) is None


def test_a_comparative_question_naming_a_generic_term_still_takes_the_pair() -> None:
    context = said("torn between Flask and Litestar for the API", "Litestar is faster; Flask has more plugins.")
    rewritten = expand("Which has the better ORM support?", context)
    assert "Flask" in rewritten and "Litestar" in rewritten


def test_a_comparative_question_with_no_pair_is_left_alone() -> None:
    assert expand("which is faster?", said("I like Rome")) == "which is faster?"


def test_the_name_an_answer_suggests_is_the_thing_asked_for() -> None:
    context = said(
        "any ideas for a weekend trip from Madrid?",
        "Segovia is the classic one: the aqueduct and the castle, 30 minutes by train.",
        "sounds good",
    )
    assert "Segovia" in expand("is it busy on sundays", context)
    # a user's own sentence is no suggestion, and a message that asked for nothing instantiates nothing
    plain = said("we went on a weekend trip", "Segovia is the classic one for that.")
    assert specifications(plain, extract(plain)) == []


def test_a_wish_answered_by_a_named_suggestion_takes_the_name() -> None:
    context = said(
        "I want to run a half marathon next spring",
        "The Bath Half on 15 March is flat and fast; entries close in January.",
        "signed up!",
    )
    assert "Bath Half" in expand("can you put that race in my calendar", context)


# --- choosing by a property stated in one part of a clause --------------------------------------------


@pytest.mark.parametrize(
    ("turns", "query", "chosen"),
    [
        (
            ("bloods: sodium 139, potassium 5.9", "Sodium is normal and potassium is high."),
            "what lowers the high one?",
            "potassium",
        ),
        (("Tickets: OPS-1 login slow, OPS-2 export crashes, OPS-3 typo",), "assign the export one to Ravi", "OPS-2"),
        (
            ("two finalists: Ines, who is strong in Golang, and Tom, who knows Rust",),
            "book a call with the golang one",
            "Ines",
        ),
    ],
)
def test_the_part_of_a_clause_that_states_the_property_names_the_choice(
    turns: tuple[str, ...], query: str, chosen: str
) -> None:
    assert chosen in expand(query, said(*turns))


def test_an_announced_list_of_people_with_relative_clauses_and_titles() -> None:
    text = "Two options: Dr Amadi, who runs the sleep clinic, or Prof. Varga, who wrote the guidance."
    assert list_items(text, 2) == ["Dr Amadi", "Prof Varga"]
    context = said("who should speak at the staff training?", text, "mostly nurses attend")
    assert "Dr Amadi" in expand("draft an invite to that first person", context)


def test_two_clauses_joined_by_and_are_no_list() -> None:
    assert list_items("my nephew Oscar turns 8 on Sunday and he's obsessed with trains", 2) == []


def test_a_yes_that_names_the_thing_asked_about_merges_with_it() -> None:
    context = said(
        "is there a runbook for the failover?",
        "Yes, RB-114: it covers promoting the replica and repointing DNS.",
        "great",
    )
    assert "RB-114" in expand("who last updated it?", context)
    context = said("is there a bakery near the office?", "Yep - Crumbs on Mill Lane, opens at 7.")
    assert specifications(context, extract(context)) == [("Crumbs", "the bakery Crumbs")]


def test_a_yes_without_a_name_specifies_nothing() -> None:
    context = said("is there a cafe nearby?", "Yes, a couple of them.")
    assert specifications(context, extract(context)) == []


def test_that_dog_is_the_pet_the_conversation_named() -> None:
    context = said("we adopted a rescue whippet called Biscuit", "How lovely! Is she settling in?", "loves the sofa")
    assert "Biscuit" in expand("how old is that dog?", context)


def test_the_former_skips_a_pair_that_only_points_back() -> None:
    context = said(
        "two alerts fired overnight: DiskPressure on db-02 and CertExpiry for api.example.com",
        "The first is from the backup job; the second is a renewal that failed.",
    )
    assert "DiskPressure" in expand("how do i silence the former", context)


def test_the_number_one_is_the_listed_item_with_that_number() -> None:
    context = said("three quotes for the patio: StoneWorks 3,200, PaveIt 2,750 and a guy called Sami 1,900", "Noted.")
    assert "PaveIt" in expand("is that 2750 one fully insured", context)
    agenda = said("tomorrow: 9:00 standup, 11:00 budget review with Ines, 15:00 dentist", "ok")
    assert "budget review" in expand("who else is coming to the 11 oclock one", agenda)


def test_a_superlative_asked_earlier_takes_the_answers_name() -> None:
    context = said(
        "shortlist: Kindle Paperwhite, Kobo Clara and PocketBook Verse",
        "Noted.",
        "which is lightest",
        "The Kobo Clara, at 174 g.",
        "and cheapest?",
        "PocketBook Verse, £99.",
    )
    assert "Kobo Clara" in expand("does that lightest one have an orange light", context)
    from mnemo.retrieve.rewrite.properties import by_property

    assert by_property("lightest", context) == "Kobo Clara"


def test_the_first_noun_is_its_earliest_mention_when_no_list_names_them() -> None:
    context = said(
        "the staging db has 40k orphaned rows",
        "I wrote scripts/cleanup.py; a dry run found 40,112.",
        "also the analytics replica is lagging",
        "Restarted; lag is 0 now.",
    )
    assert "the staging db" in expand("ok run that script on the first db for real", context)
    deploys = said("we deployed v3.2.0 at 09:10", "Error rate 0.2%.", "and the hotfix?", "Deployed v3.2.1 at 11:00.")
    assert "v3.2.0" in expand("what was p95 before the first deploy?", deploys)
