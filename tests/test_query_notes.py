"""Notes on weak queries: only common words, or pointers with no conversation to resolve them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemo import Memory
from mnemo.errors import InputError
from mnemo.retrieve.query_notes import query_notes
from tests.test_cli import EXAMPLE, run

pytestmark = pytest.mark.core


def codes(query: str, context_given: bool = False) -> list[str]:
    return [note.code for note in query_notes(query, context_given)]


@pytest.mark.parametrize("query", ["the of and", "what is it?", "And THE", "who was there"])
def test_common_words_only_is_noted(query: str) -> None:
    assert "common_words_only" in codes(query)


@pytest.mark.parametrize(
    "query", ["Juniper chewed the charger", "consumer lag partitions", "what time is it", "Kafka", "42"]
)
def test_queries_that_say_what_they_want_get_no_note(query: str) -> None:
    assert codes(query) == []


def test_pointers_are_named_and_a_context_silences_them() -> None:
    (note,) = query_notes("what did Priya say about that migration?")
    assert note.code == "unresolved_references" and "'that migration'" in note.message
    assert "'he', 'that'" in query_notes("what did he say about that?")[0].message
    assert codes("what did he say about that?", context_given=True) == []
    # a query of common words that points back gets both notes: each says something different
    assert codes("where is he?") == ["common_words_only", "unresolved_references"]


def test_memory_checks_the_query_and_reads_the_context(hashing_memory: Memory) -> None:
    with pytest.raises(InputError, match="empty"):
        hashing_memory.query_notes("  ")
    assert [n.code for n in hashing_memory.query_notes("did he like it")] == ["unresolved_references"]
    context = [{"role": "user", "content": "Tom tried the new ramen place."}]
    assert hashing_memory.query_notes("did he like it", context) == ()


def test_cli_search_reports_notes_in_json_and_on_stderr(db_path: str, tmp_path: Path) -> None:
    run(db_path, "import", str(EXAMPLE))
    weak = run(db_path, "search", "the of and")
    assert weak.stderr.startswith("note: the query holds only common words (the, of, and)")
    assert weak.stdout == run(db_path, "search", "the of and", "--limit", "10").stdout  # hits unchanged
    found = json.loads(run(db_path, "search", "--json", "what broke because of the dog?").stdout)
    assert found["notes"] == [] and found["hits"]
    pointed = json.loads(run(db_path, "search", "--json", "what did he say about that?").stdout)
    assert [n["code"] for n in pointed["notes"]] == ["unresolved_references"]
    context = tmp_path / "context.json"
    context.write_text(json.dumps([{"role": "user", "content": "Priya planned the billing migration."}]))
    asked = run(db_path, "search", "--json", "what did she say about it", "--context", str(context))
    resolved = json.loads(asked.stdout)
    assert resolved["notes"] == [] and resolved["rewrite"]["was_rewritten"]
    assert "note:" not in run(db_path, "search", "Juniper charger").stderr
