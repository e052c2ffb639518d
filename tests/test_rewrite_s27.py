"""Query rewriting, sixth pass: what an event was with, and the rules added with it."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.temporal import event_in

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("message", "partner"),
    [
        ("yes a call with the bank at 2", "with the bank"),
        ("my performance review with Siddharth on 20 january", "with Siddharth"),
    ],
)
def test_an_event_keeps_whom_it_was_with(message: str, partner: str) -> None:
    found, _ = event_in(message)
    assert found is not None and partner in found


def test_a_partner_stops_before_the_time() -> None:
    found, _ = event_in("a meeting with my landlord at 3 tomorrow")
    assert found == "a meeting with my landlord"
