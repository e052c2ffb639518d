"""Query rewriting, fourteenth pass (continued): owned compounds, states, illnesses, venues,
comparisons, habits of the chat, and clear queries that carry their own antecedents."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.detect import detect
from mnemo.retrieve.rewrite.splice import spliced
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _expanded(query: str, *turns: str) -> str:
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns)).expanded


@pytest.mark.parametrize(
    ("message", "phrase"),
    [
        ("I'm making Marcella Hazan's tomato sauce tonight.", "Marcella Hazan's tomato sauce"),
        ("Gabriel's pull request is ready", "Gabriel's pull request"),
        ("Tom's car keeps stalling", "Tom's car"),  # "keeps" is the car's verb
        ("Dad's phone died again", "Dad's phone"),
    ],
)
def test_an_owned_compound_keeps_its_head(message: str, phrase: str) -> None:
    assert phrase in [c.text for c in extract(said(message))]


def test_a_follow_up_carries_the_owner_of_the_same_noun() -> None:
    expanded = _expanded("what about the morning nap", "Mila's last nap ends at 5pm and bedtime is 7", "A good window.")
    assert "Mila's morning nap" in expanded


def test_a_grade_number_at_a_sentence_end_stays_with_its_name() -> None:
    expanded = _expanded(
        "should we let him take that exam?", "My son Arjun's teacher thinks he's close to passing Grade 5.", "Great."
    )
    assert "Grade 5 exam" in expanded


def test_a_mention_that_has_the_noun_gets_no_second_one() -> None:
    expanded = _expanded(
        "how many people can that boat take?", "We're choosing between Nobu or a boat cruise on the Thames.", "Fun."
    )
    assert "boat boat" not in expanded and "cruise boat" not in expanded


def test_the_other_one_is_the_option_the_reply_did_not_take_up() -> None:
    expanded = _expanded(
        "so should i just delete the other one?",
        "I have two versions of a query: one with a correlated subquery, and one with a LEFT JOIN plus GROUP BY.",
        "Usually the LEFT JOIN version, because the planner can avoid running the subquery once per row.",
    )
    assert "the one with a correlated subquery" in expanded
    assert "delete one?" not in expanded


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("how do I avoid that crowd", ("The Mona Lisa room gets extremely crowded.", "Go early."), "Mona Lisa"),
        ("how much does it cost to fix that leak", ("our kitchen ceiling is leaking", "Call someone."), "ceiling"),
        ("what causes that smell", ("the fridge is smelly even after cleaning", "Try baking soda."), "fridge"),
    ],
)
def test_a_noun_the_chat_said_as_a_state_takes_its_subject(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "is that contagious to my peppers?",
            ("My tomato plants have brown spots with rings.", "Those rings sound like early blight, a fungal disease."),
            "early blight",
        ),
        ("is it contagious to my other dog?", ("my dog is coughing", "It could be kennel cough."), "kennel cough"),
        ("is that contagious?", ("my son has red circles", "It's likely ringworm, a fungal infection."), "ringworm"),
    ],
)
def test_a_question_of_spreading_is_about_the_illness(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


def test_an_illness_word_alone_does_not_take_a_question_of_anything_else() -> None:
    assert "kennel" not in _expanded("is it expensive?", "my dog has been coughing", "It could be kennel cough.")


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("is that company remote-friendly", ("I got an offer from Stripe", "Congrats!"), "Stripe"),
        ("is that company hiring", ("my friend Maria works at Google", "Nice."), "Google"),
        ("does that supplier have a smart tariff", ("I switched to Octopus Energy last month", "ok"), "Octopus Energy"),
    ],
)
def test_that_company_is_the_firm_the_chat_named(query: str, turns: tuple[str, ...], want: str) -> None:
    expanded = _expanded(query, *turns)
    assert want in expanded
    assert "Maria" not in expanded


@pytest.mark.parametrize(
    ("message", "phrase"),
    [
        ("I bought new running shoes but they rub my heel", "new running shoes"),
        ("we packed hiking boots and sleeping bags", "hiking boots"),
    ],
)
def test_a_gerund_before_a_plural_names_its_kind(message: str, phrase: str) -> None:
    assert phrase in [c.text for c in extract(said(message))]


@pytest.mark.parametrize("message", ["I am buying shoes tomorrow", "he keeps losing keys"])
def test_a_gerund_after_a_verb_or_be_is_the_verb(message: str) -> None:
    assert not any(" " in c.text and c.text.endswith(("shoes", "keys")) for c in extract(said(message)))


def test_an_easy_to_verb_without_object_takes_it_as_its_object() -> None:
    turns = ("I need a lightweight stroller", "The Babyzen YOYO2 folds small enough for overhead bins.")
    assert "YOYO2" in _expanded("is it easy to fold with one hand", *turns)
    assert _expanded("is it easy to fold a duvet cover?", *turns) == "is it easy to fold a duvet cover?"


@pytest.mark.parametrize(
    ("query", "reference"),
    [
        ("why does this happen in my venv", "this"),
        ("why does this keep happening", "this"),
        ("will that work on windows", "that"),
        ("when would that change start", "that change"),  # a noun, then its own verb
    ],
)
def test_a_bare_verb_after_do_and_a_demonstrative_is_its_verb(query: str, reference: str) -> None:
    assert [r.text for r in detect(query, "the build fails with an import error")] == [reference]


@pytest.mark.parametrize(
    ("query", "turns"),
    [
        (
            "this is it, last bug before release — how do I cherry-pick a commit onto release/2.0?",
            ("release 2.0 goes out tomorrow", "Make sure the changelog is up to date."),
        ),
        (
            "ah well, that's life. how do I cancel an Amazon Prime free trial before it charges me?",
            ("car failed its MOT again", "Sorry to hear that."),
        ),
        (
            "why do they always tell you never to click links in texts that claim to be from your bank?",
            ("Got a letter from HMRC saying I owe £230.", "You can check it online."),
        ),
    ],
)
def test_idioms_and_a_relative_that_after_a_plural_are_no_references(query: str, turns: tuple[str, ...]) -> None:
    assert _expanded(query, *turns) == query


@pytest.mark.parametrize(
    ("query", "turns", "want", "not_want"),
    [
        (
            "could that pub do a buffet for 60?",
            ("Venues: the function room at The Red Lion in Didsbury or Dishoom Manchester.", "The Red Lion, then."),
            "Red Lion",
            "Didsbury do",
        ),
        ("does that hotel have a pool", ("I'm staying at the Ritz in Madrid", "Lovely."), "Ritz", "does Madrid"),
    ],
)
def test_a_venue_is_no_town(query: str, turns: tuple[str, ...], want: str, not_want: str) -> None:
    expanded = _expanded(query, *turns)
    assert want in expanded
    assert not_want not in expanded


def test_a_measure_opens_a_noun_phrase() -> None:
    assert "the 2kg beef brisket" in [c.text for c in extract(said("Doing a 2kg beef brisket in the oven tomorrow."))]


@pytest.mark.parametrize(
    ("query", "turns", "pair"),
    [
        (
            "which has better retry support out of the box?",
            ("Choosing between Celery with Redis and RQ.", "RQ is simpler; Celery is more powerful."),
            "Celery or RQ",
        ),
        (
            "which has the better battery for a 3-hour commute?",
            (
                "Getting either a Steam Deck OLED or a Nintendo Switch OLED for my commute to Leeds.",
                "The Steam Deck plays your PC library. The Switch has exclusives like Zelda and Mario Kart.",
            ),
            "Steam Deck OLED or Nintendo Switch OLED",
        ),
    ],
)
def test_a_comparison_takes_the_options_weighed_not_the_examples(query: str, turns: tuple[str, ...], pair: str) -> None:
    assert pair in _expanded(query, *turns)


@pytest.mark.parametrize(
    "query",
    [
        "I read that grapes are toxic to dogs — does that apply to raisins too?",
        "I heard that you can freeze milk, is that true for oat milk?",
        "it's meant to be gusting 50mph on Saturday, should we still go?",
        "is it ever safe to swim after eating?",
    ],
)
def test_a_reported_claim_and_weather_it_are_no_references(query: str) -> None:
    turns = ("Taking our spaniel to the beach on Saturday.", "Bring fresh water and rinse her coat afterwards.")
    assert _expanded(query, *turns) == query


def test_a_grandmother_in_her_familys_language_owns_her_recipe() -> None:
    expanded = _expanded(
        "how long does it go in the oven for?", "Making my nonna's focaccia tonight, it's huge.", "Great sign."
    )
    assert "focaccia" in expanded
    assert "does my nonna go" not in expanded


def test_an_age_opens_a_noun_phrase_and_an_amount_is_no_topic() -> None:
    turns = ("We're adopting a 2-year-old rescue beagle from Battersea next week!", "Beagles follow their noses.")
    assert "beagle" in _expanded("what size crate?", *turns)
    turns = ("Remortgaging: on a £200k balance the fee is £999.", "That's competitive.")
    assert "200k" not in _expanded("and the early repayment charges?", *turns)


def test_an_adjective_in_ly_is_part_of_the_definite_phrase() -> None:
    found = detect("and the early repayment charges?", "a 5-year fix with a fee")
    assert found and found[0].text == "and"


@pytest.mark.parametrize(
    ("message", "phrase"),
    [
        ("our flight lands at 6am on Saturday", "the flight"),
        ("On a £200k balance the fee adds roughly 0.1% a year.", "the fee"),
        ("our dishwasher keeps leaving a white film", "our dishwasher"),
    ],
)
def test_a_thing_s_own_verb_ends_its_phrase(message: str, phrase: str) -> None:
    texts = [c.text for c in extract(said(message))]
    assert phrase in texts or phrase.replace("our ", "the ") in texts
    assert not any(t.endswith(("lands", "adds roughly", "keeps leaving")) for t in texts)


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("is there a joining fee?", ("I'm thinking of joining PureGym on Oxford Road.", "It's open 24/7."), "PureGym"),
        ("do I need a special licence?", ("I'm renting a van from Enterprise on Saturday.", "Good plan."), "van"),
    ],
)
def test_a_requirement_or_feature_asks_of_the_undertaking(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


def test_a_requirement_with_its_own_purpose_is_left_alone() -> None:
    query = "do i need a reservation to drive to rifugio auronzo"
    assert _expanded(query, "we're renting a car for the dolomites", "Nice.") == query


def test_her_before_what_is_done_to_her_is_an_object() -> None:
    expanded = _expanded("when should we get her vaccinated?", "We adopted a kitten last week.", "Congrats!")
    assert "kitten vaccinated" in expanded
    assert "'s vaccinated" not in expanded


def test_a_table_booked_at_a_place_leaves_the_place_the_topic() -> None:
    assert "Padella" in _expanded("is there a dress code?", "Booked a table at Padella for Friday at 8.", "Nice!")


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("how long in the oven?", ("I'm making a lasagne for 10 people.", "Lovely."), "lasagne"),
        ("which finish, matte or satin?", ("I'm repainting our bathroom ceiling.", "Treat the mold."), "bathroom"),
    ],
)
def test_a_short_question_without_a_verb_asks_of_the_topic(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


@pytest.mark.parametrize("query", ["how long do eggs take to boil?", "what is a good laptop for coding?"])
def test_a_question_with_its_verb_stays_clear(query: str) -> None:
    assert _expanded(query, "I'm making a lasagne for 10 people.", "Lovely.") == query


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        ("roughly how much should we budget?", ("We're renovating the bathroom next month.", "Exciting."), "bathroom"),
        ("how many coats will I need?", ("I'm repainting the living room in Hague Blue.", "Lovely."), "living room"),
    ],
)
def test_an_amount_needed_is_for_the_undertaking(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


def test_an_amount_needed_with_nothing_undertaken_stays_clear() -> None:
    query = "how much water should I drink?"
    assert _expanded(query, "I love the colour green.", "It's calming.") == query


def test_from_there_is_the_place_left() -> None:
    turns = ("My mum is flying to Lagos on the 3rd to see her sister.", "Lovely.")
    assert "from Lagos" in _expanded("when does she get back from there?", *turns)


def test_from_there_as_a_next_step_is_no_place() -> None:
    assert detect("take the train to Leeds, and from there, a bus to Otley", "we're going to Yorkshire") == []


def test_a_possessive_place_name_is_whole() -> None:
    turns = ("My daughter Aiko has a piano recital on the 12th at St John's Hall.", "Lovely!")
    assert "St John's Hall" in _expanded("can I record her performance there?", *turns)


def test_those_told_apart_are_the_alternatives_the_chat_gave() -> None:
    turns = ("my tomatoes have yellow leaves at the bottom", "Could be nitrogen deficiency or early blight.")
    assert "tell nitrogen deficiency and early blight apart" in _expanded("how do I tell those apart?", *turns)
    assert [r.text for r in detect("how do I tell those apart?", "x")] == ["those"]


def test_a_name_a_reply_calls_her_is_a_she_though_a_he_came_first() -> None:
    turns = (
        "just started baldur's gate 3 with shadowheart and astarion in the party",
        "Astarion is your lockpicker, so keep him in light armour. Shadowheart is your healer, so keep her back.",
    )
    assert "Shadowheart" in _expanded("what armour should I give her?", *turns)


def test_a_subject_with_a_plural_verb_is_several() -> None:
    turns = ("Ordered Nike Pegasus and a hoodie. The Pegasus are half a size too small.", "You have 28 days.")
    assert "Pegasus" in _expanded("can I swap them in store?", *turns)
    monstera = ("The leaves on my Monstera are going brown at the edges.", "That's often low humidity.")
    assert "the heating" not in _expanded("how often should i water it in winter", *monstera)


@pytest.mark.parametrize(
    ("message", "name"),
    [("I bought trainers from JD Sports last week", "JD Sports"), ("we bank with HSBC UK now", "HSBC UK")],
)
def test_an_acronym_may_open_a_firms_name(message: str, name: str) -> None:
    texts = [c.text for c in extract(said(message))]
    assert name in texts or f"the {name}" in texts


@pytest.mark.parametrize(
    ("query", "turns", "want"),
    [
        (
            "how many reps of each?",
            ("My physio gave me clamshells and glute bridges for my knee.", "Classic exercises."),
            "(clamshells and glute bridges)",
        ),
        (
            "what's the price of each?",
            ("We shortlisted the Dyson V15 and the Shark Stratos.", "Both are strong."),
            "Dyson V15",
        ),
    ],
)
def test_each_is_every_item_the_chat_listed(query: str, turns: tuple[str, ...], want: str) -> None:
    assert want in _expanded(query, *turns)


def test_a_role_of_no_gender_is_a_singular_they() -> None:
    turns = ("My GP referred me to a dermatologist for the mole on my back.", "Good.")
    assert "the dermatologist" in _expanded("what will they do at the first appointment?", *turns)


def test_is_it_safe_to_cook_asks_of_the_chats_food() -> None:
    turns = ("I left the chicken in the fridge for 5 days in a yogurt marinade.", "That's fine for a day or two.")
    assert "the chicken" in _expanded("is it still safe to cook?", *turns)
    assert _expanded("is it ok to eat before a workout?", *turns) == "is it ok to eat before a workout?"


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("when they'd fix it", "when my parents would fix it"),
        ("they'd already left", "my parents had already left"),
        ("they'd been told", "my parents had been told"),
    ],
)
def test_a_d_clitic_is_spelled_out_after_a_replacement(query: str, want: str) -> None:
    start = query.index("they")
    assert spliced(query, [(start, start + 4, "my parents")]) == want


def test_a_purpose_phrase_is_said_of_the_thing_before_it() -> None:
    turns = ("Kwame wants to borrow my camera for his trip to Ghana.", "Nice of you.")
    assert "insure my camera" in _expanded("should I ask him to insure it?", *turns)
    assert "my camera for " not in [c.text for c in extract(said(*turns))]


@pytest.mark.parametrize(
    "query",
    [
        "What are the symptoms of burnout and how do I deal with it?",
        "what's the treatment for eczema and how long does it take to clear?",
    ],
)
def test_a_condition_the_query_names_is_its_own_it(query: str) -> None:
    turns = ("Our boiler broke again and the engineer said the pump is gone.", "A new pump costs £200-£400.")
    assert _expanded(query, *turns) == query


@pytest.mark.parametrize(
    "query", ["Is that true that goldfish have a three-second memory?", "What do they mean by 'net zero'?"]
)
def test_an_extraposed_that_and_a_generic_they_mean_are_no_references(query: str) -> None:
    turns = ("Our boiler broke and the engineer from British Gas said the pump is gone.", "A new pump costs £300.")
    assert _expanded(query, *turns) == query


@pytest.mark.parametrize(
    "query",
    [
        "Why does npm install take so long and how can I speed it up?",
        "What does the -it flag do in docker run?",
        "What's a good way to structure a FastAPI project as it grows?",
    ],
)
def test_a_command_a_flag_or_an_as_clause_keeps_its_own_it(query: str) -> None:
    turns = ("Our API on Kubernetes keeps returning 502s.", "Check the readiness probe and the pod logs.")
    assert _expanded(query, *turns) == query


@pytest.mark.parametrize(
    "query",
    [
        "I've never made risotto, is it hard?",
        "I keep forgetting people's names right after they tell me, any tricks?",
    ],
)
def test_a_deed_never_done_and_people_in_general_are_the_querys_own(query: str) -> None:
    turns = ("I'm training for a half marathon in October with my friend Tom.", "Great!")
    assert _expanded(query, *turns) == query
