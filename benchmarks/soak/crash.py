"""Soak part: SIGKILL imports, category evolves and migrations at seeded random points; check each store.

Three quarters of the budget kills imports (a kill every ~3 s on a quiet machine); the rest kills
``evolve_categories`` and the migrations that run when a store made by an older version is opened.
``inputs`` counts kills; ``crashes`` counts stores left unreadable or runs that failed on resume;
``errors`` counts stores whose derived indexes disagreed with their items.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.reliability.crashes import (
    CrashTally,
    kill_evolves,
    kill_imports,
    kill_migrations,
    make_corpus,
    old_schema_store,
    reference_import,
)

#: Rough cost of one kill cycle (start a victim, kill it, check the store), for sizing the run.
SECONDS_PER_KILL = 3.0


def run(budget_seconds: float, workdir: Path) -> dict[str, Any]:
    started = time.monotonic()
    paths = make_corpus(workdir / "corpus", seed=11)
    reference, span = reference_import(workdir / "clean.db", paths)
    import_kills = max(5, int(budget_seconds * 0.75 / SECONDS_PER_KILL))
    imports = kill_imports(workdir / "imports", paths, reference, span, import_kills, seed=1121)
    left = max(0.0, budget_seconds - (time.monotonic() - started))
    evolves = kill_evolves(
        workdir / "clean.db", workdir / "evolves", max(2, int(left / 4 / SECONDS_PER_KILL)), seed=1122
    )
    old_schema_store(workdir / "old.db", items=20_000)
    migrations = kill_migrations(
        workdir / "old.db", workdir / "migrations", max(2, int(left / 4 / SECONDS_PER_KILL)), 3
    )
    figures = _figures([imports, evolves, migrations])
    figures.update(
        import_kills=imports.kills,
        evolve_kills=evolves.kills,
        migration_kills=migrations.kills,
        completed_runs=imports.completed,
    )
    return figures


def _figures(tallies: list[CrashTally]) -> dict[str, Any]:
    return {
        "inputs": sum(t.kills for t in tallies),
        "crashes": sum(t.corrupt for t in tallies),
        "hangs": sum(t.hangs for t in tallies),
        "lost_writes": sum(t.lost for t in tallies),
        "duplicates": sum(t.duplicates for t in tallies),
        "errors": sum(t.inconsistent for t in tallies),
    }
