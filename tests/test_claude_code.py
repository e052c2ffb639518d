"""Claude Code transcripts into a real store: real files, merged replies, noise, forks, recalls, bad lines."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from mnemo import Memory
from mnemo.records import SearchFilter
from tests.conftest import needs_model

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "claude_code"
PROJECTS = FIXTURES / "projects"
BILLING = "/home/dev/billing"
RECALL = "11111111-2222-4333-8444-555555555555"
NOISY = "22222222-3333-4444-8555-666666666666"
FORK = "33333333-4444-4555-8666-777777777777"
SHARED = Path("/work/shared/data/claude_code/spotter")
BIG = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"


@pytest.fixture
def memory(db_path: str) -> Memory:
    with Memory(db_path, embedder="none") as memory:
        yield memory


@pytest.fixture
def imported(memory: Memory) -> tuple[Memory, dict]:
    return memory, memory.import_claude_code(str(PROJECTS)).as_dict()


def _session_items(memory: Memory, session_id: str) -> list:
    items = [i for i in memory.store.iter_items(SearchFilter()) if i.session_id == session_id]
    return sorted(items, key=lambda i: i.metadata["line"])


@pytest.mark.core
def test_real_transcripts_import_with_sensible_counts(imported: tuple[Memory, dict]) -> None:
    memory, report = imported
    assert report["errors"] == [] and report["skipped"] == 0
    assert report["files"] == 6 and report["read_files"] == 6
    short = _session_items(memory, "55604662-cf2a-4331-851a-ec234028f8ca")
    assert [i.role for i in short] == ["user", "assistant"]
    assert short[0].content == "mix phx.server doesnt seem to start"
    assert short[0].scope.project == "/home/marco/projects/spotter"
    assert short[0].metadata["git_branch"] == "master" and short[0].metadata["sidechain"] is False
    assert short[0].timestamp.isoformat() == "2026-02-10T21:11:56.846000+00:00"
    # progress, snapshots and tool results are the bulk of a transcript; none of it is a message
    assert report["dropped"]["progress"] > 50 and report["dropped"]["tool_result"] > 20
    for item in memory.store.iter_items(SearchFilter()):
        assert item.kind == "message" and item.source == "claude-code"
        assert item.id.startswith(f"cc:{item.session_id}:")
        assert "tool_use_id" not in item.content and "<function_calls>" not in item.content
    session = memory.store.get_session("491e126e-1e71-469c-ade2-fcc8af567c74")
    assert session.title == "create the beads" and session.message_count == 8 and session.user_message_count == 1


@pytest.mark.core
@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared real transcripts are not on this machine")
def test_the_full_real_session_with_subagents(memory: Memory, tmp_path: Path) -> None:
    root = tmp_path / "projects" / "-home-USER-projects-spotter-worktrees-spotter-4te"
    root.mkdir(parents=True)
    shutil.copy(SHARED / f"{BIG}.jsonl", root)
    shutil.copytree(SHARED / BIG, root / BIG)
    report = memory.import_claude_code(str(tmp_path / "projects")).as_dict()
    assert report["files"] == 3 and report["errors"] == []
    assert report["dropped"]["compact_summary"] == 3  # /compact: its summary turn and its sub-agent (2 turns)
    session = memory.store.get_session(BIG)
    assert session.project == "/home/USER/projects/spotter-worktrees/spotter-4te"
    assert session.path.endswith(f"{BIG}.jsonl") and session.git_branch == "spotter-4te"
    items = _session_items(memory, BIG)
    # 217 distinct assistant message ids in the main file; turns without text fold into their neighbour
    assert 120 < sum(1 for i in items if not i.metadata["sidechain"]) < 217
    typed = [i.content for i in items if i.role == "user" and not i.metadata["sidechain"]]
    assert typed[0].startswith("Work on bead spotter-4te") and "continue implementation" in typed
    assert any(i.metadata["sidechain"] and i.metadata.get("agent") == "aac57f5" for i in items)


@pytest.mark.core
def test_split_assistant_reply_is_merged_into_one_message(imported: tuple[Memory, dict]) -> None:
    memory, _ = imported
    reply = memory.get(f"cc:{RECALL}:11111111-u002")
    assert reply.content.startswith("I'll implement JWT auth") and reply.role == "assistant"
    assert reply.metadata["uuids"] == ["11111111-u002", "11111111-u003"]  # the text line and the tool line
    assert reply.metadata["tools"] == ["Edit"]
    assert reply.metadata["tool_output"] == "The file billing/auth.py has been updated."
    assert memory.get(f"cc:{RECALL}:11111111-u003") is None


@pytest.mark.core
def test_tool_output_stays_out_of_content(imported: tuple[Memory, dict]) -> None:
    memory, _ = imported
    assert memory.search("zzyzxquux") == []  # only pip's output mentions it
    listing = memory.get(f"cc:{NOISY}:22222222-u002")
    assert "zzyzxquux==0.0.1" in listing.metadata["tool_output"] and "zzyzxquux" not in listing.content
    found = memory.search("numpy pandas wheels")
    assert found and found[0].session_id == NOISY


@pytest.mark.core
def test_noise_rules_each_drop_their_message(imported: tuple[Memory, dict]) -> None:
    memory, report = imported
    kept = [i.content for i in _session_items(memory, NOISY)]
    assert kept == [
        "Pin numpy below 2.0 because the 2.0 wheels break the pandas build in CI.",
        "Let me list the installed packages.",
        "Pinned numpy<2.0 in requirements.txt; pandas builds again in CI.",
    ]
    dropped = report["dropped"]
    for reason in (
        "acknowledgement",
        "ide_event",
        "api_error",
        "limit_reached",
        "caveat",
        "tool_call_xml",
        "recall_output",
        "boilerplate",
        "environment",
        "meta",
    ):
        assert dropped.get(reason, 0) >= 1, reason
    assert dropped["bash_marker"] >= 2 and dropped["too_short"] >= 1 and dropped["interrupted"] >= 1


@pytest.mark.core
def test_fork_session_is_recorded_but_not_indexed(imported: tuple[Memory, dict]) -> None:
    memory, report = imported
    assert _session_items(memory, FORK) == []
    assert report["dropped"]["fork_session"] == 2
    fork = memory.store.get_session(FORK)
    assert fork.is_fork and fork.message_count == 0 and fork.project == BILLING


@pytest.mark.core
def test_recall_exchange_is_excluded_but_earlier_and_later_work_kept(imported: tuple[Memory, dict]) -> None:
    memory, report = imported
    contents = [i.content for i in _session_items(memory, RECALL)]
    assert contents[0].startswith("How should we add authentication")  # 10:00, before the recall
    assert contents[1].startswith("I'll implement JWT auth")  # 10:05: the seed's lost work, kept
    assert contents[-2:] == [
        "Now add rate limiting to the billing login endpoint with a token bucket.",
        "Added a token bucket limiter (10 requests a minute) to the login route.",
    ]
    assert not any("flaky fixture" in c or "freezegun" in c for c in contents)
    assert report["dropped"]["recall_exchange"] == 3
    assert memory.search("freezegun flaky fixture") == []


@pytest.mark.core
def test_bad_lines_are_skipped_and_counted_without_duplicates(memory: Memory, tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-srv-invoices"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "bad_lines.jsonl", folder / "44444444-5555-4666-8777-888888888888.jsonl")
    report = memory.import_claude_code(str(tmp_path / "projects")).as_dict()
    dropped = report["dropped"]
    assert dropped["invalid_json"] == 1 and dropped["invalid_utf8"] == 1 and dropped["not_object"] == 3
    assert dropped["unknown_type"] == 1 and dropped["missing_timestamp"] == 1 and dropped["missing_message"] == 1
    assert report["added"] == 3  # two good lines and the one whose parentUuid points to another file
    items = _session_items(memory, "44444444-5555-4666-8777-888888888888")
    assert items[-1].content == "Streaming uses a cursor now." and items[-1].scope.project == BILLING  # cwd wins
    again = memory.import_claude_code(str(tmp_path / "projects")).as_dict()
    assert again["unchanged_files"] == 1 and again["added"] == 0
    assert memory.stats()["items"] == 3


@pytest.mark.core
def test_a_line_whose_type_is_not_a_string_is_dropped_not_a_crash(memory: Memory, tmp_path: Path) -> None:
    # found by the soak fuzzer: {"type": {...}} used to raise TypeError (a dict is not hashable)
    folder = tmp_path / "projects" / "-srv-x"
    folder.mkdir(parents=True)
    good = {
        "type": "user",
        "sessionId": "s1",
        "uuid": "u1",
        "timestamp": "2026-01-02T03:04:05Z",
        "message": {"role": "user", "content": "fix the login bug"},
    }
    lines = [json.dumps({"type": {"role": "user"}}), json.dumps({"type": ["user"]}), json.dumps(good)]
    (folder / "s1.jsonl").write_text("\n".join(lines) + "\n")
    report = memory.import_claude_code(str(tmp_path / "projects")).as_dict()
    assert report["dropped"]["unknown_type"] == 2 and report["added"] == 1


@pytest.mark.core
def test_old_cli_shape_and_foreign_session_lines(memory: Memory) -> None:
    report = memory.import_sources([str(FIXTURES / "edge_cases.jsonl")]).as_dict()
    assert report["dropped"]["foreign_session"] == 1  # a line of another session inside this file
    session = memory.store.get_session("edge_cases")
    assert session.title.startswith("Tested various edge cases")  # the old CLI's summary line
    assert session.started_at.isoformat() == "2025-06-14T11:00:00+00:00"
    assert {i.session_id for i in memory.store.iter_items(SearchFilter())} == {"edge_cases"}


@pytest.mark.core
def test_hashing_embedder_embeds_imported_messages(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        report = memory.import_claude_code(str(PROJECTS)).as_dict()
        items = memory.stats()["items"]
    assert report["added"] == items > 0
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == items


@pytest.mark.core
def test_sessions_listing_by_project(imported: tuple[Memory, dict]) -> None:
    memory, _ = imported
    billing = memory.store.list_sessions(project=BILLING)
    assert {s.session_id for s in billing} == {RECALL, NOISY, FORK}
    everything = memory.store.list_sessions(limit=100)
    assert len(everything) == 6
    starts = [s.started_at for s in everything]
    assert starts == sorted(starts, reverse=True)
    assert json.dumps(billing[0].as_dict())  # JSON-ready


@needs_model
def test_imported_messages_are_embedded_in_batches_with_the_model(model_memory: Memory) -> None:
    report = model_memory.import_claude_code(str(PROJECTS)).as_dict()
    with sqlite3.connect(model_memory.store.path) as conn:
        assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == report["added"] > 0
    hits = model_memory.search("cap how many requests per minute the sign-in route accepts", limit=3, project=BILLING)
    assert hits[0].id in {f"cc:{RECALL}:11111111-u012", f"cc:{RECALL}:11111111-u013"}
