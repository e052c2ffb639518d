"""Generalisation mechanisms of the rule resolver: tense as a pointer, events as referents,
nouns made from verbs, pairs for "the former/the latter", object "her", verb spellings.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter, detect
from mnemo.retrieve.rewrite.anchoring import forms
from mnemo.retrieve.rewrite.aspect import aspect_span
from mnemo.retrieve.rewrite.deeds import deeds, event_pronoun, ordering_span
from mnemo.retrieve.rewrite.lists import coordinated_pair
from mnemo.retrieve.rewrite.nominal import deed_of, past_forms
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core

# --- tense as a pointer (aspect.py) --------------------------------------------------------------

GALLERY = said(
    "the gallery called on Friday to say the frame was ready",
    "Did you pick it up?",
    "not yet, the shop was closed when I got there",
)


@pytest.mark.parametrize(
    ("query", "tail"),
    [
        ("had the glass already been cut?", "already been cut"),
        ("was the print still at the framers?", "still at the framers"),
        ("had we paid the deposit?", "deposit"),
        ("what had the owner promised?", "promised"),
    ],
)
def test_past_perfect_and_already_point_at_an_unnamed_moment(query: str, tail: str) -> None:
    span = aspect_span(query)
    assert span is not None and query[span[0] : span[1]] == tail


@pytest.mark.parametrize(
    "query",
    [
        "had the glass been cut by Friday?",  # names its own time
        "had we paid before the sale?",
        "had to call them twice, is that normal?",  # obligation, not the perfect
        "has the frame arrived yet?",  # measured against now
        "what is a mortise joint?",
    ],
)
def test_tense_with_a_time_of_its_own_is_not_a_pointer(query: str) -> None:
    assert aspect_span(query) is None


def test_aspect_query_takes_the_conversation_moment_and_keeps_its_pronoun() -> None:
    out = expand("had they already varnished it?", GALLERY)
    assert "Friday" in out and "already varnished" in out
    assert "they" not in out.split("(")[0].split() or "gallery" in out.lower()


def test_aspect_needs_a_conversation() -> None:
    assert not any(r.kind == "temporal" for r in detect("had the glass already been cut?"))
    assert QueryRewriter().rewrite("had the glass already been cut?", []).expanded == "had the glass already been cut?"


# --- events as referents (deeds.py) --------------------------------------------------------------

ROOF = said(
    "my uncle Teodor re-tiled the whole roof over the summer",
    "That's a big job for one person.",
    "he's stubborn",
)


def test_duration_of_a_demonstrative_names_the_deed_not_a_thing() -> None:
    assert event_pronoun("how many weekends did that take him?") is not None
    assert event_pronoun("how many weekends did the roof take?") is None
    out = expand("how many weekends did that take?", ROOF)
    assert "re-tiled the whole roof" in out


def test_ordering_question_compares_the_last_two_deeds() -> None:
    context = said(
        "In March we adopted a greyhound.",
        "Lovely breed.",
        "In May we also bought a campervan.",
    )
    assert ordering_span("which happened first?") is not None
    assert ordering_span("which happened first, the dog or the van?") is None
    out = expand("which happened first?", context)
    assert "adopted a greyhound" in out and "bought a campervan" in out


def test_deeds_skip_questions_and_wh_words() -> None:
    context = said("we repainted the fence on Sunday", "How did it look afterwards?")
    assert deeds(context) == ["repainted the fence on Sunday"]


def test_an_event_pronoun_with_no_deed_falls_back_to_the_thing() -> None:
    context = said("the marathon is in October", "Are you training?", "yes, four runs a week")
    out = expand("how long does that take to recover from?", context)
    assert out != "how long does that take to recover from?"


# --- nouns made from verbs (nominal.py) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("noun", "past"),
    [
        ("renovation", "renovated"),
        ("deletion", "deleted"),
        ("approval", "approved"),
        ("departure", "departed"),
        ("replacement", "replaced"),
        ("delivery", "delivered"),
        ("launch", "launched"),
    ],
)
def test_a_nominal_noun_gives_its_verbs_past_tense(noun: str, past: str) -> None:
    assert past in past_forms(noun)


def test_the_nominal_noun_is_anchored_to_the_reported_deed() -> None:
    context = said(
        "we renovated the attic into a studio last year",
        "Nice, do you use it a lot?",
        "every day",
    )
    assert deed_of("renovation", context) == "renovated the attic into a studio last year"  # its time too
    out = expand("how much did the renovation cost?", context)
    assert "attic" in out and "renovation" in out


def test_a_participle_after_a_noun_is_not_a_deed() -> None:
    # "a bakery called Crumbs": "called" names, nobody made a call
    assert deed_of("call", said("there's a bakery called Crumbs near the station")) is None


# --- the former / the latter (lists.py) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("Kayaking, which is calmer, or rafting, which is wilder.", ["Kayaking", "rafting"]),
        ("Oslo is pricier; Bergen is rainier.", ["Oslo", "Bergen"]),
        ("A Vanguard ISA is cheap, while an Aviva SIPP has advice built in.", ["A Vanguard ISA", "an Aviva SIPP"]),
        ("Ravenna and Ferrara.", ["Ravenna", "Ferrara"]),
    ],
)
def test_a_binary_coordination_gives_the_pair(text: str, pair: list[str]) -> None:
    assert coordinated_pair(said(text)) == pair


def test_former_and_latter_pick_from_the_latest_pair() -> None:
    context = said(
        "where should we do our first dive course",
        "Dahab has calm reefs; Hurghada has more schools and wrecks.",
        "we're beginners",
    )
    assert "Dahab" in expand("isn't the former better for that?", context)
    assert "Hurghada" in expand("how busy is the latter in winter?", context)


def test_first_one_uses_the_pair_when_there_is_no_list() -> None:
    context = said("mortgage options?", "A Nationwide tracker moves with the base rate, while a fixed deal does not.")
    assert "Nationwide" in expand("how do i apply for the first one", context)


# --- grammar details -----------------------------------------------------------------------------


def test_her_before_a_determiner_is_an_object() -> None:
    context = said("my aunt Rosalind broke her wrist in March", "Ouch, is she ok?", "getting there")
    out = expand("who drove her the day after?", context)
    assert "Rosalind" in out and "Rosalind's" not in out


@pytest.mark.parametrize(("noun", "verb"), [("move", "moved"), ("plan", "planned"), ("copy", "copied")])
def test_forms_follow_english_spelling(noun: str, verb: str) -> None:
    import re

    assert re.fullmatch(forms(noun), verb)


# --- more temporal shapes (timeclause.py) and an inverted "that" ---------------------------------

CONCERT = said("we saw the Kaleidoscope Quartet at the Usher Hall on 3 March", "How was it?", "magical")


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("what did we have for dinner on the day?", "on the day of"),
        ("did my ears ring in the days that followed?", "in the days that followed ("),
        ("how soon after did we book the next one?", "after"),
    ],
)
def test_bare_time_stretches_take_the_conversation_event(query: str, kept: str) -> None:
    out = expand(query, CONCERT)
    assert kept in out.lower() or kept in out
    assert "3 March" in out or "Kaleidoscope" in out


def test_a_day_with_its_own_event_is_no_pointer() -> None:
    assert expand("what did we have for dinner on the day of the wedding?", CONCERT).endswith("of the wedding?")


def test_that_after_an_auxiliary_is_the_subject_not_a_conjunction() -> None:
    assert [r.text for r in detect("was that my best result?", "we raced on Sunday")] == ["that"]
    assert "that" not in [r.text for r in detect("I said that my result was fine", "we raced on Sunday")]


def test_a_passive_deed_keeps_its_subject() -> None:
    context = said("the ferry to Mull was cancelled because of the storm", "Did you get a refund?")
    assert deed_of("cancellation", context) == "the ferry to Mull was cancelled"


def test_a_demonstrative_verbal_noun_finds_the_deed() -> None:
    context = said("Ines refactored the parser into three modules on Tuesday", "Is it faster?", "no idea yet")
    out = expand("can we undo that refactor?", context)
    assert "refactored the parser" in out


def test_which_of_these_uses_a_coordinated_pair_when_there_is_no_list() -> None:
    context = said("whats the difference between `npm ci` and `npm install`", "One is strict about the lockfile.")
    out = expand("which of these is faster on CI?", context)
    assert "npm ci" in out and "npm install" in out


def test_her_before_next_is_still_possessive() -> None:
    context = said("my sister Olwen had a check-up in May", "How is she?", "fine")
    assert "Olwen's next" in expand("when is her next appointment?", context)


def test_an_elliptical_superlative_chooses_among_every_listed_item() -> None:
    # with no prices told, the superlative keeps every item it chooses among
    out = expand("join the priciest", said("my gym options are Puregym, Nuffield and Better", "All have pools."))
    assert "Puregym" in out and "Nuffield" in out and "Better" in out
    # with a price each, it is the dearest of them
    context = said("my gym options are Puregym £25, Nuffield £60 and Better £35", "All have pools.")
    assert expand("join the priciest", context) == "join Nuffield"
    assert expand("fix the request", context) == "fix the request"  # a noun in -est is no superlative


VISIT = said("we visited my grandparents in Cork on 9 August", "How are they?", "frail but happy")


@pytest.mark.parametrize("query", ["has anything changed since?", "what did we do after?"])
def test_a_bare_relation_at_the_end_takes_the_event_as_its_object(query: str) -> None:
    out = expand(query, VISIT)
    assert "9 August" in out and query.split()[-1].rstrip("?") in out


def test_a_past_when_clause_points_at_the_conversation_but_a_present_one_is_generic() -> None:
    assert "9 August" in expand("what did granny cook when we arrived?", VISIT)
    assert expand("what should I pack when I travel?", VISIT) == "what should I pack when I travel?"


def test_a_preposition_before_the_pointer_is_not_doubled() -> None:
    out = expand("what was I reading around that period?", VISIT)
    assert "around in" not in out and "around on" not in out


def test_clear_questions_stay_clear_under_the_new_rules() -> None:
    context = said("we moved to Bristol on 3 March", "How is it?", "great, we renovated the kitchen")
    for query in (
        "what had the Vikings built in Ireland?",  # names what it is about
        "when I was little, what did I want to be?",  # a life stage, not the conversation's event
        "what is the fastest land animal?",  # a superlative with its noun
        "how long does a passport renewal take?",
    ):
        assert QueryRewriter().rewrite(query, context).expanded == query


def test_a_time_question_about_that_dates_the_deed() -> None:
    context = said("I finally sold my old Vespa", "How much did you get?", "enough")
    for query in ("which year was that?", "what month did that happen?"):
        assert "sold my old Vespa" in expand(query, context)


def test_a_weekday_counted_from_the_event() -> None:
    out = expand("what did we do the following Saturday?", VISIT)
    assert "the following Saturday (" in out
    assert expand("what did we do next Saturday?", VISIT) == "what did we do next Saturday?"


def test_there_takes_the_latest_locative_when_no_place_is_named() -> None:
    context = said("I spent the morning volunteering at the food bank", "That's kind of you.")
    out = expand("do they need more help there?", context)
    assert "the food bank" in out and "the morning" not in out.split("help")[1]


def test_a_gapped_conjunct_is_a_deed_of_its_own() -> None:
    context = said("we planted an apple tree and then a pear tree", "Lovely.")
    assert deeds(context, count=2) == ["planted a pear tree", "planted an apple tree"]
    out = expand("which came first?", context)
    assert "apple tree" in out and "pear tree" in out


def test_a_stretch_of_the_event_day_and_ambient_it() -> None:
    out = expand("who called me later in the week?", VISIT)
    assert "later in the week (" in out and "9 August" in out
    rained = expand("did it rain the whole time?", VISIT)
    assert rained.startswith("did it rain")  # weather "it" names nothing


def test_a_present_or_future_duration_question_is_not_about_a_past_deed() -> None:
    assert event_pronoun("how long will this take?") is None
    assert event_pronoun("how long does this take to cook?") is None
    assert event_pronoun("when was that again?") is not None


def test_an_object_pronoun_in_its_subjects_clause_is_another_person() -> None:
    context = said("Ravi and his cousin Arun both run marathons", "Impressive!")
    out = expand("is he faster than him?", context)
    assert "Ravi" in out and "Arun" in out
    # a possessive is the same person; so is an object in another clause
    assert expand("did he beat his record?", context).count("Ravi") == 2


def test_a_when_clause_with_someone_elses_pronouns_keeps_them_as_references() -> None:
    context = said("my aunt Greta visited my uncle Piet in hospital on Sunday", "How is he?", "recovering")
    out = expand("what did he say when she came?", context)
    assert "Piet" in out and "Greta" in out


def test_beforehand_becomes_before_the_event() -> None:
    assert "before " in expand("did we pack snacks beforehand?", VISIT)


def test_do_that_stands_for_the_proposed_action() -> None:
    context = said("the gym wants to freeze my membership for three months", "Did they say why?", "no")
    assert "freeze my membership" in expand("can they do that without asking me?", context)
    # with no action in the conversation, "that" keeps its plain reading and "do" stays
    plain = expand("can you do that again?", said("I printed the boarding pass", "Done."))
    assert plain.startswith("can you do ")


def test_a_class_noun_prefers_the_name_it_heads_and_a_copula_takes_at_the() -> None:
    context = said(
        "we stayed in Porto at the Grande Miramar Hotel", "Lovely city.", "the dinner was at the Cafe Santiago"
    )
    assert "Grande Miramar Hotel" in expand("was that hotel near the river?", context)
    assert "Cafe Santiago" in expand("what did we order at the dinner?", context)


def test_a_question_ending_on_its_bare_verb_takes_the_verbs_complement() -> None:
    context = said("we moved the wedding from June to September", "Why the change?")
    assert "the wedding from June to September" in expand("when did we move?", context)
    # a verb the conversation never used with a complement is left to the other rules
    assert not any(r.kind == "event" for r in detect("when can we merge?", "the feature branch is green"))
    assert not any(r.kind == "event" for r in detect("can you confirm?", "we confirmed the booking for Friday"))


def test_an_ordering_question_with_its_own_scope_is_clear() -> None:
    assert ordering_span("what happened first in the Big Bang?") is None
    assert ordering_span("which came first, the move or the job?") is None
    assert ordering_span("which one came first?") is not None


def test_a_personal_pronoun_with_no_person_in_sight_takes_an_unlisted_name() -> None:
    context = said("two new hires: Okonkwo starts on Monday, Ilse next month", "Does Okonkwo have a laptop yet?", "no")
    assert "Okonkwo" in expand("who will mentor him?", context)
    # an acronym, an identifier or a weekday is no name: the pronoun stays as it is
    assert expand("did he sign off?", said("the S3 bucket policy needs IAM review on Monday", "Who owns it?")) == (
        "did he sign off?"
    )


def test_they_with_no_group_or_name_takes_a_plural_thing_but_not_a_span_of_time() -> None:
    context = said("picked up new hiking boots yesterday", "Nice, how do they feel?", "a bit tight around the heel")
    assert "boots" in expand("can i still return them?", context)
    assert expand("can they call me back?", said("the repair took three weeks", "That's long.")) == (
        "can they call me back?"
    )


def test_a_plural_nouns_own_verb_ends_its_phrase_so_they_finds_the_group() -> None:
    context = said("my in-laws arrive friday and stay till the 30th", "Shall I block the calendar?", "yes please")
    assert "my in-laws" in expand("what day do they fly back?", context)
    # a plural noun that modifies the next noun stays in its phrase
    assert "the sales team" in expand("when do they want the demo?", said("the sales team wants a demo", "Sure."))


def test_a_possessed_noun_may_carry_accents() -> None:
    context = said("I cooked Rosaria's ragù last night", "How was it?", "too salty, sadly")
    assert "ragù" in expand("how can I fix it?", context)


def test_that_before_worth_or_normal_stands_alone_and_a_glued_phrase_drops_its_owner() -> None:
    context = said("my phone plan has a roaming add-on for 10 euros", "It covers the EU.", "nice")
    rewritten = expand("is that worth it for a week in Spain?", context)
    assert "worth it" in rewritten and "the my" not in rewritten and "that worth" not in rewritten


def test_a_span_of_time_is_never_what_that_points_at() -> None:
    context = said("I tried keto for a month", "How did you feel?", "more focus but grumpy at work")
    assert "month" not in expand("is that safe with my thyroid meds?", context)
    assert "month" not in expand("how much will that repair cost?", context)


def test_an_irregular_past_after_a_person_noun_is_a_verb_not_a_name_in_lower_case_chat() -> None:
    context = said("the mechanic found two leaks and a cracked hose", "Is the hose urgent?", "he said within a week")
    rewritten = expand("how much will that repair cost?", context)
    assert "Found" not in rewritten and "cracked hose" in rewritten


def test_a_subject_they_never_falls_back_to_a_plural_thing_nor_a_name_to_a_weekday() -> None:
    context = said(
        "Maya: my grandpa turned 80, we threw him a party",
        "Leo: is he still in his flat?",
        "Maya: yes, still walks daily",
    )
    assert "did they have" in expand("where did they have the party?", context)
    raid = said("Sigrid: the raid on Tuesdays keeps failing", "Omar: what happened?", "Sigrid: the tank disconnected")
    assert "Tuesdays" not in expand("did she kick him?", raid)
