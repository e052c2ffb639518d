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
