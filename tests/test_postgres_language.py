"""The PostgreSQL store's text language: fixed at creation, used for items and queries alike,
mismatches refused with the fix named, and stores from before the setting upgrade unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from mnemo import Memory
from mnemo.errors import ConfigError
from mnemo.records import Item, Scope, SearchFilter
from mnemo.store.postgres import PostgresStore
from mnemo.store.postgres_schema import ADVISORY_LOCK, migrations
from mnemo.store.sql import query_terms
from mnemo.transfer import copy_store
from mnemo.transfer.stores import open_end

psycopg = pytest.importorskip("psycopg", reason="the 'postgres' extra is not installed")
pytestmark = pytest.mark.postgres


def note(item_id: str, content: str) -> Item:
    return Item(id=item_id, content=content, scope=Scope(user_id="u"), content_hash=f"h-{item_id}")


def found(store: PostgresStore, query: str) -> set[str]:
    keys = [key for key, _ in store.lexical(query_terms(query), SearchFilter(), 10)]
    return {item.id for item in store.fetch(keys, SearchFilter()).values()}


def test_a_french_store_stems_french_words_in_items_and_queries(pg_url: str) -> None:
    store = PostgresStore(pg_url, pool_size=1, text_language="french")
    try:
        rows = [note("1", "Il mangeait des pommes"), note("2", "Vous mangez du pain"), note("3", "Ils ont couru vite")]
        store.write(rows, [None] * 3)
        assert store.text_language == "french" and store.get_meta("text_language") == "french"
        # Snowball's French stemmer joins these forms (not the "-ons" forms: see docs/postgres.md)
        assert found(store, "manger") == {"1", "2"}
        assert found(store, "pomme") == {"1"}
        assert found(store, "des") == {"1"}  # no stopword list: every word stays findable
    finally:
        store.close()


def test_memory_takes_the_language_from_the_environment(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMO_PG_TEXT_LANGUAGE", "german")
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add("Die Kinder spielten im Garten", id="g")
        memory.add("Wir kaufen Brot", id="b")
        assert memory.store.text_language == "german"
        assert found(memory.store, "Kind spielen") == {"g"}
        assert memory.search("Kind spielen", limit=1)[0].id == "g"


def test_an_english_store_behaves_as_before(pg_url: str) -> None:
    store = PostgresStore(pg_url, pool_size=1)
    try:
        store.write(
            [note("1", "She runs every morning"), note("2", "The Who played; see config.py"), note("3", "mangeons")],
            [None, None, None],
        )
        assert store.text_language == "english"
        assert found(store, "running") == {"1"}
        assert found(store, "the") == {"2"}  # no stopwords
        assert found(store, "py") == {"2"}  # punctuation splits words
        assert found(store, "manger") == set()  # English stems do not join French forms
    finally:
        store.close()


def test_simple_indexes_words_unstemmed(pg_url: str) -> None:
    store = PostgresStore(pg_url, pool_size=1, text_language="simple")
    try:
        store.write([note("1", "She runs every morning")], [None])
        assert found(store, "runs") == {"1"}
        assert found(store, "running") == set()
    finally:
        store.close()


def test_opening_with_another_language_names_the_fix(pg_url: str) -> None:
    PostgresStore(pg_url, pool_size=1, text_language="french").close()
    with pytest.raises(ConfigError, match=r"indexes its text as 'french'.*MNEMO_PG_TEXT_LANGUAGE=french"):
        PostgresStore(pg_url, pool_size=1)
    with pytest.raises(ConfigError, match="french"):
        Memory(pg_url, embedder="hashing", pg_text_language="spanish")
    reopened = PostgresStore(pg_url, pool_size=1, text_language="French ")  # case and spaces do not matter
    reopened.close()


def test_unknown_or_malformed_languages_are_refused_before_anything_is_created(pg_url: str) -> None:
    with pytest.raises(ConfigError, match=r"no stemmer for pg_text_language 'klingon'.*french.*simple"):
        PostgresStore(pg_url, pool_size=1, text_language="klingon")
    with pytest.raises(ConfigError, match="pg_text_language must be"):
        PostgresStore(pg_url, pool_size=1, text_language="english'; DROP TABLE items; --")
    with psycopg.connect(pg_url) as conn:  # the refusal rolled the whole creation back
        assert conn.execute("SELECT to_regclass('items')").fetchone()[0] is None


def _make_version_1_store(url: str) -> None:
    """A store as the first PostgreSQL release created it (schema version 1, English, no language)."""
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        for statement in migrations()[0][1]:
            conn.execute(statement)
        conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
        conn.execute(
            "INSERT INTO items (id, content, kind, ingested_at, content_hash, seq, role) "
            "VALUES ('old', 'We were running late: see deploy.sh', 'message', 0, 'h', 1, 'user')"
        )


def test_a_version_1_store_upgrades_to_english_without_reindexing(pg_url: str) -> None:
    _make_version_1_store(pg_url)
    with psycopg.connect(pg_url) as conn:
        before = conn.execute("SELECT tsv::text FROM items").fetchone()[0]
    store = PostgresStore(pg_url, pool_size=1)
    try:
        assert store.get_meta("schema_version") == str(len(migrations())) and store.text_language == "english"
        assert found(store, "runs") == {"old"} and found(store, "deploy") == {"old"}
        store.write([note("new", "running again")], [None])
        assert found(store, "run") == {"old", "new"}
        rows: Any = store._read("SELECT tsv::text FROM items WHERE id = 'old'")
        assert rows[0][0] == before  # same stems: the upgrade left the old text's index as it was
        stale = store._read("SELECT count(*) FROM items WHERE tsv IS DISTINCT FROM mnemo_item_tsv(content, role, keys)")
        assert stale[0][0] == 0  # doctor's expectation is the trigger's own function
    finally:
        store.close()
    with pytest.raises(ConfigError, match="indexes its text as 'english'"):
        PostgresStore(pg_url, pool_size=1, text_language="french")


def test_migrate_copies_a_store_into_a_new_language(pg_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    source_url, target_url = pg_server.create_database("english"), pg_server.create_database("french")
    with Memory(source_url, embedder="hashing") as memory:
        memory.add("Il mangeait des pommes", id="1")
    monkeypatch.setenv("MNEMO_PG_TEXT_LANGUAGE", "french")  # the new store's language; the source keeps its own
    source, target = open_end(source_url, must_exist=True), open_end(target_url, must_exist=False)
    try:
        copy_store(source, target)
        assert source.text_language == "english" and target.text_language == "french"  # type: ignore[attr-defined]
        assert found(source, "manger") == set()  # type: ignore[arg-type]
        assert found(target, "manger") == {"1"}  # type: ignore[arg-type]  # the copy was indexed in French
    finally:
        source.close()
        target.close()
