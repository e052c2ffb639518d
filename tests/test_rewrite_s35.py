"""Query rewriting, thirteenth pass: clear queries that name their own antecedents or point at nothing.

Every query here is self-contained; after a chat with things and people of its own in it, the
rewriter must leave each one as it was.
"""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.candidates import extract
from tests.test_rewrite import said

pytestmark = pytest.mark.core

#: A chat with a thing, a man and places in it: what a false rewrite would reach for.
_BIKE_CHAT = said(
    "I finally repaired the old bike and took it out on Sunday.",
    "Nice! How did the new chain feel on the hills?",
    "Smooth. My brother Tom wants to borrow the bike next month.",
    "That's kind of you. Let me know if you need a maintenance checklist.",
)


def _untouched(query: str) -> None:
    result = QueryRewriter(cache_ttl=0).rewrite(query, _BIKE_CHAT)
    assert not result.was_rewritten, result.expanded
    assert result.expanded == query


@pytest.mark.parametrize(
    "query",
    [
        "I bought a new kettle and it leaks from the base; can I return a leaking kettle?",
        "My sourdough starter smells like acetone; is it dead?",
        "My neighbour's dog barks all night; how do I deal with it politely?",
        "How do I fix a leaky tap? It drips all night.",
    ],
)
def test_an_it_takes_up_the_thing_the_query_brought_in(query: str) -> None:
    _untouched(query)


@pytest.mark.parametrize(
    "query",
    [
        "What's it like to live in Oslo?",
        "What would it be like to work abroad for a year?",
        "Why is it colder at the top of a mountain?",
        "Why does it get darker earlier in winter?",
        "How do I make it stop raining on my parade, figuratively speaking?",
        "If someone cancels on you last minute, how do you tell them it's not okay?",
    ],
)
def test_an_it_of_experience_weather_or_situation_points_at_nothing(query: str) -> None:
    _untouched(query)


@pytest.mark.parametrize(
    "query",
    [
        "My landlord wants to raise the rent by 20%; can he legally raise it that much?",
        "My partner snores loudly; what can he try?",
        "My daughter wants a phone for her 10th birthday. Is she too young?",
        "A coworker keeps taking credit for my work; how should I handle him?",
        "When my dog sees another dog he barks like crazy; how can I train him to stay calm?",
    ],
)
def test_a_person_or_pet_the_query_names_is_its_own_pronouns_antecedent(query: str) -> None:
    _untouched(query)


@pytest.mark.parametrize(
    "query",
    [
        "Our new neighbours seem nice; what's a good housewarming gift to bring them?",
        "Why do people yawn when they see others yawn?",
    ],
)
def test_a_plural_the_query_names_is_its_own_they(query: str) -> None:
    _untouched(query)


@pytest.mark.parametrize(
    "query",
    [
        "What is this thing called when your foot falls asleep?",
        "Is this a good time to buy Bitcoin?",
        "This might be a silly question, but how do magnets work?",
        "That reminds me, how do I reset a router to factory settings?",
        "My friend Jake lent me his car and now he wants money for fuel; is that fair?",
    ],
)
def test_a_demonstrative_about_the_talk_or_the_moment_points_at_nothing(query: str) -> None:
    _untouched(query)


def test_a_pronoun_the_query_leaves_open_still_takes_the_chat() -> None:
    # the same shapes with nothing of the query's own before the pronoun still reach the chat
    rewriter = QueryRewriter(cache_ttl=0)
    assert "bike" in rewriter.rewrite("is it safe to ride it in the rain?", _BIKE_CHAT).expanded
    assert "Tom" in rewriter.rewrite("when does he want to pick it up?", _BIKE_CHAT).expanded
    # a thing after a preposition is no antecedent: "on it" is what the chat put someone on
    context = said("the doctor put me on amoxicillin for a sinus infection", "Finish the full course.")
    assert "amoxicillin" in rewriter.rewrite("can i have a beer while i'm still on it", context).expanded


@pytest.mark.parametrize(
    "query",
    [
        "Why do cats purr?",
        "How long do eggs last in the fridge and how can I tell if they've gone bad?",
        "Why does my cat knead blankets before she lies down?",
        "My landlord wants to raise the rent by 20%; can he do that?",
        "I've been feeling tired all the time lately, could it be my thyroid?",
        "That's a lot of information — can you summarise the key steps to start composting?",
        "I keep waking up at 3am. Why does that happen?",
        "What's this rash on my arm, and should I see a doctor?",
        "If someone cancels on you last minute, how do you tell them it's not okay?",
    ],
)
def test_a_question_that_states_its_own_subject_or_deed_points_at_nothing(query: str) -> None:
    _untouched(query)


@pytest.mark.parametrize("query", ["How often should I water?", "when should we feed?"])
def test_a_question_ending_on_a_bare_verb_takes_its_object_from_the_chat(query: str) -> None:
    context = said(
        "My tomato plants have blossom end rot.",
        "That's usually a calcium uptake problem caused by uneven watering.",
    )
    assert "tomato" in QueryRewriter(cache_ttl=0).rewrite(query, context).expanded


_DEPLOY_CHAT = said(
    "The payments API started returning 502s after we bumped nginx to 1.25.",
    "Check the upstream keepalive settings; 1.25 changed the default proxy_http_version handling.",
    "Priya rolled it back for now but she wants a proper fix by Friday.",
)


@pytest.mark.parametrize(
    "query",
    [
        "why does my python script say it can't find the module?",
        "my tests pass locally but fail in CI, why would that be?",
        "my docker container exits immediately after it starts, how do I debug it?",
        "how do i find which process is listening on port 8080 and kill it?",
    ],
)
def test_a_coding_question_that_names_its_own_thing_is_left_alone(query: str) -> None:
    result = QueryRewriter(cache_ttl=0).rewrite(query, _DEPLOY_CHAT)
    assert not result.was_rewritten, result.expanded


def test_whom_a_report_is_about_is_not_who_reports_it() -> None:
    context = said("I just adopted a rescue greyhound called Biscuit.", "Congratulations! Greyhounds sleep a lot.")
    rewritten = QueryRewriter(cache_ttl=0).rewrite("my vet says he is underweight, what should he eat?", context)
    assert "Biscuit" in rewritten.expanded
    # with nothing of the query's own before it, "why would that be" still asks about the chat
    assert QueryRewriter(cache_ttl=0).rewrite("why would that be?", _DEPLOY_CHAT).was_rewritten


@pytest.mark.parametrize(
    "query",
    [
        "will i make it to the gate in 40 minutes if security is slow?",
        "when it comes to saving for retirement, should i prioritise a pension or an ISA?",
        "is it just me or has youtube got way more ads lately?",
        "what is it about cats that makes them knock things off tables?",
        "if it helps, i'm on python 3.12 — how do i use the new type parameter syntax?",
        "believe it or not i've never cooked rice, how do i do it on the stove?",
        "it's my first time hosting thanksgiving, how big a turkey do i need for 8?",
        "it's up to me to pick the restaurant for our team lunch, any ideas near Kings Cross?",
        "i want to call it a day at 4pm on fridays, how do i ask my manager?",
        "as it turns out, my flight was overbooked; what compensation am i entitled to?",
        "it's getting late, what's a quick dinner i can make in 15 minutes?",
        "how would i go about it if i wanted to change my surname?",
    ],
)
def test_an_idiom_s_it_points_at_nothing(query: str) -> None:
    _untouched(query)


def test_it_after_an_idiom_s_words_still_takes_the_chat() -> None:
    # "make it" with an object is a deed on the chat's thing; "what's it about" asks about it
    rewriter = QueryRewriter(cache_ttl=0)
    assert "bike" in rewriter.rewrite("can he make it faster?", _BIKE_CHAT).expanded
    book = said("I'm reading Piranesi for my book club.", "Great pick, it's short and strange.")
    assert "Piranesi" in rewriter.rewrite("what's it about?", book).expanded


@pytest.mark.parametrize(
    "query",
    [
        "this is probably obvious but how do i take a screenshot on a mac?",
        "this is going to sound weird, but can dogs see colour?",
        "at this point should i just buy a new laptop instead of repairing an eight-year-old one?",
        "what's a good gift for a 5 year old in this economy?",
        "those of us who work nights, how should we schedule meals?",
        "for those who don't drink coffee, what's a good morning energy boost?",
        "these kinds of headaches behind my eyes, what causes them?",
        "this one time i ate a whole pizza and felt awful — is that normal?",
        "in this day and age, do people still send christmas cards?",
        "can you recommend some movies like those Studio Ghibli ones for kids?",
        "those noise-cancelling headphones everyone has, are they worth it for flights?",
    ],
)
def test_a_demonstrative_of_the_moment_or_of_a_kind_all_know_points_at_nothing(query: str) -> None:
    _untouched(query)


def test_those_ones_of_the_chat_still_take_the_chat() -> None:
    context = said(
        "Do I need a night guard?",
        "A custom guard costs about £300; boil-and-bite ones from a pharmacy are about £20.",
    )
    assert "boil" in QueryRewriter(cache_ttl=0).rewrite("are those cheap ones any good though", context).expanded


@pytest.mark.parametrize(
    "query",
    [
        "do babies dream, and if so what do they dream about?",
        "when people retire early, what do they usually do for income?",
        "the twins turn 3 next week; what presents would they like?",
        "how do airlines price tickets, and why do they change so often?",
        "i have two cats who fight constantly; how can i get them to get along?",
        "if my neighbours' tree hangs over my garden, can i ask them to cut it?",
    ],
)
def test_a_plural_the_question_is_about_is_its_own_they(query: str) -> None:
    _untouched(query)


def test_they_with_no_plural_of_the_querys_own_still_takes_the_chat() -> None:
    context = said("My grandparents are visiting from Cork next week.", "Lovely! How long are they staying?")
    assert "grandparents" in QueryRewriter(cache_ttl=0).rewrite("what can they do in Manchester?", context).expanded


def test_a_venue_the_chat_went_to_is_who_they_are() -> None:
    context = said("We had dinner at Dishoom last night.", "Oh nice, their black daal is famous.")
    assert "Dishoom" in QueryRewriter(cache_ttl=0).rewrite("do they take reservations?", context).expanded


def test_worth_and_a_gerund_with_no_object_is_worth_doing_to_the_chats_thing() -> None:
    context = said("I've got an old iPhone 11 with a cracked screen.", "A screen repair costs around £100.")
    rewriter = QueryRewriter(cache_ttl=0)
    assert "iPhone 11" in rewriter.rewrite("is it worth repairing or should i upgrade?", context).expanded
    # with its own object the gerund says what is worth it
    assert not rewriter.rewrite("is it worth learning Rust as a data engineer?", context).was_rewritten


@pytest.mark.parametrize(
    ("text", "name"),
    [("I've got an old iPhone 11 with a cracked screen.", "iPhone 11"), ("My Pixel 8 keeps rebooting.", "Pixel 8")],
)
def test_a_model_number_stays_with_its_name(text: str, name: str) -> None:
    assert any(c.text.endswith(name) for c in extract(said(text)))
    assert "the Golf 2 years" not in [c.text for c in extract(said("We sold the Golf 2 years ago."))]


def test_which_one_keeps_the_pair_the_asker_weighed() -> None:
    context = said(
        "I'm torn between the Kindle Paperwhite and the Kobo Clara.",
        "Both are great; the Kobo supports library loans via OverDrive.",
    )
    rewritten = QueryRewriter(cache_ttl=0).rewrite("which one has better battery life?", context).expanded
    assert "Kindle Paperwhite" in rewritten and "Kobo Clara" in rewritten
    assert "OverDrive" not in rewritten


def test_that_in_a_weighing_question_is_the_course_the_assistant_put_forward() -> None:
    context = said(
        "The CI pipeline takes 45 minutes now.",
        "You could cache the dependencies and split the test suite across runners.",
    )
    rewritten = QueryRewriter(cache_ttl=0).rewrite("would that work on github actions?", context).expanded
    assert "cache the dependencies" in rewritten
    # a plain statement of fact offers no course: "that" stays the thing the chat is about
    plain = said("The CI pipeline takes 45 minutes now.", "That is long for a project of this size.")
    assert "cache" not in QueryRewriter(cache_ttl=0).rewrite("would that work on github actions?", plain).expanded


_PORTO_CHAT = said(
    "We're thinking of spending a long weekend in Porto in May.",
    "Porto is lovely in May: mild weather and fewer crowds than summer.",
)


@pytest.mark.parametrize(
    "query", ["Any good seafood restaurants?", "what are the best things to do on a rainy day?", "any nice cafes?"]
)
def test_a_question_after_places_to_go_takes_the_town_the_chat_named(query: str) -> None:
    assert "in Porto" in QueryRewriter(cache_ttl=0).rewrite(query, _PORTO_CHAT).expanded


@pytest.mark.parametrize(
    "query",
    [
        "what are the best museums in Paris?",
        "any good restaurants near me for a birthday dinner?",
        "in japan do they expect you to tip at restaurants?",
        "how far is Hotel Artemide from Roma Termini on foot",
        "What does Amara need to bring for the science museum trip on the 14th?",
    ],
)
def test_a_venue_question_that_places_itself_is_left_alone(query: str) -> None:
    assert "Porto" not in QueryRewriter(cache_ttl=0).rewrite(query, _PORTO_CHAT).expanded


@pytest.mark.parametrize(
    "query",
    [
        "my friend keeps cancelling plans last minute, how do i talk to her about it?",
        "my son wants a pet snake, are they easy to look after?",
        "my code works on my machine but fails in docker, any idea why that happens?",
        "the new intern keeps asking me for help, how do i set boundaries with him without being rude?",
        "my toddler bites other kids at nursery, how do i stop him?",
    ],
)
def test_a_situation_or_a_person_the_query_tells_of_is_its_own(query: str) -> None:
    _untouched(query)


def test_a_situation_it_needs_the_querys_own_clause() -> None:
    context = said("Our neighbour's new security light shines into our bedroom all night.", "That sounds annoying.")
    rewritten = QueryRewriter(cache_ttl=0).rewrite("how do i bring it up without sounding rude?", context).expanded
    assert "security" in rewritten  # (the candidate stops at three words: "new security", noted)
