"""Soak part: what leaves the machine (nothing), and what a forget leaves behind (nothing).

Rounds of the real CLI — import, add, search, context, extract, session search, a chat turn, facts —
run in one child process under the socket guard (tests/reliability/netguard) with the default
configuration, until the budget is spent; the guard's counts become ``bytes_sent`` and
``network_attempts``. Then a store is filled, marker texts are forgotten one by one, and the raw
bytes of the store files (db, WAL, saved index) are searched for each: ``forget_traces``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from tests.reliability.conftest import write_chat_log
from tests.reliability.privacy_checks import RUN_COMMANDS, guarded_env, raw_bytes, read_report

from mnemo import Memory


def _commands(db: str, chat: Path, n: int) -> list[list[str]]:
    return [
        ["--db", db, *args]
        for args in (
            ["import", "sources", str(chat)],
            ["add", f"I moved to Lisbon in year {2000 + n} and work at Acme", "--role", "user"],
            ["search", f"database migration {n}", "--json"],
            ["context", "where do I live?"],
            ["extract", "My sister Ana lives in Porto and I love hiking"],
            ["sessions", "search", "deploy pipeline"],
            ["turn", f"I prefer green tea number {n}", "--user", "ann"],
            ["facts", "--json"],
        )
    ]


def _network(seconds: float, workdir: Path) -> dict[str, int]:
    report, home = workdir / "net.jsonl", workdir / "home"
    chat = workdir / "chat.jsonl"
    write_chat_log(chat, sessions=5, turns=8)
    db = str(workdir / "privacy.db")
    inputs = errors = 0
    deadline = time.monotonic() + seconds
    round_number = 0
    while time.monotonic() < deadline:
        commands = [args for n in range(round_number * 5, round_number * 5 + 5) for args in _commands(db, chat, n)]
        done = subprocess.run(
            [sys.executable, "-c", RUN_COMMANDS, json.dumps(commands)],
            env=guarded_env(report, MNEMO_HOME=str(home)),
            capture_output=True,
            text=True,
            timeout=max(60.0, seconds * 2),
        )
        codes = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else [1] * len(commands)
        inputs += len(commands)
        errors += sum(1 for code in codes if code)
        round_number += 1
    totals = read_report(report)
    for target in totals["targets"][:5]:
        print(f"privacy soak: blocked attempt to reach {target}")
    return {
        "inputs": inputs,
        "errors": errors,
        "bytes_sent": totals["bytes_sent"],
        "network_attempts": totals["attempts"],
        "guarded_processes": totals["processes"],
    }


def _forget_traces(workdir: Path, markers: int = 20) -> dict[str, int]:
    db = str(workdir / "forget.db")
    words = [f"zz{n}marker{n * 7919 % 10007}qq" for n in range(markers)]
    with Memory(db, embedder="hashing", category_evolve_after=0) as memory:
        memory.add_many([{"content": f"ordinary note {i} about the garden"} for i in range(2000)])
        for n, word in enumerate(words):
            memory.add(f"my secret word number {n} is {word}", id=f"secret{n}", role="user")
        memory.search("secret word")
        for n in range(markers):
            memory.delete(f"secret{n}")
    stored = raw_bytes(db)
    return {"forgotten": markers, "forget_traces": sum(1 for word in words if word.encode() in stored)}


def run(budget_seconds: float, workdir: Path) -> dict[str, int | float]:
    workdir.mkdir(parents=True, exist_ok=True)
    result: dict[str, int | float] = dict(_network(budget_seconds, workdir))
    result.update(_forget_traces(workdir))
    return result
