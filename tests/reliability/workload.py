"""Concurrent writers and readers on one store, in separate processes, for a bounded time.

Shared by ``test_concurrency.py`` (about 10 s) and ``benchmarks/soak/concurrency.py`` (longer).
Writers append each id to their own file only after ``add``/``add_many`` returned, so the files
list exactly the acknowledged writes; readers check what they see as they go. Every exception a
worker's caller would see is recorded, never swallowed.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

WORDS = ("deploy", "budget", "lisbon", "kernel", "garden", "invoice", "piano", "retry", "schema", "coffee")
USERS = ("alice", "bob")


@dataclass(frozen=True)
class Outcome:
    """What the workers did and what the store holds afterwards."""

    acknowledged: int
    present_once: int
    lost: int
    duplicates: int
    errors: tuple[str, ...]
    violations: tuple[str, ...]
    reads: int
    crashed: int = 0  # workers that died without a report
    hung: int = 0  # workers still running long after their time was up

    def as_dict(self) -> dict[str, Any]:
        return {
            "acknowledged": self.acknowledged,
            "present_once": self.present_once,
            "lost_writes": self.lost,
            "duplicates": self.duplicates,
            "errors": len(self.errors),
            "consistency_violations": len(self.violations),
            "reads": self.reads,
            "crashed": self.crashed,
            "hung": self.hung,
        }


def run_workload(
    target: str,
    workdir: Path,
    *,
    writers: int = 4,
    readers: int = 4,
    seconds: float = 10,
    create_first: bool = True,
) -> Outcome:
    """Run the workers against ``target`` (a file path or a postgresql:// URL) and check the result.

    ``create_first=False`` leaves creating the store to the racing workers themselves.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    from mnemo import Memory

    if create_first:
        Memory(target, embedder="hashing").close()
    spawn = multiprocessing.get_context("spawn")
    ready = spawn.Barrier(writers + readers)  # every process imported and opened before anyone writes
    args = (target, ready, seconds, str(workdir))
    jobs = [spawn.Process(target=writer, args=(n, *args), name=f"writer-{n}") for n in range(writers)]
    jobs += [spawn.Process(target=reader, args=(n, *args), name=f"reader-{n}") for n in range(readers)]
    for job in jobs:
        job.start()
    hung = []
    deadline = time.monotonic() + seconds + 300  # generous: the machine may be busy
    for job in jobs:
        job.join(timeout=max(1.0, deadline - time.monotonic()))
        if job.is_alive():
            hung.append(job.name)
            job.kill()
            job.join()
    return _outcome(target, workdir, writers, readers, hung)


def writer(number: int, target: str, ready: Any, seconds: float, workdir: str) -> None:
    _work(target, f"writer-{number}", ready, seconds, workdir, _Writer(number, Path(workdir, f"acks-{number}.txt")))


def reader(number: int, target: str, ready: Any, seconds: float, workdir: str) -> None:
    _work(target, f"reader-{number}", ready, seconds, workdir, _Reader(number))


class _Writer:
    """Adds items with unique ids (one at a time, or five in one ``add_many``) and logs each ack."""

    def __init__(self, number: int, acks: Path) -> None:
        self.number, self.acks, self.sequence = number, acks, 0
        self.rng = random.Random(number)
        self.violations: list[str] = []

    def step(self, memory: Any) -> None:
        user = USERS[self.sequence % 2]
        batch = [f"w{self.number}-{self.sequence + i}" for i in range(1 if self.sequence % 3 else 5)]
        self.sequence += len(batch)
        if len(batch) == 1:
            memory.add(_text(self.rng, batch[0]), id=batch[0], role="user", user_id=user)
        else:
            memory.add_many([{"id": i, "content": _text(self.rng, i), "role": "user", "user_id": user} for i in batch])
        with self.acks.open("a") as acks:  # only after the call returned: an acknowledged write
            acks.write("".join(f"{user}\t{i}\n" for i in batch))


class _Reader:
    """Counts, searches, fetches every hit and builds context, checking what it sees."""

    def __init__(self, number: int) -> None:
        self.rng = random.Random(100 + number)
        self.last_count: dict[str, int] = {}
        self.violations: list[str] = []

    def step(self, memory: Any) -> None:
        user = self.rng.choice(USERS)
        self.violations += _read_once(memory, user, self.rng.choice(WORDS), self.last_count)


def _work(target: str, name: str, ready: Any, seconds: float, workdir: str, worker: _Writer | _Reader) -> None:
    """Open the store, wait for everyone, then step until time is up; every exception is recorded."""
    from mnemo import Memory

    errors: list[str] = []
    steps = 0
    try:
        with Memory(target, embedder="hashing") as memory:
            ready.wait(timeout=300)
            start = time.monotonic()
            while time.monotonic() < start + seconds:
                try:
                    worker.step(memory)
                except Exception:  # every failure a caller would see is the finding
                    errors.append(traceback.format_exc(limit=4))
                steps += 1
    except Exception:  # opening or closing the store failed: also a finding
        ready.abort()  # nobody waits for a worker that will never come
        errors.append(traceback.format_exc(limit=4))
    reads = steps if isinstance(worker, _Reader) else 0
    _report(workdir, name, errors=errors, violations=worker.violations, reads=reads)


def _read_once(memory: Any, user: str, word: str, last_count: dict[str, int]) -> list[str]:
    """One round of reads; returns what was inconsistent."""
    problems = []
    count = memory.stats(user_id=user)["items"]
    if count < last_count.get(user, 0):  # nothing is ever deleted, so a count never drops
        problems.append(f"{user}: count fell from {last_count[user]} to {count}")
    last_count[user] = count
    for hit in memory.search(word, limit=10, user_id=user):
        if hit.item.scope.user_id != user:
            problems.append(f"{user}: search returned {hit.id} of {hit.item.scope.user_id}")
        if memory.get(hit.id, user_id=user) is None:
            problems.append(f"{user}: hit {hit.id} does not fetch")
    pack = memory.context_pack(word, 200, user_id=user)
    if pack.tokens > 200:
        problems.append(f"{user}: context of {pack.tokens} tokens over a 200 budget")
    return problems


def _outcome(target: str, workdir: Path, writers: int, readers: int, hung: list[str]) -> Outcome:
    from mnemo import Memory

    acked: list[tuple[str, str]] = []
    for n in range(writers):
        path = workdir / f"acks-{n}.txt"
        if path.exists():
            acked += [tuple(line.split("\t")) for line in path.read_text().splitlines()]  # type: ignore[misc]
    with Memory(target, embedder="hashing") as memory:
        stored = Counter((r["user_id"], r["id"]) for r in memory.export())
    errors: list[str] = [f"{name} hung" for name in hung]
    violations: list[str] = []
    reads = crashed = 0
    for name in [f"writer-{n}" for n in range(writers)] + [f"reader-{n}" for n in range(readers)]:
        path = workdir / f"{name}.json"
        if name in hung:
            continue  # counted above; it was killed before it could report
        if not path.exists():
            errors.append(f"{name} left no report (crashed)")
            crashed += 1
            continue
        report = json.loads(path.read_text())
        errors += report["errors"]
        violations += report["violations"]
        reads += report["reads"]
    return Outcome(
        acknowledged=len(acked),
        present_once=sum(1 for key in acked if stored[key] == 1),
        lost=sum(1 for key in acked if stored[key] == 0),
        duplicates=sum(1 for n in stored.values() if n > 1) + len(acked) - len(set(acked)),
        errors=tuple(errors),
        violations=tuple(violations),
        reads=reads,
        crashed=crashed,
        hung=len(hung),
    )


def _text(rng: random.Random, item_id: str) -> str:
    return f"{item_id} " + " ".join(rng.choice(WORDS) for _ in range(8))


def _report(workdir: str, name: str, **values: Any) -> None:
    Path(workdir, f"{name}.json").write_text(json.dumps(values))
