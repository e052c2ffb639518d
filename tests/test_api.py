"""The Memory facade on real SQLite files: round trips, idempotence, scope, filters, bad input."""

from __future__ import annotations

import string
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemo import ConfigError, InputError, Memory, MissingExtra
from mnemo.embed.hashing import HashingEmbedder
from tests.conftest import HAS_MODEL

pytestmark = pytest.mark.core

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=200).filter(
    lambda s: s.strip()
)
json_scalar = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20)
metadata = st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=8), json_scalar, max_size=4)
moments = st.datetimes(
    min_value=datetime(1971, 1, 1),
    max_value=datetime(2100, 1, 1),
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=-5))]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=text, meta=metadata, moment=moments, role=st.none() | st.sampled_from(["user", "assistant", "Ana"]))
def test_add_get_round_trip(
    hashing_memory: Memory, content: str, meta: dict, moment: datetime, role: str | None
) -> None:
    item = hashing_memory.add(content, role=role, timestamp=moment, metadata=meta, session_id="s", id="rt")
    stored = hashing_memory.get("rt")
    assert stored is not None and item.id == "rt"
    assert stored.content == content
    assert dict(stored.metadata) == meta
    assert stored.role == role
    assert stored.timestamp == moment  # equal instants, now expressed in UTC
    assert stored.timestamp.tzinfo is not None and stored.timestamp.utcoffset() == timedelta(0)


def test_naive_and_iso_timestamps_are_utc(hashing_memory: Memory) -> None:
    hashing_memory.add("naive", id="n", timestamp=datetime(2024, 5, 1, 12, 0))
    hashing_memory.add("iso", id="i", timestamp="2024-05-01T14:00:00+02:00")
    assert hashing_memory.get("n").timestamp == datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    assert hashing_memory.get("i").timestamp == datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def test_readding_an_id_updates_instead_of_duplicating(hashing_memory: Memory) -> None:
    hashing_memory.add("first version", id="ext-1", user_id="u1")
    hashing_memory.add("second version", id="ext-1", user_id="u1")
    assert hashing_memory.stats()["items"] == 1
    assert hashing_memory.get("ext-1").content == "second version"
    assert [h.content for h in hashing_memory.search("version")] == ["second version"]


def test_add_many_is_idempotent_and_counts(hashing_memory: Memory) -> None:
    records = [{"content": f"turn number {i} about gardening", "id": f"t{i}", "session_id": "s1"} for i in range(600)]
    first = hashing_memory.add_many(records)
    again = hashing_memory.add_many(records)
    assert (first.added, first.updated, first.unchanged) == (600, 0, 0)
    assert (again.added, again.updated, again.unchanged) == (0, 0, 600)
    assert hashing_memory.stats()["items"] == 600


def test_add_many_rejects_a_bad_record_before_writing_its_batch(hashing_memory: Memory) -> None:
    with pytest.raises(InputError, match="record 1"):
        hashing_memory.add_many([{"content": "fine", "id": "a"}, {"content": "   ", "id": "b"}])
    assert hashing_memory.stats()["items"] == 0
    report = hashing_memory.add_many(
        [{"content": "fine", "id": "a"}, {"content": "", "id": "b"}, {"content": "x", "kind": "bogus"}],
        skip_invalid=True,
    )
    assert (report.added, report.skipped) == (1, 2)
    assert "empty" in report.errors[0] and "unknown kind" in report.errors[1]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"content": ""}, "empty"),
        ({"content": " \n\t "}, "empty"),
        ({"content": "ok", "timestamp": "yesterday-ish"}, "ISO-8601"),
        ({"content": "ok", "timestamp": float("nan")}, "finite"),
        ({"content": b"\xff\xfe bad bytes"}, "UTF-8"),
        ({"content": "ok", "kind": "poem"}, "unknown kind"),
        ({"content": "ok", "metadata": ["not", "a", "dict"]}, "metadata"),
        ({"content": 42}, "text"),
    ],
)
def test_bad_input_gets_a_clear_error_and_writes_nothing(hashing_memory: Memory, kwargs: dict, message: str) -> None:
    content = kwargs.pop("content")
    with pytest.raises(InputError, match=message):
        hashing_memory.add(content, **kwargs)
    assert hashing_memory.stats()["items"] == 0


def test_huge_message_is_stored_whole_and_searchable(hashing_memory: Memory) -> None:
    big = ("lorem ipsum dolor sit amet " * 400_000)[:10_000_000] + " zebracorn"
    hashing_memory.add(big, id="big")
    assert len(hashing_memory.get("big").content) == len(big)
    assert hashing_memory.search("zebracorn")[0].id == "big"
    assert len(hashing_memory.context("zebracorn", max_tokens=200)) < 2000


@pytest.mark.parametrize("query", ['"', "*", "NEAR(", "AND OR", 'foo" OR "bar', "col:value ^", "(((", "-", "NOT"])
def test_fts5_syntax_in_queries_is_harmless(hashing_memory: Memory, query: str) -> None:
    hashing_memory.add("near the river bank we walked", id="a")
    assert isinstance(hashing_memory.search(query), list)


@pytest.mark.parametrize("query", ["", "   ", None, 5])
def test_empty_or_non_text_query_explains_itself(hashing_memory: Memory, query: object) -> None:
    with pytest.raises(InputError, match="query"):
        hashing_memory.search(query)  # type: ignore[arg-type]


def test_bad_search_arguments(hashing_memory: Memory) -> None:
    with pytest.raises(InputError, match="limit"):
        hashing_memory.search("x", limit=0)
    with pytest.raises(InputError, match="unknown kind"):
        hashing_memory.search("x", kind="poem")
    with pytest.raises(InputError, match="since"):
        hashing_memory.search("x", since="2024-02-01", until="2024-01-01")


def test_ten_thousand_term_query(hashing_memory: Memory) -> None:
    hashing_memory.add("needle in the haystack", id="n")
    query = " ".join(f"term{i}" for i in range(10_000)) + " needle"
    assert isinstance(hashing_memory.search(query), list)


def test_filters_kind_session_and_time(hashing_memory: Memory) -> None:
    hashing_memory.add("budget meeting notes", id="a", kind="note", session_id="s1", timestamp="2024-01-10")
    hashing_memory.add("budget meeting chat", id="b", kind="message", session_id="s2", timestamp="2024-03-10")
    assert [h.id for h in hashing_memory.search("budget", kind="note")] == ["a"]
    assert [h.id for h in hashing_memory.search("budget", session_id="s2")] == ["b"]
    assert [h.id for h in hashing_memory.search("budget", since="2024-02-01")] == ["b"]
    assert [h.id for h in hashing_memory.search("budget", until="2024-02-01")] == ["a"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    owners=st.lists(st.sampled_from(["alice", "bob", "carol"]), min_size=1, max_size=12),
    query=st.sampled_from(["secret plans", "garden", "the", "alice bob carol"]),
)
def test_a_users_search_never_returns_another_users_memories(
    hashing_memory: Memory, owners: list[str], query: str
) -> None:
    for number, owner in enumerate(owners):
        hashing_memory.add(f"{owner}'s secret plans for the garden {number}", user_id=owner, id=f"{owner}-{number}")
    for user in ("alice", "bob", "carol", "dave"):
        hits = hashing_memory.search(query, limit=50, user_id=user)
        assert all(hit.item.user_id == user for hit in hits)
        assert all(r["user_id"] == user for r in hashing_memory.export(user_id=user))
        assert all(h.item.user_id == user for h in hashing_memory.context_pack(query, 500, user_id=user).used)


def test_pinned_memory_cannot_leave_its_scope(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as shared:
        shared.add("bob's diary", user_id="bob", id="d")
    with Memory(db_path, embedder="hashing", user_id="alice") as alice:
        alice.add("alice's diary", id="d")
        assert [h.item.user_id for h in alice.search("diary")] == ["alice"]
        assert alice.get("d").content == "alice's diary"
        with pytest.raises(InputError, match="pinned"):
            alice.search("diary", user_id="bob")
        with pytest.raises(InputError, match="pinned"):
            alice.add("sneaky", user_id="bob")
        assert alice.delete("d") == 1
    with Memory(db_path, embedder="hashing") as shared:
        assert shared.get("d", user_id="bob").content == "bob's diary"


def test_delete_removes_from_every_strategy(hashing_memory: Memory) -> None:
    hashing_memory.add("the launch code is tangerine", id="secret")
    assert hashing_memory.search("launch code")[0].id == "secret"
    assert hashing_memory.delete("secret") == 1
    assert hashing_memory.get("secret") is None
    assert hashing_memory.search("launch code tangerine") == []
    assert hashing_memory.delete("secret") == 0


def test_export_round_trips_through_add_many(tmp_path, hashing_memory: Memory) -> None:
    hashing_memory.add(
        "a fact about owls", id="f1", kind="fact", user_id="u", metadata={"k": 1}, timestamp="2023-05-08"
    )
    hashing_memory.add("a note", id="n1", kind="note", project="p", session_id="s")
    exported = list(hashing_memory.export())
    with Memory(str(tmp_path / "copy.db"), embedder="hashing") as copy:
        report = copy.add_many(exported)
        assert report.added == 2
        assert [{k: v for k, v in r.items() if k != "ingested_at"} for r in copy.export()] == [
            {k: v for k, v in r.items() if k != "ingested_at"} for r in exported
        ]


def test_embedder_mismatch_is_a_clear_config_error(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add("made with hashing vectors")
    with Memory(db_path) as auto:  # auto follows the store's recorded model
        assert auto.embedder is not None and auto.embedder.name.startswith("hashing")
    from mnemo.embed.base import Embedder

    class Other(Embedder):
        name, dim = "other-model", 8

        def embed_batch(self, texts):  # pragma: no cover - never reached
            raise AssertionError

    with pytest.raises(ConfigError, match="reindex"):
        Memory(db_path, embedder=Other())


def test_without_embeddings_keyword_overlap_ranks(db_path: str) -> None:
    with Memory(db_path, embedder="none") as memory:
        memory.add("apples and pears and plums", id="a")
        memory.add("apples only", id="b")
        hits = memory.search("apples pears plums")
        assert [h.id for h in hits][:2] == ["a", "b"]
        assert "keyword" in hits[0].ranks and "semantic" not in hits[0].ranks


def test_reindex_switches_models(db_path: str) -> None:
    with Memory(db_path, embedder="none") as memory:
        memory.add("stored before any model", id="a")
        assert memory.reindex("hashing") == 1
    with Memory(db_path) as memory:
        hit = memory.search("stored model")[0]
        assert hit.id == "a" and "semantic" in hit.ranks


def test_hits_carry_their_evidence(hashing_memory: Memory) -> None:
    hashing_memory.add(
        "Caroline went to the support group", role="Caroline", session_id="1", timestamp="2023-05-08", id="D1:3"
    )
    hit = hashing_memory.search("support group")[0]
    record = hit.as_dict()
    assert record["id"] == "D1:3" and record["role"] == "Caroline" and record["session_id"] == "1"
    assert {"lexical", "semantic"} <= set(hit.ranks) and hit.score > 0
    assert record["timestamp"].startswith("2023-05-08")


class CountingEmbedder(HashingEmbedder):
    """The real hashing embedder, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed_batch(self, texts):  # type: ignore[no-untyped-def]
        self.texts.extend(texts)
        return super().embed_batch(texts)


def test_embeddings_are_cached_by_the_text_they_come_from(db_path: str) -> None:
    counter = CountingEmbedder()
    with Memory(db_path, embedder=counter) as memory:
        memory.add("the same words", id="a", role="Ana")
        memory.add("the same words", id="b", role="Ana")  # cached: same speaker, same text
        memory.add_many([{"content": "the same words", "id": f"c{i}", "role": "Ana"} for i in range(5)])
        assert counter.texts == ["Ana: the same words"]
        memory.add("the same words", id="d", role="Ben")  # another speaker is another text
        assert counter.texts[-1] == "Ben: the same words" and len(counter.texts) == 2
        memory.add("the same words", id="a", role="Ana", metadata={"x": 1})  # metadata change: no re-embed
        assert len(counter.texts) == 2


@pytest.mark.skipif(HAS_MODEL, reason="checks the core-only install, where the model is absent")
def test_core_install_falls_back_to_hashing_and_names_the_extra(db_path: str) -> None:
    with Memory(db_path) as memory:
        assert memory.embedder is not None and memory.embedder.name.startswith("hashing")
        memory.add("works without the model", id="a")
        assert memory.search("model")[0].id == "a"
    with pytest.raises(MissingExtra, match=r"mnemo\[local\]"):
        Memory(str(Path(db_path).with_name("other.db")), embedder="minilm")


@pytest.mark.skipif(not HAS_MODEL, reason="needs the 'local' extra")
def test_full_install_defaults_to_the_bundled_model(db_path: str) -> None:
    with Memory(db_path) as memory:
        assert memory.embedder is not None and memory.embedder.name == "all-MiniLM-L6-v2"


def test_pin_cannot_be_escaped_with_non_text_owner_values(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", user_id="alice") as alice:
        with pytest.raises(InputError, match="pinned"):
            alice.add("x", user_id=0)  # type: ignore[arg-type]
        report = alice.add_many([{"content": "y", "user_id": 0.0}, {"content": "z"}], skip_invalid=True)
        assert (report.added, report.skipped) == (1, 1) and "pinned" in report.errors[0]
    with Memory(db_path, embedder="hashing", user_id="5") as five:
        five.add("numbers are text", user_id=5, id="n")  # type: ignore[arg-type]
        assert five.get("n").user_id == "5"  # the same owner once normalised


@pytest.mark.parametrize("value", ["", "   ", 0, ["a"]])
def test_empty_or_odd_scope_values_are_refused_not_read_as_any(hashing_memory: Memory, value: object) -> None:
    hashing_memory.add("private", user_id="alice", id="p")
    with pytest.raises(InputError, match="user_id"):
        hashing_memory.search("private", user_id=value)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="user_id"):
        hashing_memory.delete("p", user_id=value)  # type: ignore[arg-type]
    assert hashing_memory.get("p", user_id="alice") is not None


@pytest.mark.parametrize(
    "moment", ["9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"]
)
def test_timestamps_that_cannot_round_trip_are_refused(hashing_memory: Memory, moment: str) -> None:
    with pytest.raises(InputError, match="range"):
        hashing_memory.add("edge of time", timestamp=moment)


def test_invalid_unicode_in_any_text_field_is_skipped_and_counted(hashing_memory: Memory) -> None:
    records = [
        {"content": "fine"},
        {"content": "bad role", "role": "\ud800"},
        {"content": "bad metadata", "metadata": {"k": "\udfff"}},
        {"content": "bad key", 1: 2},
    ]
    report = hashing_memory.add_many(records, skip_invalid=True)  # type: ignore[list-item]
    assert (report.added, report.skipped) == (1, 3)


def test_explicit_arguments_win_over_a_given_config(tmp_path: Path) -> None:
    from mnemo.config import Config

    path = str(tmp_path / "given.db")
    with Memory(path, config=Config(), embedder="hashing") as memory:
        memory.add("here")
    assert Path(path).exists()


def test_context_refuses_unknown_filters(hashing_memory: Memory) -> None:
    with pytest.raises(InputError, match="limit"):
        hashing_memory.context("x", limit=3)
    with pytest.raises(InputError, match="kind"):
        hashing_memory.search("x", kind=5)  # type: ignore[arg-type]


def test_two_models_cannot_write_into_one_store(db_path: str) -> None:
    first = Memory(db_path, embedder="hashing")
    second = Memory(db_path, embedder=HashingEmbedder(dim=64))  # opened before the first write
    first.add("made by the 384-d hashing model")
    with pytest.raises(ConfigError, match="reindex"):
        second.add("made by another model")
    assert first.stats()["items"] == 1
    first.close()
    second.close()


@pytest.mark.core
def test_recent_is_newest_first_by_event_time_within_scope(hashing_memory: Memory) -> None:
    hashing_memory.add("the oldest", id="a", timestamp="2024-01-01T00:00:00Z", user_id="ann")
    hashing_memory.add("the newest", id="b", timestamp="2024-03-01T00:00:00Z", user_id="ann")
    hashing_memory.add("in between", id="c", timestamp="2024-02-01T00:00:00Z", user_id="ann")
    hashing_memory.add("someone else's, stored last", id="d", timestamp="2025-01-01T00:00:00Z", user_id="bob")
    assert [item.id for item in hashing_memory.recent(2, user_id="ann")] == ["b", "c"]
    assert [item.id for item in hashing_memory.recent(10, user_id="ann", kind="fact")] == []
    with pytest.raises(InputError, match="limit"):
        hashing_memory.recent(0)
