"""SIGKILL an import (20 seeded random points) and a category evolve mid-way: nothing corrupt, lost or doubled."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.crashes import (
    kill_evolves,
    kill_imports,
    kill_migrations,
    make_corpus,
    old_schema_store,
    reference_import,
)

IMPORT_KILLS = 20
EVOLVE_KILLS = 4
MIGRATION_KILLS = 4


def test_killed_imports_leave_a_consistent_store_and_resume_without_duplicates(tmp_path: Path) -> None:
    paths = make_corpus(tmp_path / "corpus", chat_files=4, turns=50, cc_sessions=2, seed=1)
    reference, seconds = reference_import(tmp_path / "clean.db", paths)
    assert sum(reference.values()) == 500
    tally = kill_imports(tmp_path / "killed", paths, reference, seconds, IMPORT_KILLS, seed=20261121)
    assert tally.problems == []
    assert tally.kills == IMPORT_KILLS
    assert (tally.corrupt, tally.inconsistent, tally.duplicates, tally.lost, tally.hangs) == (0, 0, 0, 0, 0)


def test_a_killed_category_evolve_leaves_a_consistent_store(tmp_path: Path) -> None:
    paths = make_corpus(tmp_path / "corpus", chat_files=4, cc_sessions=2, seed=2)
    template = tmp_path / "template.db"
    reference_import(template, paths)
    tally = kill_evolves(template, tmp_path / "killed", kills=EVOLVE_KILLS, seed=7)
    assert tally.problems == []
    assert tally.kills >= EVOLVE_KILLS // 2  # most kill points fall inside the evolve


def test_a_killed_migration_leaves_the_store_openable_and_complete(tmp_path: Path) -> None:
    template = tmp_path / "old.db"
    old_schema_store(template, items=20_000)  # opening it runs 0003 (a full-text rebuild) and 0004
    tally = kill_migrations(template, tmp_path / "killed", kills=MIGRATION_KILLS, seed=5)
    assert tally.problems == []
