"""Query rewriting, seventeenth pass: the specification's reference words ("again", "the same", "the
other", "the error", "like before", "as usual", "last time") in general questions that frame them
themselves and point at nothing in the chat - and the near cases that still point back."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


_ROUTER = (
    "My home server keeps dropping off the network after the router reboots.",
    "Give the server a DHCP reservation so it always gets the same address.",
)


@pytest.mark.parametrize(
    "query",
    [
        # "the same" with a noun of its own, spread over what the query counts
        "why do people wake up at the same time every night",
        "can two containers listen on the same port",
        "why would a router give the same ip address to two devices",
        # "again" in a question about how something works, with its own subject
        "why does useEffect run again when none of the dependencies changed",
        "what does it mean when the engine light comes on and then goes off again",
        "is it true house prices always go up again after a crash",
        # a pair the query sets up itself
        "how do I stop one monitor from mirroring the other on windows 11",
        "if I lose one airpod can I buy another one on its own",
        # a problem word that is half of a compound, or named in the query
        "is the feature flag approach better than long-lived release branches",
        "what does the error DNS_PROBE_FINISHED_NXDOMAIN mean in chrome",
        "what's the usual way to handle the problem of conflicting edits in offline-first apps",
    ],
)
def test_listed_words_the_query_frames_itself_are_left_alone(query: str) -> None:
    assert _expanded(query, *_ROUTER) == query


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # no noun of its own and nothing counted: "the same" is what the chat did
        (
            ("Can you write a cron entry that backs up the prod database every night?", "0 2 * * * backup.sh prod"),
            "can you do the same for staging",
            "cron entry",
        ),
        # "that one" is no numeral: "the other" is still the other test of the chat's pair
        (
            ("Two tests fail: test_refund_partial and test_refund_full.", "Both fail on the rounding of the total."),
            "fix that one and rerun the other",
            "test_refund_full",
        ),
        # "is it true?" with nothing after it asks about the chat's claim
        (
            ("My uncle says leaving a phone charging overnight ruins the battery.", "Modern phones stop at 100%."),
            "so is it true?",
            "charging",
        ),
    ],
)
def test_listed_words_without_a_frame_of_their_own_still_point_back(
    turns: tuple[str, ...], query: str, wanted: str
) -> None:
    assert wanted in _expanded(query, *turns).lower()


@pytest.mark.parametrize(
    "query",
    [
        "can you catch the flu twice in the same season",
        "how do I see the last time a file was changed in git",
        "when was the last time uk house prices actually fell",
        "how do I make pytest rerun only the tests that failed last time",
        "can a monstera grow back like before after root rot",
        "how do I get back to running like before after a knee injury",
        "if you fail your driving test can you book again straight away",
        "how do I join a table to itself to compare rows with the same customer id",
        "can I use the same power supply for a raspberry pi 4 and a pi 5",
        "is there a similar drink to coffee without the caffeine crash",
        "what does the error AccessDenied when calling AssumeRole mean in aws",
        "in jira how do I change the issue type from bug to story",
    ],
)
def test_more_listed_words_the_query_frames_itself(query: str) -> None:
    assert _expanded(query, *_ROUTER) == query


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # "the last time" ending the query asks about the chat's last time
        (
            ("Last time we renewed the certificate by hand through Namecheap.", "Certbot can automate it."),
            "what steps did we follow the last time",
            "certificate",
        ),
        # "the same fix to both services" gives the chat's fix to them: no standard of its own
        (
            ("The memory leak in the auth service was an unclosed Redis pool.", "Good catch."),
            "can you apply the same fix to both services",
            "memory leak",
        ),
    ],
)
def test_listed_words_with_nothing_of_their_own_after_them_still_point_back(
    turns: tuple[str, ...], query: str, wanted: str
) -> None:
    assert wanted in _expanded(query, *turns).lower()


@pytest.mark.parametrize(
    "query",
    [
        "do identical twins have the same fingerprints",
        "are utf-8 and unicode the same thing",
        "how similar are crocodiles and alligators",
        "after upgrading to python 3.12 can I still use distutils like before",
        "how do I get the full right-click menu in windows 11 like before in windows 10",
        "should I take my blood pressure pills as usual before a colonoscopy",
        "is it okay to go to work as usual with a mild cold",
        "if you lose your passport abroad how quickly can you get another one",
        "my raspberry pi's sd card just died - should I buy another one or boot from usb",
        "what does the error code 4C mean on a samsung washing machine",
        "what does the error 'card declined - do not honor' mean",
        "what was the bug behind the heartbleed vulnerability",
        "what is the bug that causes winter vomiting outbreaks",
        "is the bug repellent deet safe to use on toddlers",
        "what does the feature importance chart in xgboost actually measure",
        "how do I turn on the feature on an iphone that reads text messages out loud",
        "is it a myth that we only use 10 percent of our brains",
    ],
)
def test_general_questions_with_listed_words_are_left_alone(query: str) -> None:
    chat = ("I've been sleeping badly and my phone keeps crashing.", "Try a fixed bedtime and update the phone.")
    assert _expanded(query, *chat) == query


def test_again_after_the_querys_own_object_is_its_own_repeat() -> None:
    chat = ("I gave blood last week and felt faint.", "Have a proper meal beforehand next time.")
    query = "how soon can you give blood again after donating whole blood"
    assert _expanded(query, *chat) == query


def test_again_with_a_definite_after_it_still_points_back() -> None:
    out = _expanded(
        "when can i have coffee again after the extraction",
        "I'm having my wisdom teeth out on Friday.",
        "Avoid hot drinks for the first day.",
    )
    assert "wisdom teeth" in out


def test_similar_is_read_against_the_words_before_it() -> None:
    """ "similar" is seven letters, not eight: the words before it are the query's own up to it."""
    chat = ("My sister Anna keeps getting my post.", "Ask the sorting office to check the names.")
    query = "do siblings with similar names get their post mixed up"
    assert _expanded(query, *chat) == query
