"""Writes the session-search development set: hand-written sessions as Claude Code JSONL, the real
transcripts from ../shared/data/claude_code, and the labelled queries.

    .venv/bin/python -m benchmarks.sessions_devset      # (re)writes benchmarks/data/sessions_dev/

Layout (as ``~/.claude/projects``): ``projects/<encoded-cwd>/<sessionId>.jsonl``, sub-agents under
``<sessionId>/subagents/``; ``queries.json`` holds the labels with session ids resolved.
"""

from __future__ import annotations

import json
import shutil
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.sessions_dev_spec import QUERIES, REAL_QUERIES, SESSIONS

HERE = Path(__file__).resolve().parent
OUT = HERE / "data" / "sessions_dev"
REAL = HERE.parent.parent / "shared" / "data" / "claude_code"
EPOCH = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
#: Real transcripts copied into the set, by the project folder they belong to.
REAL_FILES = {
    "-home-marco-projects-spotter": [
        "spotter/short.jsonl",
        "spotter/tool_heavy.jsonl",
        "spotter/subagent.jsonl",
        "spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
        "spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04",
    ],
    "-tmp": ["claude-code-log/representative_messages.jsonl", "claude-code-log/session_b.jsonl"],
}


def session_id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"mnemo-dev/{name}"))


def encode_project(path: str) -> str:
    return path.replace("/", "-").replace(".", "-")


class _Writer:
    """Emits the lines of one session in Claude Code's shape, chaining parentUuid."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.sid = session_id(spec["name"])
        self.clock = EPOCH + timedelta(days=spec["day"])
        self.parent: str | None = None
        self.lines: list[dict[str, Any]] = []
        self.side: list[dict[str, Any]] = []
        self.counter = 0

    def _base(self, kind: str, sidechain: bool = False) -> dict[str, Any]:
        self.counter += 1
        self.clock += timedelta(seconds=47)
        uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.sid}/{self.counter}"))
        line = {
            "parentUuid": self.parent,
            "isSidechain": sidechain,
            "userType": "external",
            "cwd": self.spec["project"],
            "sessionId": self.sid,
            "version": "2.1.39",
            "gitBranch": "main",
            "type": kind,
            "uuid": uid,
            "timestamp": self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        }
        if not sidechain:
            self.parent = uid
        return line

    def user(self, content: Any, **extra: Any) -> None:
        line = self._base("user")
        line["message"] = {"role": "user", "content": content}
        line.update(extra)
        self.lines.append(line)

    def assistant(self, blocks: list[dict[str, Any]], sidechain: bool = False) -> None:
        message_id = f"msg_{uuid.uuid5(uuid.NAMESPACE_URL, f'{self.sid}/m{self.counter}').hex[:24]}"
        for block in blocks:  # streamed: one content block per line, sharing message.id
            line = self._base("assistant", sidechain)
            line["message"] = {"id": message_id, "role": "assistant", "model": "claude-opus-4-6", "content": [block]}
            line["requestId"] = f"req_{message_id[4:]}"
            (self.side if sidechain else self.lines).append(line)

    def progress(self) -> None:
        line = self._base("progress")
        line["data"] = {"type": "hook_progress", "hookEvent": "PostToolUse"}
        self.lines.append(line)

    def write(self) -> list[dict[str, Any]]:
        if self.spec.get("fork"):
            self.lines.append(
                {
                    "type": "queue-operation",
                    "operation": "enqueue",
                    "sessionId": self.sid,
                    "timestamp": self.clock.isoformat().replace("+00:00", "Z"),
                    "content": "recall",
                }
            )
        snapshot = {"type": "file-history-snapshot", "messageId": "x", "snapshot": {}, "isSnapshotUpdate": False}
        self.lines.append(snapshot)
        for step in self.spec["messages"]:
            self._step(step)
        return self.lines

    def _step(self, step: tuple) -> None:
        kind = step[0]
        if kind == "u":
            self.user(step[1])
        elif kind == "n":
            self.user([{"type": "text", "text": step[1]}])
        elif kind == "a":
            self.assistant(
                [
                    {"type": "thinking", "thinking": "Considering the request.", "signature": "x"},
                    {"type": "text", "text": step[1]},
                ]
            )
        elif kind == "t":
            tool_id = f"toolu_{self.counter:04d}"
            self.assistant([{"type": "tool_use", "id": tool_id, "name": step[1], "input": {"command": step[2]}}])
            self.progress()
            self.user(
                [{"type": "tool_result", "tool_use_id": tool_id, "content": step[3]}],
                toolUseResult={"stdout": step[3], "stderr": ""},
                sourceToolAssistantUUID=self.parent,
            )
        elif kind == "side":
            self.assistant([{"type": "text", "text": step[1]}], sidechain=True)


def write_devset() -> dict[str, int]:
    if OUT.exists():
        shutil.rmtree(OUT)
    projects = OUT / "projects"
    for spec in SESSIONS:
        writer = _Writer(spec)
        folder = projects / encode_project(spec["project"])
        folder.mkdir(parents=True, exist_ok=True)
        _jsonl(folder / f"{writer.sid}.jsonl", writer.write())
        if writer.side:
            _jsonl(folder / writer.sid / "subagents" / "agent-a1b2c3d.jsonl", writer.side)
    for folder, names in REAL_FILES.items():
        for name in names:
            source, target = REAL / name, projects / folder / Path(name).name
            if source.is_dir():
                shutil.copytree(source, target)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
    labelled = [_resolve(q) for q in QUERIES] + [dict(q, source="real") for q in REAL_QUERIES]
    (OUT / "queries.json").write_text(json.dumps(labelled, indent=1) + "\n")
    names = {s["name"]: session_id(s["name"]) for s in SESSIONS}
    (OUT / "sessions.json").write_text(json.dumps(names, indent=1) + "\n")
    return {"sessions": len(SESSIONS), "queries": len(labelled)}


def _resolve(query: dict[str, Any]) -> dict[str, Any]:
    out = dict(query, source="written")
    for key in ("relevant", "passing", "must_not"):
        out[key] = [session_id(name) for name in query.get(key, [])]
    return out


def _jsonl(path: Path, lines: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


if __name__ == "__main__":
    print(write_devset())
