"""Query rewriting, fifteenth pass: clear queries that set up their own situation, quote, pair,
person, time, place or thing, and idioms whose "it" or "that" stands for nothing (own_situation.py).
Each clear case comes with a chat full of tempting referents; the guards show the same words still
resolve when the query leaves its referent to the chat."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.candidates import extract
from tests.test_rewrite import said

pytestmark = pytest.mark.core

#: A chat with people, things, dates and places a careless resolver could put in a clear query.
_BUSY = (
    "My sister Ines is visiting from Porto on 3 June, and I still need to fix the garden gate.",
    "Sounds busy! Mr Osei the carpenter could look at the gate on Friday.",
)


def _rewrite(query: str, *turns: str) -> tuple[bool, str]:
    result = QueryRewriter(cache_ttl=0).rewrite(query, said(*(turns or _BUSY)))
    return result.was_rewritten, result.expanded


@pytest.mark.parametrize(
    "query",
    [
        # the query's own statement, then a question about it
        "my flatmate wants to move his girlfriend in — how do we split the bills for a change like that?",
        "my manager keeps scheduling calls at 7pm, should I point it out to her?",
        "my son says he's being teased at football — how do I bring it up with the coach?",
        # a quotation or material of the query's own
        'my landlord wrote "the deposit is subject to review" — what does that usually mean?',
        "I keep getting this warning: DeprecationWarning: pkg_resources is deprecated — how do I silence it?",
        "who sang 'Don't Stop Me Now', and when did they release it?",
        # a claim reported, a condition stated
        "I heard somewhere that cracking your knuckles causes arthritis — is there any truth to that?",
        "people say you lose most heat through your head — where did that idea come from?",
        "if I overpay my mortgage by 200 a month, will that shorten the term much?",
        "if the bank rate falls and stays low, do I pay less then?",
        "how long should you leave a steak to rest, or is that a myth?",
        "these are the lines I wrote: 'I'll be there for you' — do they sound cheesy?",
        "that's the thing about night shifts, nobody sees you — how do I stay visible at work?",
    ],
)
def test_a_query_about_its_own_statement_is_left_alone(query: str) -> None:
    assert _rewrite(query) == (False, query)


@pytest.mark.parametrize(
    "query",
    [
        "why is it that cats knead blankets?",
        "who painted The Kiss — was it Klimt or Schiele?",
        "it's about time I learned to swim, where do adults start?",
        "it's been three years since I serviced my bike, what should be checked?",
        "how long does it usually take to get a new passport?",
        "how do I tell a friend I'm busy without her taking it personally?",
        "my colleague is pregnant and asked me to keep it quiet, how do I plan a gift?",
        "my brother is struggling at uni, how do I help without making it worse?",
    ],
)
def test_an_idiom_or_cleft_it_is_no_reference(query: str) -> None:
    assert _rewrite(query) == (False, query)


@pytest.mark.parametrize(
    "query",
    [
        "how do I get rid of mould on a shower seal? it keeps coming back",
        "how long should you rest a roast joint after it comes out of the oven?",
        "why is the sea salty? explain it like I'm 10",
    ],
)
def test_an_it_after_a_thing_the_query_names_is_left_alone(query: str) -> None:
    assert _rewrite(query) == (False, query)


@pytest.mark.parametrize(
    "query",
    [
        "how do I ask a personal trainer if she'll do a session at home?",
        "what's a good gift for a grandad who says he has everything?",
        "how do I tell a new hire their code needs more tests?",
        "who founded Wikipedia, and when did he launch it?",
        "what age do children usually lose their baby teeth?",
        "do salespeople earn commission, and how do they get paid?",
        "those little stickers that come on fruit — are they edible?",
    ],
)
def test_people_the_query_brings_in_are_its_own(query: str) -> None:
    assert _rewrite(query) == (False, query)


@pytest.mark.parametrize(
    "query",
    [
        "how long is a driving licence valid for after you pass?",
        "what should you eat before running a half marathon?",
        "how many symphonies did Ludwig Beethoven write before he went deaf?",
        "what did people wear in the 1920s, and how did they wash clothes back then?",
        "what's the weather like in Seville in October, and can you swim there?",
        "what's the difference between a latte and a flat white, and can you swap one for the other?",
        "what's the difference between TCP and UDP, and which of them is faster?",
        "can you use niacinamide and vitamin c in the same routine?",
        "do the same parking rules apply to motorbikes as to cars?",
        "my grandad tells the same jokes over and over, is that normal at 90?",
        "when did the First World War end?",
        "do I need a visa to visit Japan from the UK?",
        "what's that law where you have to clear snow from the pavement called?",
    ],
)
def test_a_time_place_pair_or_name_of_the_querys_own_is_left_alone(query: str) -> None:
    assert _rewrite(query) == (False, query)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "how should I respond to a comment like that?",
            ("My colleague Dana said my report was 'a bit thin'.", "That sounds like feedback on depth."),
            "bit thin",
        ),
        ("when will it be ready?", ("I started a sourdough starter on Monday.", "Feed it daily."), "sourdough"),
        (
            "which of them has better battery life?",
            ("I'm comparing the Kindle and the Kobo.", "Both are good e-readers."),
            "Kobo",
        ),
        ("how long until I can play it well?", ("I just bought a ukulele.", "Fun! Start with C, F and G."), "ukulele"),
        (
            "is that a fair price?",
            ("The plumber quoted 400 for the boiler service.", "That's on the high side."),
            "boiler",
        ),
    ],
)
def test_the_same_words_still_resolve_when_the_chat_holds_the_referent(
    query: str, turns: tuple[str, str], want: str
) -> None:
    rewritten, expanded = _rewrite(query, *turns)
    assert rewritten and want in expanded


@pytest.mark.parametrize(
    "query",
    [
        "Does it usually snow in Sapporo in March?",
        "Does it help to stretch before lifting weights?",
        "Is it a legal requirement to carry your licence when driving in France?",
        "At what age should a kitten get its first jabs?",
        "Why does a phone battery drain faster in the cold, and when should that be a worry?",
        "Do heat pumps still work when it's freezing, and how much less heat do they give then?",
        "Is the sea warm enough to swim in Crete in October, or is it too cold by then?",
        "Which is easier to learn, Spanish or Italian, and why is one harder than the other?",
        "How many times has Italy won the World Cup?",
        "Why does a Python list that contains itself print with dots?",
        "Can I take vitamin D and calcium at the same time?",
        "Can you bring a bike on the Eurostar, or is that only possible on Le Shuttle?",
    ],
)
def test_weather_frames_alternatives_titles_and_the_querys_own_times_are_left_alone(query: str) -> None:
    assert _rewrite(query) == (False, query)


def test_a_frame_is_expletive_only_for_its_own_it() -> None:
    rewritten, expanded = _rewrite(
        "how much does it cost to replace it", "my boiler is 15 years old and keeps losing pressure", "ok"
    )
    assert rewritten and "boiler" in expanded


@pytest.mark.parametrize(
    "query",
    [
        "How do I make a Python enum serialisable so that its values come out as strings?",
        "How do I mock a method in Jest so that it throws on the second call?",
        "How can I preview a Terraform plan without actually applying it?",
        "What should a tenancy agreement include so that late rent can be charged interest?",
        "Why shouldn't toddlers drink cow's milk before they turn one?",
        "Tennis players grunt when they serve — does grunting help their speed?",
        "Is keeping hamsters and gerbils in the same cage a good idea?",
        "How should a teacher handle it when two pupils won't stop arguing?",
        "Does adding a second monitor slow down a laptop, and if it does, by how much?",
        "How do I clear my grandma's house when nobody has lived there for years?",
    ],
)
def test_things_plurals_and_conjunctions_of_the_querys_own(query: str) -> None:
    assert _rewrite(query) == (False, query)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "so that first method is better for us?",
            ("Two ways: rebase onto main, or merge main in.", "The first method keeps a linear history."),
            "rebase",
        ),
    ],
)
def test_a_leading_so_that_is_no_conjunction(query: str, turns: tuple[str, str], want: str) -> None:
    rewritten, expanded = _rewrite(query, *turns)
    assert rewritten and want in expanded


@pytest.mark.parametrize(
    "query",
    [
        "Can you fish in Loch Ness without a permit, and how long is that allowed for?",
        "Should commit messages be written in the imperative, and why is that?",
        "Is it normal for a landlord to ask for six months' rent upfront, and do I have to pay them?",
        "What's traditionally given for a 25th anniversary, and what does it stand for?",
        "How do I keep a spreadsheet column fixed at the same cell when I scroll?",
        "What's the name of that saving rule where you put away a pound more each week?",
        "make this more polite: send me the report by five, I need the figures",
        "What are the pros and cons of a monolith versus microservices, and when is the former better?",
        "What eviction policies does Memcached use when it runs out of memory?",
        "Why does cheese go mouldy faster when you wrap it in cling film?",
    ],
)
def test_a_question_that_names_its_own_matter_before_a_second_one(query: str) -> None:
    assert _rewrite(query) == (False, query)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "luggage allowance?",
            ("We're taking the Eurostar to Brussels in May.", "Book early; standard fares sell out."),
            "Eurostar",
        ),
        (
            "monthly cost for 3 users?",
            (
                "Which accounting software should my shop use, Xero or FreeAgent?",
                "Xero suits a small retail shop best.",
            ),
            "Xero",
        ),
        (
            "closed on mondays?",
            ("We want to see the Rijksmuseum on our Amsterdam trip.", "Book a timed slot online."),
            "Rijksmuseum",
        ),
    ],
)
def test_a_verbless_fragment_asks_about_the_topic(query: str, turns: tuple[str, str], want: str) -> None:
    rewritten, expanded = _rewrite(query, *turns)
    assert rewritten and want in expanded


@pytest.mark.parametrize(
    "query",
    [
        "best budget noise cancelling headphones?",
        "difference between affect and effect?",
        "fair enough. good beginner book on Roman history?",
        "Lisbon or Porto for a first trip?",
    ],
)
def test_a_fragment_that_names_its_own_subject_or_asks_its_own_question_is_no_follow_up(query: str) -> None:
    rewritten, expanded = _rewrite(query, "I bought noise cancelling headphones last week.", "Nice, which ones?")
    assert (rewritten, expanded) == (False, query)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "how long will the job take?",
            ("The decorators start on the hallway on Monday.", "Noted for Monday."),
            "hallway",
        ),
        (
            "minimum age?",
            ("I'd like to volunteer at the animal shelter on weekends with friends.", "Most ask for an induction."),
            "shelter",
        ),
    ],
)
def test_a_plural_of_a_time_or_a_group_is_no_topic(query: str, turns: tuple[str, str], want: str) -> None:
    rewritten, expanded = _rewrite(query, *turns)
    assert rewritten and want in expanded


@pytest.mark.parametrize(
    ("message", "phrase", "not_phrase"),
    [
        ("Use an ArrayDeque rather than a LinkedList.", "ArrayDeque", "ArrayDeque rather"),
        ("We climbed the Ben Nevis path via the Mountain Track.", "the Ben Nevis path", "path via"),
        ("I sent the form an hour ago.", "the form", "hour ago"),
    ],
)
def test_an_adverb_or_preposition_ends_a_noun_phrase(message: str, phrase: str, not_phrase: str) -> None:
    texts = [c.text for c in extract(said(message))]
    assert any(phrase.lower() in t.lower() for t in texts)
    assert not any(not_phrase.lower() in t.lower() for t in texts)


def test_a_verb_before_a_bare_plural_is_no_modifier_of_it() -> None:
    texts = [c.text for c in extract(said("Good options include clover lawns, which feed bees."))]
    assert "clover lawns" in texts
    assert not any(t.startswith("include") for t in texts)


def test_a_group_noun_with_a_modifier_is_a_topic() -> None:
    rewritten, expanded = _rewrite(
        "minimum age?",
        "I'd like to volunteer at a food bank on weekends.",
        "Lovely. Most ask for a short induction first.",
    )
    assert rewritten and "food bank" in expanded


def test_an_idioms_it_does_not_hide_the_thing_the_query_names() -> None:
    query = "In Rust, should I return a struct by value or by reference, and does it depend on how big it is?"
    assert _rewrite(query) == (False, query)


#: Chats where the query's "it", "that", "they" or "the same" does point back at the chat, in the
#: constructions the readings above look at: each must still be rewritten.
_STILL_REFERENCES = [
    ("I sent my passport renewal off on Monday.", "how long does it usually take?"),
    ("My parcel from Argos should arrive tomorrow.", "if it isn't, who do I contact?"),
    ("I'm giving the best man's speech at my brother's wedding.", "should I keep it short?"),
    ("I've updated my CV for the marketing job.", "would a photo make it better?"),
    ("I'm baking banana bread for the school fair.", "if I swap sugar for honey, will it still rise?"),
    ("I'm making a lasagne for Sunday lunch.", "if I add spinach and ricotta, will it still hold together?"),
    ("I bought a Logitech wireless mouse.", "how long do batteries usually last in it?"),
    ("My laptop keeps freezing when I open Chrome.", "will updating my drivers fix it?"),
    ("We're adopting a greyhound next month.", "between morning walks and work, will it be lonely?"),
    ("I ordered a Dyson V15 yesterday.", "how long will shipping take to get it here?"),
    ("There's a small leak under my kitchen sink.", "should I get a plumber in before it gets worse?"),
    ("We're thinking of a wood-burning stove for the lounge.", "do I need a certificate to install it?"),
    ("My laptop screen cracked.", "if not, is that something the shop can fix?"),
    ("The plumber quoted 400 pounds to fix the boiler.", "ok so that quote — is it normal for London?"),
    (
        "I'm comparing the Hilton and the Premier Inn for Friday.",
        "between now and Friday, which of them will be cheaper?",
    ),
    ("I got a Le Creuset casserole for my mum.", "should I get the same for my sister as well?"),
    (
        "My daughter Maya is 9 and starting swimming.",
        "should I get a water bottle with a straw, or is she too old for that?",
    ),
    ("We hired Greenfield Builders for the extension.", "thanks, what are their usual rates?"),
    ("I heard the leisure centre is closing.", "apparently, yes. is that final?"),
    ("We're going to St Ives this summer.", "is it busy in August, and is parking easy there?"),
]


@pytest.mark.parametrize(("message", "query"), _STILL_REFERENCES)
def test_a_query_that_points_back_at_the_chat_is_still_rewritten(message: str, query: str) -> None:
    rewritten, _ = _rewrite(query, message, "Noted.")
    assert rewritten


@pytest.mark.parametrize(
    "query", ["vegan lasagne recipe?", "symptoms of low iron?", "cheap flights to lisbon in march?"]
)
def test_a_fragment_that_names_its_own_topic_is_no_follow_up(query: str) -> None:
    assert _rewrite(query, "We're taking the Eurostar to Brussels in May.", "Book early.") == (False, query)
