"""Multi-source federation: per-source weights (checked), domain routing, and `mnemo search --federated`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mnemo import Memory
from mnemo.cli.main import cli
from mnemo.errors import InputError
from mnemo.retrieve.tiers import check_weights, parse_weights

pytestmark = pytest.mark.core


@pytest.fixture
def store(db_path: str) -> Memory:
    memory = Memory(db_path, embedder="hashing")
    memory.add("The backup job failed again last night", id="m1", user_id="ann", session_id="ops", role="user")
    memory.add("The backup job restarts at two", id="m2", user_id="ann", session_id="ops", role="assistant")
    memory.add("Runbook: the backup job restores from the S3 bucket.", kind="document", id="d1", user_id="ann")
    memory.add("Bob's backup job runs on a cron server.", kind="document", id="b1", user_id="bob")
    yield memory
    memory.close()


def test_weights_are_parsed_and_checked() -> None:
    assert parse_weights(["fact=1.5", " document = 0 "]) == {"fact": 1.5, "document": 0.0}
    assert check_weights(None) == {} and check_weights({"message": 2}) == {"message": 2.0}
    for bad, said in [
        (["fact"], "KIND=NUMBER"),
        (["fact=lots"], "KIND=NUMBER"),
        (["gossip=1"], "unknown source 'gossip'"),
        (["fact=-1"], "0 or more"),
        (["fact=inf"], "0 or more"),
    ]:
        with pytest.raises(InputError, match=said):
            parse_weights(bad)
    with pytest.raises(InputError, match="0 or more"):
        check_weights({"fact": True})


def test_hits_carry_the_fused_score_they_are_ranked_by(store: Memory) -> None:
    found = store.federated_search("what do the docs say about the backup job", user_id="ann")
    assert found.routed_to == ["document"] and found.hits[0].id == "d1"
    # weighted RRF: the routed document source (1.0 x 1.5) puts d1 first of its list, rrf_k is 10
    assert found.hits[0].score == pytest.approx(1.5 / (10 + 1))
    scores = [hit.score for hit in found.hits]
    assert scores == sorted(scores, reverse=True)
    assert "b1" not in [hit.id for hit in found.hits]  # another user's document


def test_memory_refuses_bad_options(store: Memory) -> None:
    with pytest.raises(InputError, match="unknown source"):
        store.federated_search("backup", weights={"gossip": 1.0})
    with pytest.raises(InputError, match="routing"):
        store.federated_search("backup", routing="no")
    with pytest.raises(InputError, match="unknown option"):
        store.federated_search("backup", iterative=True)


def test_cli_federated_json_explain_and_errors(store: Memory, db_path: str) -> None:
    store.close()
    base = ["--db", db_path, "--embedder", "hashing", "search", "--user", "ann"]
    runner = CliRunner()
    routed = json.loads(
        runner.invoke(cli, [*base, "what do the docs say about the backup job", "--federated", "--json"]).output
    )
    assert routed["routed_to"] == ["document"] and routed["hits"][0]["id"] == "d1"
    assert routed["sources"]["document"]["weight"] == 1.5 and routed["sources"]["message"]["weight"] == 1.0
    muted = runner.invoke(cli, [*base, "the backup job", "--federated", "--source-weight", "document=0", "--json"])
    assert [h["kind"] for h in json.loads(muted.output)["hits"]] == ["message", "message"]
    plain = runner.invoke(cli, [*base, "what do the docs say", "--federated", "--no-routing", "--explain"])
    assert plain.exit_code == 0 and "sources: document x1: 1 hit;" in plain.output and "(routed)" not in plain.output
    for args, said in [
        (["backup", "--source-weight", "fact=2"], "--source-weight needs --federated"),
        (["backup", "--no-routing"], "--no-routing needs --federated"),
        (["backup", "--federated", "--iterative"], "leave out --iterative"),
        (["backup", "--federated", "--source-weight", "fact"], "KIND=NUMBER"),
        (["backup", "--federated", "--category", "skills"], "--category works with the default search"),
    ]:
        refused = runner.invoke(cli, [*base, *args])
        assert refused.exit_code == 2 and said in refused.output, refused.output
