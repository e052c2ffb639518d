"""`mnemo doctor`: every kind of damage to derived state is found, repaired, and items are never lost."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from mnemo import Memory
from mnemo.errors import InputError
from mnemo.index.hnsw import usearch_available
from mnemo.records import SearchFilter
from tests.reliability.conftest import run_mnemo, write_chat_log


def _filled(db: str, tmp_path: Path, **settings: object) -> int:
    log = tmp_path / "chat.jsonl"
    count = write_chat_log(log, sessions=4, turns=25, seed=3)
    with Memory(db, embedder="hashing", **settings) as memory:
        memory.import_sources([str(log)])
    return count


def _problems(report: object) -> dict[str, int]:
    return {c["name"]: c["problems"] for c in report.as_dict()["checks"] if c["problems"]}  # type: ignore[attr-defined]


@pytest.mark.core
def test_a_clean_store_is_ok(db_path: str, tmp_path: Path) -> None:
    _filled(db_path, tmp_path)
    with Memory(db_path, embedder="hashing") as memory:
        report = memory.doctor()
    assert report.ok and not report.repaired and _problems(report) == {}
    names = {c.name for c in report.checks}
    assert {"integrity", "fts", "vectors_orphaned", "vectors_missing", "vectors_dimension"} <= names
    assert {"subcategories", "facts", "index_file"} <= names


@pytest.mark.core
def test_damage_to_every_derived_index_is_found_and_repaired(db_path: str, tmp_path: Path) -> None:
    total = _filled(db_path, tmp_path)
    conn = sqlite3.connect(db_path)
    first, content, role, keys = conn.execute("SELECT rowid, content, role, keys FROM items LIMIT 1").fetchone()
    conn.execute(  # the item loses its full-text row ...
        "INSERT INTO items_fts (items_fts, rowid, content, role, keys) VALUES ('delete', ?, ?, ?, ?)",
        (first, content, role, keys),
    )
    conn.execute("INSERT INTO items_fts (rowid, content, role, keys) VALUES (99999, 'ghostword', NULL, NULL)")
    conn.execute("INSERT INTO vectors VALUES (88888, 'k', zeroblob(1536))")  # ... a vector without an item
    conn.execute("DELETE FROM vectors WHERE item_rowid = 2")
    conn.execute("UPDATE vectors SET embedding = zeroblob(8) WHERE item_rowid = 3")
    conn.execute("UPDATE items SET category = 'skills', subcategory = 'gone_topic' WHERE rowid = 4")
    conn.execute(
        "INSERT INTO facts (item_rowid, subject, relation, object, confidence, weight, first_seen, last_seen) "
        "VALUES (77777, 'you', 'likes', 'tea', 1, 1, 0, 0)"
    )
    conn.commit()
    conn.close()

    with Memory(db_path, embedder="hashing") as memory:
        found = memory.doctor()
        assert not found.ok
        assert _problems(found) == {
            "fts": 3,  # one missing, one orphaned, FTS5's own check failing
            "vectors_orphaned": 1,
            "vectors_missing": 1,
            "vectors_dimension": 1,
            "subcategories": 1,
            "facts": 1,
        }
        fixed = memory.doctor(repair=True)
        assert fixed.repaired and fixed.ok
        assert all(c.ok for c in fixed.after)
        assert memory.doctor().ok
        assert memory.store.lexical(["ghostword"], SearchFilter(), 10) == []  # only real items are indexed
        assert memory.stats()["items"] == total  # a repair never deletes an item
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == total
    assert conn.execute("SELECT subcategory FROM items WHERE rowid = 4").fetchone()[0] is None
    conn.close()


@pytest.mark.core
def test_the_repaired_full_text_index_finds_the_item_again(db_path: str, tmp_path: Path) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add("The zeppelin hangar key is under the blue mat", id="hangar")
    conn = sqlite3.connect(db_path)
    rowid, content, role, keys = conn.execute("SELECT rowid, content, role, keys FROM items").fetchone()
    conn.execute(
        "INSERT INTO items_fts (items_fts, rowid, content, role, keys) VALUES ('delete', ?, ?, ?, ?)",
        (rowid, content, role, keys),
    )
    conn.commit()
    conn.close()
    with Memory(db_path, embedder="none") as memory:  # lexical only: the FTS index alone answers
        assert memory.search("zeppelin") == []
        assert memory.doctor(repair=True).ok
        assert [h.id for h in memory.search("zeppelin")] == ["hangar"]


@pytest.mark.skipif(not usearch_available(), reason="usearch (the 'ann' extra) is not installed")
def test_a_stale_or_foreign_saved_index_is_dropped_and_rebuilt(db_path: str, tmp_path: Path) -> None:
    _filled(db_path, tmp_path, hnsw_threshold=10)
    with Memory(db_path, embedder="hashing", hnsw_threshold=10) as memory:
        memory.search("deploy budget")  # builds the HNSW index; close() saves it
        index_path = Path(memory._index_path() or "")
        sequence = memory.store.sequence()
    assert index_path.exists()
    sidecar = Path(f"{index_path}.json")
    meta = json.loads(sidecar.read_text())
    meta["watermark"] = sequence + 50  # as if the store were restored from an older backup
    sidecar.write_text(json.dumps(meta))
    foreign = index_path.with_name(index_path.name.replace(index_path.name.split(".")[-3], "0123456789ab"))
    foreign.write_bytes(b"left over")
    with Memory(db_path, embedder="hashing", hnsw_threshold=10) as memory:
        found = memory.doctor()
        assert _problems(found) == {"index_file": 2}
        assert "stale" in next(c.detail for c in found.checks if c.name == "index_file")
        assert memory.doctor(repair=True).ok
        assert not foreign.exists() and not index_path.exists()
        assert memory.search("deploy budget")  # rebuilt from SQLite
    assert index_path.exists()  # the rebuilt index was saved again on close
    index_path.write_bytes(index_path.read_bytes()[:100])  # a torn write
    with Memory(db_path, embedder="hashing", hnsw_threshold=10) as memory:
        damaged = memory.doctor()
        assert _problems(damaged) == {"index_file": 1}
        assert "unreadable" in damaged.checks[-1].detail
        assert memory.doctor(repair=True).ok


@pytest.mark.core
def test_cli_exit_codes_and_json(db_path: str, tmp_path: Path) -> None:
    _filled(db_path, tmp_path)
    clean = run_mnemo(db_path, "doctor", "--json")
    assert clean.returncode == 0, clean.stderr
    assert json.loads(clean.stdout)["ok"] is True
    conn = sqlite3.connect(db_path)
    conn.execute("DELETE FROM vectors WHERE item_rowid IN (1, 2)")
    conn.commit()
    conn.close()
    broken = run_mnemo(db_path, "doctor")
    assert broken.returncode == 1 and "vectors_missing" in broken.stdout and "--repair" in broken.stdout
    repaired = json.loads(run_mnemo(db_path, "doctor", "--repair", "--json").stdout)
    assert repaired["ok"] and repaired["repaired"]
    assert {c["name"]: c["repaired"] for c in repaired["checks"]}["vectors_missing"] == 2
    assert run_mnemo(db_path, "doctor", "--quick").returncode == 0


@pytest.mark.core
def test_a_damaged_file_is_reported_and_not_repaired(db_path: str, tmp_path: Path) -> None:
    _filled(db_path, tmp_path)
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'items_by_session'").fetchone()[0]
    conn.close()
    with open(db_path, "r+b") as file:  # scribble over one index b-tree page: items are still readable
        file.seek((root - 1) * page_size)
        file.write(b"\x0d" + b"\xff" * 64)
    with Memory(db_path, embedder="hashing") as memory:
        report = memory.doctor(repair=True)
    assert not report.ok and not report.repaired
    assert report.checks[0].name == "integrity" and report.checks[0].problems > 0
    assert "restore a backup" in report.notes[0]


@pytest.mark.core
def test_in_memory_store_has_nothing_to_check() -> None:
    with Memory(":memory:", embedder="hashing") as memory, pytest.raises(InputError, match="in-memory"):
        memory.doctor()


@pytest.mark.postgres
def test_postgres_checks_that_apply_find_and_repair(pg_url: str, tmp_path: Path) -> None:
    psycopg = pytest.importorskip("psycopg")
    with Memory(pg_url, embedder="hashing") as memory:
        for n in range(12):
            memory.add(f"note {n} about the greenhouse heater", id=f"n{n}")
        assert memory.doctor().ok
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE items SET tsv = to_tsvector('simple', 'unrelated') WHERE id = 'n1'")
        conn.execute("UPDATE items SET embedding = NULL WHERE id IN ('n2', 'n3')")
        conn.execute("UPDATE items SET category = 'skills', subcategory = 'gone_topic' WHERE id = 'n4'")
    with Memory(pg_url, embedder="hashing") as memory:
        found = memory.doctor()
        assert found.backend == "postgres" and found.skipped
        assert _problems(found) == {"fts": 1, "vectors_missing": 2, "subcategories": 1}
        fixed = memory.doctor(repair=True)
        assert fixed.ok and fixed.repaired
        assert memory.doctor().ok and memory.stats()["items"] == 12
        assert len(memory.store.lexical(["greenhouse"], SearchFilter(), 20)) == 12  # n1's text matches again
