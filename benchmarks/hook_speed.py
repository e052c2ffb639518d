"""Speed of `mnemo hook claude-code` on UserPromptSubmit, as Claude Code runs it: a fresh process per prompt.

1. cold: no server listening, the hook works in-process, lexical only (target: p95 <= 1 s);
2. warm: `mnemo serve` running with the real MiniLM model, the hook sends the prompt there
   (target: p95 <= 150 ms);
3. the floor under `python -m mnemo ...`: a fresh `python -c "import mnemo"`.

Three entries are measured: the console script `mnemo hook claude-code` (what settings.json
names; its fast lane skips building the command line), `python -m mnemo hook claude-code` (the
same entry) and the script `src/mnemo/hooks/fast.py` run by path. With a server the hook makes
one `POST /v1/turn` call: the per-turn path (facts, rotating message) plus other sessions' context.

Wall time of the whole process is measured (what the user waits for), plus the time the hook
itself logs (parse, store/server work, print), so the two can be told apart.

The store holds LoCoMo turns (real conversation text) embedded with the real model; the prompts
are LoCoMo questions. Each hook call records its prompt, so the store grows by one per call.
Every payload names a real 2.7 MB Claude Code transcript (shared/data/claude_code/spotter) as
the session's, so each call also reads its last messages to resolve the prompt's references.

Run: ``python -m benchmarks.hook_speed [--n 3000] [--runs 30]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, SHARED, markdown_table, write_results
from benchmarks.speed import corpus
from mnemo import Memory

WORK = ROOT / "benchmarks" / "work" / "hook_speed"
PROJECT = "/home/dev/locomo"
#: The session transcript every prompt comes from: the hook reads its tail (hooks/recent.py).
TRANSCRIPT = SHARED / "data" / "claude_code" / "spotter" / "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"
WARMUP = 15


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def build_store(db: Path, n: int) -> None:
    texts, _questions = corpus()
    records = [
        {"content": text, "role": "user", "kind": "message", "project": PROJECT, "session_id": f"s{i // 50}"}
        for i, text in enumerate(texts[:n])
    ]
    with Memory(str(db), embedder="minilm") as memory:
        memory.add_many(records)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"p50_ms": percentile(values, 0.5), "p95_ms": percentile(values, 0.95), "mean_ms": statistics.mean(values)}


def row(walls: list[float], own: list[float], modes: set[str]) -> dict[str, Any]:
    return {**summary(walls), "hook_p95_ms": percentile(own, 0.95), "modes": sorted(modes)}


MODULE = (sys.executable, "-m", "mnemo", "hook", "claude-code")
FAST = (sys.executable, str(ROOT / "src" / "mnemo" / "hooks" / "fast.py"))
#: The console script, as a settings.json names it: `mnemo hook claude-code`.
SCRIPT = (str(Path(sys.executable).parent / "mnemo"), "hook", "claude-code")


def run_hooks(
    db: Path, prompts: list[str], env: dict[str, str], entry: tuple[str, ...], strict: bool = True
) -> tuple[list[float], list[float], set[str]]:
    """Wall ms per hook process, the ms each logged, and the modes it logged."""
    log = Path(env["MNEMO_HOME"]) / "hook.log"
    walls: list[float] = []
    for n, text in enumerate(prompts):
        payload = {
            "hook_event_name": "UserPromptSubmit",
            "session_id": f"bench-{n}",
            "cwd": PROJECT,
            "prompt": text,
            "transcript_path": str(TRANSCRIPT),
        }
        started = time.perf_counter()
        done = subprocess.run(
            list(entry),
            input=json.dumps(payload),
            env={**env, "MNEMO_DB": str(db)},
            capture_output=True,
            text=True,
            check=True,
        )
        walls.append((time.perf_counter() - started) * 1000)
        assert done.stdout is not None
    entries = [json.loads(line) for line in log.read_text().splitlines()[-len(prompts) :]]
    bad = [e for e in entries if e.get("status") != "ok"]
    if bad and strict:
        raise SystemExit(f"hook calls failed: {bad[:3]}")
    return walls, [float(e["ms"]) for e in entries], {e["mode"] for e in entries}


def settle_server(db: Path, prompts: list[str], env: dict[str, str]) -> dict[str, float]:
    started, calls, fast_in_a_row = time.perf_counter(), 0, 0
    while fast_in_a_row < 5 and time.perf_counter() - started < 120:
        _walls, own, _modes = run_hooks(db, [prompts[calls % len(prompts)]], env, SCRIPT, strict=False)
        calls += 1
        fast_in_a_row = fast_in_a_row + 1 if own[0] < 100 else 0
    return {"settle_s": round(time.perf_counter() - started, 1), "settle_calls": calls}


def import_floor(runs: int) -> list[float]:
    walls = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import mnemo"], check=True)
        walls.append((time.perf_counter() - started) * 1000)
    return walls


@contextmanager
def server(db: Path, env: dict[str, str]) -> Iterator[int]:
    port = free_port()
    command = [sys.executable, "-m", "mnemo", "--db", str(db), "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not _healthy(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("mnemo serve did not come up")
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def _healthy(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
    try:
        conn.request("GET", "/health")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3000, help="stored turns")
    parser.add_argument("--runs", type=int, default=30, help="hook processes per mode")
    parser.add_argument("--rebuild", action="store_true", help="build the store again")
    args = parser.parse_args()
    db = WORK / f"hook-{args.n}.db"
    if not db.exists() or args.rebuild:  # embedding the turns takes a minute; reuse the store
        shutil.rmtree(WORK, ignore_errors=True)
        WORK.mkdir(parents=True)
        started = time.perf_counter()
        build_store(db, args.n)
        print(f"store: {args.n} turns in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    shutil.rmtree(WORK / "home", ignore_errors=True)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMO_")}
    # A store in use has its categories evolved; left pending, the server's first writes start that
    # evolve in the background (tens of seconds on 2 cores) and every hook call measured waits on it.
    # (in a child process: this one then never holds the model's threads beside the measured ones)
    started = time.perf_counter()
    command = [sys.executable, "-m", "mnemo", "--db", str(db), "--embedder", "minilm", "categories", "evolve"]
    subprocess.run(command, env={**base_env, "MNEMO_HOME": str(WORK / "home")}, check=True, capture_output=True)
    print(f"categories evolved in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    _texts, questions = corpus()
    prompts = random.Random(7).sample(questions, args.runs * 5 + WARMUP)
    env = {**base_env, "MNEMO_HOME": str(WORK / "home"), "MNEMO_SERVER_URL": f"http://127.0.0.1:{free_port()}"}

    rows: dict[str, dict[str, Any]] = {}
    runs = args.runs
    rows["cold: mnemo hook (console script)"] = row(*run_hooks(db, prompts[:runs], env, SCRIPT))
    rows["cold: python -m mnemo hook"] = row(*run_hooks(db, prompts[runs : 2 * runs], env, MODULE))
    with server(db, env) as port:
        warm_env = {**env, "MNEMO_SERVER_URL": f"http://127.0.0.1:{port}"}
        # A resident server is long past its first calls (page cache, allocator, hot index) when a
        # hook calls it, so calls are made until five in a row take < 100 ms in the hook.
        settle = settle_server(db, prompts[-WARMUP:], warm_env)
        script_rows = run_hooks(db, prompts[2 * runs : 3 * runs], warm_env, SCRIPT)
        rows["server: mnemo hook (console script)"] = row(*script_rows)
        rows["server: python -m mnemo hook"] = row(*run_hooks(db, prompts[3 * runs : 4 * runs], warm_env, MODULE))
        rows["server: fast.py"] = row(*run_hooks(db, prompts[4 * runs : 5 * runs], warm_env, FAST))
    floor = import_floor(args.runs)
    rows["floor: python -c 'import mnemo'"] = {**summary(floor), "hook_p95_ms": 0.0, "modes": []}

    targets = {name: 1000.0 if name.startswith("cold") else 150.0 for name in rows if not name.startswith("floor")}
    table = markdown_table(
        ["mode", "p50 ms", "p95 ms", "in-hook p95 ms", "target p95 ms", "met"],
        [
            [
                name,
                r["p50_ms"],
                r["p95_ms"],
                r["hook_p95_ms"],
                targets.get(name, "-"),
                "-" if name not in targets else ("yes" if r["p95_ms"] <= targets[name] else "no"),
            ]
            for name, r in rows.items()
        ],
    )
    payload = {"n": args.n, "runs": args.runs, "server_settle": settle, "results": rows, "targets": targets}
    write_results(
        "hook_speed",
        payload,
        table + f"\n\nserver settled after {settle['settle_calls']} calls, {settle['settle_s']} s",
    )


if __name__ == "__main__":
    main()
