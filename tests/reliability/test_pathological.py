"""Pathological sizes: a 10 MB message, a transcript far larger than the read window, 10k-term queries.

Time is bounded by pytest-timeout (a quadratic path on a 10 MB text would not finish in it); the
soak part benchmarks/soak/big_file.py streams a 1 GB transcript and reports the figures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemo import Memory
from mnemo.errors import InputError
from mnemo.ingest.sources import READ_WINDOW
from tests.reliability.big_inputs import import_peak_rss, write_big_transcript

pytestmark = pytest.mark.timeout(240)
TEN_MB = 10 * 1024 * 1024


def test_ten_megabyte_message_is_stored_whole_and_found(db_path: str) -> None:
    body = "lorem ipsum dolor sit amet " * (TEN_MB // 27)
    text = f"start {body} the passphrase is quetzalcoatlus {body} end"
    with Memory(db_path, embedder="hashing", category_evolve_after=0) as memory:
        memory.add_many([{"content": f"an ordinary note number {i}"} for i in range(50)])
        stored = memory.add(text, id="huge", role="user")
        assert memory.get("huge") is not None and len(memory.get("huge").content) == len(stored.content)
        assert memory.search("quetzalcoatlus", limit=3)[0].id == "huge"
        pack = memory.context_pack("quetzalcoatlus passphrase", max_tokens=300)
        assert pack.tokens <= 300 and pack.text
        sessions = memory.search_sessions("quetzalcoatlus")
        assert isinstance(sessions, list)
        assert memory.delete("huge") == 1


def test_ten_megabyte_message_is_redacted_in_linear_time(db_path: str) -> None:
    body = "call me maybe 12 34 " * (TEN_MB // 20)
    with Memory(db_path, embedder="hashing", redact=True, category_evolve_after=0) as memory:
        stored = memory.add(f"{body} write to zed@example.org {body}", role="user")
    assert "zed@example.org" not in stored.content and "[REDACTED_EMAIL]" in stored.content


def test_large_transcript_is_read_with_bounded_memory(tmp_path: Path) -> None:
    """A transcript 8x the read window is imported by a child process whose peak RSS grows by far
    less than the file's size over the same import of a small file (reading it whole grew it by
    ~120 MB for 64 MB; windowed reading by ~20 MB)."""
    small, small_messages = write_big_transcript(tmp_path / "small", 2, line_bytes=8000, message_every=20)
    large, large_messages = write_big_transcript(tmp_path / "large", 64, line_bytes=8000, message_every=20)
    assert 8 * READ_WINDOW <= 64 * 1024 * 1024
    base = import_peak_rss(small, tmp_path / "small" / "m.db")
    big = import_peak_rss(large, tmp_path / "large" / "m.db")
    assert base["added"] == small_messages and big["added"] == large_messages  # nothing lost at window edges
    assert "incomplete_line" not in big["dropped"]
    assert big["peak_mb"] - base["peak_mb"] < 48, (base, big)


def test_windowed_import_matches_a_whole_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading in windows yields the same items as reading whole: window edges lose or repeat nothing."""
    import mnemo.ingest.sources as sources

    projects, messages = write_big_transcript(tmp_path, 0.5, line_bytes=1200, message_every=3)
    exports = []
    for window in (1 << 30, 20_000):
        monkeypatch.setattr(sources, "READ_WINDOW", window)
        with Memory(str(tmp_path / f"w{window}.db"), embedder="hashing", category_evolve_after=0) as memory:
            report = memory.import_claude_code(str(projects))
            assert report.added == messages
            exports.append(sorted((r["id"], r["content"]) for r in memory.export()))
    assert exports[0] == exports[1]


def test_ten_thousand_term_queries_are_bounded_or_refused(db_path: str) -> None:
    query = " ".join(f"term{i}" for i in range(10_000))
    with Memory(db_path, embedder="hashing", category_evolve_after=0) as memory:
        memory.add_many([{"content": f"note {i} about term{i * 7}", "session_id": f"s{i % 5}"} for i in range(500)])
        assert memory.search(query, limit=5)  # answered (terms are capped), within the timeout
        assert memory.context(query, max_tokens=200)
        assert memory.search(query, limit=5, iterative=True) is not None
        with pytest.raises(InputError, match="limit"):
            memory.search_sessions(query)
