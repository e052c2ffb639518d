"""`mnemo mcp` end to end: a real subprocess spoken to over stdio by the SDK's own client."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("anyio")

import anyio
from mcp import Client, StdioServerParameters

from tests.conftest import needs_model

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_conversation.jsonl"


def over_stdio(db: str, body: Callable[[Client], Awaitable[Any]], *args: str, **env: str) -> Any:
    environment = {**os.environ, "MNEMO_EMBEDDER": "hashing", **env}
    command = [sys.executable, "-m", "mnemo", "--db", db, "mcp", *args]
    params = StdioServerParameters(command=command[0], args=command[1:], env=environment)

    async def main() -> Any:
        with anyio.fail_after(120):
            async with Client(params, read_timeout_seconds=60) as client:
                return await body(client)

    return anyio.run(main)


async def ok(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


async def error(client: Client, name: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(name, arguments)
    assert result.is_error
    return result.content[0].text


def test_every_tool_over_stdio(db_path: str) -> None:
    async def body(client: Client) -> None:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"remember", "recall", "context", "get", "forget", "stats", "import_sources", "search_sessions"} <= names

        report = await ok(client, "import_sources", {"paths": [str(EXAMPLE)]})
        assert report["added"] == 15 and report["dropped"] == {"invalid_json": 1}
        stored = await ok(client, "remember", {"content": "Dana prefers tabs over spaces", "session_id": "s9"})
        hits = (await ok(client, "recall", {"query": "tabs or spaces?", "limit": 3}))["hits"]
        assert hits[0]["id"] == stored["id"] and hits[0]["session_id"] == "s9"
        block = await ok(client, "context", {"query": "Lisbon wedding", "max_tokens": 150})
        assert "Lisbon" in block["text"] and block["tokens"] <= 150
        assert (await ok(client, "get", {"id": stored["id"]}))["session_id"] == "s9"
        sessions = (await ok(client, "search_sessions", {"query": "greyhound"}))["sessions"]
        assert sessions[0]["session_id"] == "s2"
        messages = (await ok(client, "read_session", {"session_id": "s2"}))["messages"]
        assert len(messages) == 4
        assert (await ok(client, "forget", {"id": messages[0]["id"]}))["deleted"] == 1
        assert (await ok(client, "stats", {}))["by_kind"]["message"] == 14
        recent = json.loads((await client.read_resource("mnemo://memories/recent")).contents[0].text)
        assert recent["memories"][0]["id"] == stored["id"]  # stamped now: the newest

        # bad arguments: an error the model can read, and the server answers the next call
        assert "valid integer" in await error(client, "recall", {"query": "x", "limit": "ten"})
        assert "query" in await error(client, "recall", {"limit": 3})
        assert "ISO-8601" in await error(client, "remember", {"content": "x", "timestamp": "yesterday-ish"})
        assert "no memory with id" in await error(client, "get", {"id": messages[0]["id"]})
        assert (await ok(client, "recall", {"query": "greyhound"}))["hits"]

    over_stdio(db_path, body)


def test_stdio_server_pinned_by_environment(db_path: str) -> None:
    async def plant(client: Client) -> None:
        await ok(client, "remember", {"content": "carol's diary: the launch slipped", "user_id": "carol"})
        await ok(client, "remember", {"content": "dave's diary: the launch slipped", "user_id": "dave"})

    over_stdio(db_path, plant)

    async def body(client: Client) -> None:
        hits = (await ok(client, "recall", {"query": "diary launch slipped"}))["hits"]
        assert [h["user_id"] for h in hits] == ["carol"]
        assert "pinned to user_id='carol'" in await error(client, "recall", {"query": "diary", "user_id": "dave"})
        assert (await ok(client, "stats", {}))["items"] == 1

    over_stdio(db_path, body, MNEMO_USER="carol")
    over_stdio(db_path, body, "--user", "carol")


@needs_model
def test_real_model_recalls_a_paraphrase_over_stdio(db_path: str) -> None:
    async def body(client: Client) -> None:
        await ok(client, "remember", {"content": "The staging database password rotates every ninety days"})
        await ok(client, "remember", {"content": "Our team lunch is on Thursdays at noon"})
        await ok(client, "remember", {"content": "Frontend builds use Vite instead of webpack"})
        hits = (await ok(client, "recall", {"query": "how often do credentials change?", "limit": 3}))["hits"]
        assert "password rotates" in hits[0]["content"]
        assert (await ok(client, "stats", {}))["embedder"] == "all-MiniLM-L6-v2"

    over_stdio(db_path, body, MNEMO_EMBEDDER="minilm")
