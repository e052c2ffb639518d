"""Privacy: nothing leaves the machine by default, opt-in redaction, owner-only files, hard forget.

The network check runs the real CLI and the real MCP stdio server in child processes under a
socket guard (tests/reliability/netguard/sitecustomize.py) with the default configuration — the
bundled model when installed, spaCy extraction — and reads what they tried to reach. Two controls
show the guard sees attempts: a plain urllib request, and mnemo itself with a remote LLM configured.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mnemo import Memory
from mnemo.redact import redact_text
from tests.reliability.conftest import write_chat_log, write_claude_code_tree
from tests.reliability.privacy_checks import RUN_COMMANDS, guarded_env, raw_bytes, read_report

pytestmark = pytest.mark.timeout(600)


def _guarded(args: list[str], report: Path, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        env=guarded_env(report, MNEMO_HOME=str(home), **env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_opens_no_network_connection_by_default(tmp_path: Path) -> None:
    report, home, db = tmp_path / "net.jsonl", tmp_path / "home", str(tmp_path / "home" / "m.db")
    chat = tmp_path / "chat.jsonl"
    write_chat_log(chat, sessions=3, turns=6)
    tree = write_claude_code_tree(tmp_path / "projects", sessions=2, turns=4)
    commands = [
        ["import", "sources", str(chat)],
        ["import", "claude-code", "--path", str(tree)],
        ["add", "I moved to Lisbon last year and I work at Acme", "--role", "user"],
        ["search", "database migration", "--json"],
        ["context", "where do I live?"],
        ["extract", "My sister Ana lives in Porto and I love hiking"],
        ["sessions", "search", "deploy pipeline"],
        ["turn", "I prefer green tea in the morning", "--user", "ann"],
        ["facts", "--json"],
    ]
    # one guarded process runs the commands in turn (the model loads once), then a plain CLI call
    done = _guarded(["-c", RUN_COMMANDS, json.dumps([["--db", db, *args] for args in commands])], report, home)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [0] * len(commands), done.stderr[-3000:]
    assert _guarded(["-m", "mnemo", "--db", db, "search", "Lisbon"], report, home).returncode == 0
    totals = read_report(report)
    assert totals["processes"] == 2  # both ran guarded and reported
    assert totals["attempts"] == 0 and totals["bytes_sent"] == 0, totals["targets"]


def test_mcp_stdio_server_opens_no_network_connection(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    import anyio
    from mcp import Client, StdioServerParameters

    report, home, db = tmp_path / "net.jsonl", tmp_path / "home", str(tmp_path / "m.db")
    chat = tmp_path / "chat.jsonl"
    write_chat_log(chat, sessions=2, turns=4)
    env = guarded_env(report, MNEMO_HOME=str(home))
    params = StdioServerParameters(command=sys.executable, args=["-m", "mnemo", "--db", db, "mcp"], env=env)

    async def session() -> None:
        with anyio.fail_after(240):
            async with Client(params, read_timeout_seconds=120) as client:
                for name, arguments in [
                    ("import_sources", {"paths": [str(chat)]}),
                    ("remember", {"content": "I work at Acme in Lisbon", "role": "user"}),
                    ("recall", {"query": "where do I work?"}),
                    ("context", {"query": "Lisbon", "max_tokens": 200}),
                    ("search_sessions", {"query": "deploy"}),
                    ("list_facts", {}),
                ]:
                    result = await client.call_tool(name, arguments)
                    assert not result.is_error, (name, result.content[0].text)

    anyio.run(session)
    totals = read_report(report)
    assert totals["processes"] >= 1, "the server did not report: the guard was not active"
    assert totals["attempts"] == 0 and totals["bytes_sent"] == 0, totals["targets"]


def test_guard_sees_attempts(tmp_path: Path) -> None:
    """Controls: an outgoing request, and mnemo with a remote LLM configured, are both caught."""
    report, home = tmp_path / "net.jsonl", tmp_path / "home"
    probe = (
        "import urllib.request\n"
        "try:\n    urllib.request.urlopen('http://203.0.113.7:80/', timeout=2)\nexcept OSError:\n    pass\n"
    )
    _guarded(["-c", probe], report, home)
    assert read_report(report)["attempts"] == 1
    context = tmp_path / "context.json"
    context.write_text(json.dumps([{"role": "user", "content": "Ana fixed the login bug yesterday"}]))
    done = _guarded(
        ["-m", "mnemo", "--db", str(tmp_path / "m.db"), "rewrite", "did she deploy it?", "--context", str(context)],
        report,
        home,
        MNEMO_LLM_BASE_URL="http://203.0.113.7:8080/v1",
        MNEMO_LLM_MODEL="any",
    )
    assert done.returncode == 0, done.stderr[-2000:]  # the LLM is optional: the rewrite falls back
    assert read_report(report)["attempts"] >= 2


# -- redaction -----------------------------------------------------------------------------------

SECRETS = {
    "EMAIL": "ana.silva+work@example.co.uk",
    "PHONE": "+351 912 345 678",
    "API_KEY": "sk-proj-AbCdEf0123456789GhIjKlMnOpQrStUv",
    "JWT": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
}
MORE = ["ghp_0123456789abcdefghijABCDEFGHIJ012345", "AKIAIOSFODNN7EXAMPLE", "Bearer abcdef0123456789ABCDEF"]


@pytest.mark.core
@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        ("mail me at ana.silva@example.com today", "[REDACTED_EMAIL]", "ana.silva@example.com"),
        ("call (555) 123-4567 or +44 20 7946 0958", "[REDACTED_PHONE]", "7946"),
        ("key sk-ant-api03-abcdefghijklmnopqrstuvwx done", "[REDACTED_API_KEY]", "api03"),
        ("token ghp_0123456789abcdefghijABCDEFGHIJ012345", "[REDACTED_API_KEY]", "ghp_"),
        ("aws AKIAIOSFODNN7EXAMPLE", "[REDACTED_API_KEY]", "AKIA"),
        ("Authorization: Bearer abcdef0123456789ABCDEF", "Bearer [REDACTED_TOKEN]", "abcdef0123"),
        (f"jwt {SECRETS['JWT']}", "[REDACTED_JWT]", "eyJ"),
        ("password = hunter2hunter2", "password = [REDACTED_SECRET]", "hunter2"),
        ("hex 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "[REDACTED_SECRET]", "9f86d0"),
        ("blob QmFzZTY0U2VjcmV0MTIzNDU2Nzg5MGFiY2RlZkdISUpLTE1O==", "[REDACTED_SECRET]", "QmFz"),
    ],
)
def test_redaction_replaces_secrets_with_typed_placeholders(text: str, kept: str, gone: str) -> None:
    out = redact_text(text)
    assert kept in out and gone not in out


@pytest.mark.core
def test_redaction_keeps_ordinary_text() -> None:
    plain = (
        "On 2024-05-01 we released version 1.2.3 of the parser; the meeting is at 10:30 in room 4, "
        "see src/mnemo/retrieve/query_language.py and the TypeScriptCompilerOptionsInterfaceGenerator"
    )
    assert redact_text(plain) == plain


def test_redaction_before_storage_and_in_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = str(tmp_path / "r.db")
    secret_text = "Reach me at {EMAIL} or {PHONE}; my key is {API_KEY} and session {JWT}".format(**SECRETS)
    with Memory(db, embedder="hashing", redact=True) as memory:
        item = memory.add(secret_text, role="user", metadata={"contact": SECRETS["EMAIL"], "n": 3})
        memory.add_many([{"content": f"deploy with {m}", "role": "user"} for m in MORE])
        chat = tmp_path / "chat.jsonl"
        chat.write_text(json.dumps({"session_id": "s1", "role": "user", "content": f"mail {SECRETS['EMAIL']}"}) + "\n")
        memory.import_sources([str(chat)])
        memory.turn(f"my phone is {SECRETS['PHONE']} and I live in Lisbon", user_id="ann")
        assert "[REDACTED_EMAIL]" in item.content and item.metadata["contact"] == "[REDACTED_EMAIL]"
        with caplog.at_level(logging.WARNING, logger="mnemo"):
            logging.getLogger("mnemo.test").warning("failed on %s", secret_text)
        logged = caplog.text
    stored = raw_bytes(db)
    for value in [*SECRETS.values(), *MORE]:
        assert value.encode() not in stored, value
        assert value not in logged, value
    assert b"[REDACTED_EMAIL]" in stored and "[REDACTED_API_KEY]" in logged


def test_redaction_is_off_by_default(hashing_memory: Memory) -> None:
    assert hashing_memory.add(f"mail {SECRETS['EMAIL']}").content == f"mail {SECRETS['EMAIL']}"


def test_hook_log_is_redacted_when_asked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    payload = json.dumps({"hook_event_name": "Stop", "session_id": SECRETS["EMAIL"], "transcript_path": "/nowhere"})
    env = {**os.environ, "MNEMO_HOME": str(home), "MNEMO_REDACT": "1", "MNEMO_EMBEDDER": "hashing"}
    subprocess.run(
        [sys.executable, "-m", "mnemo", "hook", "claude-code"], input=payload, env=env, text=True, timeout=120
    )
    log = (home / "hook.log").read_text()
    assert "Stop" in log and SECRETS["EMAIL"] not in log and "[REDACTED_EMAIL]" in log
    assert stat.S_IMODE((home / "hook.log").stat().st_mode) == 0o600


# -- permissions ---------------------------------------------------------------------------------


@pytest.mark.core
def test_store_files_are_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)  # a typical umask: without care, files would be world-readable
    try:
        db = tmp_path / "fresh" / "dir" / "m.db"
        with Memory(str(db), embedder="hashing") as memory:
            memory.add("hello there")
            created = [p for p in db.parent.iterdir() if p.name.startswith("m.db")]
            assert {p.name for p in created} >= {"m.db", "m.db-wal", "m.db-shm"}
            for path in created:
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    finally:
        os.umask(old)


def test_saved_vector_index_is_owner_only(tmp_path: Path) -> None:
    pytest.importorskip("usearch")
    old = os.umask(0o022)
    try:
        db = str(tmp_path / "m.db")
        with Memory(db, embedder="hashing", hnsw_threshold=10) as memory:
            memory.add_many([{"content": f"note number {i} about topic {i % 7}"} for i in range(40)])
            memory.search("topic 3")
        saved = [p for p in tmp_path.iterdir() if ".hnsw" in p.name]
        assert saved, "no vector index was saved"
        for path in saved:
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        os.umask(old)


# -- hard forget ---------------------------------------------------------------------------------

MARKER = "zebracornflakes"


def _store_with_marker(db: str, **settings: Any) -> Memory:
    memory = Memory(db, embedder="hashing", **settings)
    memory.add_many([{"content": f"ordinary note {i} about the garden and the budget"} for i in range(300)])
    memory.add(f"my locker code word is {MARKER} remember it", id="secret", role="user", session_id="s1")
    memory.search(f"{MARKER} locker")  # vector index and caches now hold it
    memory.context("locker code word")
    return memory


def test_forget_leaves_no_trace_in_the_files(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    memory = _store_with_marker(db)
    try:
        assert MARKER.encode() in raw_bytes(db)  # the control: it is there before
        assert memory.delete("secret") == 1
        assert not [h for h in memory.search(f"{MARKER} locker", limit=50) if MARKER in h.content]
    finally:
        memory.close()
    assert MARKER.encode() not in raw_bytes(db)
    conn = sqlite3.connect(db)
    try:  # the full-text index (and its vocabulary table) knows the word no more
        assert conn.execute("SELECT count(*) FROM items_vocab WHERE term LIKE 'zebra%'").fetchone()[0] == 0
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_forgotten_facts_leave_no_trace(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with Memory(db, embedder="hashing") as memory:
        memory.add("ordinary note about the garden")
        memory.turn(f"My dog is called {MARKER.capitalize()}", user_id="ann")
        facts = memory.facts(user_id="ann")
        assert any(MARKER in f.object.lower() for f in facts), facts
        mentioned = [f for f in facts if MARKER in f.object.lower()]
        for fact in mentioned:
            assert memory.forget(fact_id=fact.id, user_id="ann") == 1
    assert MARKER.encode() not in raw_bytes(db).lower()


def test_forget_leaves_no_vector_in_a_saved_hnsw_index(tmp_path: Path) -> None:
    """usearch keeps a removed vector's bytes in its freed slot, so the saved file must go."""
    pytest.importorskip("usearch")
    import numpy as np

    db = str(tmp_path / "m.db")
    settings = {"embedder": "hashing", "hnsw_threshold": 10, "category_evolve_after": 0}
    with Memory(db, **settings) as memory:
        memory.add_many([{"content": f"note number {i} about topic {i % 7}"} for i in range(60)])
        memory.add(f"my locker code word is {MARKER}", id="secret")
        memory.search("topic 3")
        assert memory.stats()["vector_index"] == "hnsw"
    conn = sqlite3.connect(db)
    try:
        blob = conn.execute(
            "SELECT embedding FROM vectors JOIN items ON items.rowid = vectors.item_rowid WHERE items.id = 'secret'"
        ).fetchone()[0]
    finally:
        conn.close()
    half = np.frombuffer(blob, dtype=np.float32).astype(np.float16).tobytes()
    assert half in raw_bytes(db)  # the control: the saved index holds the vector (as f16)
    with Memory(db, **settings) as memory:
        assert memory.delete("secret") == 1
        assert all(h.id != "secret" for h in memory.search(MARKER, limit=70))
    assert half not in raw_bytes(db) and np.frombuffer(blob, dtype=np.float32).tobytes() not in raw_bytes(db)
    assert MARKER.encode() not in raw_bytes(db)
