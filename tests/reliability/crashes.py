"""Kill -9 an import, a category evolve or a migration at random points; check the store after.

Shared by ``test_crash_safety.py`` and ``benchmarks/soak/crash.py``. The victim is a child process
(``python -m tests.reliability.crashes import|evolve|migrate DB PATH...``) that prints ``ready`` once
its real work starts (the store is open; for ``migrate``, just before opening it), so kill times are
measured from there, not from Python's start-up. After every kill: ``PRAGMA integrity_check``, then
``mnemo doctor`` (the FTS and vector indexes must agree with the items without any repair), then
the next run resumes the work.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tests.reliability.conftest import ROOT, integrity, item_keys, sentence, write_chat_log, write_claude_code_tree

#: How long a victim may take to open the store before the run counts as hung.
READY_TIMEOUT = 60.0


@dataclass
class CrashTally:
    """What the kills found; every number but ``kills``/``completed`` should stay zero."""

    kills: int = 0
    completed: int = 0
    corrupt: int = 0
    inconsistent: int = 0
    duplicates: int = 0
    lost: int = 0
    hangs: int = 0
    problems: list[str] = field(default_factory=list)

    def add_problem(self, kind: str, text: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        self.problems.append(text)


def make_corpus(root: Path, *, chat_files: int = 6, turns: int = 60, cc_sessions: int = 4, seed: int = 0) -> list[Path]:
    """Chat logs and a Claude Code projects tree: both incremental importers get killed."""
    for n in range(chat_files):
        write_chat_log(root / "chats" / f"log{n}.jsonl", sessions=2, turns=turns, seed=seed * 100 + n)
    write_claude_code_tree(root / "projects", sessions=cc_sessions, turns=turns, seed=seed)
    return [root / "chats", root / "projects"]


def reference_import(db: Path, paths: list[Path]) -> tuple[Counter[tuple[str, str, str, str]], float]:
    """A clean, uninterrupted import: the item keys every killed-and-resumed import must end with,
    and how long the import itself took (from the store being open to the end)."""
    seconds = timed_job(db, "import", paths)
    return item_keys(str(db)), seconds


def timed_job(db: Path, job: str, paths: list[Path]) -> float:
    """Run a victim to its end; seconds from ``ready`` to exit (the span kill points are drawn from)."""
    victim = _victim(db, job, paths)
    assert victim.stdout is not None
    if victim.stdout.readline().strip() != "ready":
        victim.wait()
        raise AssertionError(f"the clean {job} could not start: {victim.stderr.read() if victim.stderr else ''}")
    started = time.monotonic()
    code = victim.wait(timeout=600)
    if code != 0:
        raise AssertionError(f"the clean {job} failed ({code}): {victim.stderr.read() if victim.stderr else ''}")
    return time.monotonic() - started


def kill_imports(
    workdir: Path, paths: list[Path], reference: Counter[tuple[str, str, str, str]], span: float, kills: int, seed: int
) -> CrashTally:
    """``kills`` SIGKILLs at random moments of imports into one store, resumed until each completes."""
    rng = random.Random(seed)
    tally = CrashTally()
    chain = runs = 0
    db = workdir / f"chain{chain}.db"
    while tally.kills < kills and runs < kills * 5:  # bounded even if every run beats its kill
        runs += 1
        killed = _run_and_kill(db, "import", paths, rng.uniform(0, span), tally)
        check_store(db, tally)
        if not killed:  # the run finished first: the store must now equal a clean import's
            tally.completed += 1
            compare(db, reference, tally)
            chain += 1
            db = workdir / f"chain{chain}.db"
    _finish(db, "import", paths, tally)
    compare(db, reference, tally)
    return tally


def kill_evolves(template: Path, workdir: Path, kills: int, seed: int) -> CrashTally:
    """SIGKILL ``evolve_categories(full=True)`` on copies of ``template``, then run it to the end."""
    rng = random.Random(seed)
    tally = CrashTally()
    expected = item_keys(str(template))
    workdir.mkdir(parents=True, exist_ok=True)
    copy_store(template, workdir / "timing.db")
    span = timed_job(workdir / "timing.db", "evolve", [])
    for n in range(kills):
        db = workdir / f"evolve{n}.db"
        copy_store(template, db)
        _run_and_kill(db, "evolve", [], rng.uniform(0, span), tally)
        check_store(db, tally)
        _finish(db, "evolve", [], tally)
        check_store(db, tally)
        compare(db, expected, tally)
    return tally


def old_schema_store(db: Path, items: int, applied: int = 2) -> Counter[tuple[str, str, str, str]]:
    """A store made by an older mnemo (only the first ``applied`` migrations) holding ``items`` rows,
    so that opening it runs the later migrations (0003 rebuilds the full-text index: slow enough to kill)."""
    from mnemo.store.migrations import MIGRATIONS

    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        for name, script in MIGRATIONS[:applied]:
            conn.executescript(f"BEGIN; {script}; INSERT INTO schema_migrations VALUES ('{name}', 0); COMMIT;")
        rng = random.Random(items)
        rows = [(f"old-{n}", sentence(rng), "message", "user", 1.7e9 + n, 1.7e9 + n, f"h{n}", n) for n in range(items)]
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO items (id, content, kind, role, ts, ingested_at, content_hash, seq) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.execute("UPDATE meta SET value = ? WHERE key = 'seq'", (str(items),))
        conn.execute("COMMIT")
    finally:
        conn.close()
    return item_keys(str(db))


def kill_migrations(template: Path, workdir: Path, kills: int, seed: int) -> CrashTally:
    """SIGKILL the opening of an old store (its migrations) at random points; reopen; check."""
    rng = random.Random(seed)
    tally = CrashTally()
    expected = item_keys(str(template))
    workdir.mkdir(parents=True, exist_ok=True)
    copy_store(template, workdir / "timing.db")
    span = timed_job(workdir / "timing.db", "migrate", [])
    for n in range(kills):
        db = workdir / f"migrate{n}.db"
        copy_store(template, db)
        _run_and_kill(db, "migrate", [], rng.uniform(0, span), tally)
        check_store(db, tally, embedder="none")  # opening it finishes the migrations; old rows have no vectors
        compare(db, expected, tally)
    return tally


def check_store(db: Path, tally: CrashTally, embedder: str = "hashing") -> None:
    """The file is intact and its derived indexes agree with its items, with no repair needed."""
    if not db.exists():
        return  # killed before the store file was created
    verdict = integrity(str(db))
    if verdict != "ok":
        tally.add_problem("corrupt", f"{db.name}: integrity_check: {verdict}")
        return
    from mnemo import Memory

    with Memory(str(db), embedder=embedder) as memory:
        report = memory.doctor()
    if not report.ok:
        bad = [f"{c.name}: {c.detail}" for c in report.checks if not c.ok]
        tally.add_problem("inconsistent", f"{db.name}: doctor: {'; '.join(bad)}")


def compare(db: Path, reference: Counter[tuple[str, str, str, str]], tally: CrashTally) -> None:
    found = item_keys(str(db))
    doubled = [key for key, n in found.items() if n > 1] + sorted(set(found) - set(reference))
    if doubled:
        tally.add_problem("duplicates", f"{db.name}: {len(doubled)} extra or doubled items, e.g. {doubled[0]}")
    missing = set(reference) - set(found)
    if missing:
        tally.add_problem("lost", f"{db.name}: {len(missing)} items of a clean run missing")


def copy_store(source: Path, target: Path) -> None:
    for suffix in ("", "-wal"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")


def _run_and_kill(db: Path, job: str, paths: list[Path], delay: float, tally: CrashTally) -> bool:
    """Start a victim, SIGKILL it ``delay`` s after it is ready; False when it finished first."""
    victim = _victim(db, job, paths)
    assert victim.stdout is not None
    if not _wait_ready(victim, tally):
        return True
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline and victim.poll() is None:
        time.sleep(0.005)
    if victim.poll() is not None:
        return _exited(victim, tally)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    tally.kills += 1
    return True


def _wait_ready(victim: subprocess.Popen[str], tally: CrashTally) -> bool:
    assert victim.stdout is not None
    readable, _, _ = select.select([victim.stdout], [], [], READY_TIMEOUT)
    line = victim.stdout.readline() if readable else ""  # "ready", or "" once the victim died
    if line.strip() == "ready":
        return True
    victim.kill()
    victim.wait()
    if not readable:
        tally.add_problem("hangs", "a victim never became ready")
    else:
        err = victim.stderr.read() if victim.stderr else ""
        tally.add_problem("corrupt", f"a victim could not open the store: {err[-500:]}")
    return False


def _exited(victim: subprocess.Popen[str], tally: CrashTally) -> bool:
    if victim.returncode != 0:
        err = victim.stderr.read() if victim.stderr else ""
        tally.add_problem("corrupt", f"a resumed run failed ({victim.returncode}): {err[-500:]}")
    return False


def _finish(db: Path, job: str, paths: list[Path], tally: CrashTally) -> None:
    victim = _victim(db, job, paths)
    try:
        code = victim.wait(timeout=600)
    except subprocess.TimeoutExpired:
        victim.kill()
        victim.wait()
        tally.add_problem("hangs", f"{db.name}: a resumed {job} did not finish")
        return
    if code != 0:
        tally.add_problem(
            "corrupt", f"{db.name}: a resumed {job} failed: {victim.stderr.read() if victim.stderr else ''}"
        )


def _victim(db: Path, job: str, paths: list[Path]) -> subprocess.Popen[str]:
    env = {**os.environ, "MNEMO_EMBEDDER": "hashing", "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    command = [sys.executable, "-m", "tests.reliability.crashes", job, str(db), *map(str, paths)]
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main(argv: list[str]) -> int:
    """The victim: open the store, say ``ready``, do the job."""
    job, db, *paths = argv
    from mnemo import Memory

    if job == "migrate":  # the work is opening the store: ready before it starts
        print("ready", flush=True)
    with Memory(db, embedder="hashing") as memory:
        if job == "migrate":
            return 0
        print("ready", flush=True)
        if job == "import":
            memory.import_sources(paths)
        elif job == "evolve":
            memory.evolve_categories(full=True)
        else:
            raise SystemExit(f"unknown job {job!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
