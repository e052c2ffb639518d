"""`mnemo hook claude-code` end to end: real subprocesses, a real SQLite store, a real `mnemo serve`."""

from __future__ import annotations

import http.client
import json
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mnemo.api import Memory
from mnemo.context.budget import estimate_tokens
from mnemo.errors import ConfigError, InputError
from mnemo.hooks.claude_code import MAX_QUERY_CHARS, prompt_record, turn_request
from mnemo.hooks.client import read_response, server_address
from mnemo.hooks.command import HookArgs, parse_argv
from mnemo.hooks.payload import parse_payload
from tests.live_server import free_port, mnemo_server

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "claude_code" / "projects"
BILLING = FIXTURES / "-home-dev-billing" / "11111111-2222-4333-8444-555555555555.jsonl"
PROJECT = "/home/dev/shop"


def hook_env(server_url: str | None = None, **extra: str) -> dict[str, str]:
    # a port nothing listens on unless a test starts a server: the hook must not find a stray one
    url = server_url or f"http://127.0.0.1:{free_port()}"
    return {**os.environ, "MNEMO_SERVER_URL": url, **extra}


FAST = Path(__file__).resolve().parents[1] / "src" / "mnemo" / "hooks" / "fast.py"


#: The console script settings.json names (installed next to this interpreter).
SCRIPT = Path(sys.executable).parent / "mnemo"


def run_hook(
    db: str, payload: Any, env: dict[str, str] | None = None, fast: bool = False, script: bool = False
) -> subprocess.CompletedProcess[str]:
    """``python -m mnemo hook claude-code``; with ``script`` the console script, with ``fast`` the
    file entry run by path (store from MNEMO_DB)."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    command = [sys.executable, "-m", "mnemo", "--db", db, "hook", "claude-code"]
    if script:
        command = [str(SCRIPT), "--db", db, "hook", "claude-code"]
    if fast:
        command, env = [sys.executable, str(FAST)], {**(env or hook_env()), "MNEMO_DB": db}
    return subprocess.run(command, input=text, env=env or hook_env(), capture_output=True, text=True, timeout=120)


def log_entries() -> list[dict[str, Any]]:
    path = Path(os.environ["MNEMO_HOME"]) / "hook.log"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def prompt(text: str, session: str = "sess-1", cwd: str = PROJECT) -> dict[str, str]:
    return {
        "session_id": session,
        "transcript_path": f"/tmp/{session}.jsonl",
        "cwd": cwd,
        "hook_event_name": "UserPromptSubmit",
        "prompt": text,
    }


def stop(path: Path, event: str = "Stop") -> dict[str, Any]:
    return {
        "session_id": path.stem,
        "transcript_path": str(path),
        "cwd": "/home/dev/billing",
        "hook_event_name": event,
        "stop_hook_active": False,
    }


@pytest.mark.core
def test_payload_tolerates_new_fields_and_builds_the_calls() -> None:
    raw = json.dumps({**prompt("x" * 5000), "permission_mode": "default", "prompt_id": "p1", "effort": {"level": 2}})
    event = parse_payload(raw)
    assert (event.event, event.session_id, event.cwd) == ("UserPromptSubmit", "sess-1", PROJECT)
    request = turn_request(event, 300)
    assert len(request["text"]) == MAX_QUERY_CHARS
    assert request == {**request, "project": PROJECT, "context_tokens": 300, "session_id": "sess-1"}
    assert request["record"]["content"] == "x" * 5000 and request["record"]["source"] == "claude-code"
    record, again = prompt_record(event), prompt_record(parse_payload(raw))
    assert record["id"] == again["id"]  # the same prompt fired twice is stored once
    assert record["id"] != prompt_record(parse_payload(json.dumps(prompt("x" * 5000, session="other"))))["id"]
    assert (record["role"], record["kind"], record["session_id"]) == ("user", "message", "sess-1")
    with pytest.raises(InputError, match="empty"):
        parse_payload("  \n")


@pytest.mark.core
def test_server_address_from_the_environment() -> None:
    address = server_address({"MNEMO_SERVER_URL": "http://127.0.0.1:9999", "MNEMO_API_KEY": "k"})
    assert (address.host, address.port, address.api_key) == ("127.0.0.1", 9999, "k")
    assert server_address({}).port == 8765
    for bad in ("https://127.0.0.1:1", "127.0.0.1:8765", "http://127.0.0.1:notaport"):
        with pytest.raises(ConfigError):
            server_address({"MNEMO_SERVER_URL": bad})


@pytest.mark.core
def test_prompt_is_recorded_and_a_later_prompt_gets_it(db_path: str) -> None:
    first = run_hook(db_path, prompt("The checkout service stores carts in Redis with a 30 minute TTL"))
    assert first.returncode == 0 and first.stdout == ""  # nothing known yet
    entry = log_entries()[-1]
    assert entry["status"] == "ok" and entry["mode"] == "in-process-lexical" and not entry["injected"]
    with Memory(db_path, embedder="none") as memory:
        item = memory.get(entry["stored"])
    assert item is not None and item.role == "user" and item.kind == "message"
    assert item.scope.session_id == "sess-1" and item.scope.project == PROJECT

    later = run_hook(db_path, prompt("where do we keep the carts, Redis?", session="sess-2"))
    assert later.returncode == 0
    assert "stores carts in Redis" in later.stdout
    assert "where do we keep the carts" not in later.stdout  # the prompt itself is not injected back
    assert log_entries()[-1]["used"] == [entry["stored"]]


def test_context_stays_in_project_and_budget(db_path: str) -> None:
    with Memory(db_path, embedder="none") as memory:
        for n in range(40):
            memory.add(f"Invoice export note {n}: the invoice CSV export runs nightly at 0{n % 10}:00", project=PROJECT)
        memory.add("Invoice export for the other team uses Parquet", project="/home/dev/elsewhere")
    result = run_hook(db_path, prompt("invoice export"), env=hook_env(MNEMO_HOOK_MAX_TOKENS="120"))
    assert result.returncode == 0 and "invoice CSV export" in result.stdout
    assert estimate_tokens(result.stdout.rstrip("\n")) <= 120
    assert "Parquet" not in result.stdout


def test_stop_imports_the_transcript_incrementally(db_path: str) -> None:
    result = run_hook(db_path, stop(BILLING))
    assert result.returncode == 0 and result.stdout == ""
    entry = log_entries()[-1]
    assert entry["status"] == "ok" and entry["import"]["added"] > 0 and entry["import"]["read_files"] == 1
    with Memory(db_path, embedder="none") as memory:
        hits = memory.search("JWT refresh tokens billing API", session_id=BILLING.stem)
    assert hits and all(h.item.scope.session_id == BILLING.stem for h in hits)

    again = run_hook(db_path, stop(BILLING, event="SessionEnd"))
    assert again.returncode == 0 and again.stdout == ""
    assert log_entries()[-1]["import"]["unchanged_files"] == 1  # nothing re-read


@pytest.mark.core
@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("this is not json", "not JSON"),
        ("", "empty hook payload"),
        ("[1, 2]", "must be a JSON object"),
        ({"session_id": "s", "prompt": "hi"}, "lacks 'hook_event_name'"),
        ({**prompt("hi"), "hook_event_name": "PreToolUse"}, "unsupported hook event"),
        ({k: v for k, v in prompt("hi").items() if k != "prompt"}, "no 'prompt'"),
        ({k: v for k, v in prompt("hi").items() if k != "session_id"}, "lacks 'session_id'"),
        ({**prompt("hi"), "session_id": 42}, "must be a string"),
        ({**stop(BILLING), "transcript_path": None}, "no 'transcript_path'"),
        ({**stop(BILLING), "transcript_path": "/nonexistent/t.jsonl"}, "is not a file"),
    ],
)
def test_bad_payloads_exit_0_silently_with_a_logged_reason(db_path: str, payload: Any, reason: str) -> None:
    result = run_hook(db_path, payload)
    assert result.returncode == 0 and result.stdout == ""
    entry = log_entries()[-1]
    assert entry["status"] == "skipped" and reason in entry["reason"]


@pytest.mark.core
def test_locked_store_exits_0_without_injection(db_path: str) -> None:
    with Memory(db_path, embedder="none") as memory:
        memory.add("The checkout service stores carts in Redis", project=PROJECT)
    holder = sqlite3.connect(db_path)
    try:
        holder.execute("BEGIN EXCLUSIVE")  # another process mid-write, holding the lock
        result = run_hook(db_path, prompt("where are carts stored? Redis?"))
    finally:
        holder.rollback()
        holder.close()
    assert result.returncode == 0 and result.stdout == ""
    entry = log_entries()[-1]
    assert entry["status"] == "skipped" and "locked" in entry["reason"]


@pytest.mark.core
def test_bad_configuration_exits_0_without_injection(db_path: str) -> None:
    result = run_hook(db_path, prompt("anything"), env=hook_env(MNEMO_HOOK_MAX_TOKENS="lots"))
    assert result.returncode == 0 and result.stdout == ""
    assert "ConfigError" in log_entries()[-1]["reason"]


@pytest.mark.core
def test_unwritable_log_still_exits_0(db_path: str, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where MNEMO_HOME should be a folder")
    result = run_hook(db_path, "not json", env=hook_env(MNEMO_HOME=str(blocker)))
    assert result.returncode == 0 and result.stdout == "" and result.stderr == ""


@pytest.mark.core
def test_console_script_argument_shapes() -> None:
    assert parse_argv(["hook", "claude-code"]) == HookArgs()
    assert parse_argv(["--db", "x.db", "--embedder", "minilm", "hook", "claude-code", "--max-tokens=80", "--json"]) == (
        HookArgs("x.db", 80, True)
    )
    assert parse_argv(["--db=x.db", "hook", "claude-code", "--max-tokens", "80"]) == HookArgs("x.db", 80)
    # anything else is the full command line's: other commands, help, unknown or malformed options
    for argv in (["search", "x"], ["hook", "claude-code", "--help"], ["--verbose", "hook", "claude-code"],
                 ["hook", "claude-code", "--max-tokens", "lots"], ["hook"], [], ["--db"]):  # fmt: skip
        assert parse_argv(argv) is None, argv


@pytest.mark.core
def test_console_script_hook_in_process(db_path: str) -> None:
    """The console script's fast lane without a server: lexical context, prompt stored, exit 0."""
    with Memory(db_path, embedder="none") as memory:
        memory.add("The nightly backup job writes to the bucket named cold-archive", project=PROJECT, session_id="old")
    result = run_hook(db_path, prompt("which bucket does the nightly backup job use?"), script=True)
    assert result.returncode == 0 and "cold-archive" in result.stdout
    entry = log_entries()[-1]
    assert entry["status"] == "ok" and entry["mode"] == "in-process-lexical" and entry["stored"].startswith("hook:")
    bad = run_hook(db_path, "{not json", script=True)
    assert bad.returncode == 0 and bad.stdout == "" and bad.stderr == ""
    assert log_entries()[-1]["status"] == "skipped"


@pytest.mark.core
def test_current_session_is_left_out_of_the_context(db_path: str) -> None:
    """The running conversation is in the model's window already: only other sessions are injected."""
    with Memory(db_path, embedder="none") as memory:
        memory.add("Feature flags live in the flags.yaml file of the config repo", project=PROJECT, session_id="now")
    same = run_hook(db_path, prompt("where do the feature flags live?", session="now"))
    assert same.returncode == 0 and same.stdout == ""
    other = run_hook(db_path, prompt("where do the feature flags live?", session="later"))
    assert "flags.yaml" in other.stdout


@pytest.mark.core
def test_transcript_import_replaces_the_hook_copy_of_a_prompt(db_path: str) -> None:
    """The hook stores a prompt when it is submitted; the Stop import of the same session's transcript
    holds that message again and must not store it twice."""
    text = "How should we add authentication to the billing API? I want JWT tokens with refresh."
    submitted = {**prompt(f"  {text}\n", session=BILLING.stem), "cwd": "/home/dev/billing"}
    assert run_hook(db_path, submitted).returncode == 0
    hook_id = log_entries()[-1]["stored"]
    # another session's identical prompt is another message: it stays
    assert run_hook(db_path, prompt(text, session="another-session")).returncode == 0
    kept_id = log_entries()[-1]["stored"]
    assert run_hook(db_path, stop(BILLING)).returncode == 0
    assert log_entries()[-1]["status"] == "ok" and log_entries()[-1]["import"]["retracted"] == 1
    with Memory(db_path, embedder="none") as memory:
        copies = [r for r in memory.export() if r["content"].strip() == text]
        assert memory.get(hook_id) is None and memory.get(kept_id) is not None
    sessions = sorted(r["session_id"] for r in copies)
    assert sessions == sorted([BILLING.stem, "another-session"])  # one per session
    assert next(r["id"] for r in copies if r["session_id"] == BILLING.stem).startswith("cc:")


# -- with a running server --------------------------------------------------------------------


def call(port: int, method: str, path: str, body: Any = None) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body))
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


@contextmanager
def serving(db: str, *args: str) -> Iterator[int]:
    """A real `mnemo serve` on a free loopback port (hashing embedder: no model load, fast start)."""
    pytest.importorskip("uvicorn")
    pytest.importorskip("mcp")
    with mnemo_server(db, *args) as port:
        yield port


def test_hook_uses_a_running_server(db_path: str) -> None:
    with serving(db_path) as port:
        env = hook_env(f"http://127.0.0.1:{port}")
        first = run_hook(db_path, prompt("Payments are retried three times with exponential backoff"), env=env)
        assert first.returncode == 0 and first.stdout == ""
        entry = log_entries()[-1]
        assert entry["mode"] == "server" and entry["status"] == "ok"
        assert call(port, "POST", "/v1/stats", {"project": PROJECT})["items"] == 1  # stored by the server

        later = run_hook(db_path, prompt("how often are payments retried?", session="sess-2"), env=env)
        assert later.returncode == 0 and "retried three times" in later.stdout
        assert log_entries()[-1]["mode"] == "server"

        imported = run_hook(db_path, stop(BILLING), env=env)
        assert imported.returncode == 0 and imported.stdout == ""
        assert log_entries()[-1]["mode"] == "server" and log_entries()[-1]["import"]["added"] > 0
        stats = call(port, "POST", "/v1/stats", {"session_id": BILLING.stem})
        assert stats["items"] >= log_entries()[-1]["import"]["added"]  # the server wrote the session


def test_fast_entry_uses_the_server_without_loading_the_engine(db_path: str) -> None:
    with serving(db_path) as port:
        env = hook_env(f"http://127.0.0.1:{port}")
        first = run_hook(db_path, prompt("Staging deploys need the VPN profile named corp-eu"), env=env, fast=True)
        assert first.returncode == 0 and first.stdout == ""
        assert log_entries()[-1]["mode"] == "server"
        later = run_hook(db_path, prompt("which VPN profile for staging deploys?", session="s2"), env=env, fast=True)
        assert later.returncode == 0 and "corp-eu" in later.stdout
        imported = run_hook(db_path, stop(BILLING), env=env, fast=True)
        assert imported.returncode == 0 and log_entries()[-1]["import"]["added"] > 0
    # the script itself never imported the engine: it ran the hook modules on a bare package
    code = f"import runpy, sys; runpy.run_path({str(FAST)!r}, run_name='__main__'); print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], input="", capture_output=True, text=True, check=True).stdout
    assert "mnemo.hooks.client" in loaded and "mnemo.api" not in loaded and "numpy" not in loaded


def test_fast_entry_without_server_falls_back_in_process(db_path: str) -> None:
    run_hook(db_path, prompt("Staging deploys need the VPN profile named corp-eu"), fast=True)
    assert log_entries()[-1]["mode"] == "in-process-lexical"
    later = run_hook(db_path, prompt("which VPN profile for staging deploys?", session="s2"), fast=True)
    assert later.returncode == 0 and "corp-eu" in later.stdout
    assert log_entries()[-1]["mode"] == "in-process-lexical" and len(log_entries()) == 2  # one line per call


@pytest.mark.parametrize("payload", ["{not json", {**prompt("hi"), "hook_event_name": "Notification"}])
def test_fast_entry_bad_payload_exits_0_silently(db_path: str, payload: Any) -> None:
    result = run_hook(db_path, payload, fast=True)
    assert result.returncode == 0 and result.stdout == "" and result.stderr == ""
    assert log_entries()[-1]["status"] == "skipped"


def test_server_that_refuses_the_call_means_no_injection(db_path: str) -> None:
    with serving(db_path, "--api-key", "k3y-for-hook-tests") as port:
        url = f"http://127.0.0.1:{port}"
        refused = run_hook(db_path, prompt("Releases are tagged from main on Fridays"), env=hook_env(url))
        assert refused.returncode == 0 and refused.stdout == "" and refused.stderr == ""
        entry = log_entries()[-1]
        assert entry["status"] == "skipped" and "HTTP 401" in entry["reason"]

        keyed = hook_env(url, MNEMO_API_KEY="k3y-for-hook-tests")
        run_hook(db_path, prompt("Releases are tagged from main on Fridays"), env=keyed)
        later = run_hook(db_path, prompt("when are releases tagged?", session="s2"), env=keyed, fast=True)
        assert "tagged from main on Fridays" in later.stdout and log_entries()[-1]["mode"] == "server"


def test_hook_through_the_server_runs_the_turn(db_path: str) -> None:
    """Through a server, a prompt goes through Memory.turn: its facts are learnt and a later prompt
    naming the entity gets the rotating memory message (before other sessions' context)."""
    with serving(db_path) as port:
        env = hook_env(f"http://127.0.0.1:{port}")
        first = run_hook(
            db_path, prompt("My sister Anna works at Siemens in Munich.", session="a"), env=env, script=True
        )
        assert first.returncode == 0
        entry = log_entries()[-1]
        assert entry["mode"] == "server" and entry["facts_added"] >= 1
        stored = call(port, "GET", f"/v1/memories/{entry['stored']}")
        assert stored["source"] == "claude-code" and stored["session_id"] == "a"  # the server kept the source

        later = run_hook(db_path, prompt("Where does Anna work these days?", session="b"), env=env, script=True)
        assert later.returncode == 0 and later.stdout.startswith("[mnemo]")
        assert "Anna works at Siemens" in later.stdout
        assert log_entries()[-1]["bullets"] >= 1 and log_entries()[-1]["intent"] == "PURE_QUESTION"


def test_turn_endpoint_checks_its_body_and_is_documented(db_path: str) -> None:
    with serving(db_path) as port:
        answer = call(port, "POST", "/v1/turn", {"text": "I live in Lisbon.", "session_id": "s", "user_id": "u1"})
        assert answer["facts_added"] and answer["intent"] != "" and answer["stored"] is None
        asked = call(port, "POST", "/v1/turn", {"text": "Where do I live?", "session_id": "s2", "user_id": "u1"})
        assert "You live in Lisbon" in asked["text"]
        other = call(port, "POST", "/v1/turn", {"text": "Where do I live?", "session_id": "s3", "user_id": "u2"})
        assert "Lisbon" not in other["text"]  # another user's facts never show
        bad = [
            ({"text": ""}, "text"),
            ({"text": "hi", "context_tokens": -1}, "context_tokens"),
            ({"text": "hi", "colour": "red"}, "unknown field"),
            ({"text": "hi", "record": [1]}, "record"),
        ]
        for body, reason in bad:
            assert reason in call(port, "POST", "/v1/turn", body)["error"]
        assert "/v1/turn" in call(port, "GET", "/openapi.json")["paths"]
        # `remember` keeps the source a client gives (the hook's prompts say claude-code)
        stored = call(port, "POST", "/v1/remember", {"content": "Standup is at 9:30", "source": "slack-bot"})
        assert call(port, "GET", f"/v1/memories/{stored['id']}")["source"] == "slack-bot"
        plain = call(port, "POST", "/v1/remember", {"content": "Retro is on Fridays"})
        assert call(port, "GET", f"/v1/memories/{plain['id']}")["source"] == "mcp"


def test_console_script_fast_lane_never_loads_the_engine(db_path: str) -> None:
    with serving(db_path) as port:
        env = {**hook_env(f"http://127.0.0.1:{port}"), "MNEMO_DB": db_path}
        code = (
            "import sys; sys.argv = ['mnemo', 'hook', 'claude-code']; from mnemo.cli.entry import main; main(); "
            "print('MODULES', sorted(sys.modules))"
        )
        payload = json.dumps(prompt("Deploys go out on Tuesdays"))
        done = subprocess.run([sys.executable, "-c", code], input=payload, env=env, capture_output=True, text=True)
        loaded = done.stdout.split("MODULES", 1)[1]
        assert done.returncode == 0 and log_entries()[-1]["mode"] == "server"
        assert "'mnemo.hooks.client'" in loaded and "'mnemo.api'" not in loaded
        assert "'numpy'" not in loaded and "'click'" not in loaded


@pytest.mark.core
@pytest.mark.parametrize(
    "raw",
    [
        b'HTTP/1.1 200 OK\r\ncontent-length: 11\r\ncontent-type: application/json\r\n\r\n{"a": "b"}\n',
        b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n5\r\n "b"}\r\n0\r\n\r\n',
    ],
)
def test_client_reads_length_and_chunked_answers(raw: bytes) -> None:
    server, client = socket.socketpair()
    with server, client:
        server.sendall(raw)
        server.shutdown(socket.SHUT_WR)
        status, body = read_response(client)
    assert status == 200 and json.loads(body) == {"a": "b"}


@pytest.mark.core
def test_import_mnemo_is_light_and_every_public_name_resolves() -> None:
    code = (
        "import sys, mnemo; light = 'mnemo.api' not in sys.modules and 'numpy' not in sys.modules; "
        "import mnemo.extract.intent; "  # the subpackage import must not shadow the function
        "names = [getattr(mnemo, n) for n in mnemo.__all__]; "
        "print(light, callable(mnemo.extract), mnemo.Memory.__name__, len(names) == len(mnemo.__all__))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "Memory", "True"]


def transcript(tmp: Path, *said: tuple[str, str]) -> str:
    """A Claude Code transcript of (role, text) messages."""
    path = tmp / "current-session.jsonl"
    lines = [{"type": role, "message": {"role": role, "content": text}} for role, text in said]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


EARLIER = "The nightly invoice export times out on big tenants; batching per tenant cures the timeouts"
SAID = (("user", "the nightly invoice export failed again on the big tenants"), ("assistant", "It ran out of time."))


def test_the_server_resolves_the_prompt_against_the_conversation_it_is_sent(db_path: str, tmp_path: Path) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add(EARLIER, session_id="old", project=PROJECT, role="user")
        for n, thing in enumerate(["printer", "wifi", "kettle"]):  # what "is it fixed now?" alone matches best
            memory.add(f"Is the {thing} fixed now? It is, since Monday", session_id=f"o{n}", project=PROJECT)
    with serving(db_path) as port:
        env = hook_env(f"http://127.0.0.1:{port}", MNEMO_HOOK_MAX_TOKENS="40")  # room for the best memory
        alone = run_hook(db_path, prompt("is it fixed now?"), env=env, fast=True)
        assert alone.returncode == 0 and "fixed now" in alone.stdout and "invoice export" not in alone.stdout
        assert log_entries()[-1]["conversation"] == 0 and log_entries()[-1]["searched_for"] is None
        asked = {**prompt("is it fixed now?", session="s2"), "transcript_path": transcript(tmp_path, *SAID)}
        resolved = run_hook(db_path, asked, env=env, fast=True)
        assert resolved.returncode == 0 and "The nightly invoice export" in resolved.stdout
        entry = log_entries()[-1]
        assert entry["mode"] == "server" and entry["conversation"] == 2 and "invoice export" in entry["searched_for"]
        body = {"text": "is it fixed?", "conversation": [{"role": "user", "content": "the export"}] * 21}
        assert "at most 20" in call(port, "POST", "/v1/turn", body)["error"]
        body = {"text": "is it fixed?", "conversation": [{"role": "user"}]}
        assert "text role and content" in call(port, "POST", "/v1/turn", body)["error"]
