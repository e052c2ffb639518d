"""PostgresStore against a real PostgreSQL + pgvector server: writes, scope, full text, vectors,
deletes and the sequence, facts, errors with their fixes, schema versions, concurrent writers."""

from __future__ import annotations

import importlib.util
import multiprocessing
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from mnemo import Memory
from mnemo.errors import ConfigError, MissingExtra
from mnemo.records import Item, Scope, SearchFilter
from mnemo.store.base import Embedding
from mnemo.store.postgres import PostgresStore
from mnemo.store.sql import query_terms
from mnemo.store.sqlite import SQLiteStore
from tests.conftest import needs_model

psycopg = pytest.importorskip("psycopg", reason="the 'postgres' extra is not installed")
pytestmark = pytest.mark.postgres
needs_spacy = pytest.mark.skipif(importlib.util.find_spec("spacy") is None, reason="the 'nlp' extra is not installed")


def unit(*values: float) -> np.ndarray:
    vector = np.zeros(8, dtype=np.float32)
    vector[: len(values)] = values
    return vector / np.linalg.norm(vector)


def item(item_id: str, content: str, **fields: Any) -> Item:
    scope = Scope(**{k: fields.pop(k) for k in ("user_id", "agent_id", "session_id", "project") if k in fields})
    return Item(id=item_id, content=content, scope=scope, content_hash=f"h-{content}", **fields)


def vec(values: np.ndarray, key: str | None = None) -> Embedding:
    return Embedding(key or f"k-{values.tobytes().hex()[:16]}", values)


@pytest.fixture
def store(pg_url: str) -> Any:
    opened = PostgresStore(pg_url, pool_size=2)
    yield opened
    opened.close()


def test_write_is_idempotent_by_id_and_content(store: PostgresStore) -> None:
    a, b = item("a", "alpha", user_id="u"), item("b", "beta", user_id="u")
    assert [o.status for o in store.write([a, b], [vec(unit(1)), None])] == ["added", "added"]
    assert [o.status for o in store.write([a, b], [vec(unit(1)), None])] == ["unchanged", "unchanged"]
    # no vector given: an existing vector is kept, the item is unchanged
    assert [o.status for o in store.write([a], [None])] == ["unchanged"]
    changed = item("a", "alpha two", user_id="u")
    assert [o.status for o in store.write([changed], [vec(unit(0, 1))])] == ["updated"]
    # the same id under another owner is another item; a repeat within a batch is judged in order
    other = item("a", "alpha", user_id="v")
    outcomes = store.write([other, item("c", "x"), item("c", "y")], [None, None, None])
    assert [o.status for o in outcomes] == ["added", "added", "updated"]
    assert store.count(SearchFilter()) == 4
    assert store.get("c", Scope()).content == "y"
    assert store.get("a", Scope(user_id="u")).content == "alpha two"


def test_round_trip_through_memory_keeps_every_field(pg_url: str) -> None:
    when = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
    with Memory(pg_url, embedder="hashing") as memory:
        added = memory.add(
            "Meet Ana at the café on Friday",
            role="user",
            session_id="s1",
            user_id="u1",
            agent_id="bot",
            project="p",
            task_id="t",
            timestamp=when,
            id="m1",
            metadata={"lang": "en", "n": [1, 2.5], "nested": {"ok": True}},
            source="chat",
        )
        got = memory.get("m1", user_id="u1", agent_id="bot", project="p")
    assert got is not None
    assert got.content == added.content and got.metadata == {"lang": "en", "n": [1, 2.5], "nested": {"ok": True}}
    assert got.scope == Scope(user_id="u1", agent_id="bot", session_id="s1", project="p", task_id="t")
    assert got.timestamp == when and got.role == "user" and got.source == "chat" and got.kind == "message"
    assert got.content_hash == added.content_hash and got.ingested_at is not None


def test_scope_filters_apply_in_lexical_and_nearest(store: PostgresStore) -> None:
    day = datetime(2024, 1, 1, tzinfo=UTC)
    rows = [
        item("1", "blue whale song", user_id="u1", session_id="s1", timestamp=day),
        item("2", "blue whale migration", user_id="u2", session_id="s2", timestamp=day + timedelta(days=10)),
        item("3", "blue whale facts", user_id="u1", kind="note", project="p", timestamp=day + timedelta(days=20)),
        item("4", "blue sky", user_id="u1", agent_id="a", category="facts", subcategory="sky"),
    ]
    store.write(rows, [vec(unit(1, 0.1 * i)) for i in range(4)])
    keys = {it.id: k for k, it in store.fetch(range(1, 10), SearchFilter()).items()}
    cases = {
        SearchFilter(scope=Scope(user_id="u1")): {"1", "3", "4"},
        SearchFilter(scope=Scope(user_id="u2")): {"2"},
        SearchFilter(scope=Scope(session_id="s1")): {"1"},
        SearchFilter(scope=Scope(project="p")): {"3"},
        SearchFilter(scope=Scope(agent_id="a")): {"4"},
        SearchFilter(kinds=("note",)): {"3"},
        SearchFilter(since=day + timedelta(days=5), until=day + timedelta(days=15)): {"2"},
        SearchFilter(category="facts/sky"): {"4"},
        SearchFilter(scope=Scope(user_id="nobody")): set(),
    }
    for flt, expected in cases.items():
        lexical = {k for k, _ in store.lexical(["blue"], flt, 10)}
        nearest = {k for k, _ in store.nearest(unit(1), 10, flt)}
        assert lexical == nearest == {keys[i] for i in expected}, flt


def test_lexical_ranks_like_sqlite_bm25(store: PostgresStore, tmp_path: Any) -> None:
    texts = [
        "the cat sat on the mat",
        "a cat and another cat chased the cats",
        "dogs run in the park every morning",
        "my dog runs faster than your cat",
        "stock markets fell sharply on monday",
        "the park opens at nine in the morning",
        "running is good for dogs and people",
        "cat food prices rose in the market",
    ]
    kinds = ["message", "fact", "message", "summary", "message", "fact", "message", "message"]
    rows = [
        item(str(i), text, role="user" if i % 2 else "assistant", kind=kinds[i], user_id=f"u{i % 3}")
        for i, text in enumerate(texts)
    ]
    sqlite = SQLiteStore(str(tmp_path / "ref.db"))
    # SQLite puts a kind filter into its full-text match (kind tokens) and scores the rows as the
    # join would; the scores must still be PostgreSQL's, with or without a scope beside the kinds
    filters = [
        SearchFilter(),
        SearchFilter(kinds=("fact",)),
        SearchFilter(kinds=("message", "summary")),
        SearchFilter(kinds=("message",), scope=Scope(user_id="u1")),
        SearchFilter(kinds=("fact", "summary"), scope=Scope(user_id="u0")),
    ]
    try:
        for target in (store, sqlite):
            target.write(rows, [None] * len(rows))
        for query in ("cat", "dogs running park", "market cat", "morning", "user cat"):
            terms = query_terms(query)
            for flt in filters:
                ours = store.lexical(terms, flt, 10)
                reference = sqlite.lexical(terms, flt, 10)
                assert [k for k, _ in ours] == [k for k, _ in reference], (query, flt)
                assert [s for _, s in ours] == pytest.approx([s for _, s in reference], rel=1e-4), (query, flt)
    finally:
        sqlite.close()


def test_delete_tombstones_and_advances_the_sequence(store: PostgresStore) -> None:
    store.write([item("a", "apple pie", user_id="u"), item("b", "apple tart", user_id="u")], [vec(unit(1)), None])
    before = store.sequence()
    key = next(k for k, it in store.fetch([1, 2], SearchFilter()).items() if it.id == "a")
    assert store.delete("a", Scope(user_id="other")) == 0 and store.sequence() == before
    assert store.delete("a", Scope(user_id="u")) == 1
    assert store.sequence() > before
    assert key in store.removed_since(before).tolist()
    assert store.get("a", Scope(user_id="u")) is None
    assert key not in {k for k, _ in store.lexical(["apple"], SearchFilter(), 10)}
    assert key not in {k for k, _ in store.nearest(unit(1), 10, SearchFilter())}
    # the catch-up reads: vectors written after a sequence number, and cached vectors by key
    store.write([item("c", "cherry")], [vec(unit(0, 1), key="cherry-key")])
    pages = list(store.vector_pages(before))
    assert [len(keys) for keys, _ in pages] == [1] and pages[0][1].shape == (1, 8)
    assert np.allclose(store.cached_vectors(["cherry-key", "missing"])["cherry-key"], unit(0, 1))


def test_nearest_scores_are_cosine_similarities_best_first(store: PostgresStore) -> None:
    store.write([item(str(i), f"doc {i}") for i in range(5)], [vec(unit(1, i)) for i in range(5)])
    found = store.nearest(unit(1, 0.5), 3, SearchFilter())
    keys = {k: it.id for k, it in store.fetch([k for k, _ in found], SearchFilter()).items()}
    expected = {str(i): float(unit(1, i) @ unit(1, 0.5)) for i in range(5)}
    assert [keys[k] for k, _ in found] == sorted(expected, key=lambda i: -expected[i])[:3]
    for k, score in found:
        assert score == pytest.approx(expected[keys[k]], abs=1e-5)
    assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)


def test_memory_add_search_context_end_to_end(pg_url: str) -> None:
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add("I adopted a greyhound called Pixel last spring", user_id="ana", id="a1")
        memory.add("Pixel loves running on the beach", user_id="ana", id="a2")
        memory.add("My greyhound is named Bolt", user_id="ben", id="b1")
        report = memory.add_many([{"content": f"unrelated note {i}", "user_id": "ana"} for i in range(30)])
        assert report.added == 30
        hits = memory.search("greyhound name", user_id="ana", limit=5)
        assert hits[0].id == "a1" and all(h.item.user_id == "ana" for h in hits)
        assert "Bolt" not in memory.context("what is my greyhound called?", user_id="ana")
        assert "Bolt" in memory.context("what is my greyhound called?", user_id="ben")
        stats = memory.stats()
        assert stats["items"] == 33 and stats["vector_index"] == "pgvector" and stats["vectors_indexed"] == 33
    with Memory(pg_url, embedder="hashing") as reopened:  # another process's view: same data, no rebuild
        assert reopened.search("beach", user_id="ana", limit=1)[0].id == "a2"


@needs_model
def test_memory_with_minilm_finds_by_meaning(pg_url: str) -> None:
    with Memory(pg_url, embedder="minilm") as memory:
        memory.add("I bought a new electric guitar yesterday", id="g")
        memory.add("The weather in Lisbon was sunny", id="w")
        memory.add("We cooked pasta with tomato sauce", id="p")
        hits = memory.search("musical instrument purchase", limit=3)
        assert hits[0].id == "g" and "semantic" in hits[0].ranks
        assert memory.store.get_meta("embedder") == memory.embedder.name


@needs_spacy
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_fact_lifecycle_matches_sqlite(backend: str, request: pytest.FixtureRequest, db_path: str) -> None:
    target = request.getfixturevalue("pg_url") if backend == "postgres" else db_path
    with Memory(target, embedder="hashing") as memory:
        memory.add("I live in Seattle and work at Google.", role="user", id="m1")
        memory.add("I live in Seattle, it rains a lot.", role="user", id="m2")
        memory.add("Actually I work at Amazon, not Google.", role="user", id="m3")
        memory.add("I'm 33 years old.", role="user", id="m4")
        memory.add("I'm 34 years old.", role="user", id="m5")
        active = {f.triple: f for f in memory.facts()}
        assert set(active) == {("you", "lives_in", "seattle"), ("you", "works_at", "amazon"), ("you", "age", "34")}
        alpha = memory.config.fact_alpha
        assert active[("you", "lives_in", "seattle")].weight == pytest.approx(alpha + alpha * (1 - alpha))
        assert active[("you", "lives_in", "seattle")].provenance == ("m1", "m2")
        history = {f.triple: f for f in memory.facts(subject="you", status=None)}
        assert history[("you", "works_at", "google")].status == "superseded"
        assert history[("you", "works_at", "google")].valid_to is not None
        assert memory.search("lives in seattle", kind="message", limit=1)[0].id in {"m1", "m2"}
        assert memory.forget(subject="you", relation="works_at") == 2
        assert {f.triple for f in memory.facts(status=None, relation="works_at")} == set()
        assert memory.store.decay_facts(datetime.now(UTC).timestamp() + 400 * 86400, 0.99, 0.1) == 2
        assert memory.facts() == [] and {f.status for f in memory.facts(status=None)} == {"stale", "superseded"}


def test_without_psycopg_the_url_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as in an install without the extra
    with pytest.raises(MissingExtra, match=r"mnemo\[postgres\]"):
        Memory("postgresql://mnemo@127.0.0.1:5432/db", embedder="hashing")


def test_a_bad_url_or_a_down_server_names_the_fix(pg_server: Any) -> None:
    base = pg_server.url.rsplit("/", 1)[0]
    with pytest.raises(ConfigError, match="create the database"):
        PostgresStore(f"{base}/no_such_database_here")
    with pytest.raises(ConfigError, match="is PostgreSQL running"):
        PostgresStore("postgresql://mnemo@127.0.0.1:1/x")  # nothing listens on port 1
    with pytest.raises(ConfigError, match="postgresql://USER"):
        Memory("postgresql://mnemo@127.0.0.1:5432/db?nonsense_option=1", embedder="hashing")
    with pytest.raises(ConfigError, match="no store backend for 'mysql://'"):
        Memory("mysql://x@y/z", embedder="hashing")


def test_a_dropped_connection_is_retried(store: PostgresStore, pg_url: str) -> None:
    store.write([item("a", "survives restarts")], [None])
    with psycopg.connect(pg_url, autocommit=True) as admin:  # what a server restart does to open connections
        killed = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]
    assert killed >= 1
    assert store.get("a", Scope()).content == "survives restarts"
    assert [o.status for o in store.write([item("b", "after")], [None])] == ["added"]


def test_a_store_from_a_newer_mnemo_is_refused(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    with pytest.raises(ConfigError, match=r"newer mnemo.*Upgrade mnemo"):
        PostgresStore(pg_url)


def test_a_mixed_embedder_write_is_refused_and_rolled_back(store: PostgresStore) -> None:
    store.write([item("a", "one")], [vec(unit(1))], model="model-a")
    before = store.sequence()  # a read: its connection must go back to the pool transactional
    with pytest.raises(ConfigError, match="model-a"):
        store.write([item("b", "two")], [vec(unit(1))], model="model-b")
    assert store.get("b", Scope()) is None
    assert store.sequence() == before  # the sequence bump that preceded the refusal was rolled back


def _open_and_write(url: str, worker: int, ids: int) -> list[str]:
    store = PostgresStore(url, pool_size=2)
    try:
        statuses: list[str] = []
        for start in range(0, ids, 25):  # overlapping ids in small batches, interleaving with the other writer
            batch = [item(f"id{i}", f"shared text {i}") for i in range(start, min(ids, start + 25))]
            statuses += [o.status for o in store.write(batch, [vec(unit(1, i)) for i in range(len(batch))])]
        return statuses
    finally:
        store.close()


def test_processes_writing_the_same_ids_at_once_never_duplicate_or_lose(pg_url: str) -> None:
    ids = 200
    context = multiprocessing.get_context("spawn")
    with context.Pool(3) as pool:  # the store is also created (migrated) by all three at once
        results = pool.starmap(_open_and_write, [(pg_url, w, ids) for w in range(3)])
    statuses = [s for worker in results for s in worker]
    assert statuses.count("added") == ids and len(statuses) == 3 * ids
    store = PostgresStore(pg_url)
    try:
        assert store.count(SearchFilter()) == ids
        assert {it.id for it in store.iter_items(SearchFilter())} == {f"id{i}" for i in range(ids)}
        assert store.vector_count() == ids
    finally:
        store.close()


def test_scoped_vector_search_is_exact_for_small_scopes_and_indexed_for_large(store: PostgresStore) -> None:
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((2600, 8)).astype(np.float32)
    owners = ["big" if i < 2100 else "small" for i in range(len(vectors))]  # 2100 > EXACT_SCOPE_BELOW > 500
    for start in range(0, len(vectors), 500):
        chunk = range(start, min(start + 500, len(vectors)))
        rows = [item(f"v{i}", f"vector {i}", user_id=owners[i]) for i in chunk]
        store.write(rows, [vec(vectors[i], key=f"k{i}") for i in chunk])
    keys = {it.id: k for k, it in store.fetch(range(1, 3000), SearchFilter()).items()}
    query = rng.standard_normal(8).astype(np.float32)
    cosine = vectors @ query / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(query))
    for owner in ("big", "small"):
        inside = [i for i in range(len(vectors)) if owners[i] == owner]
        best = sorted(inside, key=lambda i: -cosine[i])[:20]
        found = store.nearest(query, 20, SearchFilter(scope=Scope(user_id=owner)))
        assert len(found) == 20
        assert {k for k, _ in found} <= {keys[f"v{i}"] for i in inside}
        overlap = len({k for k, _ in found} & {keys[f"v{i}"] for i in best}) / 20
        assert overlap == 1.0 if owner == "small" else overlap >= 0.9, (owner, overlap)
