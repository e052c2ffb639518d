"""BM25 pieces of the PostgreSQL store that are pure functions (no server needed)."""

from __future__ import annotations

import math

import pytest

from mnemo.store.postgres_lexical import idf, rank_sql

pytestmark = pytest.mark.core


def test_idf_is_fts5s_formula_with_a_floor() -> None:
    assert idf(1000, 9) == pytest.approx(math.log(991.5 / 9.5))
    assert idf(1000, 600) == 1e-6  # a term in most items: the floor, never negative


def test_more_hits_than_documents_is_the_floor_not_an_error() -> None:
    # a count taken after concurrent inserts can exceed the item count read a moment earlier
    assert idf(5, 8) == 1e-6
    assert idf(0, 3) == 1e-6


def test_a_capped_scan_filters_the_scope_on_the_capped_rows() -> None:
    capped = rank_sql(2, [1.0, 2.0], 10.0, "items.user_id = %s", match_cap=3000)
    inner = capped[capped.index("(SELECT rowid") :]
    assert "LIMIT 3000) AS items WHERE items.user_id = %s" in inner
    assert capped.count("%s") == 2 + 1 + 1 + 1  # two terms, the OR-ed query, the filter, the limit
    assert "LIMIT 3000" not in rank_sql(2, [1.0, 2.0], 10.0, "items.user_id = %s")


def test_the_capped_scan_passes_on_only_the_columns_the_filter_tests() -> None:
    from datetime import UTC, datetime

    from mnemo.records import Scope, SearchFilter
    from mnemo.store.postgres_filters import pg_where

    unscoped = rank_sql(1, [1.0], 10.0, "TRUE", match_cap=3000)
    assert "SELECT rowid, doc_len, tsv FROM items" in unscoped
    flt = SearchFilter(
        scope=Scope(user_id="u1", project="p"),
        kinds=("message",),
        since=datetime(2024, 1, 1, tzinfo=UTC),
        category="skills/python",
    )
    where, _ = pg_where(flt)
    scoped = rank_sql(1, [1.0], 10.0, where, match_cap=3000)
    passed = scoped[scoped.index("(SELECT rowid") + len("(SELECT ") : scoped.index(" FROM items WHERE items.tsv")]
    tested = ["user_id", "project", "kind", "ts", "category", "subcategory"]
    assert passed.split(", ") == ["rowid", "doc_len", "tsv", *tested]
    assert "session_id" not in passed and "agent_id" not in passed
