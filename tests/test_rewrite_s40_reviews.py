"""Query rewriting, eighteenth pass: the cases a review of the pass found rewritten wrongly, each a
general question or the user's own situation that uses the new rules' words."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


@pytest.mark.parametrize(
    ("query", "turns"),
    [
        # a generic "you" gives advice; it is no assistant's turn
        (
            "in a job interview, how long should your first answer be?",
            ("I have a panel interview on Friday.", "Prepare a two-minute story about your last project."),
        ),
        (
            "what should you say at the start when meeting someone's parents?",
            ("I'm meeting my partner's parents on Sunday.", "That's very normal to be nervous. Bring a small gift."),
        ),
        (
            "what happens if the candidate you picked turns down the offer?",
            (
                "We're hiring a backend engineer.",
                "Use a structured interview with the same questions for each candidate.",
            ),
        ),
        (
            "what's a fair way to split the prize if we landed on second place?",
            ("Our pub quiz team of four is choosing a name.", "Quiz Akabusi is a classic."),
        ),
        # news of a place, a public product, history: not the chat's
        (
            "what did the news say about the dog attack from a few days ago in Leeds?",
            ("I adopted a rescue dog from the shelter a few days ago.", "Congratulations!"),
        ),
        (
            "is the new iPhone worth upgrading to this year?",
            ("I switched from Android to an iPhone 13 last year.", "How do you like it?"),
        ),
        ("what's new in the latest Django release?", ("We upgraded Python from 3.10 to 3.12.", "Nice.")),
        (
            "the first time I tried sushi I hated it, is that common?",
            (
                "I tried a ramen place in January and an Ethiopian restaurant last week.",
                "Both are great ways to explore.",
            ),
        ),
        (
            "did the Beatles struggle at first?",
            ("I started a band with friends in 2022 and we played our first gig last month.", "Exciting!"),
        ),
        (
            "did humans farm wheat or barley at first?",
            ("I started a vegetable garden in April, and in June I added beans.", "Lovely."),
        ),
        (
            "is it normal to feel tired at first on a new medication?",
            ("I started sertraline in March and then upped the dose in May.", "How are you feeling?"),
        ),
        (
            "what should I know when I first join a yoga studio?",
            ("I joined a climbing gym in May.", "Great way to stay fit."),
        ),
    ],
)
def test_a_general_question_with_the_new_rules_words_is_left_alone(query: str, turns: tuple[str, str]) -> None:
    assert _expanded(query, *turns) == query


@pytest.mark.parametrize(
    ("query", "turns"),
    [
        # the second review's cases: a topic of the query's own after the reference
        (
            "summarize the top tech news from last week",
            ("Last week I started a new job as a data engineer.", "Congrats!"),
        ),
        (
            "what happened a while back to the Alaska Airlines door plug?",
            ("A while back I flew on a 737 MAX to Malaga and it was fine.", "Good to hear."),
        ),
        (
            "the first time I tried kombucha I got a headache, is that normal?",
            ("I started my first kombucha batch on 1 May and a second one on 20 May.", "How did they turn out?"),
        ),
        (
            "what should I bring to my first appointment with a physiotherapist?",
            ("My first appointment with the GP was on 4 March and the second on 18 March.", "Glad it's moving."),
        ),
        (
            "did people like the last game in the Zelda series?",
            ("We played five-a-side on Monday and another on Wednesday.", "Busy week!"),
        ),
        (
            "will offices ever go back to the way they were before covid?",
            (
                "We switched from fully remote to hybrid in January, three days in the office.",
                "How is it going?",
                "Mixed.",
            ),
        ),
        (
            "what was the original coffee house in London called?",
            ("We switched our office coffee from Nespresso pods to a bean-to-cup machine.", "Nice upgrade."),
        ),
        (
            "was it common for people to rent at first before buying in the 1950s?",
            ("We rented a flat in 2015 and bought a house in 2022.", "Big step."),
        ),
        (
            "what triggers the migration of monarch butterflies each autumn?",
            ("We moved our CI from Jenkins to GitHub Actions.", "Good choice."),
        ),
    ],
)
def test_a_query_with_a_topic_of_its_own_after_the_new_rules_words_is_left_alone(
    query: str, turns: tuple[str, ...]
) -> None:
    assert _expanded(query, *turns) == query


def test_a_told_time_follows_the_doer_not_a_possessor() -> None:
    out = _expanded(
        "what did she say about his vision back then?",
        "My grandpa saw a cardiologist in June. Then in August my aunt took him to the eye clinic.",
        "How is he doing now?",
    )
    assert "August" in out


def test_a_whole_capitalised_name_replaces_the_phrase_it_heads() -> None:
    out = _expanded(
        "is the path you mentioned lit at night?",
        "Any flat cycle routes near Bristol?",
        "Try the Bristol and Bath Railway Path, it's traffic-free for 13 miles.",
    )
    assert "Bristol and Bath Railway Path" in out
    assert "path Bristol" not in out


def test_a_quote_never_ends_on_a_dangling_word() -> None:
    out = _expanded(
        "give me a template for a postmortem for last night",
        "Last night our Postgres primary ran out of disk and the checkout service was down for two hours because"
        " nobody got paged.",
        "Ouch.",
    )
    assert "last night (" in out
    inside = out.split("(", 1)[1].rstrip(")")
    assert inside.split()[-1].lower() not in {"for", "the", "of", "and", "was", "by"}


def test_the_opening_names_are_quoted_once() -> None:
    out = _expanded(
        "check if the names you suggested at the beginning of our chat are trademarked",
        "I'm opening a bakery in Bristol and need a name.",
        "How about Crumb & Co, The Rising Loaf, or Flour Power?",
        "Something more local?",
        "Then Clifton Crust or Harbourside Bakes.",
    )
    assert "Crumb" in out
    assert "Clifton" not in out
