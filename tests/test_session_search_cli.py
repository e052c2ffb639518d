"""`mnemo sessions search|show` end to end: a real process over transcripts imported by the real importer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.core
DEV = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "sessions_dev" / "projects"
SHOP = "/home/dev/shop-api"


def run(db: str, *args: str, cwd: str | None = None, check: bool = True, **env: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "mnemo", "--db", db, "--embedder", "none", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=cwd,
        timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    if check:
        assert result.returncode == 0, result.stderr
    return result


@pytest.fixture
def dev_db(tmp_path: Path) -> str:
    db = str(tmp_path / "dev.db")
    projects = tmp_path / "projects"
    projects.mkdir()
    for name in ("-home-dev-shop-api", "-home-dev-infra", "-home-dev-mlpipe"):
        (projects / name).symlink_to(DEV / name, target_is_directory=True)
    from mnemo import Memory

    with Memory(db, embedder="none") as memory:
        memory.import_claude_code(str(projects))
    return db


def test_search_json_has_the_documented_shape(dev_db: str) -> None:
    out = json.loads(run(dev_db, "sessions", "search", "flaky fixture", "--json").stdout)
    assert out["query"] == "flaky fixture"
    first = out["sessions"][0]
    assert set(first) >= {"session_id", "project", "score", "started_at", "title", "snippets", "also_in"}
    assert first["project"] == SHOP and first["title"].startswith("test_checkout passes alone")
    assert first["also_in"], "the earlier, shorter attempt at the same fix is folded in"
    assert all(s["message_id"].startswith(f"cc:{first['session_id']}:") for s in first["snippets"])
    assert "flaky" in first["snippets"][0]["text"].lower()


def test_search_text_output_lists_sessions_with_snippets(dev_db: str) -> None:
    text = run(dev_db, "sessions", "search", "flaky fixture", "--limit", "2").stdout
    lines = text.splitlines()
    assert lines[0].startswith("[1/2] ") and f"• {SHOP}" in lines[0]
    assert any(line.strip().startswith("> ") for line in lines)
    assert "also in:" in text


def test_require_exclude_and_project_options(dev_db: str) -> None:
    out = json.loads(run(dev_db, "sessions", "search", "redis", "--exclude", "lua", "--json").stdout)
    titles = [s["title"] for s in out["sessions"]]
    assert titles and not any("rate limiting" in t for t in titles)
    only = json.loads(run(dev_db, "sessions", "search", "memory", "--project", "/home/dev/mlpipe", "--json").stdout)
    assert only["sessions"] and {s["project"] for s in only["sessions"]} == {"/home/dev/mlpipe"}


def test_current_project_comes_from_the_working_directory(dev_db: str, tmp_path: Path) -> None:
    out = json.loads(
        run(dev_db, "sessions", "search", "deploy", "--current-project", "--json", cwd=str(tmp_path)).stdout
    )
    assert out["sessions"] == []  # the temp directory is no project of the store


def test_the_current_session_from_the_environment_is_left_out(dev_db: str) -> None:
    first = json.loads(run(dev_db, "sessions", "search", "crashloopbackoff", "--json").stdout)["sessions"]
    shown = {first[0]["session_id"], *first[0]["also_in"]}
    again = run(
        dev_db, "sessions", "search", "crashloopbackoff", "--json", MNEMO_CURRENT_SESSION=first[0]["session_id"]
    )
    remaining = {s["session_id"] for s in json.loads(again.stdout)["sessions"]}
    assert first[0]["session_id"] not in remaining and remaining <= shown


def test_show_prints_one_session_cleanly_and_all_adds_tool_output(dev_db: str) -> None:
    hit = json.loads(run(dev_db, "sessions", "search", "cuda out of memory", "--json").stdout)["sessions"][0]
    short = hit["session_id"][:7]
    clean = run(dev_db, "sessions", "show", short).stdout
    assert "CUDA out of memory" in clean and "gradient accumulation" in clean
    data = json.loads(run(dev_db, "sessions", "show", hit["session_id"], "--json").stdout)
    assert data["session_id"] == hit["session_id"] and data["messages"][0]["role"] == "user"
    assert all("tool_output" not in m for m in data["messages"])
    crash = json.loads(run(dev_db, "sessions", "search", "crashloopbackoff", "--json").stdout)["sessions"][0]
    full = json.loads(run(dev_db, "sessions", "show", crash["session_id"], "--all", "--json").stdout)
    assert any("DATABASE_URL" in str(m.get("tool_output", "")) for m in full["messages"])


def test_bad_queries_exit_2_with_an_explanation(dev_db: str) -> None:
    bad = run(dev_db, "sessions", "search", '"unclosed', check=False)
    assert bad.returncode == 2 and "unclosed quote" in bad.stderr
    only_not = run(dev_db, "sessions", "search", "--", "-docker", check=False)
    assert only_not.returncode == 2 and "only excludes" in only_not.stderr
    missing = run(dev_db, "sessions", "show", "no-such-session", check=False)
    assert missing.returncode == 2 and "no session" in missing.stderr
    both = run(dev_db, "sessions", "search", "x", "--project", "/a", "--current-project", check=False)
    assert both.returncode == 2
