"""`mnemo import claude-code`, `mnemo import sources`, `mnemo sources` and the unchanged `mnemo import FILE`,
run as a user runs them: real processes on a real store file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.core

ROOT = Path(__file__).resolve().parents[1]
PROJECTS = ROOT / "tests" / "fixtures" / "claude_code" / "projects"
EXAMPLE = ROOT / "examples" / "sample_conversation.jsonl"


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MNEMO_CURRENT_SESSION", "CLAUDE_SESSION_ID")}
    return {**env, "MNEMO_EMBEDDER": "none", "HOME": str(home)}


def run(db: str, *args: str, home: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "mnemo", "--db", db, *args],
        capture_output=True,
        text=True,
        env=_env(home),
        timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_import_claude_code_then_sources(db_path: str, tmp_path: Path) -> None:
    report = json.loads(run(db_path, "import", "claude-code", "--path", str(PROJECTS), "--json", home=tmp_path).stdout)
    assert report["files"] == 6 and report["added"] > 15 and report["dropped"]["progress"] > 0
    again = json.loads(run(db_path, "import", "claude-code", "--path", str(PROJECTS), "--json", home=tmp_path).stdout)
    assert again["unchanged_files"] == 6 and again["added"] == 0
    listed = json.loads(run(db_path, "sources", "--json", home=tmp_path).stdout)["sources"]
    assert len(listed) == 1
    assert listed[0]["path"] == str(PROJECTS) and listed[0]["kind"] == "claude-code"
    assert listed[0]["files"] == 6 and listed[0]["sessions"] == 6 and listed[0]["messages"] == report["added"]
    text = run(db_path, "sources", home=tmp_path).stdout
    assert "claude-code" in text and str(PROJECTS) in text
    files = json.loads(run(db_path, "sources", "--files", "--json", home=tmp_path).stdout)["sources"]
    assert len(files) == 6 and all(f["bytes_read"] == f["size"] for f in files)


def test_default_path_is_home_claude_projects(db_path: str, tmp_path: Path) -> None:
    shutil.copytree(PROJECTS, tmp_path / ".claude" / "projects")
    out = run(db_path, "import", "claude-code", home=tmp_path).stdout
    assert out.startswith("6 files (6 read, 0 unchanged), 6 sessions: added")
    missing = run(db_path, "import", "claude-code", "--path", str(tmp_path / "nope"), home=tmp_path, check=False)
    assert missing.returncode == 2 and "no such folder" in missing.stderr


def test_plain_file_import_still_works(db_path: str, tmp_path: Path) -> None:
    report = json.loads(run(db_path, "import", "--json", str(EXAMPLE), home=tmp_path).stdout)
    assert report["added"] == 15 and report["skipped"] == 1
    report = json.loads(run(db_path, "import", str(EXAMPLE), "--json", home=tmp_path).stdout)
    assert report["unchanged"] == 15
    assert "added 0, updated 0, unchanged 15" in run(db_path, "import", str(EXAMPLE), home=tmp_path).stdout
    assert "claude-code" in run(db_path, "import", "--help", home=tmp_path).stdout


def test_import_sources_detects_each_file(db_path: str, tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "CLAUDE.md").write_text("# Style\nPrefer small pure functions.\n")
    (tmp_path / "notes" / "facts.jsonl").write_text('{"subject": "bob", "relation": "uses", "object": "vim"}\n')
    (tmp_path / "notes" / "chat.jsonl").write_text(
        '{"role": "user", "content": "How do I rotate the API keys of the staging tenant?"}\n'
    )
    report = json.loads(run(db_path, "import", "sources", str(tmp_path / "notes"), "--json", home=tmp_path).stdout)
    assert report["added"] == 3 and report["files"] == 3
    kinds = {row["kind"] for row in json.loads(run(db_path, "sources", "--json", home=tmp_path).stdout)["sources"]}
    assert kinds == {"notes", "facts", "chat"}


def test_watch_picks_up_new_lines_until_interrupted(db_path: str, tmp_path: Path) -> None:
    projects = tmp_path / "projects"
    shutil.copytree(PROJECTS / "-home-dev-billing", projects / "-home-dev-billing")
    command = [sys.executable, "-m", "mnemo", "--db", db_path, "import", "claude-code", "--path", str(projects)]
    process = subprocess.Popen(
        [*command, "--watch", "--interval", "0.3", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path),
    )
    try:
        time.sleep(2.5)
        transcript = projects / "-home-dev-billing" / "11111111-2222-4333-8444-555555555555.jsonl"
        last = json.loads(transcript.read_text().splitlines()[-1])
        last.update(uuid="watch-1", timestamp="2026-01-05T10:20:00.000Z")
        last["message"] = dict(last["message"], id="msg_watch", content=[{"type": "text", "text": "Watched line."}])
        with transcript.open("a") as handle:
            handle.write(json.dumps(last) + "\n")
        time.sleep(2.5)
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0 and "Traceback" not in err, err
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) >= 3 and reports[0]["added"] > 0
    assert sum(r["added"] for r in reports[1:]) == 1  # the appended line, once


def test_ctrl_c_while_watching_waits_for_the_pass_and_a_second_one_interrupts() -> None:
    from mnemo.cli.importing import _stop_between_passes

    before = signal.getsignal(signal.SIGINT)
    with _stop_between_passes() as stop_requested:
        assert not stop_requested()
        os.kill(os.getpid(), signal.SIGINT)  # the first Ctrl-C: noted, the pass goes on
        time.sleep(0.05)
        assert stop_requested()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)
    assert signal.getsignal(signal.SIGINT) is before  # the handler from before is back
