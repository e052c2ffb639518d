"""Soak part: random owners, sessions and memories; every scoped read checked for other scopes' data.

Each round writes a fresh namespace of generated memories (the same generator as the Hypothesis
property in tests/reliability/test_isolation.py) and checks every scoped read for each of a few
random scopes (tests/reliability/isolation_checks.py). Runs on SQLite, and on PostgreSQL when a
server can be started (tests/pg_server.py); ``inputs`` counts scoped reads checked.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from tests.reliability.isolation_checks import AGENTS, PROJECTS, SESSIONS, USERS, WORDS, Memo, ScopeAsk, violations

from mnemo import Memory

#: Scoped reads one ``violations`` call makes (search, fused search, context, recent, export,
#: facts, categories, stats, session search, store session listing, three session views).
READS_PER_CHECK = 13


def _round(rng: random.Random) -> tuple[list[Memo], list[ScopeAsk], str]:
    memos = [
        Memo(
            f"zq{i}x",
            rng.choice(USERS),
            rng.choice((None, *AGENTS)),
            rng.choice((None, *PROJECTS)),
            rng.choice(SESSIONS),
            rng.choice(("user", "assistant")),
            tuple(rng.choice(WORDS) for _ in range(rng.randint(2, 6))),
        )
        for i in range(rng.randint(1, 20))
    ]
    asks = [ScopeAsk(rng.choice(USERS), rng.choice((None, *AGENTS)), rng.choice((None, *PROJECTS))) for _ in range(3)]
    return memos, asks, " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))


def _soak(url: str, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    found: dict[str, Any] = {"inputs": 0, "isolation_violations": 0, "errors": 0, "rounds": 0, "examples": []}
    deadline = time.monotonic() + seconds
    with Memory(url, embedder="hashing", category_evolve_after=0, extract_facts_on_import=True) as memory:
        while time.monotonic() < deadline:
            memos, asks, query = _round(rng)
            ns = f"r{seed}-{found['rounds']}"
            memory.add_many([m.record(ns) for m in memos])
            for ask in asks:
                try:
                    problems = violations(memory, ns, memos, ask, query)
                except Exception as exc:  # counted, not fatal: the table shows it
                    found["errors"] += 1
                    problems = [f"error: {exc!r}"]
                found["inputs"] += READS_PER_CHECK
                found["isolation_violations"] += len(problems)
                found["examples"] += problems[: max(0, 5 - len(found["examples"]))]
            found["rounds"] += 1
    return found


def run(budget_seconds: float, workdir: Path) -> dict[str, int | float]:
    workdir.mkdir(parents=True, exist_ok=True)
    backends: list[tuple[str, str, Any]] = [("sqlite", str(workdir / "isolation.db"), None)]
    try:
        from tests.pg_server import start_postgres

        server = start_postgres()
        backends.append(("postgres", server.create_database(), server))
    except Exception as exc:  # no PostgreSQL on this machine: reported, SQLite still runs
        print(f"isolation soak: PostgreSQL not checked ({exc})")
    totals: dict[str, Any] = {"inputs": 0, "isolation_violations": 0, "errors": 0}
    try:
        for name, url, _server in backends:
            found = _soak(url, budget_seconds / len(backends), seed=len(name))
            for key in ("inputs", "isolation_violations", "errors"):
                totals[key] += found[key]
            totals[f"{name}_rounds"] = found["rounds"]
            for example in found["examples"]:
                print(f"isolation soak ({name}): {example}")
    finally:
        for _name, _url, server in backends:
            if server is not None:
                server.stop()
    return totals
