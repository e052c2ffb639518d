"""The `mnemo` command end to end, as a user runs it: real processes, a real store file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.core
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_conversation.jsonl"


def run(db: str, *args: str, stdin: str | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MNEMO_EMBEDDER": "hashing"}
    result = subprocess.run(
        [sys.executable, "-m", "mnemo", "--db", db, *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_import_search_context_get_delete(db_path: str) -> None:
    report = json.loads(run(db_path, "import", "--json", str(EXAMPLE)).stdout)
    assert report["added"] == 15 and report["skipped"] == 1 and "not valid JSON" in report["errors"][0]
    again = json.loads(run(db_path, "import", "--json", str(EXAMPLE)).stdout)
    assert again["added"] == 0 and again["unchanged"] == 15

    found = json.loads(run(db_path, "search", "--json", "consumer lag partitions", "--limit", "3").stdout)
    assert {h["id"] for h in found["hits"][:2]} == {"demo-12", "demo-13"}  # the two turns on partitions and lag
    assert set(found["hits"][0]["ranks"]) >= {"lexical", "semantic"}

    text = run(db_path, "search", "greyhound", "--explain").stdout
    assert "fused from" in text and "demo-7" in text

    pack = json.loads(run(db_path, "context", "--json", "Lisbon wedding", "--max-tokens", "80").stdout)
    assert pack["tokens"] <= 80 and "Lisbon" in pack["text"]

    item = json.loads(run(db_path, "get", "--json", "demo-14").stdout)
    assert item["session_id"] == "s4" and item["timestamp"].startswith("2024-03-25")

    assert json.loads(run(db_path, "delete", "--json", "demo-14").stdout)["deleted"] == 1
    missing = run(db_path, "get", "demo-14", check=False)
    assert missing.returncode == 2 and "no memory" in missing.stderr


def test_add_stats_and_scoped_search(db_path: str) -> None:
    run(db_path, "add", "alice likes green tea", "--user", "alice", "--id", "a1", "--metadata", '{"src": "chat"}')
    run(db_path, "add", "-", "--user", "bob", "--kind", "fact", stdin="bob likes black coffee")
    stats = json.loads(run(db_path, "stats", "--json").stdout)
    assert stats["items"] == 2 and stats["by_kind"] == {"fact": 1, "message": 1}
    hits = json.loads(run(db_path, "search", "--json", "likes", "--user", "alice").stdout)["hits"]
    assert [h["user_id"] for h in hits] == ["alice"] and hits[0]["metadata"] == {"src": "chat"}


def test_export_round_trips_through_import(db_path: str, tmp_path: Path) -> None:
    run(db_path, "import", str(EXAMPLE))
    out = tmp_path / "export.jsonl"
    run(db_path, "export", "--output", str(out))
    lines = out.read_text().splitlines()
    assert len(lines) == 15
    copy = str(tmp_path / "copy.db")
    assert json.loads(run(copy, "import", "--json", str(out)).stdout)["added"] == 15
    second = tmp_path / "again.jsonl"
    run(copy, "export", "--output", str(second))
    strip = [{k: v for k, v in json.loads(x).items() if k != "ingested_at"} for x in lines]
    assert strip == [
        {k: v for k, v in json.loads(x).items() if k != "ingested_at"} for x in second.read_text().splitlines()
    ]


def test_markdown_documents_split_into_sections(db_path: str, tmp_path: Path) -> None:
    doc = tmp_path / "MEMORY.md"
    doc.write_text("# Project\nintro text\n\n## Testing\nrun pytest -x with the fixture\n\n## Deploy\nuse blue-green\n")
    report = json.loads(run(db_path, "import", "--json", str(doc)).stdout)
    assert report["added"] == 3
    hit = json.loads(run(db_path, "search", "--json", "how do we run tests", "--kind", "document").stdout)["hits"][0]
    assert hit["metadata"]["section"] == "Project > Testing" and hit["kind"] == "document"


def test_errors_are_one_line_with_exit_codes(db_path: str, tmp_path: Path) -> None:
    empty = run(db_path, "search", "   ", check=False)
    assert empty.returncode == 2 and empty.stderr.startswith("error: query is empty")
    bad_kind = run(db_path, "add", "x", "--kind", "poem", check=False)
    assert bad_kind.returncode == 2 and "unknown kind" in bad_kind.stderr
    missing = run(db_path, "import", str(tmp_path / "nope.jsonl"), check=False)
    assert missing.returncode == 2 and "no such file" in missing.stderr
    weird = tmp_path / "data.csv"
    weird.write_text("a,b\n")
    assert "unsupported file type" in run(db_path, "import", str(weird), check=False).stderr


def test_binary_garbage_lines_are_skipped_and_counted(db_path: str, tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(
        b'{"content": "good line one", "role": "user"}\n'
        b"\xff\xfe\x00garbage\n"
        b'["not", "an", "object"]\n'
        b'{"content": "", "role": "user"}\n'
        b'{"content": "good line two", "timestamp": "not a time"}\n'
        b'{"content": "good line three"}\n'
    )
    report = json.loads(run(db_path, "import", "--json", str(path)).stdout)
    assert report["added"] == 2 and report["skipped"] == 4


def test_same_file_name_in_two_folders_are_two_documents(db_path: str, tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "README.md").write_text(f"# Install\nrun the {folder} installer\n")
    report = json.loads(run(db_path, "import", "--json", str(tmp_path)).stdout)
    assert report["added"] == 2 and report["updated"] == 0


def test_same_words_in_two_sessions_stay_two_memories(db_path: str, tmp_path: Path) -> None:
    (tmp_path / "one.jsonl").write_text('{"role": "user", "content": "thanks a lot"}\n')
    (tmp_path / "two.jsonl").write_text('{"role": "user", "content": "thanks a lot"}\n')
    run(db_path, "import", "--session", "s1", str(tmp_path / "one.jsonl"))
    run(db_path, "import", "--session", "s2", str(tmp_path / "two.jsonl"))
    assert json.loads(run(db_path, "stats", "--json").stdout)["sessions"] == 2


def test_byte_order_mark_is_accepted(db_path: str, tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"content": "first line after a BOM"}\n{"content": "second"}\n')
    assert json.loads(run(db_path, "import", "--json", str(path)).stdout)["added"] == 2
