"""The per-turn hot path on real SQLite files with the real spaCy models: learning, recall, gating,
novelty, diversity, dynamic K, the rotating message and its cap, placement, scope, threads, the CLI."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from mnemo import Memory
from mnemo.cli.main import cli
from mnemo.embed.threads import blas_info, blas_threads
from mnemo.errors import ConfigError, InputError
from mnemo.hot import inject_messages
from mnemo.hot.index import FactMeta, HotIndex
from mnemo.hot.metrics import META_KEY, summary_of
from mnemo.hot.phrasing import phrase
from mnemo.hot.score import Weights, decayed, lexical_match, select, stale
from mnemo.hot.terms import words

#: Turns parse with spaCy; the pure pieces (selection, phrasing, placement) run in the core install too.
needs_spacy = pytest.mark.skipif(
    importlib.util.find_spec("spacy") is None, reason="the 'nlp' extra (spaCy models) is not installed"
)


def bullets(memory: Memory, text: str, **kw: str) -> list[str]:
    return [b.text for b in memory.turn(text, **kw).bullets]


@needs_spacy
def test_facts_are_stored_and_recalled_on_a_later_turn(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        first = memory.turn("My sister Anna works at Siemens.", session_id="s1", user_id="u1")
        assert first.intent == "FACT_STATEMENT" and len(first.facts_added) == 1
        assert [f.triple for f in memory.facts(user_id="u1")] == [("anna", "works_at", "siemens")]
        assert set(first.timings_ms) == {"intent", "extraction", "update", "retrieval", "total"}
    with Memory(db_path, embedder="hashing") as fresh:  # a new process: the hot index comes from the store
        result = fresh.turn("Where does Anna work these days?", session_id="s2", user_id="u1")
        assert [b.text for b in result.bullets] == ["Anna works at Siemens"]
        assert result.bullets[0].fact_id == first.facts_added[0] and result.bullets[0].score > 0
        assert result.system_message is not None and result.system_message["role"] == "system"
        assert "- Anna works at Siemens" in result.system_message["content"]


@needs_spacy
def test_small_talk_without_a_known_entity_is_gated(hashing_memory: Memory) -> None:
    hashing_memory.turn("I live in Seattle.", session_id="s", user_id="u")
    for text in ("haha nice", "ok thanks!", "Tell me a joke about penguins"):
        result = hashing_memory.turn(text, session_id="s", user_id="u")
        assert result.gated and result.system_message is None and result.bullets == ()
    assert hashing_memory.turn_metrics()["counts"]["gated"] >= 3


@needs_spacy
def test_novelty_window_and_asking_again(hashing_memory: Memory) -> None:
    say = {"session_id": "s", "user_id": "u"}
    hashing_memory.turn("My friend Tom lives in Lyon.", **say)  # turn 1
    lyon = "Tom lives in Lyon"
    assert lyon in bullets(hashing_memory, "Tom is so funny", **say)  # turn 2
    assert bullets(hashing_memory, "Tom called me", **say) == []  # turn 3: injected 1 turn ago
    assert bullets(hashing_memory, "Tom is coming", **say) == []  # turn 4
    assert bullets(hashing_memory, "Where does Tom live?", **say) == [lyon]  # asks for it again
    for _ in range(3):
        hashing_memory.turn("cool", **say)
    assert lyon in bullets(hashing_memory, "Tom again, ha", **say)  # the novelty window has passed


@pytest.mark.core
def test_diversity_keeps_one_fact_per_relation_unless_both_score_high() -> None:
    def meta(i: int, relation: str, subject: str = "you") -> FactMeta:
        return FactMeta(f"f{i}", subject, relation, f"o{i}", 0.0, 0.3)

    ranked = [(0.5, meta(1, "has")), (0.5, meta(2, "has")), (0.5, meta(3, "has")), (0.5, meta(4, "lives_in"))]
    chosen, pruned = select(ranked, "FACT_STATEMENT", 5, True)
    assert [m.relation for _, m in chosen] == ["has", "lives_in"] and pruned == 2
    high = [(0.9, meta(1, "has")), (0.9, meta(2, "has")), (0.2, meta(3, "is")), (0.1, meta(4, "is"))]
    assert [m.fact_id for _, m in select(high, "FACT_STATEMENT", 5, True)[0]] == ["f1", "f2"]
    # distinct subjects first: the second fact about Anna waits behind Bob's
    people = [(0.9, meta(1, "works_at", "anna")), (0.8, meta(2, "lives_in", "anna")), (0.7, meta(3, "has", "bob"))]
    assert [m.fact_id for _, m in select(people, "FACT_STATEMENT", 2, True)[0]] == ["f1", "f3"]


@needs_spacy
def test_dynamic_k_depends_on_intent(hashing_memory: Memory) -> None:
    say = {"session_id": "s", "user_id": "u"}
    for text in ("I live in Seattle.", "I work at Google.", "I have a dog.", "I was born in Ohio.", "I have a bike."):
        hashing_memory.turn(text, **say)
    reaction = hashing_memory.turn("My day was fine", **say)
    assert len(reaction.bullets) <= 2
    statement = hashing_memory.turn("I am a teacher and my favorite color is green.", session_id="t", user_id="u")
    assert statement.intent == "MULTIPLE_FACTS" and 2 <= len(statement.bullets) <= 5
    assert len({b.relation for b in statement.bullets}) >= len(statement.bullets) - 1


@needs_spacy
def test_rotating_message_never_exceeds_the_cap(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", bullets_max=2) as memory:
        say = {"session_id": "s", "user_id": "u"}
        for text in ("I live in Oslo.", "I work at Equinor.", "I have a cat.", "My friend Ola lives in Bergen."):
            memory.turn(text, **say)
        seen = 0
        for text in ("Ola and I went out", "I like Ola", "Where do I work?", "Where does Ola live?", "I have a car."):
            message = memory.turn(text, **say).system_message
            if message is not None:
                seen += 1
                lines = [line for line in message["content"].splitlines() if line.startswith("- ")]
                assert 1 <= len(lines) <= 2 and len(set(lines)) == len(lines)
                assert message["content"].splitlines()[0].endswith("Use the following factual context if helpful:")
        assert seen >= 2


@pytest.mark.core
def test_bullets_are_phrased_readably() -> None:
    assert phrase("you", "lives_in", "seattle") == "You live in Seattle"
    assert phrase("anna", "works_at", "siemens") == "Anna works at Siemens"
    assert phrase("you", "favorite_color", "blue") == "Your favorite color is blue"
    assert phrase("you", "born_in", "new york") == "You were born in New York"
    assert phrase("bob", "has", "dog") == "Bob has dog"


@needs_spacy
def test_correction_supersedes_and_recall_follows(hashing_memory: Memory) -> None:
    say = {"session_id": "s", "user_id": "u"}
    old = hashing_memory.turn("I live in Seattle.", **say).facts_added[0]
    moved = hashing_memory.turn("Actually I live in Berlin now.", **say)
    assert moved.intent == "CORRECTION" and moved.facts_superseded == (old,)
    assert bullets(hashing_memory, "Where do I live?", session_id="x", user_id="u") == ["You live in Berlin"]


@pytest.mark.core
def test_inject_messages_places_memory_before_the_latest_user_message() -> None:
    memory = {"role": "system", "content": "[mnemo] Use the following factual context if helpful:\n- You live in Oslo"}
    messages = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "[mnemo] old memory"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "where do I live?"},
    ]
    out = inject_messages(messages, memory)
    assert [m["content"] for m in out] == ["You are helpful.", "hi", "hello", memory["content"], "where do I live?"]
    assert inject_messages(messages, None) == messages and messages[2]["content"] == "[mnemo] old memory"


@needs_spacy
def test_another_users_facts_are_never_injected(hashing_memory: Memory) -> None:
    hashing_memory.turn("I live in Seattle and my friend Anna works at Siemens.", session_id="a", user_id="alice")
    for text in ("Where do I live?", "Where does Anna work?", "I live in Rome and Anna is my cousin."):
        result = hashing_memory.turn(text, session_id="b", user_id="bob")
        assert all("Seattle" not in b.text and "Siemens" not in b.text for b in result.bullets)
    assert bullets(hashing_memory, "Where does Anna work?", session_id="a2", user_id="alice")[0] == (
        "Anna works at Siemens"
    )


@needs_spacy
def test_kill_switches_and_bad_input(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", inject=False) as memory:
        memory.turn("I live in Oslo.", user_id="u")
        assert memory.turn("Where do I live?", user_id="u").system_message is None
    with Memory(db_path, embedder="hashing", extract_facts=False) as memory:
        assert memory.turn("I work at Equinor.", user_id="u").facts_added == ()
        assert [f.object for f in memory.facts(user_id="u")] == ["oslo"]
        with pytest.raises(InputError):
            memory.turn("   ")
        with pytest.raises(InputError):
            memory.turn("hi", role="tool")
    with Memory(db_path, embedder="hashing", score_weights="1,2") as memory, pytest.raises(ConfigError):
        memory.turn("hi")


@needs_spacy
def test_threads_calling_turn_concurrently(hashing_memory: Memory) -> None:
    errors: list[BaseException] = []
    answers: list[tuple[str, list[str]]] = []

    people = [("Anna", "Lyon"), ("Bruno", "Porto"), ("Carla", "Madrid"), ("Elena", "Vienna"), ("Farid", "Cairo")]

    def talk(n: int) -> None:
        try:
            for name, town in people:
                hashing_memory.turn(f"My friend {name} lives in {town}.", session_id=f"s{n}", user_id=f"u{n}")
                answer = hashing_memory.turn(f"Where does {name} live?", session_id=f"s{n}", user_id=f"u{n}")
                answers.append((town, [b.text for b in answer.bullets]))
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=talk, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for n in range(4):  # lives_in and friend_of for each friend, in each user's own memory
        assert len(hashing_memory.facts(user_id=f"u{n}", limit=1000)) == 2 * len(people)
    assert len(answers) == 4 * len(people)
    assert all(any(f"lives in {town}" in t for t in texts) for town, texts in answers), answers
    assert hashing_memory.turn_metrics()["counts"]["turns"] == 8 * len(people)


@needs_spacy
def test_cli_turn_and_stats_turns(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    base = ["--db", db, "--embedder", "hashing"]
    first = runner.invoke(cli, [*base, "turn", "I live in Porto.", "--user", "u", "--session", "s", "--json"])
    assert first.exit_code == 0, first.output
    assert json.loads(first.output)["intent"] == "FACT_STATEMENT"
    second = runner.invoke(cli, [*base, "turn", "Where do I live?", "--user", "u", "--session", "s"])
    assert second.exit_code == 0 and "- You live in Porto" in second.output
    stats = runner.invoke(cli, [*base, "stats", "--turns", "--json"])
    assert stats.exit_code == 0, stats.output
    summary = json.loads(stats.output)
    assert summary["counts"]["turns"] == 2 and summary["counts"]["injected"] == 1
    assert summary["stages"]["total"]["p95_ms"] > 0
    empty = runner.invoke(cli, [*base, "turn", "  "])
    assert empty.exit_code == 2


@needs_spacy
def test_assistant_turns_learn_nothing_and_inject_nothing(hashing_memory: Memory) -> None:
    hashing_memory.turn("My friend Tom lives in Lyon.", session_id="s", user_id="u")
    reply = hashing_memory.turn("Tom lives in Lyon, and I work at Acme.", session_id="s", user_id="u", role="assistant")
    assert reply.intent == "ASSISTANT" and reply.facts_added == () and reply.system_message is None
    assert [f.object for f in hashing_memory.facts(user_id="u", relation="works_at")] == []


@needs_spacy
def test_forgotten_facts_are_never_injected(hashing_memory: Memory) -> None:
    say = {"session_id": "s", "user_id": "u"}
    hashing_memory.turn("My friend Tom lives in Lyon.", **say)
    assert "Tom lives in Lyon" in bullets(hashing_memory, "Where does Tom live?", session_id="a", user_id="u")
    assert hashing_memory.forget(subject="tom", user_id="u") == 2  # lives_in and friend_of
    assert bullets(hashing_memory, "Where does Tom live?", session_id="b", user_id="u") == []
    hashing_memory.add("My friend Tom lives in Nice.", role="user", user_id="u")  # learnt outside turn()
    again = bullets(hashing_memory, "Where does Tom live?", session_id="c", user_id="u")
    assert "Tom lives in Nice" in again and "Tom lives in Lyon" not in again


@needs_spacy
def test_pronoun_points_at_the_person_just_mentioned(hashing_memory: Memory) -> None:
    say = {"session_id": "s", "user_id": "u"}
    hashing_memory.turn("I work at Lyft.", **say)
    hashing_memory.turn("My friend Sofia works at Zalando.", **say)
    hashing_memory.turn("Honestly the weather was awful today.", **say)
    # "me" is only the object of the request: the user's own job is not what is asked
    assert bullets(hashing_memory, "Remind me where she works.", **say)[0] == "Sofia works at Zalando"
    assert bullets(hashing_memory, "Where do I work?", **say)[0] == "You work at Lyft"


@needs_spacy
def test_question_words_of_a_relation_find_its_fact(hashing_memory: Memory) -> None:
    """A paraphrase that never names the relation ("which company employs ...") still ranks its fact first."""
    say = {"session_id": "s", "user_id": "u"}
    for text in ("My friend Ingrid lives in Oslo.", "My friend Ingrid works at Equinor.", "My favorite color is teal."):
        hashing_memory.turn(text, **say)
    assert bullets(hashing_memory, "Which company employs Ingrid?", session_id="t", user_id="u")[0] == (
        "Ingrid works at Equinor"
    )
    assert bullets(hashing_memory, "What city is Ingrid based in?", session_id="t2", user_id="u")[0] == (
        "Ingrid lives in Oslo"
    )
    assert "Your favorite color is teal" in bullets(
        hashing_memory, "Which colour do I like best?", session_id="t3", user_id="u"
    )


@pytest.mark.core
def test_rare_words_weigh_more_in_the_lexical_score() -> None:
    """The full-text rank: IDF over the owner's facts makes the distinctive word decide."""
    common = [FactMeta(f"f{i}", f"p{i}", "lives_in", "springfield", 0.0, 0.5) for i in range(20)]
    target = FactMeta("t", "sam", "works_at", "springfield hospital", 0.0, 0.5)
    other = FactMeta("o", "sam", "lives_in", "springfield", 0.0, 0.5)
    index = HotIndex([*common, target, other])
    query = words("which hospital in springfield does sam work at")
    idf = index.idf(query)
    assert idf["hospital"] > idf["springfield"]
    assert lexical_match(target, query, idf) > lexical_match(other, query, idf)
    assert lexical_match(target, query, None) == pytest.approx(len(target.terms & query) / len(target.terms))


@pytest.mark.core
def test_decay_reaches_the_hot_index() -> None:
    now = 100 * 86400.0
    fresh = FactMeta("a", "tom", "lives_in", "lyon", now - 86400.0, 0.5)
    old = FactMeta("b", "tom", "works_at", "acme", now - 60 * 86400.0, 0.5)
    off, on = Weights(), Weights(decay=0.95, stale_below=0.1)
    assert decayed(old, now, off) == 0.5 and not stale(old, now, off)
    assert decayed(old, now, on) == pytest.approx(0.5 * 0.95**60) and stale(old, now, on)
    assert not stale(fresh, now, on)


@needs_spacy
def test_decayed_facts_are_not_injected(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", fact_decay=0.5, fact_stale_below=0.2) as memory:
        memory.turn("My friend Tom lives in Lyon.", session_id="s", user_id="u")
    with closing(sqlite3.connect(db_path)) as conn, conn:  # seen a month ago, as an old fact would be
        conn.execute("UPDATE facts SET last_seen = last_seen - 30 * 86400")
    with Memory(db_path, embedder="hashing") as memory:  # decay off: the old fact is still injected
        assert bullets(memory, "Where does Tom live?", session_id="s2", user_id="u")[0] == "Tom lives in Lyon"
    with Memory(db_path, embedder="hashing", fact_decay=0.5, fact_stale_below=0.2) as memory:
        assert memory.turn("Where does Tom live?", session_id="s3", user_id="u").bullets == ()


@needs_spacy
def test_close_saves_the_turn_metrics(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.turn("My friend Tom lives in Lyon.", session_id="s", user_id="u")
    with Memory(db_path, embedder="hashing") as memory:
        saved = summary_of(memory.store.get_meta(META_KEY))
    assert saved["counts"]["turns"] == 1 and saved["stages"]["total"]["p95_ms"] > 0


@pytest.mark.core
def test_blas_limit_is_counted_across_overlapping_sections() -> None:
    pytest.importorskip("threadpoolctl")
    before = [lib["threads"] for lib in blas_info()]
    if not before:
        pytest.skip("no BLAS library loaded")
    with blas_threads(1):
        assert all(lib["threads"] == 1 for lib in blas_info())
        with blas_threads(1):
            pass
        assert all(lib["threads"] == 1 for lib in blas_info())  # the inner exit did not restore early
    assert [lib["threads"] for lib in blas_info()] == before
    with blas_threads(0):  # 0 = leave the library alone
        assert [lib["threads"] for lib in blas_info()] == before
