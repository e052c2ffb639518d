"""Query rewriting, nineteenth pass: pointing words the query answers itself. A general question
or the user's own new matter uses "it", "that", "after that", "the first week", "the latter" for
something it names first; the conversation before it, on a nearby topic, must not lend them a
referent. Each rule has its counter-cases, where the same shape does point at the chat."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.own_bare import bare_thing_before, conditioned_thing
from mnemo.retrieve.rewrite.own_clause import own_clause_that
from mnemo.retrieve.rewrite.own_generic import generic_definite
from mnemo.retrieve.rewrite.own_time import first_period_of_own, paired_side
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


_KITCHEN = (
    "I made a big pot of lentil soup and a tray of roast vegetables last night.",
    "Lentil soup keeps three days in the fridge; the vegetables are best eaten within two.",
)


@pytest.mark.parametrize(
    "query",
    [
        "if I freeze leftover pasta and reheat it later, will the texture change?",
        "can you catch flu again a few weeks after having it",
        "my brother keeps borrowing money and never pays it back, how do I bring this up",
        "how long can cooked chicken sit out at room temperature before it's unsafe?",
        "does it matter whether you salt pasta water before or after it boils?",
    ],
)
def test_an_it_takes_up_the_bare_thing_the_query_names(query: str) -> None:
    assert _expanded(query, *_KITCHEN) == query


@pytest.mark.parametrize(
    "query",
    [
        "if I add spinach, will it hold together",  # a verb of adding: the dish is the chat's
        "can i have bread with it",  # a preposition's "it", no clause before
    ],
)
def test_an_it_beside_an_ingredient_or_a_preposition_is_still_the_chats(query: str) -> None:
    assert _expanded(query, *_KITCHEN) != query


def test_bare_thing_before_needs_a_clause_break_and_an_object_it() -> None:
    assert bare_thing_before("if I freeze cooked rice and reheat ")
    assert not bare_thing_before("should i add cream and reheat ")  # adding: the cream is no antecedent
    assert not bare_thing_before("how do I get alerted when ")  # "alerted" is no thing
    assert not bare_thing_before("can he have grapefruit juice with ")  # a preposition's "it"


def test_an_opening_condition_about_the_querys_own_deed_owns_its_it() -> None:
    assert conditioned_thing("if I marinate chicken overnight in lemon juice, will ")
    assert not conditioned_thing("if I add spinach, will ")  # adding
    assert not conditioned_thing("when I get to New York can I take ")  # a place, no thing
    assert not conditioned_thing("if I leave it out overnight, will ")  # a pointer in the condition


_LAPTOP = (
    "My laptop fan is loud and the battery drains fast.",
    "Check for runaway processes in Activity Monitor first; an SMC reset can help too.",
)


@pytest.mark.parametrize(
    "query",
    [
        "npm prints 'EBADENGINE unsupported engine' on every install — what does that mean?",
        "when a phone gets hot while charging overnight, does that mean the battery is failing?",
        "people keep saying you should never charge to 100%, why is that exactly?",
        "some of our machines run Windows 10 and some Windows 11, which of those setups is easier to manage?",
        "when I upgrade macOS to a new major version, what should I check first afterwards?",
        "I switched to a standing desk two weeks ago, what changes should I have noticed by this point?",
    ],
)
def test_a_pointer_takes_up_the_clause_the_query_said_first(query: str) -> None:
    assert _expanded(query, *_LAPTOP) == query


@pytest.mark.parametrize(
    "query",
    [
        "i only have an hour before work though, is that enough?",  # a clause qualifying the advice
        "my IT team has a two week queue, should I just do that myself?",  # a deed done to "that"
        "should i restart it now or wait until after that",  # a question, no clause of its own
    ],
)
def test_a_pointer_after_a_qualifying_or_acting_clause_is_still_the_chats(query: str) -> None:
    assert _expanded(query, *_LAPTOP) != query


def test_own_clause_that_wants_a_clause_that_tells_without_pointing() -> None:
    query = "my unit tests pass locally but when CI runs them they time out, what usually causes that"
    assert own_clause_that(query, query.rindex("that"))
    leaning = "he said it's fine, is that true"  # the clause's own pronoun comes first
    assert not own_clause_that(leaning, leaning.rindex("that"))
    short = "is that normal"
    assert not own_clause_that(short, short.index("that"))
    asked = "should i restart from week 1 or pick up where i was before that"
    assert not own_clause_that(asked, asked.rindex("before"), timed=True)


def test_a_bare_after_paired_with_the_querys_own_before_is_its_own() -> None:
    assert paired_side("after", "what's a good stretch before a run, and what's a good one ")
    assert paired_side("the day after", "why does soreness peak two days after a workout instead of ")
    assert not paired_side("after", "can she register before that date or only ")  # the chat's date
    assert not paired_side("after", "how long will we be in hospital ")


def test_the_first_week_of_a_thing_the_query_brings_in() -> None:
    assert first_period_of_own("the first week", "is it normal for a puppy to sleep all day in the first week", False)
    assert first_period_of_own("the first year", "should a new landlord register with HMRC after the first year", False)
    assert not first_period_of_own("the first week", "what did he plant in the first week", False)
    assert not first_period_of_own("the last night", "book a nice restaurant for the last night", False)


def test_a_time_the_query_anchors_itself_is_left_alone() -> None:
    trip = ("We land in Reykjavik on 3 March and leave on the 9th.", "March is a good month for the northern lights.")
    assert _expanded("is it normal for a newborn to sleep 18 hours a day in the first week", *trip).endswith("week")
    assert "reykjavik" in _expanded("what should we book for the first night", *trip).lower()


def test_a_definite_in_a_question_put_to_anyone_is_any_one() -> None:
    assert generic_definite("how early should you get to the airport for a domestic flight", "the airport")
    assert not generic_definite("can you book a taxi to the airport", "the airport")  # a request
    assert not generic_definite("how do you pronounce the first thing you said", "the first thing")  # its words
    trip = ("We fly from Manchester airport on Friday.", "Terminal 2 gets busy on Friday mornings.")
    query = "how early before an international flight should you get to the airport"
    assert _expanded(query, *trip) == query


@pytest.mark.parametrize(
    "query",
    [
        "for a small web app, Flask or FastAPI, and does the latter need an async database driver?",
        "I got two quotes for a new roof from local firms, what should I ask before picking the second one?",
        "how many times has Wales reached the World Cup quarter finals, and when was the last one?",
        "what are the trade-offs between renting and buying, and when is the former the better choice?",
        "how do I undo the last commit in git but keep the changes",
    ],
)
def test_an_ordinal_over_the_querys_own_set_is_its_own(query: str) -> None:
    chat = ("We're comparing three mortgage offers: Nationwide, Halifax and Santander.", "Halifax has the lowest fee.")
    assert _expanded(query, *chat) == query


def test_an_ordinal_with_no_set_of_the_querys_own_is_still_the_chats() -> None:
    chat = ("We're comparing three mortgage offers: Nationwide, Halifax and Santander.", "Halifax has the lowest fee.")
    assert "santander" in _expanded("what's the rate on the last one", *chat).lower()


def test_what_one_gives_back_is_the_thing_the_query_named() -> None:
    chat = ("Our neighbour's kids keep kicking footballs into our garden.", "You could talk to the parents.")
    query = "can I keep footballs that land in my garden, or do I have to give them back?"
    assert _expanded(query, *chat) == query


@pytest.mark.parametrize(
    ("chat", "query"),
    [
        (
            ("I inherited my gran's cast-iron skillet.", "Season it with a thin coat of oil at 230C for an hour."),
            "I fry eggs most mornings so how often should I season it?",  # a habit: the skillet is the chat's
        ),
        (
            ("My van won't start, the battery's flat.", "Try a jump start, or call breakdown cover."),
            "I rang breakdown cover and they want to tow it, should I let them?",  # "they" do the towing
        ),
        (
            ("How do I speed up our Docker builds?", "Use BuildKit cache mounts for the pip and npm caches."),
            "our builds run on fresh CI runners every time, does that still help?",  # whether the idea suits us
        ),
        (
            ("Are ice baths worth it after long runs?", "A ten-minute ice bath at 10 to 15C can ease soreness."),
            "I get Raynaud's in both of my hands every winter, is that risky?",  # whether the idea suits me
        ),
        (
            ("I have a fasting blood test on Friday morning.", "Only water from midnight before the test."),
            "I usually go for a run after waking up, can I have black coffee before?",  # my habit, the chat's test
        ),
        (
            ("I've got a second interview at Arup next week.", "Good luck! Prepare a short portfolio walkthrough."),
            "what should you wear to the interview?",  # no case of its own: Arup's interview
        ),
        (
            ("Postgres or DynamoDB for our event log?", "DynamoDB scales writes easily; Postgres is simpler to query."),
            "we'll get maybe 10 or 20 writes per second at peak, can the latter handle bursts?",  # amounts, no options
        ),
        (
            ("We bought a dehumidifier for the box room.", "A 12-litre one suits a small room."),
            "if I dry laundry indoors every day, can it keep up?",  # a habit: the dehumidifier is the chat's
        ),
    ],
)
def test_the_reviews_shapes_that_do_point_at_the_chat_are_still_rewritten(chat: tuple[str, str], query: str) -> None:
    assert _expanded(query, *chat) != query
