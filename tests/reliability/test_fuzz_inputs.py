"""Bad input, property-based: the query language, the importers, the hook payload and MCP arguments.

Each property feeds generated input to a real entry point and accepts only two outcomes: success,
or one of mnemo's own errors with a message. A hang fails through pytest-timeout. The soak run
(benchmarks/soak/fuzz_*.py) drives the same targets with 100k+ fuzzer inputs each.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.soak.fuzz_targets import HookTarget, ImportersTarget, McpTarget, QueryTarget
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mnemo import Memory
from mnemo.errors import InputError, MnemoError
from mnemo.hooks.payload import parse_payload
from mnemo.retrieve.query_language import parse_query
from tests.reliability.privacy_checks import ROOT

pytestmark = pytest.mark.timeout(300)
FEW = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
SOME = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
query_text = st.text(
    alphabet=st.characters(max_codepoint=0x2FFF) | st.sampled_from(list('"+-:()*^\u201c\u201d ')), max_size=200
)


def refused_clearly(exc: MnemoError) -> None:
    assert str(exc).strip(), f"{type(exc).__name__} without a message"


# -- query language --------------------------------------------------------------------------------


@pytest.mark.core
@FEW
@given(query=query_text, require=st.lists(query_text, max_size=3), exclude=st.lists(query_text, max_size=3))
def test_query_parser_accepts_or_refuses_clearly(query: str, require: list[str], exclude: list[str]) -> None:
    try:
        parsed = parse_query(query, require, exclude)
    except MnemoError as exc:
        refused_clearly(exc)
        return
    for term in (*parsed.positive, *parsed.required, *parsed.excluded):
        assert term.words and all(word.strip() for word in term.words)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def query_target(workdir: Path) -> Iterator[QueryTarget]:
    target = QueryTarget(workdir)
    yield target
    target.close()


@SOME
@given(query=query_text)
def test_searches_accept_or_refuse_any_query(query_target: QueryTarget, query: str) -> None:
    for search in (query_target.memory.search, query_target.memory.search_sessions):
        try:
            search(query)
        except MnemoError as exc:
            refused_clearly(exc)


@FEW
@given(data=st.binary(max_size=400) | st.sampled_from(QueryTarget.seeds))
def test_query_target_survives_bytes(query_target: QueryTarget, data: bytes) -> None:
    query_target(data)


# -- importers -------------------------------------------------------------------------------------

chat_line = st.builds(
    lambda role, words, session: {"session_id": session, "role": role, "content": " ".join(words)},
    st.sampled_from(["user", "assistant"]),
    st.lists(st.sampled_from("deploy database invoice garden piano budget kernel lisbon".split()), min_size=4),
    st.sampled_from(["c1", "c2"]),
)
garbage_line = st.one_of(
    # a line of whitespace only is blank, which the readers skip uncounted by design; garbage has content
    st.binary(min_size=1, max_size=80).filter(
        lambda b: b.strip() and b"\n" not in b and not b.strip().startswith(b"{")
    ),
    st.just(b'{"session_id": "c1", "role": "user", "content": '),
    st.just(b"[1, 2, 3]"),
)


@pytest.fixture(scope="module")
def importers_target(workdir: Path) -> Iterator[ImportersTarget]:
    target = ImportersTarget(workdir)
    yield target
    target.close()


@FEW
@given(data=st.binary(max_size=600) | st.sampled_from(ImportersTarget.seeds))
def test_line_parsers_survive_bytes(importers_target: ImportersTarget, data: bytes) -> None:
    importers_target(data)


@SOME
@given(good=st.lists(chat_line, min_size=1, max_size=8), bad=st.lists(garbage_line, max_size=8), seed=st.randoms())
def test_malformed_lines_are_skipped_and_counted(
    tmp_path_factory: pytest.TempPathFactory, good: list[dict[str, Any]], bad: list[bytes], seed: Any
) -> None:
    lines = [json.dumps(line).encode() for line in good[1:]] + bad
    seed.shuffle(lines)
    folder = tmp_path_factory.mktemp("chat")
    path = folder / "log.jsonl"
    path.write_bytes(b"\n".join([json.dumps(good[0]).encode(), *lines]) + b"\n")
    with Memory(str(folder / "m.db"), embedder="hashing", category_evolve_after=0) as memory:
        report = memory.import_sources([str(path)])
        assert report.added == len(good)  # every valid message, none lost to its bad neighbours
        assert sum(report.dropped.values()) >= len(bad)  # every malformed line is counted
        assert memory.stats()["by_kind"].get("message") == len(good)


@pytest.mark.core
@FEW
@given(data=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_jsonl_file_reader_refuses_clearly(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    from mnemo.ingest.files import read_file

    path = tmp_path_factory.mktemp("files") / "x.jsonl"
    path.write_bytes(data)
    try:
        for _entry in read_file(path):
            pass
    except MnemoError as exc:
        refused_clearly(exc)


# -- the hook's stdin payload ----------------------------------------------------------------------

payload_objects = st.fixed_dictionaries(
    {},
    optional={
        "hook_event_name": st.sampled_from(["UserPromptSubmit", "Stop", "SessionEnd", "Other"]) | json_values,
        "session_id": st.text(max_size=20) | json_values,
        "prompt": st.text(max_size=200) | json_values,
        "cwd": st.text(max_size=20) | json_values,
        "transcript_path": st.just("/nonexistent/t.jsonl") | json_values,
    },
)


@pytest.mark.core
@FEW
@given(raw=st.text(max_size=300) | payload_objects.map(json.dumps) | json_values.map(json.dumps))
def test_hook_payload_parses_or_refuses_clearly(raw: str) -> None:
    try:
        event = parse_payload(raw)
    except InputError as exc:
        refused_clearly(exc)
        return
    assert event.session_id and isinstance(event.session_id, str)


@pytest.fixture(scope="module")
def hook_target(workdir: Path) -> Iterator[HookTarget]:
    target = HookTarget(workdir)
    yield target
    target.close()


@SOME
@given(raw=payload_objects.map(json.dumps) | st.text(max_size=100))
def test_whole_hook_call_never_raises(hook_target: HookTarget, raw: str) -> None:
    from mnemo.hooks.command import HookArgs, run_claude_code

    run_claude_code(raw, HookArgs(db=hook_target.db, max_tokens=200))


@pytest.mark.parametrize("raw", ["", "not json", "[]", '{"hook_event_name": "UserPromptSubmit"}', "{"])
def test_hook_command_always_exits_zero(tmp_path: Path, raw: str) -> None:
    env = {"PYTHONPATH": str(ROOT / "src"), "MNEMO_HOME": str(tmp_path), "MNEMO_EMBEDDER": "hashing", "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-m", "mnemo", "--db", str(tmp_path / "m.db"), "hook", "claude-code"],
        input=raw,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout == "" and "Traceback" not in done.stderr
    assert "skipped" in (tmp_path / "hook.log").read_text()


# -- MCP tool arguments ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mcp_target(workdir: Path) -> Iterator[McpTarget]:
    pytest.importorskip("mcp")
    target = McpTarget(workdir)
    yield target
    target.close()


@FEW
@given(data=st.data())
def test_mcp_tools_accept_or_refuse_any_arguments(mcp_target: McpTarget, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(mcp_target.names))
    keys = [*mcp_target.tools[name], "bogus"]
    args = data.draw(st.dictionaries(st.sampled_from(keys), json_values | st.text(max_size=50), max_size=6))
    assume(name != "import_sources")
    mcp_target(json.dumps({"tool": name, "args": args}).encode())


def test_mcp_server_keeps_answering_after_bad_calls(hashing_memory: Memory) -> None:
    pytest.importorskip("mcp")
    import anyio
    from mcp import Client

    from mnemo.mcp.server import build_server

    hashing_memory.add("the deploy failed on friday", role="user")
    bad = [
        ("recall", {"query": ""}),
        ("recall", {"query": "x" * 200_000}),
        ("recall", {"query": "deploy", "limit": 10**12}),
        ("remember", {"content": "x", "timestamp": "the day after tomorrow"}),
        ("remember", {"content": "x", "metadata": {"deep": [[[[[[[[[[1]]]]]]]]]]}, "kind": "bogus"}),
        ("read_session", {"session_id": "\x00"}),
        ("forget", {}),
        ("context", {"query": "deploy", "max_tokens": -5}),
        ("list_facts", {"status": "everything"}),
    ]

    async def body() -> list[tuple[bool, str]]:
        async with Client(build_server(hashing_memory)) as client:
            seen = []
            for name, args in bad:
                result = await client.call_tool(name, args)
                seen.append((bool(result.is_error), result.content[0].text))
            found = await client.call_tool("recall", {"query": "deploy"})
            seen.append((bool(found.is_error), found.content[0].text))
            return seen

    seen = anyio.run(body)
    for is_error, text in seen[:-1]:
        assert is_error and text.strip() and "Traceback" not in text
    assert not seen[-1][0] and "friday" in seen[-1][1]
