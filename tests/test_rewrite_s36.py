"""Query rewriting, fourteenth pass: things named by a clock time or a possessive title, "that one",
works by their title, the quarter, span or holiday a chat wrote, habits, and short follow-ups."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.habits import ongoing
from mnemo.retrieve.rewrite.possessive_titles import possessive_titles
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


@pytest.mark.parametrize(
    ("message", "phrase"),
    [
        ("my partner Leo does the 11pm dream feed", "the 11pm dream feed"),
        ("I usually do the 6am spin class on Tuesdays", "the 6am spin class"),
        ("I booked the 7:15 train to Leeds", "the 7:15 train to Leeds"),
        ("the 9am meeting got moved", "the 9am meeting"),
    ],
)
def test_a_clock_time_opens_a_noun_phrase(message: str, phrase: str) -> None:
    assert phrase in [c.text for c in extract(said(message))]


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("is that one still on next week", ("I usually do the 6am spin class on Tuesdays", "Nice"), "6am spin class"),
        ("is that one usually on time", ("I booked the 7:15 train to Leeds", "ok"), "7:15 train"),
        ("can he do that one at 10 instead", ("my partner Leo does the 11pm dream feed", "ok"), "11pm dream feed"),
    ],
)
def test_that_one_is_the_thing_the_chat_timed(query: str, turns: tuple[str, ...], want: str) -> None:
    expanded = _expanded(query, *turns)
    assert want in expanded
    assert " one " not in expanded.replace(want, "")  # "that one" is replaced whole, no "the X one"


def test_that_one_of_counts_and_keeps_its_pronoun() -> None:
    # "is that one of ..." counts a member; the "one" is no pro-noun of a phrase
    expanded = _expanded("is that one of the best books on the topic", "I'm reading Sapiens", "Great choice.")
    assert "one of the best" in expanded


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("we watched Schindler's List last night", "Schindler's List"),
        ("the one from Captain Corelli's Mandolin", "Captain Corelli's Mandolin"),
        ("I read The Hitchhiker's Guide to the Galaxy last month", "The Hitchhiker's Guide to the Galaxy"),
        ("she loves Charlotte's Web", "Charlotte's Web"),
    ],
)
def test_a_possessive_title_is_one_name(message: str, title: str) -> None:
    texts = [c.text for c in extract(said(message))]
    assert title in texts
    assert title.split("'s ")[1].split()[0] not in texts  # no "List" or "Mandolin" alone


@pytest.mark.parametrize(
    "message",
    [
        "Chen's PR adds retries to the webhook sender",  # an acronym after the possessive
        "Maria's Spanish class starts Monday",  # a capital word that modifies a common noun
        "Aisha's Python script failed again",
        "Tom's Monday meeting ran late",
    ],
)
def test_an_owner_and_a_modified_noun_are_no_title(message: str) -> None:
    assert possessive_titles(message) == []


def test_a_possessive_place_is_a_place() -> None:
    found = possessive_titles("team dinner was at Dishoom in King's Cross")
    assert [(c.text, c.kind) for _, c in found] == [("King's Cross", "place")]


def test_the_owner_of_a_title_stays_a_person() -> None:
    expanded = _expanded(
        "how long will that take him to read",
        "my brother Ollie is doing a reading at the wedding",
        "Nice, which reading?",
        "the one from Captain Corelli's Mandolin",
        "That's a popular one.",
    )
    assert "Captain Corelli's Mandolin" in expanded
    assert "Ollie" in expanded


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("how long is that film", ("we watched Schindler's List last night", "A powerful film."), "Schindler's List"),
        (
            "who composed the music for that film",
            ("we watched Oppenheimer last night", "A stunning film."),
            "Oppenheimer",
        ),
        ("how long was that film", ("we saw the new Nolan film yesterday", "Did you like it?"), "the new Nolan film"),
    ],
)
def test_that_film_is_the_work_named_not_the_verdict_on_it(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "what happened that quarter",
            ("Olu's team missed the Q2 target by 8%.", "Do you want to discuss it at the pipeline review?"),
            "in Q2",
        ),
        (
            "what else happened during that quarter",
            ("Our revenue dipped in Q3 2024 after the price change.", "Do you know why?"),
            "Q3 2024",
        ),
        (
            "who joined the team that quarter",
            ("We hit our numbers in the second quarter of 2023.", "Nice."),
            "the second quarter of 2023",
        ),
    ],
)
def test_that_quarter_is_the_quarter_the_chat_wrote(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


def test_that_quarter_without_a_quarter_in_the_chat_is_left_alone() -> None:
    assert _expanded("what happened that quarter", "my team is great", "nice") == "what happened that quarter"


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("should I book a hotel for that night", ("My sister's wedding is on the 14th of June.", "Exciting!"), "June"),
        (
            "any good places to eat that night",
            (
                "we're staying with my cousin Fiona in edinburgh on the last night of the road trip",
                "Nice way to end it.",
            ),
            "the last night of the road trip",
        ),
        (
            "how many hours of walking is that day",
            ("We're doing the Tour du Mont Blanc, and the longest stage is day 4.", "That's the one over the col."),
            "day 4",
        ),
    ],
)
def test_that_night_and_that_day_take_the_day_the_chat_told(query: str, turns: tuple[str, ...], want: str) -> None:
    expanded = _expanded(query, *turns)
    assert want in expanded
    assert expanded.count("June") <= 1  # "on the 14th of June", never "of June of June"


def test_a_count_that_announces_a_list_is_no_item_of_it() -> None:
    expanded = _expanded("can we cancel the second one", "we have two standups, the 9am one and the 4pm sync", "ok")
    assert "the 4pm sync" in expanded


@pytest.mark.parametrize(
    ("turns", "query", "place"),
    [
        (("I booked the 7:15 train to Leeds", "ok"), "what's the weather like there", "Leeds"),
        (("we're taking the ferry to Santander in May", "nice"), "what is there to do there", "Santander"),
        (("I'm catching the night bus to Glasgow", "ok"), "where should I stay there", "Glasgow"),
    ],
)
def test_there_is_where_the_train_or_ferry_goes(turns: tuple[str, ...], query: str, place: str) -> None:
    assert place in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "want", "not_want"),
    [
        (
            "how much does that model cost",
            ("I'm thinking of getting an e-bike.", "The Rad Power RadCity 5 Plus is a popular commuter model."),
            "RadCity 5 Plus",
            "popular",
        ),
        (
            "how much does that instrument cost to rent",
            ("my daughter wants to learn the cello", "A wonderful instrument."),
            "cello",
            "wonderful",
        ),
        ("how long is that film", ("we watched Schindler's List last night", "A powerful film."), "List", "powerful"),
    ],
)
def test_a_phrase_that_describes_a_named_thing_is_no_referent(
    query: str, turns: tuple[str, ...], want: str, not_want: str
) -> None:
    expanded = _expanded(query, *turns)
    assert want in expanded
    assert not_want not in expanded


def test_there_is_a_introduces_a_referent() -> None:
    # "There is a memory leak ...": an existential introduces the leak, it describes nothing
    assert "the memory leak" in [c.text for c in extract(said("There is a memory leak in the image worker."))]


def test_an_attached_name_ends_at_the_full_stop() -> None:
    expanded = _expanded(
        "what can I eat for breakfast on that diet",
        "My GP recommended the low FODMAP diet for my IBS.",
        "It's done in phases.",
    )
    assert "FODMAP" in expanded
    assert "IBS." not in expanded


def test_her_after_a_preposition_before_an_ordinal_is_possessive() -> None:
    expanded = _expanded(
        "what should she bring on her first day", "Our daughter Zara starts at Brookfield Primary", "Exciting!"
    )
    assert "on Zara's first day" in expanded


@pytest.mark.parametrize(
    ("turns", "query", "firm"),
    [
        (
            ("the client, Hartmann GmbH, wants the report by Friday", "Is it on track?"),
            "should I ask them",
            "Hartmann GmbH",
        ),
        (("We're switching suppliers to Nordwind AG", "ok"), "do they deliver on weekends", "Nordwind AG"),
    ],
)
def test_a_legal_form_is_part_of_a_firms_name(turns: tuple[str, ...], query: str, firm: str) -> None:
    assert firm in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "how do I stop him doing that",
            ("We hired a new dev, Tomasz, and he's pushing straight to main", "That should be blocked."),
            "stop Tomasz pushing straight to main",
        ),
        (
            "is he allowed to do that",
            ("my neighbour parks across my driveway every morning", "That's frustrating."),
            "parks across my driveway",
        ),
    ],
)
def test_doing_that_is_what_someone_keeps_doing(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("message", "habit"),
    [
        ("my cat keeps scratching the sofa", ("ing", "scratching the sofa")),
        ("my neighbour parks across my driveway every morning", ("s", "parks across my driveway every morning")),
        ("what if we put the college friends at the round table", None),  # "friends" is no verb
        ("my son loves Bluey", None),  # a liking, no habit of doing
    ],
)
def test_a_habit_is_a_progressive_a_keeps_or_a_present_deed(message: str, habit: tuple[str, str] | None) -> None:
    assert ongoing(said(message, "ok")) == habit


def test_a_firm_a_person_comes_from_is_no_topic() -> None:
    turns = ("The boiler was making a banging noise, and an engineer from HeatRight fixed it.", "Glad it's sorted!")
    assert _expanded("is it still under warranty", *turns) == "is the boiler still under warranty"
    assert "the engineer from HeatRight" in [c.text for c in extract(said(*turns))]


@pytest.mark.parametrize(
    ("turns", "query", "want"),
    [
        (("my cat keeps scratching the sofa", "Very common."), "how do I stop her", "my cat"),
        (("my dog keeps barking at the postman", "Very common."), "how do I train him to stop", "my dog"),
        (("my toddler keeps throwing food on the floor", "A phase."), "how do I get him to stop", "my toddler"),
        (("our baby wakes up every two hours", "Exhausting!"), "when will she sleep through", "baby"),
    ],
)
def test_a_pet_or_child_named_by_its_noun_is_he_or_she(turns: tuple[str, ...], query: str, want: str) -> None:
    assert want in _expanded(query, *turns)


def test_a_pet_named_later_still_wins_over_its_noun() -> None:
    # "What's her name?" - "Pixel.": the name, not "the cat"
    assert "Pixel" in _expanded(
        "What did the vet say at her first checkup?", "We adopted the cat in November.", "What's her name?", "Pixel."
    )


@pytest.mark.parametrize(
    ("message", "phrase"),
    [
        ("my neighbour parks across my driveway every morning", "my neighbour"),
        ("my cat keeps scratching the sofa", "my cat"),
        ("the vet bills were huge", "the vet bills"),  # a compound: no preposition after "bills"
    ],
)
def test_a_verb_in_s_after_a_person_or_pet_ends_its_phrase(message: str, phrase: str) -> None:
    assert phrase in [c.text for c in extract(said(message))]


@pytest.mark.parametrize(
    ("query", "turns"),
    [
        (
            "What's the journalctl command to show logs from the last hour?",
            ("how do I rotate logs with logrotate?", "Add a config in /etc/logrotate.d/ with daily and compress."),
        ),
        (
            "Are climbing shoes supposed to hurt when you first buy them?",
            ("I want to start bouldering.", "Rent shoes at a local gym for the first few sessions."),
        ),
        (
            "Can monstera cuttings be rooted in water the same way as pothos?",
            ("How do I propagate pothos?", "Cut just below a node and root the cutting in water."),
        ),
    ],
)
def test_clear_queries_with_their_own_span_object_or_plural(query: str, turns: tuple[str, ...]) -> None:
    assert _expanded(query, *turns) == query


@pytest.mark.parametrize(
    ("query", "turns", "span"),
    [
        (
            "where can we stay during that gap with a dog?",
            ("Our lease ends on August 31 and the new apartment isn't ready until September 15.", "That's tough."),
            "(August 31 to September 15)",
        ),
        (
            "can we still merge fixes between those two days?",
            ("We froze the code for the 4.0 release on Monday and QA sign-off is Thursday.", "Any blockers?"),
            "(Monday and Thursday)",
        ),
        (
            "how do I pull the logs from just that window?",
            ("We had an outage on 3 May from 14:10 to 14:55 UTC.", "Check what the deploy changed."),
            "(14:10 to 14:55)",
        ),
        (
            "what's the forecast for those days?",
            ("I'm going to Glastonbury Festival from 25 to 29 June.", "Bring wellies."),
            "(25 to 29 June)",
        ),
    ],
)
def test_a_gap_a_window_or_those_days_take_the_chats_span(query: str, turns: tuple[str, ...], span: str) -> None:
    assert span in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "how do I keep my energy up studying that week?",
            ("Ramadan starts around March 11 this year and my uni exams are that same week.", "That's tough."),
            "March 11",
        ),
        (
            "what's happening on Belgrave Road that evening?",
            (
                "Diwali falls on November 1 this year and my in-laws are coming to Leicester.",
                "Lovely! Leicester's Diwali celebrations on Belgrave Road are some of the biggest outside India.",
            ),
            "Diwali on November 1",
        ),
    ],
)
def test_a_holiday_the_chat_dated_gives_its_date(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("deadline?", ("I'm filing my first tax return in Canada.", "Welcome! You report world income."), "tax return"),
        ("processing time?", ("I'm applying for a Schengen visa in London.", "You'll need a passport."), "Schengen"),
        (
            "is there a dress code?",
            ("Going to see Hamilton on Broadway on Saturday.", "Exciting! The show runs about 2 hours 45 minutes."),
            "Hamilton",
        ),
    ],
)
def test_a_bare_relational_noun_or_a_feature_asks_of_the_topic(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns"),
    [
        ("is there a cure for hiccups?", ("Going to see Hamilton on Saturday.", "Exciting!")),  # its own subject
        ("is there a dress code?", ("I love the colour green.", "It's a calming colour.")),  # nothing undertaken
        ("what's the deadline for the Canadian tax return?", ("I'm filing taxes.", "Welcome!")),
    ],
)
def test_a_feature_question_with_its_own_subject_or_no_undertaking_is_left_alone(
    query: str, turns: tuple[str, ...]
) -> None:
    assert _expanded(query, *turns) == query
