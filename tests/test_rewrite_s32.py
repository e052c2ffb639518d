"""Query rewriting, eleventh pass: quantities told, received wisdom, queries that say what they mean."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.datenouns import date_span
from mnemo.retrieve.rewrite.endorsed import endorsed, offered
from mnemo.retrieve.rewrite.enumerated import focused_one
from mnemo.retrieve.rewrite.expletive import generic_they_starts
from mnemo.retrieve.rewrite.noun_phrases import phrases
from mnemo.retrieve.rewrite.quantity import quantity_spans, quantity_text
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("query", "context", "wanted"),
    [
        (
            "what should I check before paying that much",
            said("Found a Herman Miller Aeron on Facebook Marketplace for £350.", "Good price if it's genuine."),
            "that much (£350)",
        ),
        (
            "can I ask for a reference when it was only that long",
            said("Just finished a 6-month contract with Accenture in Dublin.", "Congrats! What's next?"),
            "that long (6-month)",
        ),
        (
            "is it safe to drive that far in one go",
            said("We're driving from Paris to Lyon, it's about 465 km.", "Plan a break every two hours."),
            "that far (465 km)",
        ),
    ],
)
def test_that_much_long_or_far_takes_the_quantity_the_chat_told(
    query: str, context: list[dict[str, str]], wanted: str
) -> None:
    assert wanted in expand(query, context)


@pytest.mark.parametrize(
    ("query", "told"),
    [
        ("is it really that bad", "the rent went up to £1,200 a month"),  # degree, no quantity of "bad"
        ("is it that much harder than the old one", "the new course costs $300"),  # a comparative grades it
        ("why do 3 weeks feel that long", "the visa takes 3 weeks"),  # the query measures its own
        ("is it that far", "I moved to a new flat"),  # the chat gave no distance
    ],
)
def test_that_much_is_no_pointer_without_a_quantity_of_its_kind(query: str, told: str) -> None:
    spans = quantity_spans(query, told)
    assert spans == []


def test_the_latest_quantity_of_the_kind_is_the_one_taken() -> None:
    context = said("The first quote was $800.", "And the second?", "they want $650 for the same job")
    assert quantity_text("that much", "much", context) == "that much ($650)"
    assert quantity_text("that long", "long", context) is None


def test_an_alternative_the_reply_offers_is_what_that_one_means() -> None:
    context = said(
        "I bought Hoka Clifton 9s and my arches hurt after every run.",
        "Some people need more support than the Clifton offers. You could try insoles, or a stability shoe like "
        "the Hoka Arahi.",
    )
    assert endorsed(context) == "Hoka Arahi"


def test_a_brand_opening_in_lower_case_keeps_its_prefix() -> None:
    context = said("we just got a roomba j7", "Nice! You control it through the iRobot Home app.")
    assert "iRobot Home app" in expand("does the app work without wifi", context)


@pytest.mark.parametrize(
    ("query", "context"),
    [
        (
            "they say coffee is bad for you. is that true if I drink 3 cups a day?",
            said("I've been trying to sleep better lately.", "Less screen time in the evening can help."),
        ),
        (
            "It looks like the Postgres docs recommend running ANALYZE after bulk loads. Why is that?",
            said("We load about 5 million rows into Postgres every night."),
        ),
        (
            "I heard that Python 3.13 can run without the GIL. Is that accurate?",
            said("Our backend is mostly Python 3.11 right now.", "That's a well-supported version."),
        ),
        (
            "They say you shouldn't swim right after eating. Is there any science behind that claim?",
            said("We went to the beach with the kids yesterday.", "Sounds fun! How was the water?"),
        ),
        (
            "They always tell new managers to do weekly 1:1s. Is a biweekly 1:1 ever enough?",
            said("I manage six engineers now.", "That's a good team size."),
        ),
        (
            "Summarize this paragraph in one sentence: 'Revenue grew 12% on enterprise renewals.'",
            said("I need to send an update to leadership.", "Happy to help. What should it cover?"),
        ),
        (
            "I think the meeting went well. Can you draft a thank-you email to Bauer GmbH for the kickoff call?",
            said("I had the kickoff call with Bauer GmbH this morning.", "How did it go?"),
        ),
    ],
)
def test_queries_that_say_what_they_mean_pass_through(query: str, context: list[dict[str, str]]) -> None:
    # received wisdom's "they", a statement the query questions itself, a pointer at quoted text,
    # and a description whose names the query gives itself
    assert expand(query, context) == query


@pytest.mark.parametrize(
    ("query", "generic"),
    [
        ("they say you shouldn't swim after eating", True),
        ("They always tell new managers to hold weekly 1:1s", True),
        ("they say the sofa arrives on friday", False),  # someone in particular reports a fact
        ("they said it would be ready today", False),  # a report of the past is someone's
    ],
)
def test_received_wisdom_they_is_told_from_a_particular_they(query: str, generic: bool) -> None:
    assert (0 in generic_they_starts(query)) is generic


def test_a_they_of_particular_people_is_still_read() -> None:
    assert "Article" in expand("can they deliver on saturday", said("I ordered a sofa from Article."))


@pytest.mark.parametrize(
    ("query", "context", "wanted"),
    [
        (
            "what questions will he likely ask about it?",
            said("I'm presenting the churn analysis to the VP of Sales, Ricardo, next Monday.", "Good luck!"),
            "about the churn analysis",
        ),
        (
            "which deploys should I look at from the hour before it started?",
            said("The incident started at 03:12 UTC and was resolved at 04:47 UTC.", "Do you have the deploy log?"),
            "before the incident started",
        ),
        (
            "what are the main downsides of this approach for a team of 40?",
            said(
                "Our team is considering adopting trunk-based development instead of long-lived feature branches.",
                "It reduces merge conflicts but relies on good test coverage.",
            ),
            "trunk-based development",
        ),
        (
            "how far ahead of the expiry should we start renewal talks?",
            said("Our contract with Lindqvist AB expires on 31/01/2026. The one with Duarte runs until 2027."),
            "31/01/2026",
        ),
        (
            "what should the team wrap up by the end date?",
            said("Sprint 42 ends on Wednesday, October 9. Sprint 43 starts the following Monday.", "Got it."),
            "Wednesday, October 9",
        ),
    ],
)
def test_offices_time_zones_courses_weighed_and_dated_deeds(
    query: str, context: list[dict[str, str]], wanted: str
) -> None:
    # a department naming an office and a time zone are no referents; "this approach" is the course
    # the chat weighs; "the expiry" and "the end date" take the date the chat gives the deed
    assert wanted in expand(query, context)


@pytest.mark.parametrize(
    ("query", "context", "wanted"),
    [
        (
            "should I file that as a P1 or a P2?",
            said("We found a memory leak in the image-resizing service.", "Does it affect production?"),
            "file the memory leak as",
        ),
        (
            "can I make that without bell peppers?",
            said("Something quick for breakfast?", "Try shakshuka: eggs poached in a spiced tomato sauce."),
            "make shakshuka without",
        ),
        (
            "what time does that one open?",
            said(
                "There's a flea market on Sundays by the river and a farmers market every Saturday at Plaza Mayor.",
                "Sounds like a great weekend plan! The farmers market is known for local cheeses.",
            ),
            "the farmers market open",
        ),
    ],
)
def test_objects_classed_dishes_suggested_and_the_one_taken_up(
    query: str, context: list[dict[str, str]], wanted: str
) -> None:
    # "file that as": the object of a classing verb; "Try shakshuka:" offers a thing in lower case;
    # "that one" of two markets is the one a later message took up
    assert wanted in expand(query, context)


def test_that_one_stays_open_when_no_later_message_chose() -> None:
    context = said("There's a flea market by the river and a farmers market at Plaza Mayor.")
    assert focused_one(context) is None


def test_every_opens_a_time_and_ends_the_phrase() -> None:
    assert [c.text for _, c in phrases("a farmers market every Saturday")] == ["the farmers market"]


def test_a_suggestion_in_a_reply_is_a_thing() -> None:
    assert [c.text for _, c in offered("Try shakshuka: eggs poached in sauce. How about overnight oats?")] == [
        "shakshuka",
        "overnight oats",
    ]


@pytest.mark.parametrize(
    ("query", "context", "wanted"),
    [
        (
            "do restaurants usually get fully booked that night?",
            said("For our anniversary I booked dinner at Maison Clair on Valentine's Day.", "Lovely!"),
            "Valentine's Day",
        ),
        (
            "can you find hotels there for those dates?",
            said("The team offsite in Lisbon is on November 4–6.", "Do you need help with logistics?"),
            "those dates (November 4–6)",
        ),
        (
            "can you find a dog sitter for those dates?",
            said("We're in Crete from the 8th to the 22nd.", "Sounds lovely."),
            "(the 8th to the 22nd)",
        ),
        (
            "which policies need sign-off before the start?",
            said("Our SOC 2 audit window starts 1 Feb and ends 30 Apr.", "Finalise policies before it opens."),
            "1 Feb",
        ),
    ],
)
def test_holidays_spans_of_dates_and_a_bare_start(query: str, context: list[dict[str, str]], wanted: str) -> None:
    assert wanted in expand(query, context)


def test_a_single_date_is_no_span() -> None:
    assert date_span(said("The offsite is on November 4.")) is None
