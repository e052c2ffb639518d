"""Query rewriting: time pointers ("before that", "the day after") followed by another clause, and the
deeds they point at when chat drops the subject or the subject is "someone"."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.temporal import event_in
from tests.test_rewrite import expand, kinds, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("query", "pointer"),
    [
        ("how long after that before she can swim again", "after that"),
        ("list the tickets closed before that which mention billing", "before that"),
        ("what should i stretch the day after to avoid soreness", "the day after"),
        ("remind me a week before that to pack", "before that"),
    ],
)
def test_a_pointer_before_another_clause_is_a_pointer(query: str, pointer: str) -> None:
    assert kinds(query, "we had the op on monday").get(pointer) == "temporal"


def test_a_relation_with_its_own_object_is_no_pointer() -> None:
    assert "before that meeting" not in kinds("what did we agree before that meeting", "the meeting on monday")


@pytest.mark.parametrize(
    ("message", "event"),
    [
        ("upgraded my laptop to Ubuntu 24.04 yesterday", "upgraded my laptop to Ubuntu 24.04"),
        ("someone deleted the staging bucket last night", "someone deleted the staging bucket"),
        ("we moved the api to fly.io last sprint", "we moved the api to fly.io"),
    ],
)
def test_a_deed_dated_from_today_is_the_event(message: str, event: str) -> None:
    found, _ = event_in(message)
    assert found is not None and event.lower() in found.lower()


def test_before_that_points_at_the_dated_deed_not_the_later_symptom() -> None:
    context = said(
        "upgraded my laptop to Ubuntu 24.04 yesterday",
        "How is it running?",
        "the wifi drops every few minutes and the fan is loud",
    )
    assert "Ubuntu 24.04" in expand("how do i roll back to what i had before that", context)


def test_since_then_points_at_the_change_the_speaker_made() -> None:
    context = said(
        "i started using a standing desk because my lower back was sore",
        "Good idea; alternate sitting and standing rather than standing all day.",
        "about 2 hours standing a day",
    )
    assert "standing desk" in expand("has my back improved as much as it should since then", context)


def test_a_change_is_cut_at_its_reason() -> None:
    found, _ = event_in("then we switched to oat milk because of the bloating")
    assert found == "when we switched to oat milk"


def test_from_then_is_a_pointer_but_then_too_after_the_querys_own_day_is_not() -> None:
    context = said("book the hotel on monday", "Done: two nights from Monday.")
    query = "if i wait till wednesday will it be cheaper then too"
    assert "monday" not in expand(query, context).lower()  # "then" is the query's own Wednesday
    context = said("ordered a standing desk from Ikea two weeks ago", "Nice, has it arrived?", "yes, one leg wobbles")
    out = expand("the return window is 365 days from then right?", context)
    assert "from when" in out and "standing desk" in out
