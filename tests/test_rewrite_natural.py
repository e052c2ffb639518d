"""The rule resolver on everyday follow-ups (the kind rewrite_dev7 collects): what a noun phrase
of chat is, which words can stand for "it" and "them", whose thing "her interview" is, and the
clear queries of that style. Every conversation here is written for these tests; none is a
benchmark row."""

from __future__ import annotations

import re

import pytest

from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.detect import detect
from mnemo.retrieve.rewrite.lowercase import truecase
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


def texts(*messages: str) -> set[str]:
    return {c.text for c in extract(said(*messages))}


# --- what a noun phrase of chat is ------------------------------------------------------------


def test_a_discourse_word_ends_a_noun_phrase() -> None:
    found = texts("left my charger on the bus honestly", "Which route?", "the 38 lol")
    assert "the bus" in found
    assert not any("honestly" in t for t in found)


def test_a_questions_bare_verb_is_no_part_of_its_subject() -> None:
    found = texts("what did the plumber charge you for the boiler?", "240 with parts.", "ok")
    assert not any("charge" in t for t in found)
    assert truecase("did your mum call?") == "did your mum call?"  # "call" is the verb, no name "Call"
    assert "charge" not in expand("and for kids?", said("what does the zoo charge", "Adults 24.50", "ok"))


def test_a_past_tense_spelt_like_its_present_ends_the_subject() -> None:
    found = texts("the GP put me on statins last month", "How are you finding them?", "fine")
    assert not any(t.endswith(" put") for t in found)


def test_a_named_destination_stays_with_its_journey() -> None:
    found = texts("my train to Porto got delayed by two hours", "That's annoying.", "yeah")
    assert "my train to Porto" in found


def test_a_person_met_with_is_no_part_of_the_thing() -> None:
    found = texts("went through the budget with Ilse at the review", "Any changes?", "some")
    assert "the budget with Ilse" not in found


def test_a_motion_in_from_names_a_place() -> None:
    found = extract(said("Tiago is flying in from San José on Monday", "Shall I book a hotel?", "yes please"))
    assert {c.kind for c in found if c.text == "San José"} == {"place", "thing"}


# --- which words can stand for "it", "them", "that one" ---------------------------------------


def test_an_amount_is_not_what_it_points_at() -> None:
    context = said("the pharmacist gave me ibuprofen for my back", "How much?", "400mg every eight hours")
    assert "400mg" not in expand("can i take it with coffee", context)


def test_a_role_marked_name_is_never_it() -> None:
    context = said("my colleague Renata lent me her tripod", "Nice!", "Renata showed me how to level it")
    assert "Renata" not in expand("when should i give it back", context)


def test_a_counted_plural_is_them() -> None:
    context = said("bought three lamps at the flea market", "Do they work?", "one flickers")
    assert "three lamps" in expand("can I still return them", context)


def test_a_length_of_time_is_no_group() -> None:
    context = said("the puppies are ten weeks old now", "Have they been to the vet?", "not yet")
    assert "ten weeks" not in expand("when do they need their jabs", context)


def test_that_one_is_the_thing_itself() -> None:
    context = said(
        "watched two films on the flight: Aftersun and Past Lives",
        "Which was better?",
        "Aftersun, it wrecked me on the plane honestly",
    )
    rewritten = expand("who directed that one?", context)
    assert "one" not in rewritten.split()
    assert "honestly" not in rewritten


def test_an_identifier_does_not_act_as_they() -> None:
    context = said("the deploy to EU2 failed again", "The health check timed out.", "third time")
    assert "EU2" not in expand("did they say why", context)


def test_an_amount_is_no_topic_to_attach() -> None:
    context = said("Vue tickets are 13.99 now", "Odeon is 11.50.", "hmm")
    assert "13.99" not in expand("any discount?", context)


# --- whose thing: possessives and ownership ---------------------------------------------------


def test_her_thing_is_the_one_the_context_gives_her() -> None:
    context = said(
        "Sofia and Elena both applied for the lab manager job",
        "Who's ahead?",
        "Sofia interviewed great on monday. Elena's interview got moved to friday",
    )
    assert "Elena" in expand("what time is her interview now", context)


def test_their_after_a_plural_takes_the_plural_possessive() -> None:
    context = said("we got two kittens yesterday", "Aww, names?", "not yet")
    assert "kittens'" in expand("when are their first jabs due?", context)


def test_one_time_phrase_keeps_one_preposition() -> None:
    context = said("Ines lands on the 4th", "Booked for the 4th to the 9th.", "great")
    assert not re.search(r"\bfor (?:for|during)\b", expand("and a bike for her for that week", context))


# --- clear queries of this style --------------------------------------------------------------

SHOP = said("comparing e-readers for my dad", "The Kindle Oasis has the best screen at that price.")


@pytest.mark.parametrize(
    "query",
    [
        "verify that all the invoices are paid before Friday",  # a clause after a checking verb
        "check that every test in tests/test_io.py passes",
        "how far is it from Lyon to Annecy by bus?",  # the distance between two places
        "Does the Kindle Oasis beat its rival the Kobo Libra?",  # its owner is the clause's subject
    ],
)
def test_clear_follow_ups_stay_unchanged(query: str) -> None:
    assert expand(query, SHOP) == query


def test_its_after_a_wh_clause_still_points() -> None:
    context = said("we're adopting a cat from the rescue in Hull", "Lovely! Which one?", "a tabby called Pip")
    assert "its" not in expand("ask the rescue what its vaccination history is", context).split()


# --- demonstratives after a verb, comparisons, occasions that follow one another ---------------


def test_this_before_a_noun_always_points() -> None:
    context = said("checked out release/2.4 for the hotfix", "It is 12 commits behind main.")
    assert "release/2.4" in expand("should i rebase this branch first", context)


def test_a_demonstrative_before_a_state_adjective_stands_alone() -> None:
    found = detect("how do I keep this alive over the holidays", "my basil plant from the market")
    assert [(r.text, r.noun) for r in found] == [("this", None)]


def test_that_after_an_object_taking_verb_is_a_determiner() -> None:
    found = detect("is using that flag safe in production", "what does --force do in git push")
    assert [(r.text, r.noun) for r in found] == [("that flag", "flag")]


def test_that_comparative_one_chooses_between_the_listed_items() -> None:
    context = said("two quotes for the fence: Hartley 1,900 or Oakwood 1,450", "Oakwood excludes removal.")
    rewritten = expand("let's go with that cheaper one", context)
    assert "Oakwood" in rewritten and "Hartley" not in rewritten  # 1,450 is below 1,900
    unpriced = said("two builders for the fence: Hartley or Oakwood", "Oakwood excludes removal.")
    rewritten = expand("let's go with that cheaper one", unpriced)
    assert "the cheaper of" in rewritten and "Hartley" in rewritten and "Oakwood" in rewritten


def test_which_one_asks_about_the_named_pair() -> None:
    context = said("choosing between two schools, Northfield and St Anne's", "Both have good reports.")
    rewritten = expand("Which one has a longer school day?", context)
    assert "Northfield" in rewritten and "St Anne's" in rewritten


def test_the_following_occasion_is_counted_from_the_named_one() -> None:
    context = said("we lost the quarter-final against Dynamo on penalties", "Ouch. Who missed?", "our captain")
    rewritten = expand("who started in goal in the following match?", context)
    assert "quarter-final" in rewritten and "the match after" in rewritten


def test_the_next_occasion_is_the_speakers_own() -> None:
    assert detect("when is the next match?", "we lost the quarter-final against Dynamo") == []


def test_a_first_half_hour_is_a_stretch_of_the_event() -> None:
    found = detect("how many calls came in during the first half hour?", "the outage began at 14:05")
    assert [r.kind for r in found] == ["temporal"]


def test_a_negated_auxiliary_ends_a_noun_phrase() -> None:
    assert not any("hasn" in t for t in texts("the landlord hasn't replied yet", "Chase him?", "tomorrow"))


def test_that_season_takes_the_time_that_names_it_and_its_own_clause() -> None:
    context = said("we went to Crete in 2018 and to Sicily last summer", "Lovely! Which did you prefer?", "Sicily")
    rewritten = expand("who looked after the cat that summer", context)
    assert "Sicily last summer" in rewritten
    assert "2018" not in rewritten and "Crete" not in rewritten
    assert "in last summer" not in rewritten  # a deictic time takes no preposition


def test_a_singular_noun_in_s_can_be_it() -> None:
    context = said("I ordered a Manfrotto tripod and a macro lens", "Nice kit.", "the lens came with a chip in it")
    assert "lens" in expand("can I send it back without the box?", context)


def test_that_other_one_is_the_item_not_taken_up() -> None:
    context = said(
        "for the van I was offered a rebuilt engine at 2,400 or a salvaged one at 900",
        "The rebuilt one has a year of cover.",
        "hmm",
    )
    rewritten = expand("does that other one come with anything?", context)
    assert "salvaged" in rewritten and "van other" not in rewritten


# --- named chats: the two talking are "I" and "you" -------------------------------------------


def test_she_is_never_one_of_the_two_talking() -> None:
    context = said(
        "Leila: my niece Noor started ballet this week!",
        "Sanna: aww how was her first class?",
        "Leila: she loved it",
    )
    rewritten = expand("does she want to keep going?", context)
    assert "Noor" in rewritten and "Leila" not in rewritten and "Sanna" not in rewritten


def test_they_are_not_the_two_talking() -> None:
    context = said(
        "Omar: my grandpa turned 80 on sunday, we threw him a party in Amman",
        "Petra: 80! is he still driving?",
        "Omar: yes, he still drives to the market every day",
    )
    rewritten = expand("where did they hold his party", context)
    assert "Petra" not in rewritten and "grandpa" in rewritten
    cousins = said("Omar: my cousins came over on saturday", "Petra: fun! what did you do?", "Omar: board games")
    assert "Omar's cousins" in expand("who won when they played?", cousins)


def test_a_speakers_my_becomes_their_name() -> None:
    found = texts("Bea: my new bike got a flat", "Tom: ugh, tubeless?", "Bea: no, old school")
    assert "Bea's new bike" in found


# --- what the rules above must leave alone ----------------------------------------------------


def test_plurals_in_s_stay_plural() -> None:
    assert "skis" in expand("can I take them on the train", said("the skis are waxed", "Great!", "yep"))
    assert "critics" in expand("what did they say about the plot", said("the critics hated the film", "Ouch."))


def test_a_word_that_looks_like_a_negation_stays_in_its_phrase() -> None:
    assert "the tax haven" in texts("they moved the fund to a tax haven", "Is that legal?", "apparently")


def test_an_identifier_with_digits_is_no_amount() -> None:
    context = said("should I enable 2FA on my bank account", "Yes, definitely.")
    assert "2FA" in expand("how do I turn it on", context)


def test_its_after_a_person_subject_still_points() -> None:
    context = said("my cat Pip has been off her food", "Oh no, poor Pip.")
    assert "Pip" in expand("what did the vet say about its diet?", context)


def test_that_before_a_plural_after_a_clause_verb_is_a_conjunction() -> None:
    assert all(r.kind != "demonstrative" for r in detect("they promised that refunds arrive within a week", "x"))
    assert all(r.kind != "demonstrative" for r in detect("the doctor insisted that patients fast", "x"))


def test_a_relative_what_did_keeps_its_object_whole() -> None:
    assert "the whole weekend" in texts("that's what we did the whole weekend", "Sounds fun.")


def test_a_recipient_is_no_part_of_the_thing_given() -> None:
    context = said("I lent my drill to Tomasz", "When?", "last week")
    rewritten = expand("when will he give it back", context)
    assert "my drill" in rewritten and "to Tomasz" not in rewritten


def test_an_owned_noun_matches_whole_words() -> None:
    context = said("Sofia bought a new hatchback", "Elena's career is taking off", "good for her")
    assert "Elena" not in expand("how much was her car", context)


def test_a_season_in_another_sentence_takes_that_sentences_place() -> None:
    context = said("we did Crete in 2018. Last summer we went to Sicily", "Lovely!", "yes")
    rewritten = expand("who looked after the cat that summer", context)
    assert "Sicily" in rewritten and "Crete" not in rewritten


def test_a_season_modifying_a_noun_is_no_time() -> None:
    context = said("we finally invested in winter tyres", "Good call.", "yes")
    assert "when we finally" not in expand("how much did they cost then", context)


def test_a_material_is_no_comparative() -> None:
    context = said("I saw a leather jacket and a denim jacket", "Both look warm.")
    assert "the leather of" not in expand("do you like that leather one", context)


def test_in_a_chat_of_three_she_can_be_the_third() -> None:
    context = said(
        "Leila: we need a hall for the party",
        "Maya: I found a cheaper hall in Leith",
        "Sanna: the landlord there was rude to me though",
        "Leila: hmm",
    )
    assert "Maya" in expand("what did she say about the venue?", context)
