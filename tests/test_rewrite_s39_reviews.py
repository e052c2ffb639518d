"""Query rewriting, seventeenth pass: the cases two reviews of the pass's rules found, where a rule
fired on a chat it should not have, and what the narrowed rules now do."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


# Harms a review of the first version of these rules found, now mended.
_REVIEWED = [
    # a counted "the same" carried over to other things is the chat's own
    (
        ("The memory leak in the auth service was an unclosed Redis pool; I fixed it there.", "Good catch."),
        "should we apply the same fix to both of the other services",
        "memory leak",
    ),
    # "is it true" with a qualifier after it still asks about the chat's claim
    (
        ("My uncle says leaving a phone charging overnight ruins the battery.", "Modern phones stop at 100%."),
        "is it true even for older iPhones",
        "charging",
    ),
    # what the user says of themselves is no report of trouble
    (
        (
            "I don't know much about cars, but my brakes squeal when I stop.",
            "Squealing often means the pads are worn down to the wear indicator.",
        ),
        "is it safe to drive with the problem for a week",
        "brakes squeal",
    ),
]


@pytest.mark.parametrize(("turns", "query", "wanted"), _REVIEWED)
def test_reviewed_cases_point_where_the_chat_says(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("turns", "query", "unwanted"),
    [
        # "the problem with X" names its own; a compound is no reference
        (
            ("My sourdough came out flat again.", "Check your starter's activity."),
            "what is the problem with p-values",
            "(",
        ),
        (
            ("The survey results look odd.", "Check the sample."),
            "how do I calculate the error margin for 400 people",
            "(",
        ),
        # "as usual" of the query's own thing is no habit the chat told
        (
            ("I started antibiotics yesterday for a sinus infection.", "Take them with food."),
            "should I keep taking my vitamins as usual while on them",
            "(i started",
        ),
        # "before" with its own object dates by it; "just" without "now" or a deed is no time
        (
            ("We used to rent a flat in Leeds.", "Renting has its perks."),
            "is the house I owned before the marriage still mine",
            "leeds",
        ),
        # a sentence that names nothing, or someone else's deed, is not what the phrase was
        (
            ("My iPhone was fine before.", "Which update did you install?"),
            "can I go back to the version I had before",
            "fine",
        ),
        (
            ("My roommate recently adopted a beagle.", "Beagles are lovely."),
            "is the membership I got recently refundable",
            "beagle",
        ),
        # a deed done to what the reply made is not the thing to repeat; the request is
        (
            (
                "Write a haiku about autumn leaves.",
                "Crimson leaves drift down...",
                "I printed it and stuck it on the fridge.",
            ),
            "another one please, about winter",
            "printed",
        ),
    ],
)
def test_reviewed_cases_leave_out_what_the_chat_does_not_say(turns: tuple[str, ...], query: str, unwanted: str) -> None:
    assert unwanted not in _expanded(query, *turns).lower()


# Harms a second review found, mended.
@pytest.mark.parametrize(
    ("turns", "query", "unwanted"),
    [
        # "I'm in X" is where the user is only when X is a place
        (
            ("I'm in a hurry, my train leaves at 6.", "The station is ten minutes away."),
            "can I get a taxi from here",
            "a hurry",
        ),
        # the settled choice is no place when another is named after it, or when it was never an option
        (
            (
                "Looking at gyms, the leisure centre or PureGym.",
                "Both are decent.",
                "I think I'll go for the leisure centre. My sister lives in Bristol, I'm visiting her next weekend.",
            ),
            "what's the weather going to be like there next weekend",
            "leisure centre",
        ),
        # "I'll go with a friend to ..." is company, not a choice
        (
            ("I'll go with a friend to the concert on Friday.", "Tickets are about £40."),
            "is that a good price",
            "friend",
        ),
        # a name with a bad-state word in it is no report; praise is none either
        (
            (
                "We're using the sticky header from the design system. The dropdown opens behind it.",
                "A stacking context.",
            ),
            "what's the fix for the problem",
            "(we're using",
        ),
        (
            ("The new candle smells amazing. It tunnels down the middle though.", "Burn it longer the first time."),
            "how do I fix the issue",
            "amazing",
        ),
        # a habit the query does not share a word with is not its "as usual"
        (
            ("I always run 5k on Sunday mornings.", "Nice routine."),
            "remind me to pick up the prescription as usual",
            "(I always",
        ),
        # what the user likes is no standard when it is a kind or an activity
        (
            ("I enjoy cooking on weekends. Last night I made a green curry.", "Green curry is great."),
            "what's a similar curry I could try next",
            "cooking",
        ),
        # a quoted phrase is no feature unless it says so
        (
            ("My manager said my report was 'good enough'. I just got the new iPhone 16.", "Congrats on the phone!"),
            "how do I turn off the feature",
            "(good enough)",
        ),
        # a possessive is no error name
        (
            ("My pushes to GitHub keep failing with 'remote: Permission denied'.", "Check your token scopes."),
            "is the issue GitHub's side or mine",
            "issue GitHub's side",
        ),
    ],
)
def test_second_review_cases_leave_out_what_the_chat_does_not_say(
    turns: tuple[str, ...], query: str, unwanted: str
) -> None:
    assert unwanted not in _expanded(query, *turns)
