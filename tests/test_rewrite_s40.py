"""Query rewriting, eighteenth pass: pointing back at a moment of the conversation ("what you
suggested at the start", "your original pick", "the index you gave me a few messages back", "what
we agreed on") and at a moment of the story the chat told, in words other than the specification's
list."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


_NAS = (
    "I need a simple NAS for family photos, about 2 TB.",
    "A Synology DS223j with two drives in RAID 1 is a good start. A used mini PC running TrueNAS is cheaper.",
    "I'd rather not tinker.",
    "Then stick with Synology; Synology Photos is easy for the rest of the family.",
)


@pytest.mark.parametrize(
    "query",
    [
        "which model did you suggest at the beginning of our chat",
        "which model did you recommend at the start",
        "remind me of your original suggestion",
        "what was the first thing you suggested",
    ],
)
def test_the_opening_reply_is_quoted_for_what_the_assistant_said_first(query: str) -> None:
    out = _expanded(query, *_NAS)
    assert "DS223j" in out
    assert out.startswith(query.split(" (")[0][:20])


def test_a_later_sentence_is_quoted_when_the_opening_reply_is_long() -> None:
    """The opening is quoted from its start; past the quoted length, from the sentence with the
    query's own word."""
    reply = " ".join(["Filler words about nothing in particular here."] * 6) + " Raise proxy_read_timeout in nginx."
    out = _expanded("which nginx setting did you have me change at the start", "502 from nginx on exports.", reply)
    assert "proxy_read_timeout" in out


def test_a_reply_a_few_messages_back_is_the_latest_that_shares_the_querys_word() -> None:
    out = _expanded(
        "does the index you gave me a few messages back slow down inserts much",
        "This query takes 9 seconds on orders by customer_id.",
        "Add a composite index on (customer_id, status, created_at).",
        "Done, it's 40ms now. The dashboard count is slow too.",
        "For counts over big tables, a materialized view refreshed every few minutes is better.",
    )
    assert "customer_id" in out
    assert "materialized" not in out


@pytest.mark.parametrize(
    ("query", "wanted", "unwanted"),
    [
        ("write a slack message to the team about what we agreed on", "URL", "Sounds good"),
        ("put the naming convention we settled on into CONTRIBUTING", "URL", "header"),
    ],
)
def test_what_we_agreed_on_is_the_chats_settling_sentence(query: str, wanted: str, unwanted: str) -> None:
    out = _expanded(
        query,
        "For our public API, should the version go in the URL or in a header?",
        "URL versioning is easier to cache; header versioning keeps URLs clean.",
        "Let's go with the URL then, most of our clients are mobile apps.",
        "Sounds good. Freeze v1 once v2 ships.",
    )
    assert wanted in out
    assert unwanted not in out
    assert not out.startswith("write a slack message to the team about what we agreed on (Sounds")


@pytest.mark.parametrize(
    "query",
    [
        "what should i say at the start of an interview",
        "what did you do at the start of the project",
        "should a beginner practise scales slowly at first",
    ],
)
def test_a_start_that_is_not_the_chats_is_left_alone(query: str) -> None:
    assert _expanded(query, *_NAS) == query


_OUTAGES = (
    "A couple of weeks back our staging database ran out of disk. Last night the prod replica fell 40 minutes"
    " behind. This morning the TLS cert expired.",
    "Add monitoring on certificate expiry.",
)


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("could the cron job have caused what happened last night", "replica"),
        ("draft a short postmortem for this morning", "cert"),
        ("what went wrong a couple of weeks back", "staging"),
        ("is the outage from last night related to the disk", "replica"),
    ],
)
def test_a_past_time_the_chat_told_of_is_what_it_told(query: str, wanted: str) -> None:
    out = _expanded(query, *_OUTAGES)
    assert wanted in out
    assert out.count("(") == 1  # one time, one quoted clause


@pytest.mark.parametrize(
    "query",
    [
        "what's the weather like this morning",
        "how do I check last night's cron output",  # a possessive names its own thing
        "what happened this morning in the news",
    ],
)
def test_a_past_time_without_a_pointing_frame_is_the_querys_own(query: str) -> None:
    assert "(" not in _expanded(query, *_OUTAGES)


def test_a_time_the_chat_never_told_of_is_left_alone() -> None:
    query = "draft a short postmortem for last weekend"
    assert _expanded(query, *_OUTAGES) == query


@pytest.mark.parametrize(
    ("query", "turns", "wanted", "unwanted"),
    [
        (
            "what was my average pace the first time",
            ("I ran a 10k in April in 52 minutes and another one in September in 49.", "Solid progress."),
            "April",
            "September",
        ),
        (
            "did IT ever explain the second outage",
            ("Last Friday the office Wi-Fi went down, and on Monday the VPN failed for everyone.", "Related?"),
            "VPN",
            "Wi-Fi",
        ),
        (
            "what went wrong on the first trip",
            ("We spent Christmas with my in-laws in Porto and Easter with my parents in Galway.", "Two trips!"),
            "Porto",
            "Galway",
        ),
        (
            "how do i avoid a repeat of that first time",
            (
                "Our baler jammed twice. The first time was in June, with damp hay. The second time a bolt snapped.",
                "Damp hay wraps easily.",
            ),
            "damp hay",
            "bolt",
        ),
    ],
)
def test_an_ordinal_picks_a_happening_from_the_sequence_told(
    query: str, turns: tuple[str, str], wanted: str, unwanted: str
) -> None:
    out = _expanded(query, *turns)
    assert wanted in out
    assert unwanted not in out


@pytest.mark.parametrize(
    "query",
    [
        "which was the first version of java to include lambdas",  # its own scope
        "what should I expect the first time I ride a bike",  # a clause in the present: any first time
        "which was the first version of java to include lambdas",  # a superlative of its own, Java or not
        "what should I do the first time I meet a horse",  # one happening told, no sequence
    ],
)
def test_an_ordinal_with_its_own_scope_is_left_alone(query: str) -> None:
    out = _expanded(query, "I rode a horse in May for the first time.", "How did it go?")
    assert out == query


def test_a_present_how_to_keeps_its_own_ordinal_after_a_dated_chat() -> None:
    query = "how do I mock a method in Jest so that it throws on the second call"
    turns = ("I called the bank on Monday, and then on Friday I called again.", "Did they fix the charge?")
    assert "Monday" not in _expanded(query, *turns)  # no happening quoted; other rules may add a topic
    assert "Friday" in _expanded("what did they say on the second call", *turns)


@pytest.mark.parametrize(
    ("query", "turns", "wanted"),
    [
        (
            "should i keep the old one in the repo",
            ("The old logo SVG is 40KB and the redesigned one is 6KB.", "The old one has embedded fonts."),
            "logo",
        ),
        (
            "list everything that breaks if i regenerate from the updated spec",
            ("The backend team sent an updated spec, v2, that renames customerId.", "Expect compile errors."),
            "v2",
        ),
        (
            "what about users still on the one from before the change",
            ("Last month we switched our password hashing from bcrypt to argon2id.", "Rehash on next login."),
            "bcrypt",
        ),
        (
            "when can we turn off the legacy one",
            ("We have the v1 REST endpoint and the new v2 GraphQL API.", "Keep v1 until the apps move."),
            "v1",
        ),
    ],
)
def test_the_old_or_new_side_is_what_the_chat_called_it(query: str, turns: tuple[str, str], wanted: str) -> None:
    assert wanted in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns"),
    [
        ("how do i roll back a package to the previous version with pip", ("We run v1 and v2.", "Fine.")),
        ("what was the difference between the original iphone and the 3g", ("My son wants an old iPhone.", "Ok.")),
        ("how do I find the latest version of a package on pypi", ("pip gives me v1.2 not v1.3.", "Pinned?")),
    ],
)
def test_a_general_before_or_after_is_left_alone(query: str, turns: tuple[str, str]) -> None:
    assert "(" not in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "wanted"),
    [
        (
            "how many sessions a week of the one you suggested",
            (
                "My mum wants to try yoga or aqua aerobics.",
                "Yoga has floor work.",
                "She can't get up easily.",
                "Then aqua aerobics is the better fit.",
            ),
            "aqua",
        ),
        (
            "can you tidy up the one you said to send",
            (
                "I have a short formal draft and a long one.",
                "Send the short formal one to HR and thank people in person.",
            ),
            "formal",
        ),
        (
            "is there a student discount on the plan we settled on",
            (
                "My gym has an off-peak plan and an anytime plan.",
                "Off-peak suits early risers.",
                "I work 9 to 5.",
                "Then the anytime plan makes more sense.",
            ),
            "anytime",
        ),
    ],
)
def test_what_the_assistant_recommended_is_its_recommending_sentence(
    query: str, turns: tuple[str, ...], wanted: str
) -> None:
    assert wanted in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "wanted"),
    [
        (
            "did they include fitting at first",
            (
                "Bright Windows quoted us 5200 in January. After we pushed back they came down to 4600 last week.",
                "Nice reduction.",
            ),
            "5200",
        ),
        (
            "why was the image so huge at first",
            (
                "Our Docker image was 1.8 GB when we used python:3.11 as the base. We moved to slim and it's 450 MB.",
                "A multi-stage build would cut it further.",
            ),
            "python:3.11",
        ),
        (
            "what openings was i playing when i first joined",
            ("I was rated 1200 when I joined the chess club in 2022 and I'm 1450 now.", "Steady progress!"),
            "chess club",
        ),
    ],
)
def test_the_beginning_of_a_told_story_is_its_earliest_clause(query: str, turns: tuple[str, str], wanted: str) -> None:
    assert wanted in _expanded(query, *turns)


@pytest.mark.parametrize(
    "query",
    [
        "who originally designed Rust, and is he still involved",  # history, not the chat's beginning
        "what key was the moonlight sonata originally written in",
        "is it normal to feel sore at first when you start lifting",  # no question about the past
    ],
)
def test_a_beginning_the_chat_does_not_tell_is_left_alone(query: str) -> None:
    out = _expanded(query, "I started lifting in March and switched to Rust at work in May.", "Nice.")
    assert "(" not in out


@pytest.mark.parametrize(
    ("query", "turns"),
    [
        (
            "what should I do the night before a job interview",
            ("I have a final-round interview at a consultancy on Thursday.", "Prepare two examples from your work."),
        ),
        (
            "how do I find the latest version of a package on pypi",
            ("pip install keeps giving me an old version of requests.", "You might have a pinned version."),
        ),
        (
            "is there any way to see what a postgres row looked like before an update",
            ("Someone ran an UPDATE without a WHERE clause.", "Restore to a moment before the update."),
        ),
    ],
)
def test_a_reference_with_an_indefinite_scope_of_its_own_is_left_alone(query: str, turns: tuple[str, str]) -> None:
    assert _expanded(query, *turns) == query


def test_a_follow_up_for_an_indefinite_still_swaps_in() -> None:
    """ "and for a 6 year old?" keeps its follow-up reading: "for a" is no scope of a reference."""
    out = _expanded(
        "and for a 6 year old",
        "how much paracetamol can an adult take in one day",
        "For a healthy adult the usual maximum is 4 grams in 24 hours.",
    )
    assert "paracetamol" in out


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("did we hit any bugs during the migration", "Polars"),
        ("how do we keep memory down since the switch", "Polars"),
    ],
)
def test_a_noun_of_change_takes_a_deed_any_verb_of_changing_told(query: str, wanted: str) -> None:
    turns = ("Our nightly ETL took 40 minutes. We moved it from pandas to Polars in May.", "What is the runtime?")
    assert wanted in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "wanted", "unwanted"),
    [
        ("the line you told me about, is it covered by the JR pass", "Kintetsu", "Nara"),
        ("the hotel you mentioned, is it pricey", "Granvia", "Kyoto"),
    ],
)
def test_a_back_referring_phrase_takes_the_name_its_head_noun_is_written_with(
    query: str, wanted: str, unwanted: str
) -> None:
    out = _expanded(
        query,
        "I'm planning a trip to Kyoto in April and need a hotel near the station.",
        "For Kyoto, Hotel Granvia sits on top of the station. For Nara, take the Kintetsu line, it's 45 minutes.",
    )
    assert wanted in out
    assert unwanted not in out


def test_the_users_own_opening_turn_for_what_i_mentioned_when_we_started() -> None:
    out = _expanded(
        "remind me about the cost issue with the backend i mentioned when we first started talking",
        "I'm building a habit tracker, probably React Native with Firebase.",
        "Firebase is quick to start with, but watch the read costs.",
        "Actually I'll start with a PWA.",
        "Good call. A PWA with IndexedDB keeps everything local.",
    )
    assert "React Native with Firebase" in out


def test_what_i_set_up_first_is_the_users_sentence_with_that_verb() -> None:
    out = _expanded(
        "how do i cleanly uninstall what i set up first",
        "When I set up this Mac I installed Homebrew first, and later switched to Nix for dev tools.",
        "Mixing both can get messy.",
    )
    assert "Homebrew" in out


def test_a_deed_the_user_did_at_a_told_time() -> None:
    out = _expanded(
        "which features did i drop this morning",
        "I trained a random forest this morning and got 0.81 AUC. This afternoon XGBoost got 0.86.",
        "Nice jump.",
    )
    assert "random forest" in out


def test_a_told_time_follows_the_one_person_the_pronoun_became() -> None:
    out = _expanded(
        "why did he pick that one back then",
        "Kai set up our VPN with OpenVPN in 2021, and Mia replaced it with Tailscale this spring.",
        "Tailscale is much easier to manage.",
    )
    assert "Kai" in out
    assert "2021" in out


def test_two_people_leave_the_time_to_the_anchor() -> None:
    """ "did he review her changes at the time": Hassan's and Julia's clauses both name one of them,
    so neither is taken by name."""
    out = _expanded(
        "did he review her changes at the time",
        "Hassan set up our Terraform repo last year, and Julia added the staging workspace in January.",
        "Is staging in sync with prod?",
    )
    assert "at the time (" not in out


@pytest.mark.parametrize(
    ("query", "turns", "wanted"),
    [
        (
            "is the new one still covered by the warranty",
            ("Our old washing machine was a Bosch. We replaced it with a Samsung in March.", "4C is a water error."),
            "Samsung",
        ),
        (
            "how many coats to get the room back to the way it was",
            ("I repainted our living room from white to a deep forest green.", "Dark colours can feel cosy."),
            "white",
        ),
        (
            "how do i put the prompt back the way it was",
            ("I switched my zsh prompt to agnoster. Before, I had the default robbyrussell theme.", "Install a font."),
            "robbyrussell",
        ),
    ],
)
def test_a_change_told_in_other_words_gives_its_sides(query: str, turns: tuple[str, str], wanted: str) -> None:
    assert wanted in _expanded(query, *turns)


def test_a_relative_time_a_statement_opens_on_is_what_it_told() -> None:
    out = _expanded(
        "do i need the document i got the week before to do the amendment",
        "I filed my tax return on January 30. The week before, I'd received a corrected P60 from my old employer.",
        "You may need to amend the return.",
    )
    assert "P60" in out


def test_a_relative_time_mid_sentence_keeps_the_anchor() -> None:
    """Only a statement that opens on "the week before" says what happened then."""
    out = _expanded(
        "what did i sign the week before",
        "I signed the lease on 3 May and moved in the week before the wedding.",
        "Congratulations!",
    )
    assert "the week before (" not in out


def test_a_told_time_follows_the_thing_a_demonstrative_became() -> None:
    out = _expanded(
        "who approved that push at the time",
        "We had two outages. In April a bad config push took down the load balancer. In June our DNS provider"
        " went down.",
        "The April one points at your change process.",
    )
    assert "April" in out
    assert "June" not in out
