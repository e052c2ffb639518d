"""Clear queries whose words look like references: quoted text, discourse formulas, times from
now, "then" before a command, people in general, a query's own antecedents, clauses after "that",
occasions and reports with "it", options the query weighs itself.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.inert import inert_spans
from mnemo.retrieve.rewrite.internal import thing_named_before
from mnemo.retrieve.rewrite.internal_people import person_named_before
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core

CONTEXT = said(
    "my nephew Sami and his friends are staying with us, and the boiler broke again",
    "Sorry to hear that. Is the engineer coming today? Your aunt Rosa said she'd help.",
    "tomorrow at 9; I compared the Bosch and the Vaillant boilers",
)

#: Each query has a tempting referent in CONTEXT: a man (Sami), a woman (Rosa), a group (Sami and
#: his friends), a thing (the boiler) and a compared pair (the Bosch and the Vaillant).
CLEAR = [
    # quoted text is verbatim
    "search my messages for 'she said it was fine'",
    "translate 'what is that?' into French",
    "find the note titled 'he's not coming'",
    # discourse formulas
    "that's fine, can you find a recipe for banana bread",
    "that makes sense. how long do eggs keep in the fridge",
    "alright then, set a timer for 12 minutes",
    "oh well, so be it. what's a good podcast about history",
    "that's a great idea!",
    # times counted from now, and "then" before a command
    "play rain sounds for the next hour then turn off the lights",
    "is coffee bad for you these days",
    # people in general
    "what do they call a group of crows",
    "in Norway do they tip taxi drivers",
    # the query's own antecedents
    "put the lasagne in the oven and take it out at 7",
    "there's a leak under my sink, how do i stop it",
    "my sister just passed her driving test",
    # "that" opening a clause, and "it" in reports and occasions
    "make sure that the front door is locked tonight",
    "do surveys show that people sleep less in summer",
    "it turns out the museum is shut on Mondays, what else is open",
    "it's my dad's 60th in May, any gift ideas",
    "does it cost anything to park at the airport",
    "it looks like it's going to rain all weekend",
    # options the query weighs itself, and a set it names
    "oat milk vs almond milk, which is better for coffee",
    "which one of the moons of Jupiter is the largest",
]


@pytest.mark.parametrize("query", CLEAR)
def test_clear_queries_with_look_alike_references_pass_through(query: str) -> None:
    assert expand(query, CONTEXT) == query


@pytest.mark.parametrize(
    ("query", "pronoun"),
    [
        ("look at the logs and tell me why it crashed", " it "),  # "the logs" follow a preposition
        ("the weather is awful. can the engineer still fix it?", " it?"),  # another sentence
        ("did the landlord say that was ok?", " that "),  # a formula inside a sentence points
        ("how do they like the new flat?", " they "),  # a group, not people in general
        ("did my dad ever call him back?", " him "),  # an object pronoun is someone else
    ],
)
def test_near_misses_of_the_rules_are_still_resolved(query: str, pronoun: str) -> None:
    rewritten = expand(query, CONTEXT)
    assert rewritten != query and pronoun not in rewritten


def test_inert_spans_cover_quotes_and_formulas_only() -> None:
    query = "ok then, translate 'where is it?' and tell me what he said"
    spans = inert_spans(query)
    covered = [query[s:e] for s, e in spans]
    assert "'where is it?'" in covered and "ok then" in covered
    assert not any("he said" in c for c in covered)
    # the "he" outside the quote and the formula is still a reference
    assert [r.text for r in detect(query, "Sami said the boiler broke")] == ["he"]


def test_own_antecedent_helpers() -> None:
    assert thing_named_before("set the oven to 200 and turn".split(), "off")
    assert not thing_named_before("did the plumber say , when".split(), "will")  # a person is no "it"
    assert not thing_named_before("look at the logs and tell me why".split(), "crashed")  # after a preposition
    assert not thing_named_before("the weather is awful . can the engineer fix".split(), "?")  # another sentence
    assert person_named_before("my brother passed".split(), "his", "driving")
    assert person_named_before("my teenage son says".split(), "his", "phone")
    assert not person_named_before("my sister passed".split(), "his", "test")  # the wrong gender
    assert not person_named_before("what did the vet say at".split(), "her", "checkup")  # a job, not a relative
    assert not person_named_before("did my dad ever call".split(), "him", "back")  # an object is someone else


def test_code_in_the_query_is_its_own_antecedent() -> None:
    query = "why does `git stash pop` say it conflicts"
    assert expand(query, said("the deploy script failed again on staging")) == query


def test_its_typed_for_its_before_an_expletive_frame_points_at_nothing() -> None:
    query = "its safer to book the ferry early right"
    assert expand(query, said("we're going to Hvar in July", "Lovely island.")) == query


def test_whom_one_asks_is_no_antecedent_for_it() -> None:
    query = "if the DPD parcel comes while i'm out, ask the doorman to keep it"
    assert expand(query, said("I ordered a lamp from Habitat", "It should come Thursday.")) == query


@pytest.mark.parametrize(
    ("query", "degree"),
    [
        ("is it really that bad", "that bad"),
        ("why is the train that expensive", "that expensive"),
        ("i didn't know the exam was this hard", "this hard"),
    ],
)
def test_that_before_a_graded_adjective_is_a_degree_not_a_pointer(query: str, degree: str) -> None:
    rewritten = expand(query, said("the Eurostar to Paris is £240 return", "Booking later often costs more."))
    assert degree in rewritten  # "that bad" stays; only "it" may take the Eurostar


def test_that_before_an_adjective_and_its_noun_still_points() -> None:
    assert detect("was that long meeting recorded", "the long meeting with finance ran over")


def test_that_as_the_subject_of_an_opening_copula_still_points() -> None:
    assert [r.text for r in detect("is that doable in a campervan", "The Atlantic Road is stunning.")] == ["that"]
    assert [r.text.split()[0] for r in detect("so was that expensive", "we ate at Noma")] == ["that"]


@pytest.mark.parametrize(
    "query",
    [
        "whats the difference between musl and glibc",
        "what counts as high blood pressure for someone in their 50s",
        "make sure the production deploy of billing-api waits until I approve it",
        "i read that cold showers boost immunity, is there good evidence for that?",
    ],
)
def test_queries_that_name_their_own_referents_stay_unchanged(query: str) -> None:
    context = said("the alpine docker image broke our wheels", "Dr Osei said my blood pressure is fine", "ok")
    assert expand(query, context) == query
