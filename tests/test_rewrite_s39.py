"""Query rewriting, seventeenth pass: the reference words the specification lists ("earlier",
"last time", "again", "the same", "the other", "the problem", "the error", ...), in the queries that
point back with them and in the general questions that only use them."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


def test_a_day_pointer_after_another_rewrite_lands_on_its_own_words() -> None:
    """ "the place" is rewritten first and lengthens the query; "last time" is then found in the
    rewritten text, not at its old offset (which once spliced "Qulast time (a haircut)t")."""
    out = _expanded(
        "would the place from last time be quicker on a weekday",
        "Need a haircut Saturday. Last time I went to the walk-in place on Queen Street I waited an hour.",
        "On a busy Saturday the appointment-based barber could save you a lot of time.",
    )
    assert out.startswith("would the place on Queen Street from last time")
    assert out.endswith("be quicker on a weekday")
    assert "haircut" not in out  # the sentence that says "last time" dates the deed, not the message's first


def test_the_day_pointer_keeps_the_rest_of_the_query_whole() -> None:
    out = _expanded(
        "how do I avoid the mess from last time",
        "Setting up a new MacBook. Last time I installed everything with Homebrew and got in a mess with"
        " Python versions.",
        "For Python, manage versions with pyenv or uv rather than Homebrew's python.",
    )
    assert out.startswith("how do I avoid the mess with Python from last time")
    assert out.count("last time") == 1  # once spliced "last time (a new MacBook)om last time"


@pytest.mark.parametrize(
    ("turns", "query", "wanted", "unwanted"),
    [
        # the reply takes up one of two reports: "the bug" is that one
        (
            (
                "Two things in the shop frontend: the cart total shows NaN after removing the last item, and the"
                " checkout button overlaps the footer on small phones.",
                "The NaN is probably a reduce over an empty array with no initial value.",
            ),
            "does the bug also affect the saved cart",
            "nan",
            "footer",
        ),
        # no failure verb, but a report of trouble; the clause after "but" is the one that reports it
        (
            (
                "My landlord fixed the boiler last week, but the bathroom extractor fan is still broken.",
                "Put the request in writing so you have a record.",
            ),
            "what if he keeps ignoring the problem",
            "extractor fan",
            "boiler last week",
        ),
        # "the error" with no error named in the chat: the message the user quoted
        (
            (
                "The passport site says 'photo rejected: shadows on face'. My address saved fine.",
                "Stand facing a window so the light is even.",
            ),
            "can a photo shop make sure I don't get the error",
            "shadows on face",
            "address",
        ),
    ],
)
def test_a_problem_word_with_no_mention_of_its_own_is_the_trouble_the_user_reported(
    turns: tuple[str, ...], query: str, wanted: str, unwanted: str
) -> None:
    out = _expanded(query, *turns).lower()
    assert wanted in out
    assert unwanted not in out


def test_a_problem_word_the_chat_names_keeps_its_own_mention() -> None:
    out = _expanded(
        "is the bug fixed in 2.3",
        "There's a bug in the CSV exporter that drops the last row, and the app is slow to start.",
        "The exporter bug was fixed upstream.",
    )
    assert "exporter" in out.lower()
    assert "slow" not in out.lower()


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # the user's request, and what a later message wants the repeat for
        (
            (
                "Write a short birthday message for my colleague Ben, he's into cycling.",
                "Happy birthday, Ben! May your chain never slip.",
                "Perfect. Now I need one for my boss, Karen.",
            ),
            "like before, but a bit more formal",
            ("birthday message", "karen"),
        ),
        # the user's own deed
        (
            (
                "I just disabled password login over SSH on the web server. The database server still accepts them.",
                "Good move. Also set PermitRootLogin to no.",
            ),
            "walk me through doing the same on the db box",
            ("password login",),
        ),
    ],
)
def test_a_repeat_with_nothing_the_reply_told_is_the_users_own_request_or_deed(
    turns: tuple[str, ...], query: str, wanted: tuple[str, ...]
) -> None:
    out = _expanded(query, *turns).lower()
    assert all(word in out for word in wanted)


def test_a_need_is_no_deed_to_repeat() -> None:
    """ "I need one for products too" says what the repeat is for; it is not a deed ("need" ends in "ed")."""
    out = _expanded(
        "like before but ranked by units sold",
        "Write a SQL query that returns the top 10 customers by revenue.",
        "SELECT customer_id, SUM(amount) AS revenue FROM orders GROUP BY customer_id LIMIT 10;",
        "Thanks. I need one for products too.",
    )
    assert "(write a sql query that returns the top 10 customers by revenue, now for products too)" in out.lower()


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # the same speaker's sentence with the same time word says what the phrase was
        (
            (
                "We recently moved our logs from ELK to Loki. Label queries are fast.",
                "Loki indexes labels, not log content.",
            ),
            "was the tool we recently moved to a bad choice for audit searches",
            "loki",
        ),
        (
            ("Our API previously returned dates as unix timestamps; v2 returns ISO strings.", "Keep v1 alive a while."),
            "how do I parse the format we previously used in swift",
            "unix",
        ),
        # a time word between the speaker and the verb still points back, and the phrase's own word finds it
        (
            (
                "Uploads above 10MB still fail behind nginx.",
                "Django has its own limit, DATA_UPLOAD_MAX_MEMORY_SIZE, which defaults to 2.5MB.",
            ),
            "where do I put the django setting you previously mentioned",
            "data_upload_max_memory_size",
        ),
    ],
)
def test_a_phrase_the_query_says_was_said_before_is_what_was_said(
    turns: tuple[str, ...], query: str, wanted: str
) -> None:
    assert wanted in _expanded(query, *turns).lower()


def test_a_time_word_said_by_the_other_speaker_is_not_the_phrase() -> None:
    """ "we recently moved to" is the user's; the assistant's "recently" says nothing of it."""
    out = _expanded(
        "was the tool we recently moved to a good idea",
        "Our logs live in ELK.",
        "Grafana recently added a log explorer.",
    )
    assert "grafana recently added" not in out.lower()


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # the time word after the verb, and "before" said as "previously"
        (
            ("We used New Relic previously but dropped it over cost.", "Datadog's log pricing can get expensive too."),
            "roughly what were we paying for the tool we had before",
            "new relic",
        ),
        # "what" with no noun: the deed itself
        (
            ("I recently switched to a standing desk. My feet ache by the afternoon.", "Try an anti-fatigue mat."),
            "how long does it take to get used to what I recently switched to",
            "standing desk",
        ),
        # of two sentences with the time word, the one with the query's own verb
        (
            ("I recently started taking magnesium before bed. My sleep has been much better lately.", "Nice."),
            "could the supplement I started recently upset my stomach",
            "magnesium",
        ),
    ],
)
def test_a_deed_the_query_dates_with_a_time_word_is_the_sentence_that_dated_it(
    turns: tuple[str, ...], query: str, wanted: str
) -> None:
    assert wanted in _expanded(query, *turns).lower()


def test_a_problem_report_is_whole_inside_its_quotes_and_without_its_opener() -> None:
    out = _expanded(
        "could switching contexts get rid of the error",
        'kubectl apply gives "error: the server doesn\'t have a resource type deployments". I have two contexts.',
        "That message often shows up when kubectl points at the wrong cluster.",
    )
    assert "resource type deployments" in out
    out = _expanded(
        "would lazy loading fix the problem",
        "Our Lighthouse score on mobile dropped from 85 to 45. Also the designer flagged the footer links as wrong.",
        "A drop that big is usually a large unoptimised hero asset.",
    )
    assert "dropped from 85 to 45" in out  # "drop" takes up "dropped"
    assert "Also" not in out


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            ("For mum I always order tulips from the florist on Elm Street.", "That's a lovely tradition."),
            "remind me to place the order as usual on thursday",
            "tulips",
        ),
        # of two habits, the one with the query's own words
        (
            (
                "Every Sunday I call my grandma at 6pm. I usually run on Saturday mornings.",
                "Maybe call her on Saturday instead this week.",
            ),
            "then set a reminder for sunday as usual",
            "grandma",
        ),
    ],
)
def test_as_usual_is_the_habit_the_user_told(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in _expanded(query, *turns).lower()


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # "here" is where the user is now, not where they usually are
        (
            ("I'm at the Dublin office this week, normally I'm in London. The VPN here drops.", "Try TCP mode."),
            "who handles IT here",
            "dublin office",
        ),
        (
            (
                "I'm working from the public library today. At home the VPN connects fine.",
                "Public networks block ports.",
            ),
            "is there any other way to reach the intranet from here",
            "public library",
        ),
        # "there" is the place the user settled on
        (
            (
                "PureGym is 25 a month, the leisure centre is 40 but has a pool.",
                "If you'd swim, the pool is worth the extra 15.",
                "I think I'll go for the leisure centre, I miss swimming.",
            ),
            "can I get a student discount there",
            "leisure centre",
        ),
        # a bad state is trouble too; "crash reporting" is no crash
        (
            (
                "Hana made new icons; the marketing site uses the old set. The new icons look blurry on retina.",
                "Use SVG.",
            ),
            "did the problem show up on mobile too",
            "blurry",
        ),
        (
            (
                "Our app uses Sentry for crash reporting. Push notifications stopped arriving on Android 14.",
                "Android 13 and up need the POST_NOTIFICATIONS permission.",
            ),
            "will the permission fix the problem",
            "stopped arriving",
        ),
    ],
)
def test_where_here_and_there_are_and_what_went_wrong(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in _expanded(query, *turns).lower()


@pytest.mark.parametrize(
    ("turns", "query", "wanted", "unwanted"),
    [
        # a sentence opening on "Last time" says what happened then, up to where its clause ends
        (
            (
                "Backup restore test this week. Last time restoring the orders database took 6 hours, while the"
                " user files came back in 20 minutes.",
                "pg_restore -j could cut that down.",
            ),
            "was the index rebuild the slow part last time",
            "orders database took 6 hours",
            "user files",
        ),
        (
            ("Giving blood on Thursday. Last time I nearly fainted because I hadn't eaten.", "Have a proper meal."),
            "how do I avoid what happened last time",
            "nearly fainted",
            "thursday",
        ),
    ],
)
def test_last_time_is_what_the_sentence_that_said_it_tells(
    turns: tuple[str, ...], query: str, wanted: str, unwanted: str
) -> None:
    out = _expanded(query, *turns)
    assert wanted in out
    assert unwanted not in out.lower()


def test_a_day_possessor_is_no_dated_clause() -> None:
    out = _expanded(
        "should I roll back yesterday's change",
        "Yesterday's deploy added an index on events. Today write latency doubled.",
        "Every index adds write cost.",
    )
    assert "('s" not in out


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # what the assistant said: its sentence with the query's words
        (
            (
                "I'm comparing Redis and Memcached for session storage.",
                "For sessions either works. Redis gives you persistence, so sessions survive a restart.",
            ),
            "remind me what you said earlier about persistence",
            "redis gives you persistence",
        ),
        # "just now" with no word shared: the latest reply itself
        (
            ("How do I rest my sourdough?", "Just don't lift the lid while it proves."),
            "can you explain what you said just now about resting it",
            "lift the lid",
        ),
    ],
)
def test_what_the_assistant_said_is_its_sentence(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in _expanded(query, *turns).lower()


def test_what_the_assistant_said_earlier_needs_a_word_in_common() -> None:
    out = _expanded(
        "what was the other thing you mentioned earlier",
        "My bike chain keeps slipping.",
        "Check the derailleur hanger alignment.",
    )
    assert "derailleur" not in out.lower()


def test_as_usual_on_a_day_is_still_the_habit() -> None:
    out = _expanded(
        "remind me to place the order as usual on thursday",
        "For mum I always order tulips from the florist on Elm Street.",
        "That's a lovely tradition.",
    )
    assert "tulips" in out


def test_a_deed_told_with_a_capital_we_is_repeated_too() -> None:
    out = _expanded(
        "can we do the same for the scheduler",
        "We added a health check to the api service: curl -f http://localhost:8000/health every 30s.",
        "Nice, that catches hung processes.",
    )
    assert "health check" in out


_KYOTO = (
    "I'm planning a trip to Kyoto in April and need a hotel near Gion.",
    "Hotel Kanra and the Gion Hatanaka ryokan are both within walking distance of Gion.",
    "Also what's the best way from Kansai airport?",
    "Take the Haruka express to Kyoto Station, about 75 minutes.",
)


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        # the conversation's own turns: the user's opening, the assistant's latest
        ("what was my first question", "(I'm planning a trip to Kyoto in April"),
        ("what was the first thing I asked", "(I'm planning a trip to Kyoto in April"),
        ("what did I originally ask for", "(I'm planning a trip to Kyoto in April"),
        ("can you repeat your last answer but shorter", "(Take the Haruka express to Kyoto Station"),
    ],
)
def test_a_turn_of_the_conversation_is_that_turn(query: str, wanted: str) -> None:
    assert wanted in _expanded(query, *_KYOTO)


def test_one_more_time_is_no_pro_noun_and_the_first_thing_to_do_is_no_list_item() -> None:
    assert "more time" in _expanded("can you go over that one more time", *_KYOTO)
    assert "one more time" in _expanded("can you go over that one more time", *_KYOTO)
    assert "Hotel Kanra" not in _expanded("what's the first thing I should pack", *_KYOTO)
