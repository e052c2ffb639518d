"""The one-statement hybrid candidates of PostgreSQL: the same answers as the separate queries, and
the same fused ranking as the SQLite backend.

``hybrid_candidates`` replaces four round trips (statistics, BM25, nearest, times) by one; it must
change nothing but the cost. So each test compares it with the queries it replaces, on the same
real server, and the last one compares whole hybrid searches across the two engines.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from mnemo import Memory
from mnemo.embed.inputs import query_input
from mnemo.records import Scope, SearchFilter
from mnemo.store.sql import query_terms
from tests.conftest import needs_model

pytestmark = pytest.mark.postgres

SUBJECTS = ["the team", "my sister", "our landlord", "the new intern", "grandma", "the football coach"]
ACTIONS = ["moved the meeting about", "keeps talking about", "finally paid for", "is worried about", "booked"]
OBJECTS = [
    "the Lisbon apartment",
    "a trip to the mountains",
    "the broken dishwasher",
    "piano lessons on Tuesday",
    "the quarterly budget review",
    "a birthday party for Max",
    "the vegetable garden",
]
QUERIES = [
    "when is the budget review",
    "who paid for the dishwasher",
    "piano lessons",
    "trip to the mountains with grandma",
    "Lisbon apartment landlord",
    "what is my sister worried about",
    "garden",
]


def corpus() -> list[dict[str, object]]:
    """Distinct sentences over three users, each with its own time, so no two candidates tie."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    records = []
    for number, (subject, action, thing) in enumerate(
        (s, a, o) for s in SUBJECTS for a in ACTIONS for o in OBJECTS if (len(s) + len(a) + len(o)) % 3
    ):
        records.append(
            {
                "id": f"m{number}",
                "content": f"{subject.capitalize()} {action} {thing}.",
                "user_id": f"u{number % 3}",
                "timestamp": (start + timedelta(hours=7 * number)).isoformat(),
            }
        )
    return records


@pytest.fixture
def pg_memory(pg_url: str) -> Iterator[Memory]:
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add_many(corpus())
        yield memory


def separate(memory: Memory, terms: list[str], vector: np.ndarray, flt: SearchFilter, n: int) -> tuple:
    store = memory.store
    lexical, semantic = store.lexical(terms, flt, n), store.nearest(vector, n, flt)
    return lexical, semantic, store.times(sorted({k for k, _ in lexical + semantic}), flt)


@pytest.mark.parametrize("user", [None, "u1"])
@pytest.mark.parametrize("n", [5, 50, 150])  # 150: past ef_search/2, where nearest() widens its scan
def test_one_statement_answers_as_the_separate_queries(pg_memory: Memory, user: str | None, n: int) -> None:
    flt = SearchFilter(scope=Scope(user_id=user))
    for query in QUERIES:
        terms = query_terms(query)
        vector = pg_memory.embedder.embed_one(query_input(query))
        lexical, semantic, times = pg_memory.store.hybrid_candidates(terms, vector, flt, n)
        assert (lexical, semantic, times) == separate(pg_memory, terms, vector, flt, n), query
        assert lexical and semantic and len(semantic) == min(n, pg_memory.store.count(flt))


def test_scope_is_applied_inside_the_statement(pg_memory: Memory) -> None:
    flt = SearchFilter(scope=Scope(user_id="u2"))
    owned = {item.id for item in pg_memory.store.iter_items(flt)}
    vector = pg_memory.embedder.embed_one(query_input("the budget"))
    lexical, semantic, times = pg_memory.store.hybrid_candidates(["budget"], vector, flt, 200)
    keys = {k for k, _ in lexical} | {k for k, _ in semantic} | set(times)
    assert {item.id for item in pg_memory.store.fetch(sorted(keys), SearchFilter()).values()} <= owned
    assert len(semantic) == len(owned)


def test_a_write_between_searches_is_ranked_with_the_new_statistics(pg_memory: Memory) -> None:
    flt = SearchFilter()
    vector = pg_memory.embedder.embed_one(query_input("dishwasher"))
    pg_memory.store.hybrid_candidates(["dishwasher"], vector, flt, 20)  # caches the statistics
    pg_memory.add_many([{"content": f"The dishwasher story, part {i}.", "user_id": "u0"} for i in range(30)])
    # 30 more items hold the term: its idf and the average length both moved
    assert pg_memory.store.hybrid_candidates(["dishwasher"], vector, flt, 20) == separate(
        pg_memory, ["dishwasher"], vector, flt, 20
    )


def test_no_terms_and_an_empty_scope(pg_memory: Memory) -> None:
    vector = pg_memory.embedder.embed_one(query_input("the"))
    lexical, semantic, times = pg_memory.store.hybrid_candidates([], vector, SearchFilter(), 10)
    assert lexical == [] and len(semantic) == 10 and set(times) == {k for k, _ in semantic}
    nobody = SearchFilter(scope=Scope(user_id="nobody"))
    assert pg_memory.store.hybrid_candidates(["budget"], vector, nobody, 10) == ([], [], {})


@pytest.mark.parametrize("user", [None, "u1"])
@pytest.mark.parametrize("n", [5, 50, 150])
def test_overlapped_candidates_answer_as_the_one_statement(pg_memory: Memory, user: str | None, n: int) -> None:
    """Ranking BM25 while the query is embedded changes when the work happens, not the answer."""
    flt = SearchFilter(scope=Scope(user_id=user))
    pg_memory.store.overlap = True  # as for a server on another machine
    for query in QUERIES:
        terms = query_terms(query)
        vector = pg_memory.embedder.embed_one(query_input(query))
        overlapped = pg_memory.store.hybrid_candidates_embedding(terms, lambda v=vector: v, flt, n)
        assert overlapped == pg_memory.store.hybrid_candidates(terms, vector, flt, n), query


def test_the_lexical_half_runs_while_the_query_is_embedded(pg_memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The BM25 ranking waits for a signal only the embedding sends: run one after the other, it
    would time out; run side by side, both finish."""
    store = pg_memory.store
    embedding_started = threading.Event()
    lexical = store.lexical

    def lexical_after_embedding_started(*args: object) -> list[tuple[int, float]]:
        assert embedding_started.wait(timeout=10), "the lexical half did not run beside the embedding"
        return lexical(*args)

    def embed() -> np.ndarray:
        embedding_started.set()
        return pg_memory.embedder.embed_one(query_input("the budget review"))

    monkeypatch.setattr(store, "lexical", lexical_after_embedding_started)
    store.overlap = True
    found, semantic, times = store.hybrid_candidates_embedding(["budget", "review"], embed, SearchFilter(), 20)
    assert found and semantic and set(times) == {k for k, _ in found + semantic}


@pytest.mark.parametrize("mode", ["hybrid", "fused"])
def test_searches_rank_full_text_while_the_query_is_embedded(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Both search paths start the server's BM25 before embedding the query: the ranking waits for
    a signal only the embedding sends, so run one after the other the search would fail."""
    with Memory(pg_url, embedder="hashing", search_mode=mode) as memory:
        memory.add_many(corpus())
        embedding_started = threading.Event()
        lexical, embed_one = memory.store.lexical, memory.embedder.embed_one

        def lexical_after_embedding_started(*args: object) -> list[tuple[int, float]]:
            assert embedding_started.wait(timeout=10), "the full-text search did not run beside the embedding"
            return lexical(*args)

        def embed(text: str) -> np.ndarray:
            embedding_started.set()
            return embed_one(text)

        monkeypatch.setattr(memory.store, "lexical", lexical_after_embedding_started)
        monkeypatch.setattr(memory.embedder, "embed_one", embed)
        memory.store.overlap = True
        hits = memory.search("who paid for the broken dishwasher", limit=5)
    assert hits and "dishwasher" in hits[0].content


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("postgresql://mnemo@127.0.0.1:5432/db", True),
        ("postgresql://localhost/db", True),
        ("postgresql://u@[::1]:5433/db", True),
        ("postgresql:///db?host=/var/run/postgresql", True),
        ("postgresql://db.internal.example:5432/db", False),
        ("postgresql://10.0.0.7/db", False),
        ("postgresql://localhost,db.internal.example/db", False),
    ],
)
def test_only_a_server_on_another_machine_is_overlapped(url: str, local: bool) -> None:
    from mnemo.store.postgres_hybrid import server_is_local

    assert server_is_local(url) is local


@pytest.mark.parametrize("mode", ["hybrid", "fused"])
@pytest.mark.parametrize(("cores", "overlapped"), [(1, False), (2, True)])
def test_a_server_on_this_machine_is_overlapped_only_with_a_core_to_spare(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, mode: str, cores: int, overlapped: bool
) -> None:
    """On a loopback server the two halves share this machine's cores: with one core there is no
    worker thread and the one-statement candidates are used; with two the server ranks full text
    while the query is embedded. The hits are the same either way."""
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    with Memory(pg_url, embedder="hashing", search_mode=mode) as memory:
        memory.add_many(corpus())
        assert memory.store.overlap is overlapped
        first = [h.id for h in memory.search("who paid for the broken dishwasher", limit=5)]
        assert (memory.store._background is not None) is overlapped
        memory.store.overlap = not overlapped
        assert [h.id for h in memory.search("who paid for the broken dishwasher", limit=5)] == first


def test_a_failing_embedding_is_raised_and_the_store_stays_usable(pg_memory: Memory) -> None:
    def broken() -> np.ndarray:
        raise RuntimeError("the model fell over")

    pg_memory.store.overlap = True
    with pytest.raises(RuntimeError, match="fell over"):
        pg_memory.store.hybrid_candidates_embedding(["budget"], broken, SearchFilter(), 10)
    assert pg_memory.search("budget review", limit=3)


@needs_model
@pytest.mark.parametrize("mode", ["hybrid", "fused"])
@pytest.mark.parametrize("user", [None, "u0"])
def test_hybrid_search_ranks_identically_on_sqlite_and_postgres(
    pg_url: str, tmp_path: Path, user: str | None, mode: str
) -> None:
    records = corpus()
    lite_memory = Memory(str(tmp_path / "same.db"), embedder="minilm", search_mode=mode)
    with lite_memory as lite, Memory(pg_url, embedder="minilm", search_mode=mode) as pg:
        lite.add_many(records)
        pg.add_many(records)
        for query in QUERIES:
            expected = [(h.id, h.ranks) for h in lite.search(query, limit=10, user_id=user)]
            assert [(h.id, h.ranks) for h in pg.search(query, limit=10, user_id=user)] == expected, query


def test_large_store_document_counts_from_statistics_rank_as_exact_counts(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above LEXICAL_PRUNE_ABOVE a common term's document count comes from ANALYZE's statistics.

    The threshold is lowered so a small store counts as large. ANALYZE samples a table this small
    whole, so its shares are exact and the BM25 ranking must not move at all.
    """
    import psycopg

    from mnemo.store import postgres_lexical

    monkeypatch.setattr(postgres_lexical, "LEXICAL_PRUNE_ABOVE", 50)
    monkeypatch.setattr(postgres_lexical, "LEXICAL_ROW_BUDGET", 10_000)  # rank every match, drop no term
    terms = ["the", "budget", "lisbon", "grandma"]
    with Memory(pg_url, embedder="hashing") as counted:
        counted.add_many(corpus())
        exact = counted.store.lexical(terms, SearchFilter(), 100)  # before ANALYZE: counted
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ANALYZE items")
        common = conn.execute("SELECT most_common_elems::text::text[] FROM pg_stats WHERE attname = 'tsv'").fetchone()
    assert {"the", "budget"} <= set(common[0])  # these counts now come from the statistics
    with Memory(pg_url, embedder="hashing") as estimated:
        assert estimated.store.lexical(terms, SearchFilter(), 100) == exact
    assert len(exact) > 50


@pytest.mark.parametrize("user", [None, "u1"])
def test_large_store_reads_at_most_the_match_cap_and_keeps_the_scope(
    pg_memory: Memory, monkeypatch: pytest.MonkeyPatch, user: str | None
) -> None:
    from mnemo.store import postgres_lexical

    monkeypatch.setattr(postgres_lexical, "LEXICAL_PRUNE_ABOVE", 50)
    monkeypatch.setattr(postgres_lexical, "LEXICAL_MATCH_CAP", 12)
    flt = SearchFilter(scope=Scope(user_id=user))
    owned = {item.id for item in pg_memory.store.iter_items(flt)}
    assert sum("the" in item.content.lower().split() for item in pg_memory.store.iter_items(SearchFilter())) > 12
    ranked = pg_memory.store.lexical(["the"], flt, 100)
    assert 0 < len(ranked) <= 12
    assert {item.id for item in pg_memory.store.fetch([k for k, _ in ranked], SearchFilter()).values()} <= owned
    vector = pg_memory.embedder.embed_one(query_input("the"))
    assert pg_memory.store.hybrid_candidates(["the"], vector, flt, 100)[0] == ranked


def test_search_connections_plan_each_execution_and_start_no_workers(pg_memory: Memory) -> None:
    """A generic plan for a time-filtered nearest search sorted the guessed window instead of walking
    the HNSW index (seconds at 1M items), and parallel workers cost milliseconds to start even for
    a branch its one-time condition skips (docs/postgres.md); every pooled connection opts out."""
    for _ in range(3):  # several pool connections
        rows = pg_memory.store._read(
            "SELECT current_setting('plan_cache_mode'), current_setting('max_parallel_workers_per_gather')"
        )
        assert rows == [("force_custom_plan", "0")]
