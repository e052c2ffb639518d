"""Incremental, idempotent imports: grown files, growing lines, rewritten files, chat logs, notes, facts."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mnemo import Memory
from mnemo.records import SearchFilter

pytestmark = pytest.mark.core

SESSION = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"


@pytest.fixture
def memory(db_path: str) -> Memory:
    with Memory(db_path, embedder="none") as memory:
        yield memory


def _line(kind: str, uid: str, second: int, content: Any, message_id: str | None = None, session: str = SESSION) -> str:
    message: dict[str, Any] = {"role": kind, "content": content}
    if message_id:
        message["id"] = message_id
    line = {
        "type": kind,
        "uuid": uid,
        "sessionId": session,
        "cwd": "/home/dev/shop",
        "gitBranch": "main",
        "isSidechain": False,
        "timestamp": f"2026-03-01T10:{second // 60:02d}:{second % 60:02d}.000Z",
        "message": message,
    }
    return json.dumps(line) + "\n"


def _user(uid: str, second: int, text: str, session: str = SESSION) -> str:
    return _line("user", uid, second, text, session=session)


def _assistant(uid: str, second: int, message_id: str, text: str) -> str:
    return _line("assistant", uid, second, [{"type": "text", "text": text}], message_id)


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / "projects" / "-home-dev-shop" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(
        _user("u1", 0, "The checkout page shows a blank cart after login.")
        + _assistant("a1", 5, "msg_1", "The session cookie was dropped by the SameSite policy; set it to Lax.")
        + _user("u2", 60, "Also the coupon field rejects lowercase codes.")
        + _assistant("a2", 65, "msg_2", "Coupon codes are now upper-cased before validation.")
    )
    return path


def _import(memory: Memory, path: Path) -> dict[str, Any]:
    return memory.import_claude_code(str(path.parents[1])).as_dict()


def _contents(memory: Memory) -> list[str]:
    items = sorted(memory.store.iter_items(SearchFilter()), key=lambda i: (i.timestamp, i.id))
    return [i.content for i in items]


def _append(path: Path, text: str | bytes) -> None:
    with path.open("ab") as handle:
        handle.write(text.encode() if isinstance(text, str) else text)


def test_rerun_reads_only_the_grown_part(memory: Memory, transcript: Path) -> None:
    first = _import(memory, transcript)
    assert first["added"] == 4 and first["lines"] == 4
    same = _import(memory, transcript)
    assert same["unchanged_files"] == 1 and same["read_files"] == 0 and same["lines"] == 0
    _append(
        transcript,
        _user("u3", 120, "Shipping costs are wrong for Norway.")
        + _assistant("a3", 125, "msg_3", "Norway now uses the EEA shipping table."),
    )
    grown = _import(memory, transcript)
    assert grown["added"] == 2 and grown["lines"] == 2  # exactly the new messages, only new lines counted
    assert memory.stats()["items"] == 6
    source = memory.sources(files=True)[0]
    assert source["messages"] == 6 and source["bytes_read"] == transcript.stat().st_size
    assert memory.store.get_session(SESSION).message_count == 6


def test_a_reply_streamed_across_two_runs_is_one_message(memory: Memory, transcript: Path) -> None:
    _append(transcript, _user("u3", 120, "Why is the invoice PDF blank on Safari?"))
    _append(transcript, _assistant("a3", 125, "msg_3", "Safari blocks the blob URL in the iframe."))
    _import(memory, transcript)
    _append(
        transcript,
        _line("assistant", "a3b", 126, [{"type": "text", "text": "Serving the PDF inline fixes it."}], "msg_3"),
    )
    report = _import(memory, transcript)
    assert report["added"] == 0 and report["updated"] == 1
    merged = memory.get(f"cc:{SESSION}:a3")
    assert merged.content == "Safari blocks the blob URL in the iframe.\n\nServing the PDF inline fixes it."
    assert merged.metadata["uuids"] == ["a3", "a3b"]
    assert memory.stats()["items"] == 6


def test_a_half_written_line_waits_for_its_newline(memory: Memory, transcript: Path) -> None:
    _import(memory, transcript)
    line = _user("u3", 120, "The search box ignores accents in product names.")
    _append(transcript, line[:40])  # the writer is mid-line
    report = _import(memory, transcript)
    assert report["added"] == 0 and report["dropped"] == {"incomplete_line": 1}
    _append(transcript, line[40:])
    report = _import(memory, transcript)
    assert report["added"] == 1 and memory.stats()["items"] == 5


def test_a_truncated_file_keeps_what_is_complete(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "projects" / "-home-dev-shop" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(_user("u1", 0, "Refunds over 500 euros need a second approver.") + '{"type": "user", "mess')
    report = _import(memory, path)
    assert report["added"] == 1 and report["dropped"]["incomplete_line"] == 1


def test_a_rewritten_or_shrunk_file_is_read_again_without_duplicates(memory: Memory, transcript: Path) -> None:
    _import(memory, transcript)
    lines = transcript.read_text().splitlines(keepends=True)
    transcript.write_text("".join(lines[:2]))  # shrank
    report = _import(memory, transcript)
    assert report["read_files"] == 1 and report["unchanged"] == 2 and report["added"] == 0
    # same size class but a different head: re-read whole, the new first message is new
    transcript.write_text(_user("u0", 0, "Gift cards cannot be combined with coupons.") + "".join(lines))
    report = _import(memory, transcript)
    assert report["added"] == 1 and report["updated"] == 4  # the same ids, their line numbers moved
    assert memory.stats()["items"] == 5


def test_a_recall_spanning_two_runs_retracts_its_trigger(memory: Memory, transcript: Path) -> None:
    _append(transcript, _user("u3", 120, "Do you remember when we talked about the warehouse sync job?"))
    first = _import(memory, transcript)
    assert first["added"] == 5  # nothing shows yet that a recall follows
    call = [
        {"type": "text", "text": "Let me search our past sessions for that."},
        {"type": "tool_use", "id": "toolu_r", "name": "Bash", "input": {"command": "mnemo sessions search sync"}},
    ]
    _append(transcript, _line("assistant", "a3", 125, call, "msg_3"))
    result = [{"type": "tool_result", "tool_use_id": "toolu_r", "content": "[1/1] abc1234 • Feb 2 • /home/dev/shop"}]
    _append(transcript, _line("user", "r3", 126, result))
    _append(transcript, _assistant("a4", 130, "msg_4", "On Feb 2 the sync job moved to a nightly cron."))
    _append(transcript, _user("u5", 200, "Add a retry with backoff to the stock webhook."))
    report = _import(memory, transcript)
    assert report["retracted"] == 1 and report["dropped"]["recall_exchange"] == 2
    assert _contents(memory)[-1] == "Add a retry with backoff to the stock webhook."
    assert not any("warehouse" in c or "nightly cron" in c for c in _contents(memory))


def test_current_session_is_left_for_a_later_run(memory: Memory, transcript: Path) -> None:
    report = memory.import_claude_code(str(transcript.parents[1]), exclude_sessions=[SESSION]).as_dict()
    assert report["added"] == 0 and report["dropped"] == {"current_session": 1}
    assert memory.sources() == []
    assert _import(memory, transcript)["added"] == 4


def test_project_falls_back_to_the_folder_name(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "projects" / "-opt-tools-ledger" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    line = json.loads(_user("u1", 0, "Ledger totals drift by one cent after currency conversion."))
    del line["cwd"]
    path.write_text(json.dumps(line) + "\n")
    _import(memory, path)
    assert memory.store.get_session(SESSION).project == "/opt/tools/ledger"


def test_noop_rerun_only_stats_files(memory: Memory, tmp_path: Path) -> None:
    root = tmp_path / "projects" / "-home-dev-many"
    root.mkdir(parents=True)
    for n in range(30):
        session = f"{n:08d}-0000-4000-8000-000000000000"
        (root / f"{session}.jsonl").write_text(
            _user(f"u{n}", n, f"Question number {n} about the build cache.", session)
        )
    assert memory.import_claude_code(str(tmp_path / "projects")).as_dict()["added"] == 30
    for path in root.iterdir():
        os.chmod(path, 0)  # unreadable: a re-run that opened any file would report an error
    try:
        report = memory.import_claude_code(str(tmp_path / "projects")).as_dict()
    finally:
        for path in root.iterdir():
            os.chmod(path, 0o644)
    if os.geteuid() != 0:  # root reads anything, so only the counters can be checked there
        assert report["errors"] == []
    assert report["unchanged_files"] == 30 and report["read_files"] == 0


def test_chat_logs_jsonl_and_openai_json(memory: Memory, tmp_path: Path) -> None:
    log = tmp_path / "chats" / "support.jsonl"
    log.parent.mkdir()
    rows = [
        {
            "role": "user",
            "content": "My export to CSV drops the currency column.",
            "timestamp": "2026-02-01T09:00:00Z",
            "session_id": "s1",
        },
        {
            "role": "assistant",
            "content": "The CSV writer skipped columns with null headers; fixed.",
            "timestamp": "2026-02-01T09:01:00Z",
            "session_id": "s1",
        },
        {"role": "user", "content": "thanks!", "timestamp": "2026-02-01T09:02:00Z", "session_id": "s1"},
        {
            "role": "user",
            "content": "Can invoices be sent in French?",
            "timestamp": "2026-02-02T09:00:00Z",
            "session_id": "s2",
        },
    ]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows) + "not json\n")
    openai = tmp_path / "chats" / "agent.json"
    openai.write_text(
        json.dumps(
            [
                {"role": "system", "content": "You are the billing assistant of the shop."},
                {"role": "user", "content": [{"type": "text", "text": "What is the VAT rate applied to Norway?"}]},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "lookup_vat", "arguments": '{"country": "NO"}'},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "25%"},
                {"role": "assistant", "content": "Norway is outside the EU VAT area; orders there are zero-rated."},
            ]
        )
    )
    report = memory.import_sources([str(tmp_path / "chats")]).as_dict()
    assert report["dropped"]["too_short"] == 1 and report["dropped"]["invalid_json"] == 1  # "thanks!"
    assert "tool_only" not in report["dropped"] and report["dropped"]["tool_result"] == 1
    items = {i.content: i for i in memory.store.iter_items(SearchFilter())}
    assert items["Can invoices be sent in French?"].session_id == "s2"
    assert items["My export to CSV drops the currency column."].source == "chat"
    answer = items["Norway is outside the EU VAT area; orders there are zero-rated."]
    assert answer.metadata["tool_output"] == "25%" and answer.metadata["tools"] == ["lookup_vat"]  # folded in
    assert len({items[k].session_id for k in items if items[k].metadata["file"] == str(openai)}) == 1
    again = memory.import_sources([str(tmp_path / "chats")]).as_dict()
    assert again["unchanged_files"] == 2 and again["added"] == 0
    _append(log, json.dumps({"role": "user", "content": "Is the nightly invoice run idempotent?"}) + "\n")
    grown = memory.import_sources([str(tmp_path / "chats")]).as_dict()
    assert grown["added"] == 1 and grown["lines"] == 1  # a few turns before it are re-read, unchanged
    new = next(i for i in memory.store.iter_items(SearchFilter()) if i.content.startswith("Is the nightly"))
    assert new.session_id.startswith("chat-")  # no session id on the line: the file's own session


def test_notes_and_facts(memory: Memory, tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text("# Preferences\nUse pnpm, never npm.\n\n## Deploys\nDeploy on Tuesdays only.\n")
    (folder / "guide.md").write_text("# Setup\nRun make bootstrap first.\n")
    facts = folder / "facts.jsonl"
    facts.write_text(
        json.dumps({"subject": "alice", "relation": "works_at", "object": "Acme", "confidence": 0.9})
        + "\n"
        + json.dumps({"note": "not a fact"})
        + "\n"
    )
    report = memory.import_sources([str(folder)]).as_dict()
    assert report["added"] == 4 and report["dropped"]["not_a_fact"] == 1
    kinds = {i.content.splitlines()[-1]: (i.kind, i.source) for i in memory.store.iter_items(SearchFilter())}
    assert kinds["Use pnpm, never npm."] == ("note", "notes")
    assert kinds["Run make bootstrap first."] == ("document", "notes")
    fact = next(i for i in memory.store.iter_items(SearchFilter(kinds=("fact",))))
    assert fact.content == "alice works_at Acme"
    assert (
        fact.metadata["subject"] == "alice" and fact.metadata["object"] == "Acme" and fact.metadata["confidence"] == 0.9
    )
    _append(facts, json.dumps({"subject": "bob", "relation": "likes", "object": "tea"}) + "\n")
    grown = memory.import_sources([str(folder)]).as_dict()
    assert grown["added"] == 1 and grown["unchanged_files"] == 2
    summary = {row["kind"]: row for row in memory.sources()}
    assert summary["facts"]["messages"] == 2 and summary["notes"]["files"] == 2


def test_growth_after_a_recall_exchange_keeps_it_excluded(memory: Memory, tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parent / "fixtures" / "claude_code" / "projects" / "-home-dev-billing"
    path = tmp_path / "projects" / "-home-dev-billing" / "11111111-2222-4333-8444-555555555555.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text((fixture / path.name).read_text())  # the recall's relay is the third turn from the end
    first = _import(memory, path)
    assert first["dropped"]["recall_exchange"] == 3
    line = json.loads(_user("u99", 1200, "Log every rejected login attempt with the client address."))
    line["sessionId"] = path.stem
    _append(path, json.dumps(line) + "\n")
    report = _import(memory, path)  # the re-read must start before the recall, not at its relay
    assert report["added"] == 1 and "recall_exchange" not in report["dropped"]
    assert not any("freezegun" in c for c in _contents(memory))
