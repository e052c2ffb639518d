"""Facts, categories, transcripts and sessions on every backend."""

from __future__ import annotations

import shutil
from pathlib import Path

from mnemo import Memory
from tests.contract.conftest import needs_spacy

TRANSCRIPTS = Path("/work/shared/data/claude_code/spotter")
SESSION = "55604662-cf2a-4331-851a-ec234028f8ca"  # short.jsonl: "mix phx.server doesnt seem to start"


def say(memory: Memory, text: str, item_id: str) -> None:
    memory.add(text, role="user", id=item_id)


@needs_spacy
def test_a_correction_supersedes_the_old_fact_and_keeps_history(memory: Memory) -> None:
    say(memory, "I live in Seattle and work at Google.", "m1")
    say(memory, "Actually I work at Amazon, not Google.", "m2")
    active = {f.triple for f in memory.facts()}
    assert active == {("you", "lives_in", "seattle"), ("you", "works_at", "amazon")}
    history = {f.triple: f for f in memory.facts(relation="works_at", status=None)}
    old = history[("you", "works_at", "google")]
    assert old.status == "superseded" and old.valid_to is not None
    assert history[("you", "works_at", "amazon")].status == "active"


@needs_spacy
def test_repetition_reinforces_and_a_re_added_turn_adds_no_evidence(memory: Memory) -> None:
    alpha = memory.config.fact_alpha
    say(memory, "I live in Seattle.", "m1")
    say(memory, "I live in Seattle, it rains a lot.", "m2")
    say(memory, "I live in Seattle, it rains a lot.", "m2")
    fact = memory.facts(subject="you")[0]
    assert abs(fact.weight - (alpha + alpha * (1 - alpha))) < 1e-9 and fact.provenance == ("m1", "m2")


@needs_spacy
def test_forgetting_a_fact_removes_it_from_every_index(memory: Memory) -> None:
    say(memory, "My favorite color is teal.", "m1")
    fact = memory.facts()[0]
    assert fact.id in [h.id for h in memory.search("favorite color teal", kind="fact")]
    assert memory.forget(fact_id=fact.id) == 1
    assert memory.facts(status=None) == []
    assert [h.id for h in memory.search("favorite color teal", kind="fact")] == []
    assert memory.get("m1") is not None  # the message that stated it stays


def test_categories_classify_filter_and_evolve(memory: Memory) -> None:
    memory.add_many(
        {"id": f"{w}-{n}", "content": f"I'm currently fixing the {w} pipeline, step {n}", "user_id": "alice"}
        for w in ("build", "deploy", "release")
        for n in range(3)
    )
    memory.add("Never deploy on Fridays.", id="rule", user_id="alice")
    assert memory.get("rule", user_id="alice").category == "rules"
    assert [h.id for h in memory.search("deploy", category="rules")] == ["rule"]
    assert memory.categorize("I prefer tea over coffee")["category"] == "preferences"
    before = memory.categories(user_id="alice")["categories"]["context"]["unassigned"]
    report = memory.evolve_categories(user_id="alice")
    assert report.users == ("alice",)
    tree = memory.categories(user_id="alice")["categories"]["context"]
    assert tree["unassigned"] < before
    path = next(iter(tree["subcategories"]))
    assert memory.search("pipeline", category=f"context/{path}", user_id="alice")


def test_claude_code_transcripts_import_once_and_are_searchable(memory: Memory, tmp_path: Path) -> None:
    first = memory.import_claude_code(str(TRANSCRIPTS))
    assert first.added > 100 and first.errors == []
    items = memory.stats()["items"]
    assert memory.import_claude_code(str(TRANSCRIPTS)).added == 0  # unchanged files are not read again
    copy = tmp_path / "copy"
    shutil.copytree(TRANSCRIPTS, copy)  # new paths: every line is read again, no item is new
    again = memory.import_claude_code(str(copy))  # (their recorded file path changes: "updated")
    assert again.added == 0 and again.unchanged + again.updated == first.added
    assert memory.stats()["items"] == items
    session = memory.store.get_session(SESSION)
    assert session is not None and session.message_count == 2 and session.title.startswith("mix phx.server")
    hits = memory.search_sessions("phx.server start")
    assert SESSION in [h.session_id for h in hits]
    view = memory.session(SESSION)
    assert view is not None and len(view.messages) == 2


def test_chat_logs_and_notes_import_idempotently(memory: Memory, tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    log.write_text(
        '{"role": "user", "content": "where did we park the van?", "session_id": "c1"}\n'
        "not json at all\n"
        '{"role": "assistant", "content": "Level 3 of the harbour garage.", "session_id": "c1"}\n'
    )
    note = tmp_path / "notes.md"
    note.write_text("# Van\n\nThe van's spare key is in the blue drawer.\n")
    first = memory.import_sources([str(log), str(note)])
    assert first.added >= 3
    log.touch()
    second = memory.import_sources([str(log), str(note)])
    assert second.added == 0
    assert memory.search("harbour garage")[0].content == "Level 3 of the harbour garage."
    assert "blue drawer" in memory.search("spare key")[0].content
