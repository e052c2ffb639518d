"""The SQL a scoped fused search runs reads what it needs, not a user's whole index.

Each statement the store executes during a user-scoped search with a time window is captured
(SQLite's trace hook on the store's connection) and explained: key lookups go by row key, time
windows inside a user's scope use the (user_id, ts) index, and an older store gains that index
when it is opened.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from mnemo import Memory
from mnemo.store.migrations import MIGRATIONS, _statements

pytestmark = pytest.mark.core

INDEX_MIGRATION = "0005_items_by_user_time"


def turns() -> Iterator[dict[str, object]]:
    start = datetime(2023, 1, 1, tzinfo=UTC)
    for user in ("ann", "bob"):
        for n in range(150):
            yield {
                "id": f"{user}{n}",
                "content": "we finally finished the move to Denver"
                if n == 100
                else f"note {n} about the garden, the roses and the pottery class",
                "role": "Caroline" if n % 2 else "Melanie",
                "user_id": user,
                "session_id": f"{user}-{n // 10}",
                "timestamp": (start + timedelta(days=n)).isoformat(),
            }


def plans(conn: sqlite3.Connection, statements: list[str]) -> list[tuple[str, str]]:
    out = []
    for sql in statements:
        if sql.lstrip().upper().startswith("SELECT") and " items" in sql:
            detail = " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
            out.append((sql, detail))
    return out


def traced_search(db_path: str, query: str, seen: list[str] | None = None) -> list[tuple[str, str]]:
    seen = [] if seen is None else seen
    with Memory(db_path, embedder="hashing") as memory:
        memory.add_many(turns())
        memory.search("warm up the caches", user_id="ann")
        conn = memory.store._conn  # the store's own connection: only it can be traced
        conn.set_trace_callback(seen.append)
        try:
            hits = memory.search(query, user_id="ann")
        finally:
            conn.set_trace_callback(None)
        assert hits and all(h.item.scope.user_id == "ann" for h in hits)
    explain = sqlite3.connect(db_path)
    try:
        return plans(explain, seen)
    finally:
        explain.close()


def test_key_lookups_in_a_scope_go_by_row_key(db_path: str) -> None:
    found = [(sql, plan) for sql, plan in traced_search(db_path, "What did Caroline say?") if "rowid IN (" in sql]
    assert found, "the fused round reads its pool's time, role and session by key"
    for sql, plan in found:
        assert "INTEGER PRIMARY KEY" in plan and "autoindex" not in plan, (sql, plan)


def test_a_time_window_in_a_scope_uses_the_user_time_index(db_path: str) -> None:
    found = traced_search(db_path, "the pottery class in March 2023")
    windowed = [(sql, plan) for sql, plan in found if "items.ts >=" in sql and "items.user_id" in sql]
    assert windowed, "a window the query names is searched inside the user's scope"
    for sql, plan in windowed:
        if "items_fts" not in sql:
            assert "items_by_user_ts" in plan, (sql, plan)


def test_a_window_that_is_the_searchs_own_filter_is_not_searched_twice(db_path: str) -> None:
    """ "before the move" narrows the whole search to before the event; the temporal strategy's
    search inside that same window is the round's own lexical search, reused, not run again."""
    seen: list[str] = []
    traced_search(db_path, "What did Caroline plant before the move to Denver?", seen)
    full_text = [sql for sql in seen if "MATCH" in sql]
    assert any("items.ts <" in sql for sql in full_text), "the event narrows the search to before it"
    assert len(full_text) == len(set(full_text)), full_text


def test_an_existing_store_gains_the_index_on_open(db_path: str) -> None:
    """A store made before the migration (every earlier one applied) upgrades and keeps its rows."""
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for name, script in MIGRATIONS[: [n for n, _ in MIGRATIONS].index(INDEX_MIGRATION)]:
        for statement in _statements(script):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_migrations VALUES (?, 0)", (name,))
    conn.commit()
    conn.close()
    with Memory(db_path, embedder="hashing") as memory:
        memory.add("the pottery class moved to Tuesday", user_id="ann", timestamp="2023-03-02T10:00:00")
    with Memory(db_path, embedder="hashing") as memory:
        hits = memory.search("pottery class in March 2023", user_id="ann")
        assert [h.item.content for h in hits] == ["the pottery class moved to Tuesday"]
    conn = sqlite3.connect(db_path)
    try:
        indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        applied = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    finally:
        conn.close()
    assert "items_by_user_ts" in indexes and INDEX_MIGRATION in applied
