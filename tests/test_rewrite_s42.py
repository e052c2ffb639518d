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


#: Long questions after a chat on a nearby topic whose pointers the question answers itself; each
#: chat offers a referent of the right kind to take wrongly.
_OWN_LONG = [
    (
        (
            "I'm doing a speech at my sister's wedding next month, she's asked for max 5 minutes",
            "Five minutes is about 600 words: a warm opening, a story about your sister, a kind word about her "
            "partner, and a toast.",
        ),
        "my best friend's wife just had a baby, is it weird to send her flowers or should I send something to both "
        "of them?",
    ),
    (
        (
            "our CTO wants to move everything to kubernetes, we have 4 services and 3 devs",
            "For a team that size a managed platform like Cloud Run or Fly.io is simpler. Ask him what problem he's "
            "trying to solve.",
        ),
        "our new product manager wants daily standups to last 45 minutes, how can I tell him politely that it's far "
        "too long?",
    ),
    (
        (
            "I want to go from dark brown to blonde, can I do it at home?",
            "Going that much lighter at home is risky, because box bleach often turns dark hair orange. A salon "
            "colourist can lift it gradually.",
            "ok salon it is, booked for next friday",
        ),
        "is it true you shouldn't wash your hair the day before getting it coloured at a salon?",
    ),
    (
        (
            "should I pin exact versions in requirements.txt or use ranges?",
            "For applications, pin exact versions with a lock file from pip-tools or poetry so builds are "
            "reproducible. Update the pins with something like Dependabot.",
        ),
        "my integration tests pass on my laptop but they time out on the build server, what are the usual reasons "
        "for that?",
    ),
    (
        (
            "setting up an ingress controller on our eks cluster, nginx or the aws load balancer controller?",
            "The AWS Load Balancer Controller provisions ALBs and integrates with ACM certificates and WAF. "
            "ingress-nginx runs inside the cluster behind a single NLB.",
        ),
        "the staging database in our aws account costs more per month than production, what would usually cause that?",
    ),
    (
        (
            "what's the idiomatic way to do structured logging in go these days?",
            "Since Go 1.21 the standard library has log/slog, which supports key-value structured logging with JSON "
            "or text handlers.",
        ),
        "in go, if two goroutines write to the same map at the same time, does that always crash or only sometimes?",
    ),
    (
        (
            "training a resnet on 20k images, accuracy is stuck at 60%",
            "Check your learning rate first, and make sure augmentation isn't too aggressive. Starting from "
            "pretrained ImageNet weights usually helps a lot with 20k images.",
            "pretrained weights got it to 85%",
        ),
        "if validation loss starts going up after epoch 10 while training loss keeps falling, should I just stop "
        "training at that point?",
    ),
    (
        (
            "I'm setting up nginx as a reverse proxy in front of a ghost blog on a small VPS. what should I enable?",
            "Redirect HTTP to HTTPS, get a certificate with certbot, and enable gzip for text assets.",
        ),
        "what exactly is HTTP/3, and is it worth the effort of enabling it on a small personal website?",
    ),
    (
        (
            "setting up a monorepo with turborepo, should each app have its own tsconfig?",
            "Usually yes: a shared base tsconfig in a packages/config folder, and each app extends it with its "
            "own settings.",
        ),
        "is it normal for node_modules to be 1.5GB for a fairly simple next.js app, or does that suggest something "
        "is wrong?",
    ),
    (
        (
            "my flask app uses sqlite and I sometimes get 'database is locked' when two requests write at once",
            "SQLite allows only one writer at a time. Keep write transactions short and set a busy timeout.",
            "set a 5 second timeout, errors mostly gone",
        ),
        "what does WAL mode in sqlite actually do, and can I turn it on for a database file that already has data "
        "in it?",
    ),
    (
        (
            "our emails from the shop are landing in gmail spam, what should I check?",
            "Set up SPF, DKIM and DMARC records for your domain.",
            "SPF was missing the shopify include, fixed",
        ),
        "this is probably a silly question, but what's the actual difference between a domain registrar and a DNS "
        "host?",
    ),
]


@pytest.mark.parametrize(("chat", "query"), _OWN_LONG)
def test_a_long_question_answers_its_own_pointers(chat: tuple[str, ...], query: str) -> None:
    assert _rewrite(query, *chat).expanded == query


def test_an_object_him_after_a_person_the_query_does_not_open_with_is_still_the_chats() -> None:
    chat = ("My dad keeps forgetting to call the plumber, Gary, about the leak.", "Maybe text Gary yourself?")
    assert "Gary" in _rewrite("did my dad ever call him back?", *chat).expanded


def test_a_time_pointer_after_a_question_of_the_querys_own_still_counts_from_the_chat() -> None:
    chat = ("I stopped the couch to 5k plan at week 4 when I got ill.", "Rest until you feel fully well.")
    result = _rewrite("should i restart from week 1 or pick up where i was before that?", *chat)
    assert result.was_rewritten


def test_my_son_several_words_on_is_the_querys_he() -> None:
    chat = (
        "my 7 year old daughter is scared of putting her face in the water at swimming lessons",
        "That's common. Practising in the bath and letting her wear goggles often helps.",
    )
    query = (
        "my 4 year old son still naps for two hours every afternoon, is he too old for that and could it be why his "
        "bedtime is so late?"
    )
    expanded = _rewrite(query, *chat).expanded
    assert "is he too old" in expanded and "why his bedtime" in expanded  # not the chat's 7 year old


def test_a_that_asked_about_the_chats_thing_is_still_resolved() -> None:
    chat = ("I'm setting up nginx as a reverse proxy for my blog.", "Redirect HTTP to HTTPS and get a certificate.")
    assert _rewrite("what is that, and do I need it?", *chat).was_rewritten
    # "is this a silly question?" asks about the chat's question, no apology of its own
    assert _rewrite("is this a silly question?", *chat).was_rewritten


#: The second review's chat-pointing cases: each shape above, where the pointer is the chat's.
_CHATS_OWN = [
    (
        (
            "My son Leo starts secondary school in September and he's really anxious about it.",
            "That's very common. Does he know anyone going to the same school?",
        ),
        "our lovely new neighbour teaches there, could I ask her to have a chat with him?",
        "Leo",
    ),
    (
        (
            "My brother Sam just got diagnosed with type 1 diabetes at 30.",
            "That must be a shock. Adult-onset type 1 is more common than people think.",
        ),
        "my 9 year old nephew keeps asking whether he'll have to inject forever, what's a gentle way to explain it?",
        "Sam",
    ),
    (
        (
            "Our Kafka consumer lag keeps growing during the nightly batch job.",
            "How many partitions and consumers do you have?",
        ),
        "we have 12 partitions and 12 consumers in one group, what would usually cause that?",
        "lag",
    ),
    (
        (
            "We're planning to hike the Alta Via 1 in the Dolomites in late October.",
            "That's very late in the season; most rifugi close by late September.",
        ),
        "if the weather holds and we carry a tent, are the trails themselves still passable at that point?",
        "October",
    ),
    (
        (
            "The mechanic found a cracked serpentine belt on my Civic.",
            "That would explain the squealing you mentioned.",
        ),
        "my brother-in-law is a mechanic too and reckons that also explains the battery warning light, is he right?",
        "belt",
    ),
    (
        (
            "I bought a Dyson V15 last month and the battery is already dying after 10 minutes.",
            "That's not normal for a new unit.",
        ),
        "what's covered under warranty? can I send it back for free?",
        "Dyson",
    ),
    (
        ("Our frontend team wants to store JWTs in localStorage.", "Many do, but it's exposed to XSS."),
        "is it considered bad practice for a banking app?",
        "localStorage",
    ),
]


@pytest.mark.parametrize(("chat", "query", "word"), _CHATS_OWN)
def test_the_same_shapes_still_point_at_the_chat(chat: tuple[str, ...], query: str, word: str) -> None:
    assert word in _rewrite(query, *chat).expanded
