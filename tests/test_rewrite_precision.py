"""Precision of the rule resolver: pointer words that have their own referent, what is and is
not a name, pronoun binding inside the query, lists and pairs, and event mentions.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.lowercase import truecase
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core

# --- clear queries that look ambiguous: a reported clause, a bound plural, the time a task takes --

KITCHEN = said(
    "the new kettle keeps tripping the fuse",
    "Is it plugged into an extension lead?",
    "yes, the one behind the toaster",
)


@pytest.mark.parametrize(
    "query",
    [
        "does the warranty say that water damage voids the cover?",  # a reported clause after "say"
        "did the installer confirm that the socket meets the regulations?",
        "do my neighbours grow their tomatoes or buy them at the market?",  # "them" are the tomatoes
        "does Priya water her ferns daily or let them dry out?",  # "them" are the ferns
        "how long does it take a beginner to learn to solder?",  # the time a task takes someone
        "it took my brother three weeks to fix his bike",
    ],
)
def test_pointer_words_with_their_own_referent_leave_the_query_unchanged(query: str) -> None:
    assert expand(query, KITCHEN) == query


def test_a_demonstrative_after_a_reporting_verb_still_points_when_no_clause_follows() -> None:
    assert "kettle" in expand("did the manual say that again?", KITCHEN)
    assert "kettle" in expand("did the shop say that was normal?", KITCHEN)  # "that" is the clause's subject


def test_a_role_noun_with_a_thing_sense_is_no_person_in_a_compound() -> None:
    # "extension lead" is a cable: "she" has no antecedent here, so nothing stands in for it
    assert "lead" not in expand("what did she say?", KITCHEN)
    team = said("our team lead Marta approved the budget", "Great, when does it start?")
    assert "Marta" in expand("what did she say about hiring?", team)


MOVE = said(
    "my uncle Rafa is moving to Braga in the spring",
    "Nice! Is he driving down?",
    "no, he's selling his old van",
)


def test_a_role_before_a_name_gives_the_name_its_gender() -> None:
    assert "Rafa" in expand("when does he move?", MOVE)
    assert expand("did her van sell?", MOVE) == "did her van sell?"  # no woman in the conversation


def test_a_lower_case_query_keeps_its_case_where_the_rewrite_starts_it() -> None:
    assert expand("it has how many miles?", MOVE) == "the old van has how many miles?"
    assert expand("It has how many miles?", MOVE) == "The old van has how many miles?"


def test_an_event_named_by_a_demonstrative_is_no_anchor_the_named_one_is() -> None:
    context = said(
        "we finally beat the escape room at the harbour on Saturday",
        "That puzzle run sounds fun. How long did it take?",
        "just under an hour",
    )
    assert "escape room" in expand("who solved the most clues before that?", context)


def test_a_nominal_deed_keeps_an_object_of_several_words() -> None:
    context = said("on Monday we moved the whole team to the new open-plan office on the third floor", "noisy?")
    assert "open-plan office" in expand("was anyone unhappy before the move?", context)


# --- names: what is and is not one ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("i will ring you later", "i will ring you later"),  # a listed name that is also a verb
        ("the lease says max 3% a year", "the lease says max 3% a year"),
        ("she stayed with us, in the loft", "she stayed with us, in the loft"),  # a pronoun after a cue
        ("ask mark about the invoice", "ask Mark about the invoice"),  # the cue makes it a name
    ],
)
def test_lower_case_chat_capitalises_only_words_used_as_names(text: str, expected: str) -> None:
    assert truecase(text) == expected


def test_a_hyphenated_name_and_a_name_paired_with_her_relative_are_people() -> None:
    context = said("Min-jun is coaching me for the climbing comp", "How's training?", "my forearms are dead")
    assert "Min-jun" in expand("how often does he want me to train?", context)
    context = said("Farah and her brother Idris are flying in on Friday", "Where will they stay?", "at a hotel")
    assert "Farah" in expand("what do they like to eat?", context)


def test_a_pronoun_is_not_the_person_its_own_clause_names() -> None:
    context = said("my aunt taught Leila to knit last winter", "Is she patient?", "very")
    assert "Leila" not in expand("what else did she teach Leila?", context).split("teach")[0]


def test_a_function_written_as_a_call_is_a_referent() -> None:
    context = said("the delay comes from throttle() in net/retry.py", "Should I look at it?", "please")
    assert "throttle()" in expand("can you make it cap at thirty seconds?", context)  # not the file


def test_a_title_joined_by_of_the_is_one_name() -> None:
    context = said("we're watching The Lord of the Rings tonight", "Extended edition?", "of course")
    assert "Lord of the Rings" in expand("how long is it?", context)


def test_a_duration_after_a_noun_is_no_part_of_it() -> None:
    context = said("the nightly backup locks the invoices table for 40 minutes", "Try a snapshot instead.", "ok")
    assert expand("is that table the biggest one?", context) == "is the invoices table the biggest one?"
    assert "the cabin" in [c.text for c in extract(said("I booked the cabin for three nights", "Nice!"))]


def test_a_possessive_before_own_is_bound_to_its_clause() -> None:
    context = said("I split the report generator into two modules", "Good call.", "the PDF part is next")
    query = "should the new module have its own config file?"
    assert "its own" in expand(query, context)


PIANOS = said(
    "I'm torn between a Kawai ES120 and a Casio PX-S3100",
    "The Kawai has the nicer action; the Casio is lighter.",
    "I play mostly at night with headphones",
)


def test_a_demonstrative_before_an_ordinal_counts_the_list_like_the() -> None:
    context = said("how do I descale the kettle?", "Two options: white vinegar or citric acid.", "which is gentler?")
    assert "vinegar" in expand("is that first option safe for a glass kettle?", context)
    assert "Casio" in expand("does this second method need an adapter?", PIANOS)


def test_those_two_stands_for_the_pair_the_conversation_named() -> None:
    out = expand("can I try those two in a shop in Leeds?", PIANOS)
    assert "Kawai ES120" in out and "Casio PX-S3100" in out
    assert "Kawai" in expand("which of them is cheaper?", PIANOS)


def test_a_place_is_not_they() -> None:
    context = said("my brother Ruairi just got engaged to Maeve", "Congratulations! A date yet?", "spring in Kilkenny")
    assert "Kilkenny" not in expand("should i offer to help them find a venue?", context)


def test_a_verb_leading_into_a_list_is_no_part_of_its_first_item() -> None:
    context = said("how do I descale the kettle?", "Use white vinegar, citric acid or a descaling tablet.", "hm")
    assert (
        expand("is the first option safe for a glass kettle?", context) == "is white vinegar safe for a glass kettle?"
    )


def test_the_person_someone_is_engaged_to_is_a_person() -> None:
    context = said("my brother Ruairi just got engaged to Maeve", "Congratulations! A date yet?", "spring in Kilkenny")
    assert "Maeve" in expand("is she from Kilkenny too?", context)
    assert "Ruairi and Maeve" in expand("should i offer to help them find a venue?", context)
