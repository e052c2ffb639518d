"""Sources, sessions and session search on a real PostgreSQL server.

Three layers: the whole SQLite session-search and incremental-import suites re-run against
PostgreSQL (their ``memory`` fixture overridden below), the labelled session dev set answered the
same by both backends, and the PostgreSQL mixins' own edges (vocabulary upkeep under concurrent
writers, the FTS5 expressions the searcher hands over, session widening).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from mnemo import Memory
from mnemo.records import SearchFilter, Session, SourceFile
from mnemo.store.postgres_session_search import fts_phrases
from tests import test_session_search as session_suite
from tests import test_sources as sources_suite
from tests.conftest import HAS_MODEL

pytestmark = pytest.mark.postgres

DEV = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "sessions_dev"
REAL = Path("/work/shared/data/claude_code")


@pytest.fixture
def memory(pg_url: str) -> Iterator[Memory]:
    """What the imported SQLite suites get as their store: a fresh PostgreSQL database."""
    with Memory(pg_url, embedder="none") as mem:
        yield mem


@pytest.fixture
def model_memory(pg_url: str) -> Iterator[Memory]:
    if not HAS_MODEL:
        pytest.skip("the 'local' extra (embedding model) is not installed")
    with Memory(pg_url, embedder="minilm") as mem:
        yield mem


# -- the SQLite suites, unchanged, on PostgreSQL ----------------------------------------------


def on_postgres(test: Callable[..., object]) -> Callable[..., object]:
    """A SQLite suite's test, collected again here; it loses the ``core`` mark (it needs a server)."""

    @functools.wraps(test)
    def run(*args: object, **kwargs: object) -> object:
        return test(*args, **kwargs)

    run.pytestmark = [m for m in getattr(test, "pytestmark", []) if m.name != "core"]  # type: ignore[attr-defined]
    return run


_SUITES = {
    "search": (session_suite, [n for n in dir(session_suite) if n.startswith("test_")]),
    "sources": (sources_suite, [n for n in dir(sources_suite) if n.startswith("test_")]),
}
for _label, (_module, _names) in _SUITES.items():
    for _name in _names:
        globals()[f"{_name}__{_label}_on_postgres"] = on_postgres(getattr(_module, _name))
transcript = sources_suite.transcript  # a fixture the sources suite needs


# -- both backends give the same answers ------------------------------------------------------


def _answers(target: str) -> tuple[list[list[str]], list[dict], list[dict]]:
    queries = json.loads((DEV / "queries.json").read_text())
    with Memory(target, embedder="none") as memory:
        memory.import_claude_code(str(DEV / "projects"))
        hits = [
            [
                h.session_id
                for h in memory.search_sessions(
                    q["q"],
                    require=q.get("require", ()),
                    exclude=q.get("exclude", ()),
                    project=q.get("project"),
                    limit=10,
                )
            ]
            for q in queries
        ]
        sessions = [s.as_dict() for s in memory.store.list_sessions(limit=1000)]
        sources = [{k: v for k, v in s.items() if k != "imported_at"} for s in memory.sources(files=True)]
    return hits, sessions, sources


def test_the_dev_set_gets_the_same_answers_on_both_backends(pg_url: str, db_path: str) -> None:
    on_pg, pg_sessions, pg_sources = _answers(pg_url)
    on_sqlite, sqlite_sessions, sqlite_sources = _answers(db_path)
    assert len(on_pg) == len(on_sqlite) > 40
    # the best session is the same for every query; whole lists may differ only in a faint tail
    assert [h[:1] for h in on_pg] == [h[:1] for h in on_sqlite]
    same_top3 = sum(a[:3] == b[:3] for a, b in zip(on_pg, on_sqlite, strict=True))
    assert same_top3 >= 0.9 * len(on_pg)
    assert pg_sessions == sqlite_sessions
    assert pg_sources == sqlite_sources


def test_real_transcripts_import_once_and_search_alike(pg_url: str, db_path: str) -> None:
    if not REAL.is_dir():
        pytest.skip(f"no real transcripts at {REAL}")
    found = {}
    for target in (pg_url, db_path):
        with Memory(target, embedder="none") as memory:
            first = memory.import_claude_code(str(REAL))
            again = memory.import_claude_code(str(REAL))
            assert first.added > 0 and again.added == again.updated == 0 and again.unchanged_files == first.files
            found[target] = (
                [[h.session_id for h in memory.search_sessions(q)] for q in ("todo list", "error", "test file")],
                memory.stats()["items"],
            )
    assert found[pg_url] == found[db_path]


# -- the mixins' own edges ---------------------------------------------------------------------


def test_fts5_expressions_become_phrases() -> None:
    assert fts_phrases('"redis" OR "cache invalidation"') == ["redis", "cache invalidation"]
    assert fts_phrases('"say ""hi"""') == ['say "hi"']
    assert fts_phrases('""') == []


def test_sessions_widen_first_writer_keeps_its_title_and_counts_come_from_items(memory: Memory) -> None:
    store = memory.store
    memory.add_many(session_suite.session("s", [("user", "a"), ("assistant", "b"), ("user", "c")]))
    early = datetime(2025, 1, 1, tzinfo=UTC)
    late = datetime(2026, 6, 1, tzinfo=UTC)  # the messages are from October 2025
    store.upsert_sessions([Session("s", title="first", project="/p", ended_at=early, message_count=99)])
    store.upsert_sessions([Session("s", title="second", started_at=early, ended_at=late, is_fork=True)])
    got = store.get_session("s")
    assert got is not None and got.title == "first" and got.project == "/p" and got.is_fork
    assert (got.message_count, got.user_message_count) == (3, 2)  # recounted, never taken from the caller
    assert got.started_at == early and got.ended_at == late
    store.upsert_sessions([Session("t", started_at=late), Session("u")])
    assert [s.session_id for s in store.list_sessions()] == ["t", "s", "u"]  # newest first, no start last
    assert [s.session_id for s in store.list_sessions(project="/p")] == ["s"]
    assert store.get_session("nope") is None


def test_sources_replace_by_path_and_list_by_root(memory: Memory) -> None:
    store = memory.store
    store.record_sources([SourceFile("/b/x.jsonl", "claude-code", root="/b", offset=10, state={"sid": "é"})])
    store.record_sources(
        [SourceFile("/b/x.jsonl", "claude-code", root="/b", offset=20), SourceFile("/a/y.md", "notes", root="/a")]
    )
    assert store.get_source("/b/x.jsonl").offset == 20 and store.get_source("/b/x.jsonl").state == {}
    assert [s.path for s in store.list_sources()] == ["/a/y.md", "/b/x.jsonl"]
    assert [s.path for s in store.list_sources(root="/b")] == ["/b/x.jsonl"]


def _vocabulary_after_edits(memory: Memory) -> tuple[dict[str, int], list[tuple[str, int]]]:
    memory.add_many(session_suite.session("v0", [("user", "the migration broke postgres"), ("assistant", "again")]))
    memory.add_many(session_suite.session("v1", [("user", "postgres is fine now")]))
    memory.add_many([session_suite.msg("v1", 0, "user", "mysql is fine now")])  # an edit
    assert memory.delete("cc:v0:1") == 1
    words = ["postgres", "migration", "fine", "mysql", "user", "assistant", "again"]
    stems = [found[0] for found in memory.store.stem_words(words).values()]
    return memory.store.vocabulary_counts(stems), memory.store.vocabulary_near("p", 3, 8)


def test_the_vocabulary_follows_adds_edits_and_deletes(memory: Memory, db_path: str) -> None:
    with Memory(db_path, embedder="none") as sqlite:
        expected = _vocabulary_after_edits(sqlite)
    counts, near = _vocabulary_after_edits(memory)
    assert counts == {"postgr": 1, "migrat": 1, "fine": 1, "mysql": 1, "user": 2, "assist": 0, "again": 0}
    assert (counts, near) == expected
    import psycopg

    with psycopg.connect(memory.config.db_target) as conn:  # a forgotten word leaves no row behind
        left = conn.execute("SELECT count(*) FROM items_vocab WHERE term IN ('again', 'assist')").fetchone()[0]
        logged = conn.execute("SELECT count(*) FROM items_vocab_delta").fetchone()[0]
    assert (left, logged) == (0, 0)


def test_concurrent_writers_keep_the_vocabulary_exact(pg_url: str) -> None:
    with Memory(pg_url, embedder="none") as memory:
        memory.add("warm up the schema")

    def write(worker: int) -> None:
        with Memory(pg_url, embedder="none") as mine:
            for n in range(20):
                mine.add(f"zebra common word{worker} item{n}", session_id=f"w{worker}")
                mine.store.vocabulary_counts(["zebra"])  # folds while the others write

    threads = [threading.Thread(target=write, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with Memory(pg_url, embedder="none") as memory:
        counts = memory.store.vocabulary_counts(["zebra", "common", "word0", "item7"])
    assert counts == {"zebra": 80, "common": 80, "word0": 20, "item7": 4}


def test_session_queries_keep_to_scope_and_skip_noise(memory: Memory) -> None:
    memory.add_many(session_suite.session("a", [("user", "kafka consumer lag")], user_id="alice"))
    memory.add_many(session_suite.session("b", [("user", "kafka consumer lag")], user_id="bob"))
    memory.add_many(session_suite.session("n", [("user", "kafka consumer lag")], sidechain=True))
    store = memory.store
    alice = memory._filter(None, None, None, user_id="alice")
    assert {m.session_id for m in store.session_message_matches('"kafka"', alice, None, 10)} == {"a"}
    everyone = SearchFilter()
    assert {m.session_id for m in store.session_message_matches('"kafka"', everyone, None, 10)} == {"a", "b"}
    assert store.session_presence('"consumer lag"', everyone, "a", ["a", "b", "n"]) == {"b"}
    assert store.session_match_counts('"lag"', everyone, None, ["a", "b", "n"]) == {"a": 1, "b": 1}
    assert store.session_ids_with_prefix("a", alice) == ["a"] and store.session_ids_with_prefix("", everyone) == []
