"""The SQLite store on real files: schema, upserts, deletes, FTS sync and vector deltas."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import numpy as np
import pytest

from mnemo.ingest.normalise import make_item
from mnemo.records import Scope, SearchFilter
from mnemo.store import sqlite_lexical
from mnemo.store.base import Embedding
from mnemo.store.migrations import MIGRATIONS
from mnemo.store.sql import affordable_terms, fts_match_expression, query_terms, where_clause
from mnemo.store.sqlite import SQLiteStore

pytestmark = pytest.mark.core


def _item(content: str, **fields: object):
    return make_item({"content": content, **fields})


def _values(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=8).astype(np.float32)
    return vector / np.linalg.norm(vector)


def _vec(seed: int) -> Embedding:
    return Embedding(f"key-{seed}", _values(seed))


def test_opens_in_wal_mode_and_records_migrations(db_path: str) -> None:
    store = SQLiteStore(db_path)
    store.close()
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]
    assert names == [name for name, _ in MIGRATIONS]
    SQLiteStore(db_path).close()  # reopening applies nothing twice
    assert conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == len(MIGRATIONS)


def test_upsert_reports_added_updated_unchanged(db_path: str) -> None:
    store = SQLiteStore(db_path)
    first = _item("the cat sat", id="a")
    assert [o.status for o in store.write([first], [_vec(1)])] == ["added"]
    assert [o.status for o in store.write([first], [_vec(1)])] == ["unchanged"]
    changed = _item("the dog sat", id="a")
    assert [o.status for o in store.write([changed], [_vec(2)])] == ["updated"]
    assert store.count(SearchFilter()) == 1
    assert store.get("a", Scope()).content == "the dog sat"


def test_same_id_under_another_owner_is_another_item(db_path: str) -> None:
    store = SQLiteStore(db_path)
    store.write([_item("alice's note", id="n1", user_id="alice")], [None])
    store.write([_item("bob's note", id="n1", user_id="bob")], [None])
    assert store.count(SearchFilter()) == 2
    assert store.get("n1", Scope(user_id="alice")).content == "alice's note"
    assert store.get("n1", Scope(user_id="bob")).content == "bob's note"


def test_fts_follows_updates_and_deletes(db_path: str) -> None:
    store = SQLiteStore(db_path)
    store.write([_item("kafka consumer lag", id="x")], [None])
    match = ["kafka"]
    assert len(store.lexical(match, SearchFilter(), 10)) == 1
    store.write([_item("flink windows", id="x")], [None])
    assert store.lexical(match, SearchFilter(), 10) == []
    assert len(store.lexical(["flink"], SearchFilter(), 10)) == 1
    assert store.delete("x", Scope()) == 1
    assert store.lexical(["flink"], SearchFilter(), 10) == []


def test_porter_stemming_matches_word_forms(db_path: str) -> None:
    store = SQLiteStore(db_path)
    store.write([_item("We were migrating the billing events", id="x")], [None])
    for form in ("migrate", "migration", "migrated"):
        assert len(store.lexical([form], SearchFilter(), 10)) == 1, form
    assert store.lexical(["migrant"], SearchFilter(), 10) == []


def _pages(store: SQLiteStore, since: int, page: int = 20_000) -> dict[int, np.ndarray]:
    return {int(k): v for keys, vectors in store.vector_pages(since, page) for k, v in zip(keys, vectors, strict=True)}


def test_vector_pages_and_removals_bring_an_index_up_to_date(db_path: str) -> None:
    store = SQLiteStore(db_path)
    store.write([_item("one", id="1"), _item("two", id="2"), _item("no vector", id="x")], [_vec(1), _vec(2), None])
    assert sorted(_pages(store, 0, page=1)) == [1, 2]  # paging returns every row once
    np.testing.assert_array_equal(_pages(store, 0)[2], _values(2))
    seq = store.sequence()
    store.delete("1", Scope())
    store.write([_item("three", id="3")], [_vec(3)])
    assert store.removed_since(seq).tolist() == [1]
    assert len(_pages(store, seq)) == 1  # only the new row, whichever key SQLite gave it
    assert _pages(store, store.sequence()) == {} and store.removed_since(store.sequence()).size == 0


def test_synced_index_follows_writes_from_another_connection(db_path: str) -> None:
    from mnemo.index.adaptive import AdaptiveIndex
    from mnemo.retrieve.vectors import SyncedVectorIndex

    reader, writer = SQLiteStore(db_path), SQLiteStore(db_path)
    synced = SyncedVectorIndex(reader, lambda: AdaptiveIndex(8), lambda index: None)
    writer.write([_item("one", id="1"), _item("two", id="2")], [_vec(1), _vec(2)])
    assert len(synced.refresh()) == 2
    writer.delete("1", Scope())
    writer.write([_item("two again", id="2")], [_vec(7)])  # replaced vector
    index = synced.refresh()
    assert len(index) == 1
    _, scores = index.search(_values(7), 1)
    assert scores[0] > 0.999


def test_cached_vectors_by_content_hash(db_path: str) -> None:
    store = SQLiteStore(db_path)
    store.write([_item("same words", id="a")], [_vec(5)])
    found = store.cached_vectors(["key-5", "missing"])
    assert list(found) == ["key-5"]
    np.testing.assert_array_equal(found["key-5"], _values(5))


def test_where_clause_is_parameterised() -> None:
    sql, params = where_clause(SearchFilter(scope=Scope(user_id="u'; DROP TABLE items; --"), kinds=("fact",)))
    assert "DROP" not in sql
    assert sql == "items.user_id = ? AND items.kind IN (?)"
    assert params == ["u'; DROP TABLE items; --", "fact"]
    assert where_clause(SearchFilter()) == ("1", [])


def test_fts_expression_quotes_user_syntax() -> None:
    terms = query_terms('NEAR( "quoted" AND OR * col:value')
    expression = fts_match_expression(terms)
    assert expression is not None
    assert all(part.startswith('"') and part.endswith('"') for part in expression.split(" OR "))
    assert fts_match_expression([]) is None


def test_query_terms_drop_stopwords_unless_nothing_is_left() -> None:
    assert query_terms("What is the name of her dog?") == ["name", "dog"]
    assert query_terms("who is it") == ["who", "is", "it"]


def test_affordable_terms_keeps_the_rarest_within_budget() -> None:
    frequencies = [("caroline", 900), ("lgbtq", 10), ("support", 400), ("zebra", 0), ("group", 300)]
    assert affordable_terms(frequencies, 350) == ["lgbtq", "zebra", "group"]
    assert affordable_terms(frequencies, 0) == ["zebra"]  # zero-count terms cost nothing
    assert affordable_terms([("the", 10_000)], 5) == ["the"]  # the rarest term always stays


def test_large_store_leaves_out_common_terms(db_path: str, monkeypatch) -> None:
    store = SQLiteStore(db_path)
    rows = [_item(f"the weather report number {i}", id=f"w{i}") for i in range(40)]
    rows.append(_item("a quokka in the weather report", id="q"))
    store.write(rows, [None] * len(rows))
    full = store.lexical(["weather", "quokka"], SearchFilter(), 100)
    assert len(full) == 41
    monkeypatch.setattr(sqlite_lexical, "LEXICAL_PRUNE_ABOVE", 10)
    monkeypatch.setattr(sqlite_lexical, "LEXICAL_ROW_BUDGET", 5)
    pruned = store.lexical(["weather", "quokka"], SearchFilter(), 100)
    assert [key for key, _ in pruned] == [41]  # only the rare term was searched
    # stemming matches FTS5's own: "reports" counts the documents of "report"
    assert dict(store._document_frequencies(["reports", "quokkas"])) == {"reports": 41, "quokkas": 1}


def test_allowed_keys_cache_stays_equal_to_a_fresh_query(db_path: str) -> None:
    store = SQLiteStore(db_path)
    session = SearchFilter(scope=Scope(session_id="s1"))
    fresh = lambda: SQLiteStore(db_path).allowed_keys(session).tolist()  # noqa: E731 - no cache
    store.write([_item(f"turn {i}", id=f"t{i}", session_id="s1" if i % 2 else "s2") for i in range(10)], [None] * 10)
    assert store.allowed_keys(session).tolist() == fresh() == [2, 4, 6, 8, 10]
    store.write([_item("turn 1 moved", id="t1", session_id="s2")], [None])  # leaves the scope
    store.write([_item("turn 2 joined", id="t2", session_id="s1")], [None])  # enters it
    store.delete("t3", Scope())
    store.write([_item("new turn", id="t10", session_id="s1")], [None])
    assert store.allowed_keys(session).tolist() == fresh()
    assert store.allowed_keys(SearchFilter()) is None


def _word_store(db_path: str, owner: Callable[[int], dict[str, str]]) -> SQLiteStore:
    """400 items of one to four of six words (so rankings have ties and gaps), owned by ``owner(i)``."""
    store = SQLiteStore(db_path)
    words = ["river", "bank", "loan", "fish", "boat", "money"]
    texts = [" ".join(words[(i * k) % 6] for k in range(1, 2 + i % 4)) for i in range(400)]
    rows = [_item(text, id=f"d{i}", **owner(i)) for i, text in enumerate(texts)]
    store.write(rows, [None] * len(rows))
    return store


def test_scoped_full_text_ranking_is_the_same_by_either_route(db_path: str, monkeypatch) -> None:
    store = _word_store(db_path, lambda i: {"user_id": f"u{i % 4}"})
    monkeypatch.setattr(sqlite_lexical, "LEXICAL_PRUNE_ABOVE", 0)
    monkeypatch.setattr(sqlite_lexical, "LEXICAL_ROW_BUDGET", 10_000)
    for user in ("u0", "u3"):
        flt = SearchFilter(scope=Scope(user_id=user))
        for limit in (5, 30, 200):
            deep = store.lexical(["river", "loan"], flt, limit)
            monkeypatch.setattr(sqlite_lexical, "SCOPE_SHARE_FOR_DEEP_RANKING", 2.0)  # force the join
            joined = store.lexical(["river", "loan"], flt, limit)
            monkeypatch.setattr(sqlite_lexical, "SCOPE_SHARE_FOR_DEEP_RANKING", 0.01)
            assert [round(s, 9) for _, s in deep] == [round(s, 9) for _, s in joined]
            assert {k for k, _ in deep} <= set(store.allowed_keys(flt).tolist())


def test_session_scoped_full_text_ranking_is_the_same_within_the_scopes_key_span(db_path: str, monkeypatch) -> None:
    """A kept key list bounds FTS5 to the scope's stretch of keys; the ranking must not change."""
    store = _word_store(db_path, lambda i: {"session_id": f"s{i // 40}"})
    spanned: list[str] = []
    store._conn.set_trace_callback(lambda sql: spanned.append(sql) if "BETWEEN" in sql else None)

    def both(flt: SearchFilter, limit: int) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
        store.allowed_keys(flt)  # as a vector search or a descent keeps it before the full-text query
        bounded = store.lexical(["river", "loan"], flt, limit)
        monkeypatch.setattr(sqlite_lexical, "SPAN_SHARE_FOR_BOUNDED_RANKING", 0.0)
        joined = store.lexical(["river", "loan"], flt, limit)
        monkeypatch.setattr(sqlite_lexical, "SPAN_SHARE_FOR_BOUNDED_RANKING", 0.5)
        return bounded, joined

    for session in ("s0", "s4", "s9"):
        flt = SearchFilter(kinds=("message",), scope=Scope(session_id=session))
        for limit in (3, 50):
            bounded, joined = both(flt, limit)
            assert bounded == joined and bounded
            assert {k for k, _ in bounded} <= set(store.allowed_keys(flt).tolist())
    assert len(spanned) == 6  # every one of those went through the bounded query
    # a turn written later joins its session's span (the last session: the span stays narrow);
    # a turn moved to another session leaves it
    flt = SearchFilter(scope=Scope(session_id="s9"))
    store.allowed_keys(flt)
    store.write([_item("river loan again", id="late", session_id="s9")], [None])
    store.write([_item("river loan moved", id="d375", session_id="s0")], [None])
    bounded, joined = both(flt, 50)
    assert bounded == joined and len(spanned) == 7
    found = {item.id for item in store.fetch([k for k, _ in bounded], SearchFilter()).values()}
    assert "late" in found and "d375" not in found
    # an empty scope answers without a query
    nobody = SearchFilter(scope=Scope(session_id="no-such-session"))
    assert store.allowed_keys(nobody).tolist() == []
    assert store.lexical(["river"], nobody, 10) == []


def test_a_session_scopes_key_list_is_read_through_the_session_index(db_path: str) -> None:
    store = SQLiteStore(db_path)
    rows = [_item(f"turn {i}", id=f"t{i}", session_id=f"s{i % 5}", kind="message") for i in range(50)]
    store.write(rows, [None] * len(rows))
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    keys = store.allowed_keys(SearchFilter(kinds=("message",), scope=Scope(session_id="s2")))
    store._conn.set_trace_callback(None)
    assert len(keys) == 10
    listing = next(s for s in statements if s.startswith("SELECT rowid FROM items"))
    plan = " ".join(str(row[-1]) for row in store._conn.execute(f"EXPLAIN QUERY PLAN {listing}"))
    assert "items_by_session" in plan, plan


def test_a_session_scope_is_bounded_even_before_its_key_list_is_kept(db_path: str, monkeypatch) -> None:
    store = _word_store(db_path, lambda i: {"session_id": f"s{i // 40}", "user_id": f"u{i % 2}"})
    spanned: list[str] = []
    store._conn.set_trace_callback(lambda sql: spanned.append(sql) if "BETWEEN" in sql else None)
    session = SearchFilter(scope=Scope(session_id="s3", user_id="u1"))
    first = store.lexical(["river", "loan"], session, 20)  # nothing listed this scope before
    assert len(spanned) == 1 and first
    monkeypatch.setattr(sqlite_lexical, "SPAN_SHARE_FOR_BOUNDED_RANKING", 0.0)
    assert store.lexical(["river", "loan"], session, 20) == first
    # a user's scope spans the whole store here: it is neither listed for this nor bounded
    store._allowed_cache.clear()
    monkeypatch.setattr(sqlite_lexical, "SPAN_SHARE_FOR_BOUNDED_RANKING", 0.5)
    store.lexical(["river", "loan"], SearchFilter(scope=Scope(user_id="u1")), 20)
    assert len(spanned) == 1 and not store._allowed_cache


def _kinded_store(db_path: str) -> SQLiteStore:
    """The word store's texts as 300 messages, 80 facts and 20 summaries across four users."""
    store = SQLiteStore(db_path)
    words = ["river", "bank", "loan", "fish", "boat", "money"]
    rows = []
    for i in range(400):
        kind = "summary" if i % 20 == 0 else "fact" if i % 5 == 0 else "message"
        text = " ".join(words[(i * k) % 6] for k in range(1, 2 + i % 4))
        rows.append(_item(text, id=f"d{i}", kind=kind, user_id=f"u{i % 4}"))
    store.write(rows, [None] * len(rows))
    return store


def test_a_kind_filter_ranks_inside_the_full_text_query_as_the_join_would(db_path: str, monkeypatch) -> None:
    store = _kinded_store(db_path)
    statements: list[str] = []
    store._conn.set_trace_callback(lambda sql: statements.append(sql) if "items_fts MATCH" in sql else None)

    def ran(flt: SearchFilter, limit: int) -> tuple[list[tuple[int, float]], list[str]]:
        statements.clear()
        return store.lexical(["river", "loan"], flt, limit), list(statements)

    cases = [
        SearchFilter(kinds=("fact",)),
        SearchFilter(kinds=("summary", "fact")),
        SearchFilter(kinds=("message",)),  # most of the store, but no other filter needs the rows
        SearchFilter(kinds=("fact",), scope=Scope(user_id="u1")),
    ]
    for flt in cases:
        for limit in (5, 40):
            tagged, sql = ran(flt, limit)
            # the kind is tested inside the match, not on the rows
            assert sql and all("items.kind" not in s for s in sql), sql
            assert all("JOIN" not in s for s in sql) or flt.scope.user_id
            with monkeypatch.context() as patch:  # the join, as before kind tags
                patch.setattr(store, "_kind_tagged", lambda match, flt, size: (match, flt))
                joined, sql = ran(flt, limit)
            assert any("items.kind" in s for s in sql)
            assert tagged == joined and tagged
            kinds = {item.kind for item in store.fetch([k for k, _ in tagged], SearchFilter()).values()}
            assert kinds <= set(flt.kinds)
    # scoped to a user, messages (three quarters of the store) keep the join: a longer
    # intersection would only add to it
    assert all("items.kind" in s for s in ran(SearchFilter(kinds=("message",), scope=Scope(user_id="u1")), 10)[1])
    monkeypatch.setattr(sqlite_lexical, "KIND_SHARE_FOR_TAGGED_MATCH", 0.0)
    assert all("items.kind" in s for s in ran(SearchFilter(kinds=("fact",), scope=Scope(user_id="u1")), 10)[1])


def test_the_kind_tag_follows_a_change_of_kind(db_path: str) -> None:
    store = _kinded_store(db_path)
    facts = SearchFilter(kinds=("fact",))
    store.write([_item("zebra crossing", id="z", kind="message")], [None])
    assert store.lexical(["zebra"], facts, 10) == []
    store._conn.execute("UPDATE items SET kind = 'fact' WHERE id = 'z'")  # the kind alone changes
    (key, _), *rest = store.lexical(["zebra"], facts, 10)
    assert not rest and store.fetch([key], SearchFilter())[key].id == "z"
    store._conn.execute("INSERT INTO items_fts (items_fts, rank) VALUES ('integrity-check', 1)")
    store.delete("z", Scope())
    assert store.lexical(["zebra"], facts, 10) == []


def test_a_word_that_spells_a_kind_token_matches_only_items_that_hold_it(db_path: str) -> None:
    store = _kinded_store(db_path)
    store.write([_item("the kindfact token", id="w")], [None])
    for flt in (SearchFilter(), SearchFilter(kinds=("message",)), SearchFilter(kinds=("fact", "message"))):
        hits = store.lexical(["kindfact"], flt, 100)
        assert [store.fetch([k], SearchFilter())[k].id for k, _ in hits] == ["w"], flt
    # nor does typo correction offer the index's kind tokens as words (a written one goes with them)
    store.write([_item("such kindness", id="k")], [None])
    assert [term for term, _ in store.vocabulary_near("kind", 4, 14)] == ["kind"]  # "kindness", stemmed


def test_a_store_made_before_kind_tags_gains_them_on_open(db_path: str) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    names = [name for name, _ in MIGRATIONS]
    for name, script in MIGRATIONS[: names.index("0006_fts_kind_tags")]:
        conn.executescript(f"BEGIN; {script}; INSERT INTO schema_migrations VALUES ('{name}', 0); COMMIT;")
    conn.executemany(  # rows an older mnemo wrote
        "INSERT INTO items (id, content, kind, ingested_at, content_hash, seq) VALUES (?, ?, ?, 0, ?, 1)",
        [("f", "the heron nests by the river", "fact", "h1"), ("m", "a heron", "message", "h2")],
    )
    conn.close()
    store = SQLiteStore(db_path)
    hits = store.lexical(["heron"], SearchFilter(kinds=("fact",)), 10)
    assert [store.fetch([k], SearchFilter())[k].id for k, _ in hits] == ["f"]
    assert len(store.lexical(["heron"], SearchFilter(), 10)) == 2
    store._conn.execute("INSERT INTO items_fts (items_fts, rank) VALUES ('integrity-check', 1)")
