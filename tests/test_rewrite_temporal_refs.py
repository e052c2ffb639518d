"""Temporal references found by grammar (ordinal time nouns, relative adverbials, time clauses whose
event is only in the conversation) and resolved to the event the query fits, not simply the last
date. Conversations here are made up for the tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.dates import times_in
from mnemo.retrieve.rewrite.eventfit import segment_fits, topic_stems
from mnemo.retrieve.rewrite.temporal import event_in, find_anchor
from mnemo.retrieve.rewrite.timeclause import appended_text, clause_spans, is_appended, wants_earliest
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core

TRIP = "We flew to Porto on 4 June for the trip."

# --- detection ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "pointer"),
    [
        ("where did we sleep the very first night", "the very first night"),
        ("how was the last day of it", "the last day of it"),
        ("did we book anything beforehand", "beforehand"),
        ("what did we see earlier on", "earlier on"),
        ("who was with us at the time", "at the time"),
        ("were you sick the whole time", "the whole time"),
        ("who called just before", "just before"),
        ("what did we do once it was over", "once it was over"),
        ("who was on call when it all started", "when it all started"),
        ("how many days after can i swim", "how many days after"),
        ("what did the rent cost a few weeks before we moved", "a few weeks before we moved"),
        ("how many tickets went the night we played", "the night we played"),
        ("is it too cold at that time of year", "at that time of year"),
        ("what did I wear the day of", "the day of"),
        ("what did we do at the end of it", "at the end of it"),
        ("how stressed was I in the run-up", "in the run-up"),
    ],
)
def test_relative_time_expressions_are_temporal_references(query: str, pointer: str) -> None:
    found = {r.text.lower(): r.kind for r in detect(query, TRIP)}
    assert found.get(pointer) == "temporal", found


@pytest.mark.parametrize(
    "query",
    [
        "what time is it",
        "what do you usually do on weekends",
        "every morning i run 5k, is that enough",
        "what were last year's tax rules in Spain",
        "what happened in 1989",
        "what did I do on the first day of the month",
        "how long before a flight should I arrive",
        "it's been ages since i backed up my mac",
        "what should I eat a few hours before I run, usually",
        "when is the first time slot tomorrow",
        "by the end of the day I was tired, is that normal",
        "at the start of a meeting who should speak first",
    ],
)
def test_absolute_and_generic_time_phrases_are_not_temporal_references(query: str) -> None:
    assert not [r for r in detect(query, TRIP) if r.kind == "temporal"]


def test_a_time_clause_with_its_own_anchor_or_without_a_conversation_is_no_pointer() -> None:
    assert clause_spans("a week before we go live") != []
    assert clause_spans("a week before Anna goes live") == []  # a name anchors it
    assert clause_spans("two days after we got back on 3 May") == []  # so does a date
    assert not [r for r in detect("what did we eat a week before we left", "") if r.kind == "temporal"]


def test_appended_forms_keep_their_words_and_take_the_event() -> None:
    assert is_appended("the very first night") and is_appended("how many days after")
    assert not is_appended("that day")
    assert appended_text("the last day of it", "the Porto trip") == "the last day of the Porto trip"
    assert appended_text("how many days after", "the surgery") == "how many days after the surgery"
    assert appended_text("a week before we go live", "the launch") == "a week before we go live (the launch)"
    assert appended_text("at the end of it", "the trip") == "at the end of the trip"
    assert appended_text("in the run-up", "the exam") == "in the run-up to the exam"
    assert wants_earliest("the very first night") and not wants_earliest("the last night")


# --- events of a message ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "head"),
    [
        ("Tomasz ran the city half marathon last sunday", "marathon"),  # a named subject's deed
        ("bought a used van in March 2022", "van"),  # chat drops its own subject
        ("I had wisdom teeth out on May 9", "wisdom teeth"),  # "had" with an object is a deed
        ("the server crashed at 03:10 when the disk filled up", "server crashed"),  # the main clause
        ("karaoke night at the pub on friday, Lea sang", "karaoke night"),  # a bare chat headline
        ("Your sister Ines's graduation in Leeds on July 2", "graduation"),  # the possessed, not the owner
        ("Omar's thesis defence happens on 12 May", "thesis defence"),
        ("Priya and I went to the Bergen folk music festival in June", "festival"),  # a compound subject
        ("got a big tax refund in november", "refund"),
        ("the vet moved Rufus's jabs to Friday at the june check-up", None),  # a month as a modifier is a date
    ],
)
def test_event_of_a_dated_message(text: str, head: str | None) -> None:
    event, _ = event_in(text)
    if head is None:
        assert times_in(text) and any("june" in t.lower() for t in times_in(text))
        return
    assert event is not None and head in event


@pytest.mark.parametrize(
    ("text", "head"),
    [
        ("lunch at noon was great", "lunch"),
    ],
)
def test_a_chat_headline_names_its_event(text: str, head: str) -> None:
    event, _ = event_in(text)
    assert event == head


def test_a_lone_verb_is_no_chat_headline() -> None:
    event, _ = event_in("slept in on sunday")
    assert event != "slept"


# --- resolution: the event the query fits ----------------------------------------------------------


def test_topic_fit_counts_the_replies_that_follow_a_dated_message() -> None:
    context = said("our choir sang at the cathedral on 3 May", "How did it go?", "we sold 30 programmes")
    fits = segment_fits(context, topic_stems("how many came the night we sold programmes"))
    assert fits[0] >= 1 and fits[0] >= fits[2]


def test_the_anchor_is_the_event_the_query_fits_not_the_last_date() -> None:
    context = said(
        "I broke my wrist skiing on 2 February",
        "How's the healing going?",
        "slow. my brother moved flats on 20 February",
        "Busy month!",
    )
    anchor = find_anchor(context, wants_date=False, topic=topic_stems("was the healing done at that point"))
    assert anchor is not None and "wrist" in (anchor.event or "")
    plain = find_anchor(context, wants_date=False)
    assert plain is not None and "moved" in (plain.event or "")  # recency alone picks the last date


def test_first_points_at_the_earliest_event() -> None:
    context = said(
        "recap the trip",
        "You landed in Oslo on 1 May, then took the train to Bergen on the 5th.",
        "and then?",
        "You flew home from Bergen on the 9th.",
    )
    result = expand("which hotel did we have the very first night", context)
    assert "Oslo" in result and result.startswith("which hotel did we have the very first night")


def test_time_clause_keeps_the_clause_and_adds_the_fitting_event() -> None:
    context = said("sold my Tesla shares in August 2024 at $240", "Nice timing.", "and the car loan ends in 2026")
    result = expand("what was the price a week before i sold", context)
    assert result.startswith("what was the price a week before i sold")
    assert "Tesla" in result and "August 2024" in result


def test_when_it_started_takes_the_event_whose_verb_it_shares() -> None:
    context = said(
        "the api outage started at 09:12 when the cert expired",
        "How long did it last?",
        "40 minutes. the newsletter went out at 11:00",
        "Any issues with it?",
        "none",
    )
    assert "outage" in expand("who was on call when it all started", context)


def test_relation_takes_a_date_and_its_event_from_a_named_deed() -> None:
    context = said("Nadia ran the Dublin marathon last sunday", "Impressive!", "she did it in 4 hours")
    result = expand("was nadia sore the morning after", context)
    assert "marathon" in result and "the morning after" in result


def test_a_clock_time_alone_does_not_outrank_the_event() -> None:
    context = said("what's on in Rovaniemi?", "The reindeer safari on Friday evening.", "we'll be out till 1am")
    assert "reindeer safari" in expand("should we sleep in the morning after", context)


def test_clear_time_queries_pass_through_unchanged() -> None:
    context = said("We flew to Porto on 4 June.", "Lovely city.")
    for query in ("what time is it", "what happened in 1989", "what do you do on weekends"):
        assert expand(query, context) == query


def test_an_adjective_with_a_to_infinitive_makes_it_expletive() -> None:
    context = said("I started the new job on Monday.", "Congratulations!")
    assert expand("is it rude to leave a meeting just before the end", context).startswith("is it rude")
    found = {r.text.lower() for r in detect("is it close to the station", "the hotel is in Porto")}
    assert "it" in found  # a determiner after "to" makes "to" a preposition: "it" has a referent


def test_a_truecased_adverb_is_no_named_subject() -> None:
    event, _ = event_in("Already paid, moving in on the 3rd")
    assert event is None or not event.lower().startswith("when already")
    context = said("Lena's recital is on June 8 in Graz", "Lovely! Need a hotel?", "already booked, arriving the 6th")
    assert "June 8" in expand("what else is on my calendar that day", context)


def test_after_that_points_at_the_last_event_told_not_the_opening() -> None:
    context = said(
        "we moved the shop's payments to Stripe in March",
        "How has it gone?",
        "fine until the checkout webhook started timing out on Friday",
    )
    rewritten = expand("how many orders failed since then", context)
    assert "webhook" in rewritten and "Stripe" not in rewritten


def test_then_alone_still_prefers_the_conversations_dated_opening() -> None:
    context = said("I lived in Porto in 2019 and worked at a bakery", "Lovely city.", "the bakery had a great view")
    assert "2019" in expand("what was my rent back then", context)


def test_in_between_spans_the_last_two_dated_clauses() -> None:
    context = said("I left the agency in March, then started freelancing in September", "How's it going?", "busy")
    rewritten = expand("what did I live on in between", context)
    assert "between I left the agency in March and started freelancing in September" in rewritten


def test_in_between_needs_two_dates_and_the_end_of_a_clause() -> None:
    from mnemo.retrieve.rewrite.between import between_text

    assert between_text(said("the gig was in 2019", "nice")) is None
    assert expand("i snack in between meals", said("lunch at 12, dinner at 7")) == "i snack in between meals"


def test_an_acronym_does_not_stop_a_definite_noun_from_anchoring() -> None:
    context = said("Lena joined right after we migrated the app to Kubernetes", "So she never saw the old VMs?")
    assert "Kubernetes" in expand("what CI did we use before the migration?", context)


def test_a_noun_from_an_irregular_verb_finds_its_deed() -> None:
    context = said("our son Kian was born on 3 March", "Congratulations!", "thanks, no sleep though")
    assert "3 March" in expand("how much weight has he put on since the birth", context)


def test_a_deed_told_without_its_subject_still_anchors_the_noun() -> None:
    context = said("bumped numpy from 1.26 to 2.0 this morning", "Watch for the removed aliases.")
    assert "numpy from 1.26 to 2.0" in expand("did the tests get slower since the bump", context)


def test_a_deed_dated_from_the_message_day_anchors_since_then() -> None:
    context = said("Tom and I split up last week", "I'm sorry. How are you holding up?")
    assert "since Tom and I split up" in expand("have i been eating worse since then", context)


def test_a_counted_stretch_before_an_event_keeps_its_count() -> None:
    context = said("our annual review with the auditors is on 3 October", "Noted.")
    assert "the three days before our annual review" in expand("block out the three days before for prep", context)


def test_for_when_we_land_is_the_planned_arrival() -> None:
    context = said("our flight home from Malaga lands 22:10 on friday", "Noted, friday 22:10.")
    assert "Malaga" in expand("book a taxi for when we land", context)
