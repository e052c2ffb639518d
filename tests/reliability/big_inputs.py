"""Large generated inputs for the pathological-size checks (tests and benchmarks/soak/big_file.py).

``write_big_transcript`` writes a Claude Code transcript of a given size without holding it in
memory; ``import_peak_rss`` imports a transcript in a fresh child process and returns that
process's peak resident memory, read with ``resource.getrusage`` inside the child.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SESSION = "0b5e7a1c-2d3f-4a5b-8c6d-7e8f9a0b1c2d"
_WORDS = "deploy database migration invoice kernel garden budget latency queue worker schema token".split()

_CHILD = """
import json, resource, sys
from mnemo import Memory
db, folder = sys.argv[1], sys.argv[2]
with Memory(db, embedder="hashing", categorize=False, extract_facts=False, category_evolve_after=0) as memory:
    report = memory.import_claude_code(folder)
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = {"peak_mb": peak_kb / 1024, "added": report.added, "lines": report.lines}
print(json.dumps({**result, "dropped": dict(report.dropped)}))
"""


def write_big_transcript(
    root: Path, megabytes: float, *, line_bytes: int = 4000, message_every: int = 1, seed: int = 0
) -> tuple[Path, int]:
    """A ``projects/<dir>/<session>.jsonl`` of about ``megabytes``; returns (projects folder, messages).

    Every ``message_every``-th line is a conversation message; the others are the large "progress"
    lines real transcripts are full of, which the importer reads and drops (cheap to import, so a
    test can stream many megabytes through the reader in little time).
    """
    rng = random.Random(seed)
    folder = root / "projects" / "-home-dev-big"
    folder.mkdir(parents=True, exist_ok=True)
    target = int(megabytes * 1024 * 1024)
    written = lines = messages = 0
    with (folder / f"{SESSION}.jsonl").open("w", encoding="utf-8") as out:
        while written < target:
            words = " ".join(rng.choice(_WORDS) for _ in range(line_bytes // 7))
            hour, minute, second = lines // 3600 % 24, lines // 60 % 60, lines % 60
            stamp = f"2026-01-{1 + lines // 86400 % 28:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"
            base: dict[str, Any] = {
                "sessionId": SESSION,
                "cwd": "/home/dev/big",
                "uuid": f"u{lines}",
                "timestamp": stamp,
            }
            if lines % message_every:
                line = json.dumps({**base, "type": "progress", "data": {"output": words}}) + "\n"
            else:
                role = "user" if messages % 2 == 0 else "assistant"
                text = f"{words[:600]} line{lines}"
                content: Any = text if role == "user" else [{"type": "text", "text": text}]
                message = {"role": role, "content": content, **({"id": f"m{lines}"} if role == "assistant" else {})}
                line = json.dumps({**base, "type": role, "message": message}) + "\n"
                messages += 1
            out.write(line)
            written += len(line)
            lines += 1
    return root / "projects", messages


def import_peak_rss(projects: Path, db: Path, timeout: float = 1800) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "MNEMO_HOME": str(db.parent / "home")}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(db), str(projects)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"import child failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
