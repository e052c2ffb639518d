"""Query rewriting, twentieth pass: long questions that name their own matter. A complete question
asked in the middle of a chat, on a topic next to it, gets no chat topic appended to a definite
phrase it predicates itself ("our booking site still stores ..."), to "the same <noun>" it compares
within itself, or to a time word in a question of seven content words. Each rule has its
counter-cases, where a shorter follow-up still points at the chat. Also: verbs that open the chat's
sentences are no names."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.own_predicate import says_its_own
from mnemo.retrieve.rewrite.reference import Reference
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _rewrite(query: str, *turns: str):
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns))


_LOGIN = (
    "We're adding Apple and GitHub sign-in to our booking site.",
    "Social login is a good move; keep email login as a fallback for existing users.",
)
_EXPORT = (
    "Our nightly export job to S3 fails about once a week.",
    "Check the job logs for timeouts; S3 throttling shows up as 503 Slow Down errors.",
)


def test_a_definite_the_query_predicates_gets_no_topic() -> None:
    query = "our booking site still stores session tokens in localStorage, how risky is that really?"
    assert _rewrite(query, *_LOGIN).expanded == query


def test_a_short_question_about_a_definite_still_takes_the_chats_matter() -> None:
    result = _rewrite("is the fallback still needed?", *_LOGIN)
    assert result.was_rewritten
    assert "existing users" in result.expanded


@pytest.mark.parametrize(
    "query",
    [
        "the staging server answers fine from my laptop but the load balancer health check times out on the "
        "same endpoint, why would that be?",
        "my laptop reaches the api fine but the browser gets a CORS error on the same request, why?",
    ],
)
def test_the_same_noun_compared_within_the_query_gets_no_topic(query: str) -> None:
    assert _rewrite(query, *_EXPORT).expanded == query


def test_the_same_alone_still_repeats_the_chats_matter() -> None:
    result = _rewrite("why does the same error keep coming back?", *_EXPORT)
    assert result.was_rewritten
    assert "export" in result.expanded


def test_the_same_noun_without_a_comparison_of_the_querys_own_is_the_chats() -> None:
    chat = (
        "I painted our hallway in Farrow and Ball Hague Blue.",
        "A bold choice; it looks best with plenty of light.",
    )
    result = _rewrite(
        "would the same colour look too dark in a small north-facing bedroom with only one window?", *chat
    )
    assert "Hague Blue" in result.expanded


def test_news_of_the_chats_bare_definite_still_takes_its_topic() -> None:
    chat = (
        "We got a quote from a builder to repoint the chimney.",
        "Get at least two more quotes and check the builder is insured.",
    )
    result = _rewrite("the quote is 900 pounds for the chimney stack and flashing, does that sound fair?", *chat)
    assert result.was_rewritten


def test_a_time_word_counting_from_the_chats_time_keeps_the_topic() -> None:
    chat = ("My laptop fell off the sofa last night.", "Ouch. Check the hinges and whether the screen flickers.")
    result = _rewrite(
        "now the trackpad clicks on its own, which never happened before, is a repair worth paying for?", *chat
    )
    assert "laptop" in result.expanded


def _ref(query: str, text: str, kind: str) -> Reference:
    start = query.index(text)
    return Reference(text, kind, start, start + len(text))


def test_says_its_own_counts_the_querys_own_words() -> None:
    light = frozenset({"really"})
    long_one = "our booking site still stores session tokens in localStorage, how risky is that really?"
    assert says_its_own(long_one, [_ref(long_one, "our booking site", "implicit")], light)
    news = "the site is down again for an hour every night since the upgrade, why?"
    chat = "Our site runs on a small VPS."
    assert not says_its_own(news, [_ref(news, "the site", "implicit")], light, chat)  # the chat's site
    short_one = "our booking site is down, why?"
    assert not says_its_own(short_one, [_ref(short_one, "our booking site", "implicit")], light)
    # an object, not the subject of the query's own clause: "revert the change" leans on the chat
    command = "ask him to revert the change and tell me whether login errors drop after the deploy tonight"
    assert not says_its_own(command, [_ref(command, "the change", "implicit")], light)


def test_a_time_word_stands_alone_only_in_a_question_of_seven_words() -> None:
    timed = "how do I make pip install every package again from scratch without using its cache"
    assert says_its_own(timed, [_ref(timed, "again", "temporal")], frozenset())
    short = "can I install them again from scratch"
    assert not says_its_own(short, [_ref(short, "again", "temporal")], frozenset())


def test_a_verb_opening_the_chats_sentence_is_no_candidate() -> None:
    from mnemo.retrieve.rewrite.candidates import extract

    chat = said(
        "My son's teacher says he's distracted in class.",
        "Worth asking the teacher whether it happens in every lesson. Send the teacher a short note first.",
    )
    texts = {c.text for c in extract(chat)}
    assert "Worth" not in texts and "Send" not in texts
    assert "the teacher" in texts and "the teacher whether" not in texts  # "whether" opens a clause
    # a listed first name before a determiner is still a person: "Anna the ..." opens no command
    named = {c.text for c in extract(said("Anna the tutor moved our lesson to Friday.", "Noted."))}
    assert "Anna" in named
