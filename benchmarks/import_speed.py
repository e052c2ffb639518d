"""Import speed of Claude Code transcripts: a first import of 1,000 sessions (≈100k lines) with no
embedder, a re-run with nothing new, and a re-run after a few sessions grew.

The corpus is synthetic, generated under benchmarks/work/ from the shapes of the real transcripts in
../shared/data/claude_code: about 70% progress lines, snapshots, streamed assistant replies (one
block per line), tool results with outputs, a few typed prompts per session, some subagent files.
Run: ``python -m benchmarks.import_speed [--sessions 1000] [--lines-per-session 100] [--embedder none]``
(with an embedder, messages are embedded in batches through ``Memory.add_many``).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import time
import uuid
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, markdown_table, write_results
from mnemo import Memory

WORK = ROOT / "benchmarks" / "work" / "import_speed"
PROJECTS = 12
TOPICS = (
    "flaky fixture in the payments tests",
    "kafka consumer lag on the billing topic",
    "postgres migration of the orders table",
    "JWT refresh tokens for the mobile client",
    "docker build cache misses in CI",
    "rate limiting of the login endpoint",
    "memory leak in the websocket gateway",
    "timezone bug in the invoice scheduler",
    "terraform state lock on the staging stack",
    "slow elasticsearch queries on product search",
)
VERBS = ("investigate", "fix", "refactor", "document", "benchmark", "review", "migrate", "test")
FILES = ("app/models.py", "lib/billing.ex", "src/server.ts", "config/runtime.exs", "docker/Dockerfile")


class Writer:
    """Lines of one session file in the real CLI's shape."""

    def __init__(self, session: str, cwd: str, rng: random.Random, sidechain: bool = False) -> None:
        self.session, self.cwd, self.rng, self.sidechain = session, cwd, rng, sidechain
        self.lines: list[str] = []
        self.parent: str | None = None
        self.clock = 1_767_000_000.0 + rng.random() * 10_000_000

    def _base(self, kind: str) -> dict[str, Any]:
        self.clock += self.rng.random() * 5
        uid = str(uuid.UUID(int=self.rng.getrandbits(128)))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(self.clock)) + ".000Z"
        line = {
            "parentUuid": self.parent,
            "isSidechain": self.sidechain,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session,
            "version": "2.1.39",
            "gitBranch": "main",
            "type": kind,
            "uuid": uid,
            "timestamp": stamp,
        }
        self.parent = uid
        return line

    def emit(self, line: dict[str, Any]) -> None:
        self.lines.append(json.dumps(line))

    def progress(self) -> None:
        data = {"type": "hook_progress", "hookEvent": "PostToolUse", "command": "~/.claude/hooks/notify.sh"}
        self.emit({**self._base("progress"), "data": data, "toolUseID": "toolu_x", "parentToolUseID": "toolu_x"})

    def snapshot(self) -> None:
        self.emit({"type": "file-history-snapshot", "messageId": "m", "snapshot": {"trackedFileBackups": {}}})

    def user(self, text: str) -> None:
        self.emit({**self._base("user"), "message": {"role": "user", "content": text}, "permissionMode": "default"})

    def assistant(self, text: str, tool: str) -> str:
        message_id = f"msg_{self.rng.getrandbits(64):016x}"
        tool_id = f"toolu_{self.rng.getrandbits(64):016x}"
        blocks = [
            {"type": "text", "text": text},
            {"type": "tool_use", "id": tool_id, "name": tool, "input": {"command": f"rg -n {tool.lower()} ."}},
        ]
        for block in blocks:
            message = {"model": "claude-opus-4-6", "id": message_id, "type": "message", "role": "assistant"}
            usage = {"input_tokens": 3, "output_tokens": 120, "cache_read_input_tokens": 24000}
            self.emit({**self._base("assistant"), "message": {**message, "content": [block], "usage": usage}})
        return tool_id

    def tool_result(self, tool_id: str, output: str) -> None:
        block = {"type": "tool_result", "tool_use_id": tool_id, "content": output}
        line = {**self._base("user"), "message": {"role": "user", "content": [block]}}
        self.emit({**line, "toolUseResult": {"stdout": output[:200]}, "sourceToolAssistantUUID": self.parent})


def session_lines(rng: random.Random, session: str, cwd: str, target: int, sidechain: bool = False) -> list[str]:
    w = Writer(session, cwd, rng, sidechain)
    w.snapshot()
    topic = rng.choice(TOPICS)
    w.user(f"Please {rng.choice(VERBS)} the {topic}; it started after the last deploy.")
    while len(w.lines) < target:
        for _ in range(rng.randint(3, 9)):  # progress events dominate real transcripts
            w.progress()
        text = f"Let me {rng.choice(VERBS)} {rng.choice(FILES)} for the {topic} (step {len(w.lines)})."
        tool_id = w.assistant(text, rng.choice(("Bash", "Read", "Edit", "Grep")))
        output = "\n".join(f"{rng.choice(FILES)}:{rng.randint(1, 900)}: {rng.choice(TOPICS)}" for _ in range(8))
        w.tool_result(tool_id, output)
        if rng.random() < 0.05:
            w.user(f"Also check whether the {rng.choice(TOPICS)} is related.")
    return w.lines[:target]


def build_corpus(folder: Path, sessions: int, per_session: int) -> tuple[int, int]:
    """Writes the corpus; returns (files, lines)."""
    if folder.exists():
        shutil.rmtree(folder)
    rng = random.Random(7)
    files = lines = 0
    for n in range(sessions):
        project = f"/home/dev/project{n % PROJECTS}"
        session = str(uuid.UUID(int=rng.getrandbits(128)))
        directory = folder / project.replace("/", "-")
        directory.mkdir(parents=True, exist_ok=True)
        main = per_session if n % 10 else per_session * 7 // 10
        rows = session_lines(rng, session, project, main)
        (directory / f"{session}.jsonl").write_text("\n".join(rows) + "\n")
        files, lines = files + 1, lines + len(rows)
        if n % 10 == 0:  # every tenth session ran a subagent
            agent = directory / session / "subagents" / f"agent-a{n:06x}.jsonl"
            agent.parent.mkdir(parents=True)
            rows = session_lines(rng, session, project, per_session - main, sidechain=True)
            agent.write_text("\n".join(rows) + "\n")
            files, lines = files + 1, lines + len(rows)
    return files, lines


def grow(folder: Path, count: int) -> int:
    """Append a short exchange to ``count`` sessions; returns the lines added."""
    rng = random.Random(11)
    added = 0
    for path in sorted(folder.glob("*/*.jsonl"))[:count]:
        rows = session_lines(rng, path.stem, "/home/dev/grown", 20)[1:]
        with path.open("a") as handle:
            handle.write("\n".join(rows) + "\n")
        added += len(rows)
    return added


def timed(memory: Memory, folder: Path) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    report = memory.import_claude_code(str(folder)).as_dict()
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--lines-per-session", type=int, default=100)
    parser.add_argument("--embedder", default="none", help="none (the target's setting), hashing or minilm")
    args = parser.parse_args()
    folder = WORK / "projects"
    files, lines = build_corpus(folder, args.sessions, args.lines_per_session)
    db = WORK / "import.db"
    for stale in WORK.glob("import.db*"):
        stale.unlink()
    with Memory(str(db), embedder=args.embedder) as memory:
        first_s, first = timed(memory, folder)
        noop_s, noop = timed(memory, folder)
        grown_lines = grow(folder, 10)
        grown_s, grown = timed(memory, folder)
        items = memory.stats()["items"]
    rows = [
        ("first import", files, lines, first["added"], round(first_s, 2), 60.0 if args.embedder == "none" else None),
        ("re-run, nothing new", files, 0, noop["added"], round(noop_s, 3), 1.0),
        ("re-run, 10 sessions grew", files, grown_lines, grown["added"], round(grown_s, 3), None),
    ]
    table = markdown_table(["run", "files", "new lines", "messages added", "seconds", "target s"], rows)
    payload = {
        "sessions": args.sessions,
        "files": files,
        "lines": lines,
        "items": items,
        "embedder": args.embedder,
        "first_import_s": first_s,
        "lines_per_s": lines / first_s,
        "noop_rerun_s": noop_s,
        "grown_rerun_s": grown_s,
        "grown_lines": grown_lines,
        "reports": {"first": first, "noop": noop, "grown": grown},
        "targets": {"first_import_s": 60.0, "noop_rerun_s": 1.0},
        "passed": first_s <= 60.0 and noop_s <= 1.0 and noop["read_files"] == 0,
    }
    name = "import_speed" if args.embedder == "none" else f"import_speed_{args.embedder}"
    write_results(name, payload, table)


if __name__ == "__main__":
    main()
