"""PostgreSQL write path: bulk imports that build the HNSW index once, no partial or doubled
batches when the connection drops mid-write, VACUUM after a hard forget, and what doctor reports."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import numpy as np
import pytest

from mnemo import Memory
from mnemo.errors import InputError
from mnemo.records import Item, Scope, SearchFilter
from mnemo.store import postgres_scrub
from mnemo.store.base import Embedding
from mnemo.store.postgres import PostgresStore
from mnemo.store.postgres_schema import vector_index_name
from mnemo.store.sqlite import SQLiteStore

psycopg = pytest.importorskip("psycopg", reason="the 'postgres' extra is not installed")
pytestmark = pytest.mark.postgres
DIM = 8


def index_exists(url: str, dim: int = DIM) -> bool:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT to_regclass(%s)", (vector_index_name(dim),)).fetchone()[0] is not None


def rows(start: int, n: int, user: str = "u") -> tuple[list[Item], list[Embedding]]:
    rng = np.random.default_rng(start)
    numbers = range(start, start + n)
    items = [Item(id=f"i{i}", content=f"note {i}", scope=Scope(user_id=user), content_hash=f"h{i}") for i in numbers]
    vectors = [Embedding(f"k{i}", rng.standard_normal(DIM).astype(np.float32)) for i in numbers]
    return items, vectors


@pytest.fixture
def store(pg_url: str) -> Any:
    opened = PostgresStore(pg_url, pool_size=2)
    yield opened
    opened.close()


def test_a_large_import_builds_the_index_once_and_every_item_stays_searchable(pg_url: str) -> None:
    seen: list[tuple[int, bool, int]] = []

    with Memory(pg_url, embedder="hashing", batch_size=500) as memory:
        dim = memory.embedder.dim

        def progress(done: int, total: int) -> None:  # between batches: what another reader sees now
            last = memory.search(f"imported note number {done - 1}", limit=1)[0].id
            seen.append((done, index_exists(pg_url, dim), int(last.removeprefix("n"))))

        records = [{"id": f"n{i}", "content": f"imported note number {i}"} for i in range(1500)]
        report = memory.add_many(records, progress=progress)
        assert report.added == 1500
        # the first 500 went into the index; at 1,000 the session dropped it (BULK_MIN_ITEMS) and the
        # searches meanwhile were exact; the end of add_many built it again
        assert [(done, present) for done, present, _ in seen] == [(500, True), (1000, False), (1500, False)]
        assert [last for _, _, last in seen] == [499, 999, 1499]  # read-your-writes throughout
        assert index_exists(pg_url, dim) and memory.store.deferred_dims() == frozenset()
        assert memory.stats()["vectors_indexed"] == 1500
        assert memory.search("imported note number 1234", limit=1)[0].id == "n1234"


def test_a_small_session_into_a_big_store_keeps_the_index(store: PostgresStore, pg_url: str) -> None:
    store.write(*rows(0, 4400))
    with store.bulk_writes():
        store.write(*rows(10_000, 1000))  # 1,000 · 4 < 4,400 items already there: inserting is cheaper
        assert index_exists(pg_url) and store.deferred_dims() == frozenset()
        store.write(*rows(20_000, 200))  # 1,200 · 4 ≥ 4,400: now the one rebuild costs less
        assert not index_exists(pg_url) and store.deferred_dims() == {DIM}
    assert index_exists(pg_url) and store.vector_count() == 5600


def test_an_import_that_fails_half_way_keeps_its_committed_batches_and_the_index(pg_url: str) -> None:
    records: list[dict[str, Any]] = [{"id": f"n{i}", "content": f"note {i}"} for i in range(2500)]
    records[2100] = {"id": "bad", "content": ""}
    with Memory(pg_url, embedder="hashing", batch_size=1000) as memory:
        with pytest.raises(InputError, match="record 2100"):
            memory.add_many(records)
        # batches are whole: the first two are in, nothing of the third (it failed before its write)
        assert memory.stats()["items"] == 2000
        assert index_exists(pg_url, memory.embedder.dim)


def test_an_index_left_dropped_by_a_killed_import_is_found_and_rebuilt(pg_url: str) -> None:
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add_many([{"id": f"n{i}", "content": f"greenhouse note {i}"} for i in range(20)])
        dim = memory.embedder.dim
    with psycopg.connect(pg_url, autocommit=True) as conn:  # what a process killed mid-import leaves
        conn.execute(f"DROP INDEX {vector_index_name(dim)}")
    with Memory(pg_url, embedder="hashing") as memory:
        assert memory.search("greenhouse note 7", limit=1)[0].id == "n7"  # exact meanwhile
        found = memory.doctor()
        assert {c.name: c.problems for c in found.checks}["vector_index"] == 1
        assert memory.doctor(repair=True).ok and index_exists(pg_url, dim)
        memory.add("one more", id="later")  # and any later write recreates it too
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP INDEX {vector_index_name(dim)}")
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add("after the crash", id="after")
        assert index_exists(pg_url, dim)


def _backend_waiting(admin: Any) -> int | None:
    row = admin.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' "
        "AND pid <> pg_backend_pid()"
    ).fetchone()
    return None if row is None else int(row[0])


def test_a_connection_dropped_mid_batch_leaves_nothing_and_the_retry_writes_it_once(
    store: PostgresStore, pg_url: str
) -> None:
    items, vectors = rows(0, 300)
    outcome: dict[str, Any] = {}
    with psycopg.connect(pg_url) as blocker, psycopg.connect(pg_url, autocommit=True) as admin:
        # the batch's statement trigger updates item_stats after its rows are in: holding that row
        # stops the write there, with every row inserted and nothing committed
        blocker.execute("SELECT * FROM item_stats FOR UPDATE")
        writer = threading.Thread(target=lambda: outcome.update(done=store.write(items, vectors)))
        writer.start()
        deadline = time.monotonic() + 20
        while (pid := _backend_waiting(admin)) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pid is not None
        assert admin.execute("SELECT count(*) FROM items").fetchone()[0] == 0  # nothing visible
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))  # the connection drops mid-batch
        time.sleep(0.3)
        assert admin.execute("SELECT count(*) FROM items").fetchone()[0] == 0  # rolled back whole
        blocker.rollback()  # the retry may now finish
        writer.join(30)
    assert [o.status for o in outcome["done"]] == ["added"] * 300
    assert store.count(SearchFilter()) == 300 and store.vector_count() == 300
    assert sorted(it.id for it in store.iter_items(SearchFilter())) == sorted(it.id for it in items)


def test_vector_count_counts_vectors_as_sqlite_does(store: PostgresStore, tmp_path: Any) -> None:
    items, vectors = rows(0, 10)
    store.write(items, [*vectors[:6], *([None] * 4)])
    reference = SQLiteStore(str(tmp_path / "ref.db"))
    try:
        reference.write(items, [*vectors[:6], *([None] * 4)])
        in_sqlite = sum(len(keys) for keys, _ in reference.vector_pages(0))  # what its vector index loads
    finally:
        reference.close()
    assert store.vector_count() == in_sqlite == 6 and store.count(SearchFilter()) == 10


def _left_on_disk(url: str) -> tuple[int, int]:
    """What a VACUUM run now finds in items: (dead rows it removes, dead rows it must keep).

    Read from VACUUM VERBOSE's report, the table's own account, not from the statistics views,
    which count with a delay and from several sessions."""
    reports: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.add_notice_handler(lambda notice: reports.append(notice.message_primary or ""))
        conn.execute("VACUUM (VERBOSE) items")
    (report,) = [r for r in reports if '.public.items"' in r and "tuples:" in r]
    found = re.search(r"tuples: (\d+) removed, \d+ remain, (\d+) are dead but not yet removable", report)
    assert found, report
    return int(found[1]), int(found[2])


def test_a_hard_forget_vacuums_so_no_deleted_row_waits_on_disk(pg_url: str) -> None:
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add_many([{"id": f"n{i}", "content": f"my locker code is {1000 + i}"} for i in range(50)])
        memory.add("keep this one", id="keep")
        with psycopg.connect(pg_url, autocommit=True) as conn:  # what autovacuum has not yet cleaned
            conn.execute("DELETE FROM items WHERE id IN ('n0', 'n1', 'n2')")
        deadline = time.monotonic() + 10
        while "keep their text" not in " ".join(memory.doctor().notes) and time.monotonic() < deadline:
            time.sleep(0.3)  # the server's statistics catch up within about a second
        assert "keep their text in the table files" in " ".join(memory.doctor().notes)
        assert memory.delete("n3") == 1  # a hard delete runs the store's scrub: VACUUM
        assert _left_on_disk(pg_url) == (0, 0)  # nothing left for a VACUUM of the table to remove
        hits = {h.id for h in memory.search("locker code 1003", limit=50)}
        assert hits and "n3" not in hits


def _inserted(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT coalesce(sum(n_tup_ins), 0) FROM pg_stat_user_tables WHERE relname = 'items'")
        return int(row.fetchone()[0])


def _await_write_stats(url: str, at_least: int) -> None:
    """Wait, bounded, until the statistics count the rows just written. A session hands its counts
    to the server up to ~10 s after its transaction; counts of the writes that land after the hard
    forget's VACUUM reset them would make the doctor report dead rows that are already gone."""
    deadline = time.monotonic() + 15
    while _inserted(url) < at_least and time.monotonic() < deadline:
        time.sleep(0.1)


def test_a_hard_forget_waits_for_a_reader_that_still_sees_the_row(pg_url: str) -> None:
    with Memory(pg_url, embedder="hashing") as memory:
        before = _inserted(pg_url)
        memory.add_many([{"id": f"n{i}", "content": f"my locker code is {1000 + i}"} for i in range(20)])
        _await_write_stats(pg_url, before + 20)
        reader = psycopg.connect(pg_url)  # a search, report or autovacuum ANALYZE begun before the delete
        try:
            reader.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            assert reader.execute("SELECT count(*) FROM items").fetchone()[0] == 20
            threading.Timer(0.5, reader.rollback).start()
            assert memory.delete("n3") == 1
        finally:
            time.sleep(0.6)  # the timer's rollback has run
            reader.close()
        # VACUUM ran after the reader ended, so it could remove the row the reader still saw
        assert _left_on_disk(pg_url) == (0, 0)
        assert memory.doctor().notes == ()


def test_a_hard_forget_waits_a_bounded_time_for_a_reader_that_stays(pg_url: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(postgres_scrub, "SNAPSHOT_WAIT_S", 0.3)
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add_many([{"id": f"n{i}", "content": f"my locker code is {1000 + i}"} for i in range(20)])
        with psycopg.connect(pg_url) as reader:
            reader.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            reader.execute("SELECT count(*) FROM items").fetchone()
            started = time.monotonic()
            assert memory.delete("n3") == 1
            assert time.monotonic() - started < 5  # no hang: it vacuumed after the wait
            assert memory.get("n3") is None
            assert _left_on_disk(pg_url) == (0, 1)  # the reader still sees n3: left for autovacuum
            reader.rollback()
        assert _left_on_disk(pg_url) == (1, 0)  # now a VACUUM removes it
