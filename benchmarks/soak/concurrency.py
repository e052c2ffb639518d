"""Soak part: 4 writer and 4 reader processes on one SQLite file, then on PostgreSQL when one starts.

Half the budget on each backend (all of it on SQLite when no PostgreSQL server can be started).
``inputs`` counts acknowledged writes plus read rounds; every acknowledged id must be stored once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.reliability.workload import Outcome, run_workload


def run(budget_seconds: float, workdir: Path) -> dict[str, Any]:
    server = _postgres()
    share = budget_seconds / 2 if server is not None else budget_seconds
    outcomes = {"sqlite": run_workload(str(workdir / "concurrency.db"), workdir / "sqlite", seconds=share)}
    if server is not None:
        try:
            outcomes["postgres"] = run_workload(server.create_database("soak"), workdir / "postgres", seconds=share)
        finally:
            server.stop()
    figures = _totals(list(outcomes.values()))
    for backend, outcome in outcomes.items():
        figures[f"{backend}_writes"] = outcome.acknowledged
        figures[f"{backend}_writes_per_s"] = round(outcome.acknowledged / share, 1)
    problems = [f"{backend}: {p}" for backend, o in outcomes.items() for p in (*o.errors, *o.violations)]
    if problems:  # the first one in the table, all of them in the JSON
        figures["first_problem"] = problems[0]
        figures["problems"] = problems
    if server is None:
        figures["note"] = "PostgreSQL not measured: no server could be started"
    return figures


def _totals(outcomes: list[Outcome]) -> dict[str, Any]:
    return {
        "inputs": sum(o.acknowledged + o.reads for o in outcomes),
        "crashes": sum(o.crashed for o in outcomes),
        "hangs": sum(o.hung for o in outcomes),
        "lost_writes": sum(o.lost for o in outcomes),
        "duplicates": sum(o.duplicates for o in outcomes),
        "errors": sum(len(o.errors) - o.crashed - o.hung + len(o.violations) for o in outcomes),
    }


def _postgres() -> Any:
    try:
        from tests.pg_server import PostgresUnavailable, start_postgres
    except ImportError:
        return None
    try:
        return start_postgres()
    except PostgresUnavailable:
        return None
