"""4 writer and 4 reader processes on one store for ~10 s: no lost, duplicated or refused write."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.workload import Outcome, run_workload

SECONDS = 10


def _assert_clean(outcome: Outcome) -> None:
    assert outcome.errors == (), outcome.errors[0]  # no "database is locked", nothing at all
    assert outcome.violations == (), outcome.violations[:5]
    assert outcome.acknowledged > 200, "the writers barely wrote: the test would prove nothing"
    assert outcome.reads > 20
    assert outcome.lost == 0 and outcome.duplicates == 0
    assert outcome.present_once == outcome.acknowledged


def test_sqlite_writers_and_readers(tmp_path: Path) -> None:
    _assert_clean(run_workload(str(tmp_path / "shared.db"), tmp_path / "work", seconds=SECONDS))


def test_sqlite_writers_on_a_fresh_file(tmp_path: Path) -> None:
    """Eight processes opening a store that does not exist yet: creation and migration race too."""
    outcome = run_workload(str(tmp_path / "fresh.db"), tmp_path / "work", seconds=3, create_first=False)
    _assert_clean(outcome)


@pytest.mark.postgres
def test_postgres_writers_and_readers(pg_url: str, tmp_path: Path) -> None:
    _assert_clean(run_workload(pg_url, tmp_path / "work", seconds=SECONDS))
