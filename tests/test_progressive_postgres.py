"""Progressive search's descent on PostgreSQL + pgvector: the same judgement, scope and share."""

from __future__ import annotations

import pytest

from mnemo import Memory
from tests.test_progressive_descent import add_sessions

pytestmark = pytest.mark.postgres


def test_descent_on_postgres_stays_in_scope_and_counts_the_share(pg_url: str) -> None:
    with Memory(pg_url, embedder="hashing") as memory:
        add_sessions(memory)
        loose = {"min_quality": 0.3, "min_coverage": 0.5, "min_depth": 0, "descend_sessions": 1}
        result = memory.progressive_search("hut near Cortina booked hiking trip", user_id="ann", **loose)
        assert result.stopped_early and result.descended_into == ("trip",)
        messages = {t.tier: t for t in result.tiers}["messages"]
        assert messages.share == pytest.approx(3 / 7)
        ids = {h.id for h in result.hits}
        assert "trip1" in ids and "bob0" not in ids and not ids & {"garden0", "work0"}
