"""`mnemo serve` end to end: a real uvicorn process on a free loopback port, real HTTP requests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("mcp")
pytest.importorskip("anyio")
pytest.importorskip("uvicorn")

import anyio  # noqa: E402
from mcp import Client  # noqa: E402

from mnemo.server.run import check_bind, is_loopback  # noqa: E402
from tests.live_server import mnemo_server  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_conversation.jsonl"
KEY = "k3y-for-tests-0123"


@contextmanager
def running(db: str, *args: str, host: str = "127.0.0.1", serve: tuple[str, ...] = ("serve",)) -> Iterator[str]:
    """Start `mnemo serve` (or ``serve``) and yield its base URL once /health answers; stop it afterwards."""
    with mnemo_server(db, *args, host=host, serve=serve) as port:
        yield f"http://127.0.0.1:{port}"


def post(base: str, operation: str, body: object, **kwargs: object) -> httpx.Response:
    return httpx.post(f"{base}/v1/{operation}", json=body, timeout=30, **kwargs)


def test_every_operation_as_json(db_path: str) -> None:
    with running(db_path) as base:
        assert post(base, "import_sources", {"paths": [str(EXAMPLE)]}).json()["added"] == 15
        stored = post(base, "remember", {"content": "Use uv for Python installs", "project": "infra"}).json()
        assert stored["project"] == "infra"
        hits = post(base, "recall", {"query": "python installs", "project": "infra"}).json()["hits"]
        assert [h["id"] for h in hits] == [stored["id"]]
        block = post(base, "context", {"query": "Lisbon wedding", "max_tokens": 120}).json()
        assert "Lisbon" in block["text"] and block["tokens"] <= 120
        assert httpx.get(f"{base}/v1/memories/{stored['id']}").json()["project"] == "infra"
        sessions = post(base, "search_sessions", {"query": "greyhound"}).json()["sessions"]
        assert sessions[0]["session_id"] == "s2"
        assert httpx.delete(f"{base}/v1/memories/{stored['id']}").json()["deleted"] == 1
        assert httpx.get(f"{base}/v1/memories/{stored['id']}").status_code == 404
        assert httpx.get(f"{base}/v1/stats").json()["by_kind"]["message"] == 15
        newest = httpx.get(f"{base}/v1/recent", params={"limit": 3}).json()["memories"]
        assert len(newest) == 3 and newest[0]["timestamp"] >= newest[-1]["timestamp"]
        assert httpx.get(f"{base}/v1/recent", params={"limit": "x"}).status_code == 400
        assert httpx.get(f"{base}/v1/stats", params={"project": "infra"}).json()["items"] == 0


def test_errors_are_json_with_the_right_status(db_path: str) -> None:
    with running(db_path) as base:
        bad_json = httpx.post(f"{base}/v1/recall", content=b"{not json", timeout=10)
        assert bad_json.status_code == 400 and "not valid JSON" in bad_json.json()["error"]
        assert post(base, "recall", ["a", "list"]).status_code == 400
        wrong_type = post(base, "recall", {"query": "x", "limit": "lots"})
        assert wrong_type.status_code == 400 and wrong_type.json()["error"].startswith("limit:")
        missing = post(base, "recall", {})
        assert missing.status_code == 400 and "query" in missing.json()["error"]
        assert "ISO-8601" in post(base, "recall", {"query": "x", "since": "soon"}).json()["error"]
        assert post(base, "teleport", {}).status_code == 404
        assert post(base, "recall", {"query": "still alive?"}).status_code == 200


def test_openapi_describes_every_operation(db_path: str) -> None:
    with running(db_path) as base:
        spec = httpx.get(f"{base}/openapi.json").json()
        tools = set(httpx.get(f"{base}/health").json()["tools"])
    assert spec["openapi"].startswith("3.1")
    assert {f"/v1/{name}" for name in tools} <= set(spec["paths"])
    recall = spec["paths"]["/v1/recall"]["post"]
    body = recall["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["query"] and "max_tokens" in body["properties"]
    assert "hits" in recall["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    assert "$defs" not in json.dumps(spec)  # every local reference was moved into components
    assert {"get", "delete"} <= set(spec["paths"]["/v1/memories/{item_id}"])


def test_api_key_is_required_when_set(db_path: str) -> None:
    with running(db_path, "--api-key", KEY) as base:
        assert httpx.get(f"{base}/health").status_code == 200  # reveals nothing stored
        assert httpx.get(f"{base}/v1/stats").status_code == 401
        assert httpx.get(f"{base}/v1/stats", headers={"X-API-Key": "wrong-key-123"}).status_code == 401
        assert httpx.get(f"{base}/openapi.json").status_code == 401
        assert post(base, "recall", {"query": "x"}).status_code == 401
        assert httpx.get(f"{base}/v1/stats", headers={"X-API-Key": KEY}).status_code == 200
        assert httpx.get(f"{base}/v1/stats", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
        assert httpx.post(f"{base}/mcp", json={}, headers={"Accept": "application/json"}).status_code == 401


def test_refuses_to_listen_beyond_this_machine_without_a_key(db_path: str) -> None:
    env = {**os.environ, "MNEMO_EMBEDDER": "hashing"}
    for command in (["serve", "--host", "0.0.0.0"], ["mcp", "--http", "--host", "192.168.1.20"]):
        result = subprocess.run(
            [sys.executable, "-m", "mnemo", "--db", db_path, *command],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert result.returncode == 2 and "refusing to listen" in result.stderr, result.stderr
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.8.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.0.0.5") and not is_loopback("example.com")
    check_bind("0.0.0.0", KEY)  # allowed with a key
    with pytest.raises(ValueError, match="too short"):
        check_bind("127.0.0.1", "abc")


def test_non_loopback_with_a_key_serves_and_checks_it(db_path: str) -> None:
    with running(db_path, "--api-key", KEY, host="0.0.0.0") as base:
        assert httpx.get(f"{base}/v1/stats").status_code == 401
        assert httpx.get(f"{base}/v1/stats", headers={"X-API-Key": KEY}).status_code == 200


def test_pinned_service_keeps_its_scope(db_path: str) -> None:
    with running(db_path) as base:
        post(base, "remember", {"content": "erin's note about the garden", "user_id": "erin"})
        post(base, "remember", {"content": "frank's note about the garden", "user_id": "frank"})
    with running(db_path, "--user", "erin") as base:
        hits = post(base, "recall", {"query": "note about the garden"}).json()["hits"]
        assert [h["user_id"] for h in hits] == ["erin"]
        refused = post(base, "recall", {"query": "garden", "user_id": "frank"})
        assert refused.status_code == 400 and "pinned" in refused.json()["error"]
        assert httpx.get(f"{base}/v1/stats", params={"user_id": "frank"}).status_code == 400


def test_mcp_over_http_and_concurrent_clients(db_path: str) -> None:
    with running(db_path) as base:
        post(base, "import_sources", {"paths": [str(EXAMPLE)]})

        async def talk() -> list[str]:
            async with Client(f"{base}/mcp") as client:
                result = await client.call_tool("recall", {"query": "greyhound", "limit": 3})
                return [h["content"] for h in result.structured_content["hits"]]

        assert any("Juniper" in text for text in anyio.run(talk))

        def client_session(number: int) -> list[int]:
            with httpx.Client(base_url=base, timeout=30) as client:
                statuses = []
                for turn in range(10):
                    if turn % 3 == 0:
                        reply = client.post("/v1/remember", json={"content": f"client {number} turn {turn}"})
                    else:
                        reply = client.post("/v1/recall", json={"query": f"client {number} consumer lag"})
                    statuses.append(reply.status_code)
                return statuses

        with ThreadPoolExecutor(max_workers=10) as pool:
            statuses = [s for batch in pool.map(client_session, range(10)) for s in batch]
        assert statuses == [200] * 100
        kinds = httpx.get(f"{base}/v1/stats").json()["by_kind"]
        assert kinds["message"] == 15 and kinds["note"] == 40


def test_mcp_http_transport_alone(db_path: str) -> None:
    with running(db_path, "--project", "p1", serve=("mcp", "--http")) as base:
        assert post(base, "recall", {"query": "x"}).status_code == 404  # only MCP here, no JSON API

        async def talk() -> tuple[dict[str, object], bool]:
            async with Client(f"{base}/mcp") as client:
                stored = await client.call_tool("remember", {"content": "pinned over HTTP"})
                refused = await client.call_tool("recall", {"query": "pinned", "project": "p2"})
                return stored.structured_content, refused.is_error

        stored, refused = anyio.run(talk)
        assert stored["project"] == "p1" and refused
