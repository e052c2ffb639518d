"""Query rewriting: false rewrites a review of the fifth pass found, each pinned here."""

from __future__ import annotations

import pytest

from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("context", "query", "absent"),
    [
        (
            ["started ramipril last week and the gp said go easy on exercise"],
            "how long should i take it easy for",
            "ramipril",
        ),
        (["my kids are Leo 7 and Mia 4"], "what size bike does he need", "Leo 7"),
        (
            ["we're flying to New York in june with my Brompton"],
            "when I get to New York can I take it on the subway",
            None,
        ),
        (["my parents arrive on friday for a week"], "should i buy theatre tickets for them", None),
        (["postgres is using postgresql.conf from /etc"], "do i need to restart it now", "postgresql.conf"),
        (["i'm a care worker and i paused my Open University course"], "can i restart it in october", "care worker"),
    ],
)
def test_review_cases_resolve_nothing_wrong(context: list[str], query: str, absent: str | None) -> None:
    out = expand(query, said(*context))
    if absent is None:
        assert out != query  # a real reference: resolved, not swallowed as the query's own
    else:
        assert absent not in out


def test_a_first_name_keeps_no_age_as_a_model_number() -> None:
    out = expand("what size bike does he need", said("my son Leo 7 wants a bike for his birthday"))
    assert "Leo" in out and "Leo 7" not in out
