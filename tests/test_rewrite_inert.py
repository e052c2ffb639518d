"""Clear queries whose words look like references: quoted text, discourse formulas, times from
now, "then" before a command, people in general, a query's own antecedents, clauses after "that",
occasions and reports with "it", options the query weighs itself.
Every conversation here is written for these tests; none is a benchmark row."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.inert import inert_spans
from mnemo.retrieve.rewrite.internal import person_named_before, thing_named_before
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core

CONTEXT = said(
    "my nephew Sami is staying with us and the boiler broke again",
    "Sorry to hear that. Is the engineer coming today?",
    "tomorrow at 9",
)

CLEAR = [
    # quoted text is verbatim
    "search my messages for 'she said it was fine'",
    "translate 'what is that?' into French",
    # discourse formulas
    "that's fine, can you find a recipe for banana bread",
    "that makes sense. how long do eggs keep in the fridge",
    "alright then, set a timer for 12 minutes",
    "oh well, so be it. what's a good podcast about history",
    # times counted from now, and "then" before a command
    "play rain sounds for the next hour then turn off the lights",
    "is coffee bad for you these days",
    # people in general
    "how do they make decaf coffee",
    "what do they call a group of crows",
    "in norway do they tip taxi drivers",
    "do they let you take knitting needles on a plane",
    # the query's own antecedents
    "put the lasagne in the oven and take it out at 7",
    "there's a leak under my sink, how do i stop it",
    "my sister got a new job, what should I get her",
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


def test_inert_spans_cover_quotes_and_formulas_only() -> None:
    query = "ok then, translate 'where is it?' and tell me what he said"
    spans = inert_spans(query)
    covered = [query[s:e] for s, e in spans]
    assert "'where is it?'" in covered and "ok then" in covered
    assert not any("he said" in c for c in covered)
    # the "he" outside the quote and the formula is still a reference
    assert [r.text for r in detect(query, "Sami said the boiler broke")] == ["he"]


def test_references_still_found_next_to_the_rules() -> None:
    # a referential "they", an object "that" and "it" with no antecedent of its own are still resolved
    assert detect("what did they say about the boiler", "the engineers said it was the pump")
    assert detect("heard that from Sami", "the boiler broke")
    assert detect("is it fixed yet?", "the boiler broke")


def test_own_antecedent_helpers() -> None:
    assert thing_named_before("set the oven to 200 and".split())
    assert not thing_named_before("did the plumber say".split())  # a person is no "it"
    assert not thing_named_before("is the meeting on".split())  # no clause break before the pronoun
    assert person_named_before("my brother passed".split(), "his")
    assert not person_named_before("my sister passed".split(), "his")  # the wrong gender
    assert not person_named_before("what did the vet say at".split(), "her")  # a job, not a relative
