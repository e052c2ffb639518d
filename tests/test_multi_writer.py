"""Several processes writing one store at once: no acknowledged item is lost or stored twice.

Writers are real processes (spawned), each with its own Memory: Memory.add loops and add_many
batches over overlapping ids, and importers reading the same Claude Code transcripts. Afterwards
every id a writer saw acknowledged is present exactly once, with a vector, and sessions are
counted from what is stored. Runs on PostgreSQL (the multi-writer backend) and on a SQLite file.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mnemo import Memory
from mnemo.records import SearchFilter

TRANSCRIPTS = "/work/shared/data/claude_code/spotter"
SHARED_IDS = 120  # every add-writer writes all of these, in its own order
OWN_IDS = 60  # and these, which only it writes
WRITERS = 3
IMPORTERS = 2


def add_writer(target: str, number: int, start: Any) -> dict[str, Any]:
    acknowledged: list[tuple[str, str]] = []
    errors: list[str] = []
    start.wait()
    with Memory(target, embedder="hashing") as memory:
        order = list(range(SHARED_IDS))
        order = order[number * 17 % SHARED_IDS :] + order[: number * 17 % SHARED_IDS]
        for position, n in enumerate(order):
            user = f"u{n % 2}"
            try:
                if position % 3 == 0:  # some one at a time, some in batches with another owner's items
                    memory.add(f"shared memory {n} as written by writer {number}", id=f"s{n}", user_id=user)
                    acknowledged.append((user, f"s{n}"))
                else:
                    batch = [
                        {"id": f"s{n}", "content": f"shared memory {n}, writer {number}", "user_id": user},
                        {"id": f"w{number}-{position}", "content": f"writer {number} own note {position}"},
                    ]
                    memory.add_many(batch, extract_facts=False)
                    acknowledged += [(user, f"s{n}"), ("", f"w{number}-{position}")]
            except Exception as exc:  # reported, never hidden: the test fails on it
                errors.append(f"{type(exc).__name__}: {exc}")
        for n in range(OWN_IDS):
            try:
                memory.add(f"only writer {number} writes item {n}", id=f"own{number}-{n}", user_id="u9")
                acknowledged.append(("u9", f"own{number}-{n}"))
            except Exception as exc:  # reported: the test fails on it
                errors.append(f"{type(exc).__name__}: {exc}")
    return {"acknowledged": acknowledged, "errors": errors}


def importer(target: str, _number: int, start: Any) -> dict[str, Any]:
    start.wait()
    try:
        with Memory(target, embedder="hashing") as memory:
            report = memory.import_claude_code(TRANSCRIPTS)
    except Exception as exc:  # reported: the test fails on it
        return {"acknowledged": [], "errors": [f"{type(exc).__name__}: {exc}"], "added": 0}
    return {"acknowledged": [], "errors": [str(e) for e in report.errors], "added": report.added}


def single_import_ids(tmp_path: Path) -> set[tuple[str, str]]:
    with Memory(str(tmp_path / "reference.db"), embedder="hashing") as memory:
        memory.import_claude_code(TRANSCRIPTS)
        return {(r.get("user_id") or "", r["id"]) for r in memory.export()}


def run_writers(target: str) -> list[dict[str, Any]]:
    with Memory(target, embedder="hashing"):
        pass  # create the schema once, so the race under test is the writes, not the set-up
    context = multiprocessing.get_context("spawn")
    start = context.Manager().Event()
    jobs = [(add_writer, n) for n in range(WRITERS)] + [(importer, n) for n in range(IMPORTERS)]
    with context.Pool(len(jobs)) as pool:
        pending = [pool.apply_async(job, (target, n, start)) for job, n in jobs]
        start.set()
        return [p.get(timeout=300) for p in pending]


def check(target: str, results: list[dict[str, Any]], imported: set[tuple[str, str]]) -> None:
    assert [e for r in results for e in r["errors"]] == []
    acknowledged = {pair for r in results for pair in r["acknowledged"]}
    assert len(acknowledged) == SHARED_IDS + WRITERS * (OWN_IDS + SHARED_IDS - (SHARED_IDS + 2) // 3)
    with Memory(target, embedder="hashing") as memory:
        stored = Counter((r.get("user_id") or "", r["id"]) for r in memory.export())
        assert [pair for pair, n in stored.items() if n > 1] == []  # nothing stored twice
        assert acknowledged - set(stored) == set()  # nothing acknowledged is missing
        assert imported - set(stored) == set()
        assert set(stored) == acknowledged | imported  # and nothing else appeared
        assert sum(r["added"] for r in results if "added" in r) == len(imported)  # each added once
        vectors = sum(len(keys) for keys, _ in memory.store.vector_pages(0))
        assert vectors == memory.store.count(SearchFilter()) == len(stored)
        assert memory.store.get_session("55604662-cf2a-4331-851a-ec234028f8ca").message_count == 2
        shared = memory.get("s7", user_id="u1")
        assert shared is not None and "shared memory 7" in shared.content
        assert memory.search("shared memory 7 writer", user_id="u1")[0].id == "s7"


@pytest.mark.postgres
def test_processes_writing_one_postgres_lose_and_duplicate_nothing(pg_url: str, tmp_path: Path) -> None:
    results = run_writers(pg_url)
    check(pg_url, results, single_import_ids(tmp_path))


@pytest.mark.slow
def test_processes_writing_one_sqlite_file_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    target = str(tmp_path / "shared.db")
    results = run_writers(target)
    check(target, results, single_import_ids(tmp_path))
