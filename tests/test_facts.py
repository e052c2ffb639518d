"""The fact store and lifecycle on real SQLite files: reinforcement, corrections with history,
negation, forgetting from every index, fact keys, scope, migration of an existing store, the CLI."""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from mnemo import Memory
from mnemo.store.migrations import MIGRATIONS, _statements

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("spacy") is None, reason="the 'nlp' extra (spaCy models) is not installed"
)


def say(memory: Memory, text: str, id: str, **scope: str) -> None:  # noqa: A002
    memory.add(text, role="user", id=id, **scope)


def test_repetition_reinforces_weight_by_ewma_and_keeps_provenance(hashing_memory: Memory) -> None:
    alpha = hashing_memory.config.fact_alpha
    say(hashing_memory, "I live in Seattle.", "m1")
    first = hashing_memory.facts(subject="you")[0]
    assert first.triple == ("you", "lives_in", "seattle") and first.weight == pytest.approx(alpha)
    say(hashing_memory, "I live in Seattle, it rains a lot.", "m2")
    second = hashing_memory.facts(subject="you")[0]
    assert second.weight == pytest.approx(alpha + alpha * (1 - alpha))
    say(hashing_memory, "I live in Seattle, it rains a lot.", "m2")  # the same turn again: no new evidence
    assert hashing_memory.facts(subject="you")[0].weight == pytest.approx(second.weight)
    assert second.provenance == ("m1", "m2") and second.first_seen == first.first_seen
    assert second.last_seen >= first.last_seen and second.status == "active"


def test_correction_supersedes_only_the_conflicting_fact_and_keeps_history(hashing_memory: Memory) -> None:
    say(hashing_memory, "I live in Seattle and work at Google.", "m1")
    say(hashing_memory, "My sister Anna works at Google too.", "m2")
    say(hashing_memory, "Actually I work at Amazon, not Google.", "m3")
    active = {f.triple for f in hashing_memory.facts()}
    assert active == {("you", "lives_in", "seattle"), ("you", "works_at", "amazon"), ("anna", "works_at", "google")}
    history = {f.triple: f for f in hashing_memory.facts(subject="you", relation="works_at", status=None)}
    old = history[("you", "works_at", "google")]
    assert old.status == "superseded" and old.valid_to is not None and old.valid_to >= old.valid_from
    assert history[("you", "works_at", "amazon")].valid_to is None


def test_a_negated_fact_ends_the_active_one_and_is_never_stored(hashing_memory: Memory) -> None:
    say(hashing_memory, "I live in Paris.", "m1")
    say(hashing_memory, "I don't live in Paris anymore.", "m2")
    assert hashing_memory.facts() == []
    ended = hashing_memory.facts(status=None)
    assert [(f.triple, f.status) for f in ended] == [(("you", "lives_in", "paris"), "superseded")]
    say(hashing_memory, "I have no kids.", "m3")
    assert hashing_memory.facts(status=None, relation="has") == []


def test_one_valued_relations_take_the_new_value(hashing_memory: Memory) -> None:
    say(hashing_memory, "I'm 33 years old.", "m1")
    say(hashing_memory, "I'm 34 years old.", "m2")
    assert [f.object for f in hashing_memory.facts(relation="age")] == ["34"]


def test_fact_keys_make_the_stating_message_findable(hashing_memory: Memory) -> None:
    say(hashing_memory, "Fun news: I'm moving my stuff into the flat in Bergen this week, we live in Bergen now.", "m1")
    hashing_memory.add("The Bergen flat has a tiny kitchen.", role="assistant", id="m2")
    hits = hashing_memory.search("lives in bergen", kind="message", limit=2)
    assert hits[0].id == "m1"  # "lives" is only in m1's keys ("you lives in bergen")
    with sqlite3.connect(hashing_memory.store.path) as conn:
        assert conn.execute("SELECT keys FROM items WHERE id = 'm1'").fetchone()[0] == "you lives in bergen"
        assert conn.execute("SELECT keys FROM items WHERE id = 'm2'").fetchone()[0] is None


def test_forget_removes_facts_from_every_index(model_memory: Memory) -> None:
    say(model_memory, "I live in Reykjavik and work at Marel.", "m1")
    say(model_memory, "My brother lives in Oslo.", "m2")
    fact_ids = {f.id for f in model_memory.facts(subject="you")}
    assert len(fact_ids) == 2 and {h.id for h in model_memory.search("Marel", kind="fact")} & fact_ids
    assert model_memory.forget(subject="you", relation="works_at") == 1
    assert {f.triple for f in model_memory.facts(status=None, subject="you")} == {("you", "lives_in", "reykjavik")}
    assert model_memory.forget(subject="you") == 1
    assert model_memory.facts(subject="you", status=None) == []
    assert [f.subject for f in model_memory.facts()] == ["my brother"]  # other subjects untouched
    assert not {h.id for h in model_memory.search("works at Marel lives in Reykjavik", limit=50)} & fact_ids
    with sqlite3.connect(model_memory.store.path) as conn:
        marks = ",".join("?" for _ in fact_ids)
        assert conn.execute(f"SELECT count(*) FROM items WHERE id IN ({marks})", list(fact_ids)).fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM items_fts WHERE items_fts MATCH 'marel'").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 3  # m1, m2, my brother's fact
        assert conn.execute("SELECT count(*) FROM tombstones").fetchone()[0] == 2
        assert conn.execute("SELECT keys FROM items WHERE id = 'm1'").fetchone()[0] is None
    one = model_memory.facts()[0]
    assert model_memory.forget(fact_id=one.id) == 1 and model_memory.facts() == []


def test_facts_are_scoped_to_their_owner(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        say(memory, "I live in Lima.", "a1", user_id="ana")
        say(memory, "I live in Quito.", "b1", user_id="ben")
        assert [f.object for f in memory.facts(user_id="ana")] == ["lima"]
        assert memory.forget(subject="you", user_id="ben") == 1
        assert [f.object for f in memory.facts(user_id="ana")] == ["lima"]
    with Memory(db_path, embedder="hashing", user_id="ana") as pinned:
        assert [f.object for f in pinned.facts()] == ["lima"]


def test_extraction_is_configurable_and_only_reads_user_messages(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", extract_facts=False) as off:
        say(off, "I live in Lima.", "m1")
        assert off.facts() == []
    with Memory(db_path, embedder="hashing") as on:
        on.add("I live in Cusco.", role="assistant", id="m2")
        report = on.add_many([{"content": "I live in Arequipa.", "role": "user", "id": "m3"}])
        assert report.added == 1 and on.facts() == []  # bulk imports extract only when asked
        on.add_many([{"content": "I live in Puno.", "role": "user", "id": "m4"}], extract_facts=True)
        assert [f.object for f in on.facts()] == ["puno"]
    with Memory(db_path, embedder="hashing", extract_facts_on_import=True) as imports:
        imports.add_many([{"content": "I live in Tacna.", "role": "user", "id": "m5"}])
        assert {f.object for f in imports.facts()} == {"puno", "tacna"}


def test_passive_decay_turns_old_facts_stale(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        say(memory, "I live in Lima.", "m1")
        with sqlite3.connect(db_path) as conn:  # as if last seen 400 days ago
            conn.execute("UPDATE facts SET last_seen = last_seen - 400 * 86400")
    with Memory(db_path, embedder="hashing", fact_decay=0.99) as decaying:
        assert decaying.facts() == []
        assert [f.status for f in decaying.facts(status=None)] == ["stale"]


def test_export_carries_subject_relation_object(hashing_memory: Memory) -> None:
    say(hashing_memory, "I own a Tesla.", "m1")
    facts = [r for r in hashing_memory.export() if r["kind"] == "fact"]
    assert len(facts) == 1 and facts[0]["content"] == "you owns tesla"
    assert {k: facts[0]["metadata"][k] for k in ("subject", "relation", "object")} == {
        "subject": "you", "relation": "owns", "object": "tesla"
    }  # fmt: skip


def test_an_existing_store_upgrades_and_its_messages_stay_searchable(db_path: str) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for name, script in MIGRATIONS:
        if name >= "0003":
            break
        for statement in _statements(script):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_migrations VALUES (?, 0)", (name,))
    conn.execute(
        "INSERT INTO items (id, content, kind, role, ingested_at, content_hash, seq) "
        "VALUES ('old', 'the kettle whistles', 'message', 'user', 0, 'h', 1)"
    )
    conn.close()
    with Memory(db_path, embedder="hashing") as memory:
        assert [h.id for h in memory.search("kettle")] == ["old"]
        say(memory, "I live in Bern.", "new")
        assert [f.object for f in memory.facts()] == ["bern"]


def run_cli(db: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MNEMO_EMBEDDER": "hashing"}
    result = subprocess.run(
        [sys.executable, "-m", "mnemo", "--db", db, *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert "Traceback" not in result.stderr, result.stderr
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_cli_extract_facts_and_forget_end_to_end(db_path: str, tmp_path: Path) -> None:
    single = json.loads(run_cli(db_path, "extract", "--json", "Ich wohne in München und arbeite bei Siemens.").stdout)
    assert single["lang"] == "de" and single["intent"] == "MULTIPLE_FACTS"
    assert {(f["subject"], f["relation"], f["object"]) for f in single["facts"]} == {
        ("you", "lives_in", "münchen"), ("you", "works_at", "siemens")
    }  # fmt: skip

    lines = tmp_path / "in.jsonl"
    lines.write_text(
        '{"id": "a", "text": "I have two cats."}\n'
        "not json\n"
        '{"id": "b", "text": "Je travaille chez Airbus.", "lang": "fr"}\n'
        '{"id": "c"}\n'
        '{"id": "d", "text": "He works at Google.", "context": ["I met John yesterday."]}\n',
        encoding="utf-8",
    )
    result = run_cli(db_path, "extract", "--json", "--file", str(lines))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", "b", "d"] and "skipped 2 malformed" in result.stderr
    assert {(f["subject"], f["object"]) for f in out[0]["facts"]} == {("you", "cats"), ("cats", "2")}
    assert [(f["subject"], f["object"]) for f in out[2]["facts"]] == [("john", "google")]

    run_cli(db_path, "add", "I live in Seattle and work at Microsoft.", "--role", "user", "--user", "u1")
    listed = json.loads(run_cli(db_path, "facts", "--json", "--user", "u1").stdout)["facts"]
    assert {(f["relation"], f["object"]) for f in listed} == {("lives_in", "seattle"), ("works_at", "microsoft")}
    assert "you works_at microsoft" in run_cli(db_path, "facts", "--subject", "you", "--user", "u1").stdout
    gone = json.loads(run_cli(db_path, "forget", "--json", "--subject", "you", "--relation", "works_at").stdout)
    assert gone == {"forgotten": 1}
    assert len(json.loads(run_cli(db_path, "facts", "--json", "--all").stdout)["facts"]) == 1
    bad = run_cli(db_path, "forget", "--relation", "lives_in", check=False)
    assert bad.returncode == 2 and "exactly one" in bad.stderr
    exported = [json.loads(line) for line in run_cli(db_path, "export", "--kind", "fact").stdout.splitlines()]
    assert [e["metadata"]["object"] for e in exported] == ["seattle"]
