"""Clear queries that must pass through unchanged although a conversation is present: quoted
titles, "that" before a plural, a query's own antecedents, the weather, generic "they".
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.spelling import as_written
from mnemo.retrieve.rewrite.tidy import tidy, without_particles
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


CLEAR = [
    # words inside a quoted title refer to nothing
    (("we're planning a film night", "Any genre?", "something light"), "is 'It Happened One Night' any good?"),
    (("I need a book for the club", "What did you read last?"), "who wrote \u201cThis Is How You Lose Her\u201d?"),
    # "that" never determines a plural: a clause follows
    (("my landlord wants to raise the rent by 12%",), "is it true that landlords can only raise rent once a year?"),
    # the query names its own antecedent: a family, an identifier, a thing
    (("the Okafors and the Lins are both coming", "How many chairs?"), "ask the Lins if they can bring two"),
    (("the function parse_row reads CSV", "It also strips BOMs."), "rename parse_row to read_row and update its tests"),
    (("the MOT on my van is due in May", "Want a reminder a week before?"), "what do they check in an MOT?"),
    # the weather with an adverb or a modal
    (("I'm flying to Tromsø in February",), "is it usually cold in Tromsø in February?"),
    (("we're hiking Snowdon on Sunday",), "It looks like it might rain on Sunday, what should we pack?"),
    # generic "they" with only a man in the context
    (("Arash brought baklava to work", "Homemade?", "his aunt made it"), "how do they get baklava so flaky"),
]


@pytest.mark.parametrize(("turns", "query"), CLEAR)
def test_clear_queries_pass_through_unchanged(turns: tuple[str, ...], query: str) -> None:
    assert expand(query, said(*turns)) == query


def test_a_reference_outside_the_quotes_is_still_found() -> None:
    found = detect("did she like 'The Night Manager'?", "Priya started a new series")
    assert [r.text for r in found] == ["she"]


def test_that_before_a_possessive_is_still_a_determiner() -> None:
    found = detect("what was that guy's company called", "I met a guy at the rust meetup, Ekow")
    assert found and found[0].text.lower().startswith("that guy")


def test_a_count_of_time_units_is_cut_from_a_phrase() -> None:
    assert tidy("the reminder two weeks") == "the reminder"
    assert tidy("the two weeks") == ""


# --- people and pets a definite description names -------------------------------------------------


@pytest.mark.parametrize(
    ("turns", "query", "name"),
    [
        (
            ("we adopted a rescue whippet called Biscuit", "Is he settling in?"),
            "how much should the dog eat?",
            "Biscuit",
        ),
        (("our new kitten Tofu arrived today", "Lovely!"), "is the cat eating?", "Tofu"),
        (("my brother and his wife Ines are visiting; Ines is vegetarian",), "book a table for the vegetarian", "Ines"),
    ],
)
def test_a_pet_by_its_kind_or_a_person_by_an_attribute_takes_the_name(
    turns: tuple[str, ...], query: str, name: str
) -> None:
    assert name in expand(query, said(*turns))


def test_a_hyphenated_in_is_no_place_cue_in_lower_case_chat() -> None:
    context = said("our cache keeps dropping logged-in users", "Your Memcached node ran out of memory last night.")
    assert "Users" not in {c.text for c in extract(context)}


def test_they_are_the_couple_the_conversation_introduced_together() -> None:
    context = said(
        "my cousin Rosa just got engaged to Tomasz!!",
        "Lovely! When's the wedding?",
        "May, in Porto. Tomasz is thrilled",
    )
    rewritten = expand("what should i get them as a present", context)
    assert "Rosa" in rewritten and "Tomasz" in rewritten and "Porto" not in rewritten


def test_then_closing_an_assenting_reply_is_no_time() -> None:
    context = said("the deploy at 14:00 failed", "The worker ran out of memory during the migration.")
    assert [r.kind for r in detect("ok rerun it then", " ".join(m["content"] for m in context))] == ["thing"]


def test_a_lower_case_subject_before_an_adverb_and_its_verb_is_a_candidate() -> None:
    context = said("the disk is still full", "The rotation ran, but nginx still holds the old file handles.")
    assert "nginx" in {c.text for c in extract(context)}


def test_a_misspelt_demonstrative_noun_is_read_as_the_conversation_wrote_it() -> None:
    context = said("Farah: proposal, move the launch to the 14th", "Greg: I'll ask marketing")
    assert as_written("propsal", context) == "proposal"
    assert "proposal" in expand("did greg get back on that propsal", context)
    # a verb form of the noun is no spelling of it, and short or known words are left alone
    assert as_written("rename", said("Kaveh renamed the service")) == "rename"
    assert as_written("cat", said("the car is fixed")) == "cat"


def test_an_event_keeps_its_verb_but_not_the_particle_its_date_left() -> None:
    assert without_particles("a payment notification since") == "a payment notification"
    assert without_particles("my laptop died") == "my laptop died"
    context = said("I force-pushed to main by accident at 16:20", "I restored main from the reflog.")
    assert "force-pushed to main" in expand("did anyone push to main in the meantime", context)


def test_a_name_with_is_and_a_progressive_verb_owns_nothing() -> None:
    texts = {c.text for c in extract(said("the Hendersons are bringing a pavlova and Pedro's coming too"))}
    assert not any("coming" in t for t in texts)
