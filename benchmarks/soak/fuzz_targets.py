"""The four bad-input targets of the soak fuzzers (and of tests/reliability/test_fuzz_inputs.py).

Each target takes raw bytes, as a fuzzer produces them, and feeds them to one real entry point:

- ``query``: the session query language (``parse_query``), then now and then a real search;
- ``importers``: the Claude Code and chat-log line parsers, then now and then a whole file import;
- ``hook``: the hook's stdin payload parser, then now and then the whole hook call;
- ``mcp``: MCP tool calls with arguments drawn from the bytes, through the SDK's server.

A target returns normally when mnemo accepted the input or refused it with one of its own errors
(``MnemoError``, with a message), or the MCP layer refused it as a tool error caused by one of
those or by schema validation. Anything else propagates: that is a crash.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemo import Memory
from mnemo.errors import MnemoError

#: Every n-th input also runs the expensive end-to-end path (a search, a file import, a hook call).
DEEP_EVERY = 16


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _memory(path: Path) -> Memory:
    memory = Memory(str(path), embedder="hashing", category_evolve_after=0, extract_facts=False)
    memory.add_many(
        {"content": text, "role": role, "session_id": f"s{i % 3}", "user_id": "u"}
        for i, (text, role) in enumerate(
            [
                ("we migrated the database to postgres", "user"),
                ("the deploy pipeline failed on the docker step", "assistant"),
                ('she said "ship it on friday"', "user"),
                ("the invoice total was wrong again", "assistant"),
            ]
        )
    )
    return memory


class QueryTarget:
    """Query text (split on \\x1f into query, one required and one excluded term)."""

    seeds = (
        b'deploy +docker -"old pipeline" database',
        b'"ship it" OR friday AND NOT invoice',
        b"project:/p/web since:2024-01-01 +postgres",
        b"\xe2\x80\x9cunterminated phrase +-+--\x1fpostgres\x1fdocker",
        b"a" * 300 + b" ((( ))) NEAR/3 * ^ :",
    )

    def __init__(self, workdir: Path) -> None:
        from mnemo.retrieve.query_language import fts_any, parse_query

        self._parse, self._fts = parse_query, fts_any
        self.memory = _memory(workdir / "query.db")
        self._count = 0

    def __call__(self, data: bytes) -> None:
        parts = _text(data).split("\x1f")
        self._count += 1
        try:
            parsed = self._parse(parts[0], parts[1:2], parts[2:3])
            self._fts(parsed.positive)
        except MnemoError:
            pass
        if self._count % DEEP_EVERY == 0:
            for search in (self.memory.search_sessions, self.memory.search):
                with contextlib.suppress(MnemoError):
                    search(parts[0][:5000])

    def close(self) -> None:
        self.memory.close()


class ImportersTarget:
    """JSONL transcript bytes: parsed by both line parsers; now and then imported as a file."""

    seeds = (
        b'{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2026-01-01T10:00:00Z",'
        b'"message":{"role":"user","content":"fix the login bug"}}\n'
        b'{"type":"assistant","sessionId":"s1","uuid":"u2","message":{"role":"assistant",'
        b'"content":[{"type":"text","text":"done"},{"type":"tool_use","name":"Bash","input":{}}]}}\n',
        b'{"session_id":"c1","role":"user","content":"hello","timestamp":"2026-03-01T00:00:00Z"}\n'
        b'{"session_id":"c1","role":"assistant","content":[{"type":"text","text":"hi"}]}\n{broken\n',
        b'{"type":"summary","summary":"Login work","leafUuid":"u2"}\n\n\n{"type":"user"}\n[1,2,3]\n"str"\n',
        b'{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}',
    )

    def __init__(self, workdir: Path) -> None:
        from mnemo.ingest import chatlog, claude_code
        from mnemo.ingest.conversation import FileState
        from mnemo.ingest.lines import Line

        self._cc, self._chat, self._state, self._line = claude_code, chatlog, FileState, Line
        self.workdir = workdir
        self.memory = Memory(str(workdir / "import.db"), embedder="hashing", category_evolve_after=0)
        self._count = 0

    def __call__(self, data: bytes) -> None:
        self._count += 1
        lines, offset = [], 0
        for number, raw in enumerate(data.split(b"\n"), start=1):
            lines.append(self._line(offset, number, raw))
            offset += len(raw) + 1
        path = self.workdir / "projects" / "-fuzz" / "fuzz.jsonl"
        try:
            self._cc.parse(path, lines, self._state(), 0, offset)
            self._chat.parse_lines(path, lines, self._state(), 0, offset)
        except MnemoError:
            pass
        if self._count % DEEP_EVERY == 0:
            target = self.workdir / "files" / f"f{self._count}.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            with contextlib.suppress(MnemoError):
                self.memory.import_sources([str(target)])
            target.unlink()

    def close(self) -> None:
        self.memory.close()


class HookTarget:
    """A hook's stdin payload: parsed; now and then the whole hook call, which must never raise."""

    seeds = (
        b'{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"what did we decide?","cwd":"/p"}',
        b'{"hook_event_name":"Stop","session_id":"s1","transcript_path":"/nonexistent/t.jsonl"}',
        b'{"hook_event_name":"SessionEnd","session_id":"","cwd":null}',
        b'{"hook_event_name":"UserPromptSubmit","session_id":1,"prompt":["x"]}',
        b"[]",
        b"",
    )

    def __init__(self, workdir: Path) -> None:
        from mnemo.hooks.command import HookArgs, run_claude_code
        from mnemo.hooks.payload import parse_payload

        self._parse, self._run, self._args = parse_payload, run_claude_code, HookArgs
        self.memory = _memory(workdir / "hook.db")
        self.db = str(workdir / "hook.db")
        self._count = 0

    def __call__(self, data: bytes) -> None:
        raw = _text(data)
        self._count += 1
        with contextlib.suppress(MnemoError):
            self._parse(raw)
        if self._count % DEEP_EVERY == 0:
            self._run(raw, self._args(db=self.db, max_tokens=200))  # never raises: reasons go to the log

    def close(self) -> None:
        self.memory.close()


_VALUES: tuple[Callable[[random.Random], Any], ...] = (
    lambda r: None,
    lambda r: r.choice([True, False]),
    lambda r: r.randint(-(2**63), 2**63),
    lambda r: r.choice([0, 1, -1, 10**6, 2**31, 1000, 1001]),
    lambda r: r.choice([float("nan"), float("inf"), -0.0, 1e308, 0.5]),
    lambda r: "".join(chr(r.randint(0, 0x2FFF)) for _ in range(r.randint(0, 40))),
    lambda r: r.choice(["", " ", "user", "zz", "2026-01-01", "not-a-date", "message", "note", "../../etc/passwd"]),
    lambda r: "x" * r.choice([1, 255, 4096, 70_000]),
    lambda r: [r.choice(["a", 1, None])] * r.randint(0, 5),
    lambda r: {"k": r.choice(["v", 1, None, {"n": [1]}])},
)


def _caused_by_refusal(exc: BaseException) -> bool:
    """A tool error is a refusal when mnemo's own error or schema validation caused it."""
    from pydantic import ValidationError

    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, (MnemoError, ValidationError)):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class McpTarget:
    """A tool name and arguments drawn from the bytes (JSON when they parse as an object)."""

    seeds = (
        b'{"tool":"recall","args":{"query":"database","limit":5}}',
        b'{"tool":"remember","args":{"content":"fuzz note","kind":"note","metadata":{"a":[1,2]}}}',
        b'{"tool":"read_session","args":{"session_id":"s"}}',
        b'{"tool":"forget","args":{"subject":"user"}}',
        b"\x00\x01\x02\x03",
    )

    def __init__(self, workdir: Path) -> None:
        import anyio

        from mnemo.mcp.server import build_server

        self.memory = _memory(workdir / "mcp.db")
        self.server = build_server(self.memory)
        self._anyio = anyio
        tools = anyio.run(self.server.list_tools)
        self.tools = {t.name: sorted(t.input_schema.get("properties", {})) for t in tools}
        self.tools.pop("import_sources", None)  # would read files named by the fuzzer: covered by importers
        self.names = sorted(self.tools)

    def arguments(self, data: bytes) -> tuple[str, dict[str, Any]]:
        try:
            value = json.loads(data)
            if isinstance(value, dict) and isinstance(value.get("args"), dict):
                name = value.get("tool")
                return (name if name in self.tools else self.names[len(data) % len(self.names)]), value["args"]
        except (ValueError, RecursionError):
            pass
        rng = random.Random(data)
        name = rng.choice(self.names)
        keys = self.tools[name] + ["bogus", "user_id"]
        args = {key: rng.choice(_VALUES)(rng) for key in rng.sample(keys, rng.randint(0, len(keys)))}
        return name, args

    def __call__(self, data: bytes) -> None:
        name, args = self.arguments(data)
        if name == "import_sources":
            return
        try:
            self._anyio.run(self.server.call_tool, name, args)
        except Exception as exc:
            if not _caused_by_refusal(exc):
                raise

    def close(self) -> None:
        self.memory.close()


TARGETS: dict[str, type[Any]] = {
    "query": QueryTarget,
    "importers": ImportersTarget,
    "hook": HookTarget,
    "mcp": McpTarget,
}
