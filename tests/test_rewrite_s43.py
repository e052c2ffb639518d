"""Query rewriting, twenty-first pass: what the resolver puts in a query is whole. A full stop
inside a token ("v5.1", "t3.medium", "MySQL 5.7") ends no clause, so a clause the chat dates or a
phrase it names is not cut at the dot."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter
from tests.test_rewrite import said

pytestmark = pytest.mark.core


def _rewrite(query: str, *turns: str):
    return QueryRewriter(cache_ttl=0).rewrite(query, said(*turns))


def test_a_dated_clause_keeps_a_dotted_version() -> None:
    result = _rewrite(
        "can I reset the offsets to just before then and reprocess?",
        "Our consumer group started falling behind at Sunday 02:00 UTC, right when we deployed v5.1. Lag is 3M.",
        "Check whether v5.1 changed max.poll.records; anything that errored may need reprocessing.",
    )
    assert "02:00" in result.expanded
    assert "deployed v5.1" in result.expanded


def test_a_change_clause_keeps_a_dotted_instance_type() -> None:
    result = _rewrite(
        "what was the monthly bill at the start",
        "We started on a single t3.medium, then moved to three c6i.large in March.",
        "How has the cost changed?",
        "Roughly tripled, but latency halved.",
    )
    assert "t3.medium" in result.expanded


@pytest.mark.parametrize(
    ("clause", "kept"),
    [
        ("we moved to a new host when we upgraded to Postgres 16.2. Nothing else changed.", "16.2"),
        ("the build broke on 3 May when we bumped node to 20.11. The fix is pending.", "20.11"),
    ],
)
def test_a_time_pointer_keeps_the_whole_version(clause: str, kept: str) -> None:
    result = _rewrite("what did the logs say right after that", clause, "Anything in the logs?")
    assert result.was_rewritten
    assert kept in result.expanded


def test_a_sentence_still_ends_at_its_full_stop() -> None:
    result = _rewrite(
        "what did the logs say right after that",
        "the build broke on 3 May when we bumped node. Then the cache filled up.",
        "Anything in the logs?",
    )
    assert "the cache" not in result.expanded.split("when we bumped node")[-1]
