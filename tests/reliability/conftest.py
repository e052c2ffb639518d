"""Helpers shared by the reliability suite: generated transcripts, CLI subprocesses, raw store reads.

Everything here is real: generated files on disk, `python -m mnemo` in a child process, SQLite read
directly (not through mnemo) so a check does not trust the code it checks.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

_WORDS = (
    "deploy database migration retry timeout cache invoice billing python rust kernel lisbon garden "
    "wedding hiking budget refactor index latency queue worker schema token session memory vector "
    "coffee greyhound piano tax holiday contract release pipeline docker postgres sqlite benchmark"
).split()


def sentence(rng: random.Random, words: int = 12) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def write_chat_log(path: Path, *, sessions: int, turns: int, seed: int = 0) -> int:
    """A generic JSONL chat log of ``sessions`` x ``turns`` messages; returns the message count."""
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w") as out:
        for s in range(sessions):
            for t in range(turns):
                role = "user" if t % 2 == 0 else "assistant"
                stamp = f"2026-03-{1 + s % 28:02d}T{t // 60 % 24:02d}:{t % 60:02d}:00Z"
                line = {"session_id": f"s{seed}-{s}", "role": role, "content": sentence(rng), "timestamp": stamp}
                out.write(json.dumps(line) + "\n")
                count += 1
    return count


def write_claude_code_tree(root: Path, *, sessions: int, turns: int, seed: int = 0) -> Path:
    """A ``projects/`` folder of Claude Code transcripts (user and assistant text lines)."""
    rng = random.Random(seed)
    project = root / "-home-dev-app"
    project.mkdir(parents=True, exist_ok=True)
    for s in range(sessions):
        session = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        lines: list[dict[str, Any]] = []
        for t in range(turns):
            base = {
                "sessionId": session,
                "cwd": "/home/dev/app",
                "uuid": f"{session[:8]}-{t}",
                "timestamp": f"2026-02-{1 + s % 28:02d}T10:{t // 60 % 60:02d}:{t % 60:02d}.000Z",
            }
            if t % 2 == 0:
                lines.append({**base, "type": "user", "message": {"role": "user", "content": sentence(rng)}})
            else:
                blocks = [{"type": "text", "text": sentence(rng)}]
                message = {"id": f"msg-{s}-{t}", "role": "assistant", "content": blocks}
                lines.append({**base, "type": "assistant", "message": message})
        (project / f"{session}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return root


def run_mnemo(db: str, *args: str, timeout: float = 120, **popen: Any) -> subprocess.CompletedProcess[str]:
    """`python -m mnemo --db DB ARGS` with the hashing embedder (fast start), output captured."""
    return subprocess.run(
        [sys.executable, "-m", "mnemo", "--db", db, *args],
        env=mnemo_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        **popen,
    )


def mnemo_env(**extra: str) -> dict[str, str]:
    return {**os.environ, "MNEMO_EMBEDDER": "hashing", "PYTHONPATH": str(ROOT / "src"), **extra}


def item_keys(db: str) -> Counter[tuple[str, str, str, str]]:
    """(user, agent, project, id) of every item row, read with plain sqlite3: duplicates show as counts > 1."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT user_id, agent_id, project, id FROM items").fetchall()
    finally:
        conn.close()
    return Counter(tuple(row) for row in rows)


def integrity(db: str) -> str:
    conn = sqlite3.connect(db)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()
