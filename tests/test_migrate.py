"""`mnemo migrate`: every table copied with its vectors, verified, resumable after a kill, both ways."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mnemo import Memory
from mnemo.cli.main import cli
from mnemo.ingest.normalise import make_item
from mnemo.records import Scope
from mnemo.store.base import Embedding
from mnemo.store.sqlite import SQLiteStore
from mnemo.transfer import copy_store, verify_stores
from tests.contract.conftest import HAS_SPACY

TRANSCRIPTS = "/work/shared/data/claude_code/spotter"
QUERIES = ("phoenix server does not start", "where does alice work", "credo dependency", "deploy on fridays")


def fill(target: str) -> None:
    """A store with every kind of row: transcripts, sessions, sources, facts, subcategories, history."""
    with Memory(target, embedder="hashing") as memory:
        memory.import_claude_code(TRANSCRIPTS)
        memory.add("Never deploy on Fridays.", id="rule", user_id="alice", metadata={"k": ["ü", 1]})
        if HAS_SPACY:
            memory.add("I live in Lisbon and work at Google.", role="user", id="f1", user_id="alice")
            memory.add("Actually I work at Amazon, not Google.", role="user", id="f2", user_id="alice")
        memory.evolve_categories()
        memory.delete("rule")  # a gap in the keys, and a tombstone that must not travel
        memory.add("Never deploy on Fridays, really.", id="rule2", user_id="alice")


def answers(target: str) -> dict:
    """What a user sees: search hits and scores, facts with history, categories, sessions, stats."""
    with Memory(target, embedder="hashing") as memory:
        stats = memory.stats()
        return {
            "search": {q: [(h.id, round(h.score, 6)) for h in memory.search(q, limit=8)] for q in QUERIES},
            "facts": [f.as_dict() for f in memory.facts(status=None, user_id="alice")],
            "categories": memory.categories(),
            "sessions": [s.as_dict() for s in memory.store.list_sessions()],
            "session_search": [h.as_dict() for h in memory.search_sessions("test")],
            "sources": memory.sources(files=True),
            "items": stats["items"],
            "by_kind": stats["by_kind"],
            "export": list(memory.export()),
            "history": memory.category_history(),
        }


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_sqlite_to_sqlite_copies_everything_and_verifies(tmp_path: Path) -> None:
    source, target = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    fill(source)
    code, out = run_cli("migrate", "--from", source, "--to", target, "--json", "--batch", "7")
    assert code == 0, out
    summary = json.loads(out)
    assert summary["verify"]["ok"] and not summary["resumed"]
    counts = {t["table"]: t["target_rows"] for t in summary["verify"]["tables"]}
    assert counts["items"] > 150 and counts["sessions"] == 4 and counts["sources"] == 4
    assert counts["subcategories"] > 0 and counts["category_history"] > 0
    assert counts["facts"] == (3 if HAS_SPACY else 0)
    assert answers(target) == answers(source)
    # vectors were copied, not recomputed: byte-identical
    with sqlite3.connect(source) as a, sqlite3.connect(target) as b:
        query = "SELECT item_rowid, vector_key, embedding FROM vectors ORDER BY item_rowid"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
        assert b.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()[0] == "hashing-ngram-384"


@pytest.mark.core
def test_a_rerun_copies_only_what_is_new_and_restart_copies_all(tmp_path: Path) -> None:
    source, target = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    with Memory(source, embedder="hashing") as memory:
        memory.add_many({"content": f"note {i} about rowing"} for i in range(25))
    assert run_cli("migrate", "--from", source, "--to", target, "--quiet")[0] == 0
    with Memory(source, embedder="hashing") as memory:
        memory.add("a later note about sculling", id="late")
    code, out = run_cli("migrate", "--from", source, "--to", target, "--json")
    summary = json.loads(out)
    assert code == 0 and summary["copied"]["items"] == 1 and summary["resumed"]
    code, out = run_cli("migrate", "--from", source, "--to", target, "--json", "--restart")
    assert code == 0 and json.loads(out)["copied"]["items"] == 26
    with Memory(target, embedder="hashing") as copy:
        assert copy.search("sculling")[0].id == "late" and copy.stats()["items"] == 26


@pytest.mark.core
def test_a_destination_that_differs_fails_verification(tmp_path: Path) -> None:
    source, target = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    with Memory(source, embedder="hashing") as memory:
        memory.add_many({"id": f"n{i}", "content": f"note {i}"} for i in range(10))
    assert run_cli("migrate", "--from", source, "--to", target, "--quiet")[0] == 0
    with Memory(target, embedder="hashing") as copy:
        copy.add("only in the copy", id="n3")  # a resumed run copies only keys past the last one
    code, out = run_cli("migrate", "--from", source, "--to", target, "--json")
    report = {t["table"]: t for t in json.loads(out.splitlines()[0])["verify"]["tables"]}
    assert code == 1 and not report["items"]["ok"] and report["items"]["source_rows"] == 10
    assert "verification failed" in out


@pytest.mark.core
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--from", "{tmp}/missing.db", "--to", "{tmp}/b.db"), "no such store file"),
        (("--from", "{tmp}/a.db", "--to", "{tmp}/a.db"), "same store"),
        (("--from", "{tmp}/a.db", "--to", "{tmp}/full.db"), "not empty"),
        (("--from", "{tmp}/a.db", "--to", "{tmp}/b.db", "--batch", "0"), "batch"),
        (("--from", ":memory:", "--to", "{tmp}/b.db"), "in-memory"),
        (("--from", "{tmp}/a.db", "--to", "mysql://x@y/z"), "mysql"),
    ],
)
def test_bad_targets_are_clear_errors_and_write_nothing(tmp_path: Path, args: tuple, message: str) -> None:
    with Memory(str(tmp_path / "a.db"), embedder="hashing") as memory:
        memory.add("source memory", id="s")
    with Memory(str(tmp_path / "full.db"), embedder="hashing") as memory:
        memory.add("someone else's memory", id="x")
    code, out = run_cli("migrate", *(a.format(tmp=tmp_path) for a in args))
    assert code in (2, 3) and message in out
    assert not (tmp_path / "missing.db").exists()
    if (tmp_path / "b.db").exists():
        with Memory(str(tmp_path / "b.db"), embedder="hashing") as copy:
            assert copy.stats()["items"] == 0


def synthetic_store(path: str, count: int) -> None:
    """Many items quickly: random unit vectors written straight through the store (no embedding)."""
    rng = np.random.default_rng(7)
    store = SQLiteStore(path)
    try:
        for start in range(0, count, 2000):
            items = [
                make_item({"id": f"i{n}", "content": f"synthetic memory number {n}", "user_id": f"u{n % 3}"}, Scope())
                for n in range(start, min(count, start + 2000))
            ]
            vectors = rng.standard_normal((len(items), 384)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            store.write(
                items, [Embedding(f"k{i.id}", v) for i, v in zip(items, vectors, strict=True)], "hashing-ngram-384"
            )
    finally:
        store.close()


def copied_so_far(target: str) -> int:
    """The destination's record of the last copied item key (0 before the first page)."""
    query = "SELECT value FROM meta WHERE key = 'migrate.items'"
    try:
        if target.startswith("postgresql://"):
            import psycopg

            with psycopg.connect(target) as conn:
                row = conn.execute(query).fetchone()
        else:
            with sqlite3.connect(target, timeout=5) as conn:
                row = conn.execute(query).fetchone()
    except Exception:  # sqlite3 or psycopg: the schema is not there yet while the copy starts
        return 0
    return int(json.loads(row[0])) if row else 0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def destination(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "b.db") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


TOTAL, KILL_AFTER = 12_000, 1_500


def test_a_killed_migration_resumes_and_verifies(tmp_path: Path, destination: str) -> None:
    source = str(tmp_path / "a.db")
    synthetic_store(source, TOTAL)
    command = [sys.executable, "-m", "mnemo", "migrate", "--from", source, "--to", destination, "--batch", "100"]
    env = {**os.environ, "MNEMO_HOME": str(tmp_path / "home")}
    proc = subprocess.Popen([*command, "--quiet"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while copied_so_far(destination) < KILL_AFTER and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the copy finished before it could be killed"
    stopped_at = copied_so_far(destination)
    assert KILL_AFTER <= stopped_at < TOTAL
    code, out = run_cli("migrate", "--from", source, "--to", destination, "--json", "--batch", "5000")
    summary = json.loads(out)
    assert code == 0 and summary["verify"]["ok"] and summary["resumed"]
    assert summary["resumed_from"]["items"] >= stopped_at
    assert summary["copied"]["items"] <= TOTAL - stopped_at
    with Memory(destination, embedder="hashing") as copy:
        assert copy.stats()["items"] == TOTAL and copy.get(f"i{TOTAL - 1}", user_id="u2") is not None
        assert "i11998" in [h.id for h in copy.search("11998", limit=5)]  # the copied text is indexed


def test_restart_mirrors_deletes_and_re_added_ids(tmp_path: Path, destination: str) -> None:
    source = str(tmp_path / "a.db")
    with Memory(source, embedder="hashing") as memory:
        memory.add_many({"id": f"n{i}", "content": f"note {i} about kayaks"} for i in range(20))
    assert run_cli("migrate", "--from", source, "--to", destination, "--quiet")[0] == 0
    with Memory(source, embedder="hashing") as memory:
        memory.delete("n3")  # gone from the source
        memory.delete("n5")
        memory.add("note 5 rewritten about canoes", id="n5")  # the same id under a new key
        memory.add("note 20 about paddles", id="n20")
    code, out = run_cli("migrate", "--from", source, "--to", destination, "--json")
    assert code == 1 and not json.loads(out.splitlines()[0])["verify"]["ok"]  # a top-up cannot see deletes
    code, out = run_cli("migrate", "--from", source, "--to", destination, "--json", "--restart", "--batch", "6")
    assert code == 0 and json.loads(out)["verify"]["ok"], out
    with Memory(source, embedder="hashing") as original, Memory(destination, embedder="hashing") as copy:
        assert list(copy.export()) == list(original.export())
        assert copy.get("n3") is None and [h.id for h in copy.search("canoes", limit=1)] == ["n5"]
        assert "n3" not in [h.id for h in copy.search("note 3 about kayaks")]


@pytest.mark.core
def test_copy_store_reports_progress_per_table(tmp_path: Path) -> None:
    source, target = SQLiteStore(str(tmp_path / "a.db")), SQLiteStore(str(tmp_path / "b.db"))
    try:
        items = [make_item({"content": f"m{n}"}, Scope()) for n in range(12)]
        source.write(items, [None] * 12)
        seen: list[tuple[str, int, int]] = []
        report = copy_store(source, target, batch=5, progress=lambda *a: seen.append(a))
        assert report.copied["items"] == 12
        assert [s for s in seen if s[0] == "items"] == [("items", 5, 12), ("items", 10, 12), ("items", 12, 12)]
        assert verify_stores(source, target).ok
    finally:
        source.close()
        target.close()


@pytest.mark.postgres
def test_sqlite_to_postgres_and_back(tmp_path: Path, pg_url: str) -> None:
    source, back = str(tmp_path / "a.db"), str(tmp_path / "back.db")
    fill(source)
    code, out = run_cli("migrate", "--from", source, "--to", pg_url, "--json", "--batch", "50")
    assert code == 0 and json.loads(out)["verify"]["ok"], out
    on_postgres, original = answers(pg_url), answers(source)
    # another engine ranks the tail differently (its own BM25); what it holds must be the same
    assert {q: hits[0][0] for q, hits in on_postgres.pop("search").items()} == {
        q: hits[0][0] for q, hits in original.pop("search").items()
    }
    assert on_postgres == original
    import psycopg

    with psycopg.connect(pg_url) as conn:  # the HNSW index was built once, after the load
        indexes = [r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'items'")]
    assert "items_embedding_384" in indexes
    code, out = run_cli("migrate", "--from", pg_url, "--to", back, "--json")
    assert code == 0 and json.loads(out)["verify"]["ok"], out
    assert answers(back) == answers(source)
