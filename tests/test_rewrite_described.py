"""People described by what they do ("the projector person", "whoever handles refunds", "Sam's
teacher") take the one person the conversation tied those words to; a tie, or words tied to no
one, leaves the query alone.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.described import Description, described_person, descriptions
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


def group(*lines: str) -> list[dict[str, str]]:
    """A group chat: every line is a user message with a speaker label."""
    return [{"role": "user", "content": line} for line in lines]


def test_the_person_who_answered_me_to_a_who_question_is_the_person_described() -> None:
    chat = group(
        "Priya: who's sorting the cake for Friday?",
        "Daniel: me",
        "Priya: and the balloons?",
        "Emma: I've got those",
    )
    assert "Daniel" in expand("remind the cake person to get candles too", chat)
    assert "Emma" in expand("did the balloon person order helium?", chat)


def test_a_speakers_own_first_person_message_ties_them_to_its_words() -> None:
    chat = group(
        "Grace: I'll write the press release",
        "Oliver: I'll run the livestream on the day",
        "Grace: and Hannah said she'd book the photographer",
    )
    rewritten = expand("has the livestream guy tested the camera?", chat)
    assert "Oliver" in rewritten and "Grace" not in rewritten


def test_the_words_between_two_names_belong_to_the_first_up_to_the_last_comma() -> None:
    context = said(
        "I need a piano tutor for my daughter",
        "Two tutors nearby have space: Mr Lindqvist, £40 in person, or Ms Adeyemi, £30 online only.",
    )
    assert "Mr Lindqvist" in expand("what is the in-person tutor's cancellation policy", context)
    assert "Ms Adeyemi" in expand("does the online tutor do evenings", context)


def test_a_possessors_role_is_the_name_in_the_possessors_clause() -> None:
    context = said(
        "parent-teacher evening is Thursday: Mia with Mr Okoro at 6, Sam with Ms Berg at 6:20",
        "Both in the library.",
    )
    rewritten = expand("what should I ask Sam's teacher about reading", context)
    assert "Ms Berg" in rewritten and "Mr Okoro" not in rewritten


def test_a_role_takes_the_person_named_in_the_answer_to_a_question_about_it() -> None:
    context = said("when is Noah's parent-teacher meeting?", "Tuesday at 3:40 with Mrs. Castellano.", "ok thanks")
    assert "Castellano" in expand("did the teacher mention his spelling", context)


def test_a_role_the_conversation_named_outright_takes_that_name() -> None:
    context = said("My manager Ruth signed off my training budget.", "Nice. Which course?", "the AWS one")
    assert "my manager Ruth" in expand("email my manager the course dates", context)


def test_the_boss_is_the_lead_or_manager_the_conversation_named() -> None:
    context = said("our team lead Jonas is off until Wednesday", "Noted. Who covers?", "Mira does")
    assert "Jonas" in expand("when is the boss back", context)


def test_whoever_does_something_goes_through_the_role_that_does_it() -> None:
    context = said(
        "My landlord is Mr Haines and the building manager is Carla.",
        "Who deals with repairs?",
        "the building manager, Haines never replies",
    )
    rewritten = expand("write to whoever deals with repairs", context)
    assert "Carla" in rewritten and "Haines" not in rewritten


def test_a_generic_whoever_is_anyone() -> None:
    chat = group("Priya: I'll bring the prize for the quiz", "Daniel: great")
    assert expand("whoever wins the quiz gets a prize", chat) == "whoever wins the quiz gets a prize"


def test_a_role_needs_its_own_noun_said_of_the_person() -> None:
    context = said("my son Mateo plays football on Saturdays", "Fun! What position?", "goalkeeper")
    assert expand("email the football coach about Saturday", context) == "email the football coach about Saturday"


def test_two_people_tied_to_the_same_words_leave_the_description_alone() -> None:
    chat = group("Priya: I'll bring the cake", "Daniel: I'll bring a cake too")
    assert expand("has the cake person left yet", chat) == "has the cake person left yet"


def test_a_description_with_no_words_to_tell_which_is_not_read() -> None:
    assert descriptions("who is the new guy") == ()
    assert descriptions("ask the guy at the desk") == ()
    assert descriptions("whoever wins gets a prize") == ()  # the subject of its clause
    assert [d.head for d in descriptions("tell the demo guy and my manager")] == ["guy", "manager"]
    owner = descriptions("what did Leo's teacher say")[0]
    assert (owner.head, owner.owner) == ("teacher", "Leo")


def test_ask_the_it_guy_is_a_department_not_a_pronoun() -> None:
    context = said("the printer on floor 3 is jammed again")
    result = QueryRewriter().rewrite("ask the IT guy", context)
    assert result.expanded == "ask the IT guy"


def test_described_person_needs_people_and_ties() -> None:
    lone = Description(0, 20, "person", frozenset({"proje"}))
    assert described_person(lone, [], group("Daniel: I'll bring the projector")) is None
    assert described_person(lone, ["Daniel"], group("Daniel: I'll bring the projector")) == "Daniel"
    assert described_person(lone, ["Daniel"], group("Daniel: I'll bring the cables")) is None


def test_a_pronoun_takes_the_one_person_who_did_what_the_query_asks_about() -> None:
    context = said(
        "standup notes: Tunde demoed the search page, Amara reviewed the PR and Lucy asked about the release date",
        "Filed under sprint 14.",
    )
    assert "Lucy" in expand("what exactly did she ask?", context)
    assert "Amara" in expand("what did she review?", context)


# --- precision: the review's near misses and general uses ------------------------------------------


@pytest.mark.parametrize(
    ("query", "context"),
    [
        ("I'll give the hamper to whoever wins the raffle", ["Ana: I'll run the raffle on Saturday", "Ben: great"]),
        ("I'll send the link to whoever asks first", ["Ben: I'll go first in the quiz", "Cara: I'm second"]),
        ("how does PagerDuty decide whoever is on call gets paged", ["Ravi: I'm on call this week", "Dee: rough"]),
        ("who was the person who invented the telephone", ["Alex: I finally fixed my telephone", "Maria: nice"]),
        ("how do I become the next team lead", ["Our team lead Adaeze is leaving next month"]),
        ("how long does the average plumber take to fix a leak", ["Gareth the plumber is coming on Tuesday"]),
        ("who is the manager of Arsenal", ["My manager Catherine supports Arsenal"]),
        ("as the team lead, what should I do about the conflict", ["our old lead Adaeze left last week"]),
        ("do I need to tip the delivery guy in Germany", ["Jakob said delivery is quick in Berlin"]),
        ("what should the projector person bring", ["I'm the projector person for Friday's talk, Felix is presenting"]),
    ],
)
def test_general_and_hypothetical_descriptions_stay_unresolved(query: str, context: list[str]) -> None:
    assert expand(query, group(*context)) == query


@pytest.mark.parametrize(
    ("query", "context", "wrong"),
    [
        ("has the projector person confirmed", ["Felix can't bring the projector, Astrid will"], "Felix"),
        ("did the cake person get candles", ["Ana, not Ben, is bringing the cake"], "Ben"),
        ("has the demo guy rehearsed", ["Felix: I can't do the demo this time", "Bram: I'll do it"], "Felix"),
        (
            "what cable does the projector person need",
            ["Felix asked if I could bring the projector on Friday, so I said yes"],
            "Felix",
        ),
        ("what did my dentist say about the crown", ["I told my sister Jo about my dentist appointment"], "Jo"),
        ("did the boss sign the form", ["I'll lead Kevin through the onboarding on Monday"], "Kevin"),
        ("what did Sam's coach say", ["Sam and Mia both play tennis; Mia's coach is Dana"], "Dana"),
        ("call the woman who runs the bakery", ["The bakery on Elm St is run by Ines, she bakes sourdough"], "Elm"),
        (
            "ask the projector guy for the cable",
            ["Noor: Felix, can you bring the projector?", "Felix: sorry, I can't this week"],
            "Felix",
        ),
    ],
)
def test_negated_reported_and_owned_ties_point_at_nobody_wrong(query: str, context: list[str], wrong: str) -> None:
    assert wrong not in expand(query, group(*context))


def test_a_refusal_passes_the_question_to_whoever_takes_it_up() -> None:
    chat = group("Noor: Felix, can you bring the projector?", "Felix: sorry, I can't this week", "Astrid: I will")
    rewritten = expand("ask the projector guy for the cable", chat)
    assert "Astrid" in rewritten and "Felix" not in rewritten


def test_a_long_unbroken_word_after_whoever_is_read_in_linear_time() -> None:
    query = "tell whoever " + "x" * 5000 + " #"
    assert descriptions(query) == ()


def test_a_pronoun_after_a_described_person_is_that_person() -> None:
    context = said("open day: Hiroko does wheel throwing, Bastien does the glaze demo", "Booked you with Hiroko at 11.")
    rewritten = expand("ask the glaze guy if he sells his glazes", context)
    assert rewritten.count("Bastien") == 3 and "Hiroko" not in rewritten


def test_whoever_is_doing_something_needs_the_doing() -> None:
    chat = group("Lena: I'll drive mum to the airport on friday", "Bjorn: I'll pick her up when she's back", "Lena: ok")
    rewritten = expand("txt whoever is picking mum up to check the flight number", chat)
    assert "Bjorn" in rewritten and "Lena" not in rewritten


def test_someone_known_by_a_past_deed_takes_the_name_the_role_was_given() -> None:
    context = said("the boiler engineer last winter was Kamil from HeatPro", "Saved him as your heating contact.")
    assert "Kamil" in expand("can you get the guy who fixed the boiler to come back", context)
    context = said("the electrician who rewired the kitchen, Abdi, left a quote", "It's £640.")
    assert "Abdi" in expand("did the kitchen guy say when he can start", context)


def test_a_name_read_as_a_thing_can_still_be_the_person_on_call() -> None:
    context = said("on call this week is Tendai, next week Lukas", "Saved the rota.")
    rewritten = expand("page whoever is on call", context)
    assert "Tendai" in rewritten and "Lukas" not in rewritten


def test_a_title_the_conversation_gave_by_a_copula_names_the_person() -> None:
    context = said("Kasia is assigned as reviewer; Bongani is the code owner for the middleware", "ok")
    assert "Bongani" in expand("ping the code owner on slack", context)
    sitter = said("our new babysitter is a uni student called Maja, she starts saturday", "Nice.")
    assert "Maja" in expand("save the babysitter's number in my contacts", sitter)


def test_an_owners_own_words_name_their_relative() -> None:
    chat = group("Chidi: need a keeper tonight", "Maite: my cousin Leon plays in goal, I'll ask him", "Rasmus: legend")
    assert "Leon" in expand("did maite's cousin confirm?", chat)
