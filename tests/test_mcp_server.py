"""The MCP server through the SDK's real client, connected in-process (``mcp.Client(server)``)."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("anyio")

import anyio
from mcp import Client

from mnemo import Memory
from mnemo.context.budget import estimate_tokens
from mnemo.mcp.server import build_server
from mnemo.mcp.sizing import HARD_MAX_TOKENS

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_conversation.jsonl"
BASE_TOOLS = {
    "remember",
    "recall",
    "context",
    "get",
    "forget",
    "stats",
    "import_sources",
    "search_sessions",
    "read_session",
}


def with_client(memory: Memory, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(build_server(memory)) as client:
            return await body(client)

    return anyio.run(main)


async def call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A successful call's structured result, checked to match the JSON text the model reads."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content[0].text
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def fails(client: Client, name: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(name, arguments)
    assert result.is_error, result
    return result.content[0].text


def test_tools_are_described_and_typed(hashing_memory: Memory) -> None:
    listed = with_client(hashing_memory, lambda c: c.list_tools())
    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) >= BASE_TOOLS
    for tool in tools.values():
        assert len(tool.description) > 30 and tool.output_schema
        assert tool.input_schema["type"] == "object"
    recall = tools["recall"].input_schema
    assert recall["required"] == ["query"]
    assert recall["properties"]["max_tokens"]["maximum"] == HARD_MAX_TOKENS
    assert tools["recall"].annotations.read_only_hint and tools["forget"].annotations.destructive_hint


def test_remember_recall_context_get_forget(hashing_memory: Memory) -> None:
    async def body(client: Client) -> None:
        stored = await call(client, "remember", {"content": "We decided to ship the beta on Friday", "role": "user"})
        await call(client, "remember", {"content": "Lunch was pizza", "kind": "message"})
        found = await call(client, "recall", {"query": "when do we ship the beta?", "limit": 5})
        assert found["hits"][0]["id"] == stored["id"] and found["hits"][0]["role"] == "user"
        block = await call(client, "context", {"query": "beta ship date", "max_tokens": 200})
        assert "Friday" in block["text"] and block["tokens"] <= 200 and stored["id"] in block["used"]
        item = await call(client, "get", {"id": stored["id"]})
        assert item["content"] == "We decided to ship the beta on Friday" and item["kind"] == "note"
        assert await call(client, "forget", {"id": stored["id"]}) == {"id": stored["id"], "deleted": 1}
        assert "no memory with id" in await fails(client, "get", {"id": stored["id"]})
        stats = await call(client, "stats", {})
        assert stats["items"] == 1 and stats["by_kind"] == {"message": 1}

    with_client(hashing_memory, body)


def test_bad_arguments_are_tool_errors_and_the_server_keeps_answering(hashing_memory: Memory) -> None:
    async def body(client: Client) -> None:
        hashing_memory.add("the cat sat on the mat", id="c1")
        cases = [
            ("recall", {}, "query"),
            ("recall", {"query": ""}, "at least 1 character"),
            ("recall", {"query": "cat", "limit": "many"}, "valid integer"),
            ("recall", {"query": "cat", "limit": 0}, "greater than or equal to 1"),
            ("recall", {"query": "cat", "kind": ["gossip"]}, "gossip"),
            ("recall", {"query": "cat", "since": "last tuesday"}, "ISO-8601"),
            ("recall", {"query": "cat", "since": "2024-02-01", "until": "2024-01-01"}, "since must be earlier"),
            ("recall", {"query": "cat", "max_tokens": 10**6}, "less than or equal to 8000"),
            ("remember", {"content": "   "}, "empty"),
            ("remember", {"content": "x", "metadata": "not an object"}, "metadata"),
            ("get", {"id": "nope"}, "no memory with id 'nope'"),
            ("import_sources", {"paths": ["/no/such/file.jsonl"]}, "no such file"),
            ("nonexistent_tool", {}, "Unknown tool"),
        ]
        for name, arguments, expected in cases:
            message = await fails(client, name, arguments)
            assert expected in message, (name, arguments, message)
            # the very next call still works
            assert (await call(client, "recall", {"query": "cat"}))["hits"][0]["id"] == "c1"

    with_client(hashing_memory, body)


def test_answers_stay_within_max_tokens(hashing_memory: Memory) -> None:
    hashing_memory.add_many(
        {"id": f"log{i}", "content": f"incident {i}: the nightly deploy failed " + "stack frame " * 2000}
        for i in range(40)
    )

    async def body(client: Client) -> None:
        for cap in (300, 2000, HARD_MAX_TOKENS):
            result = await client.call_tool("recall", {"query": "deploy failed", "limit": 40, "max_tokens": cap})
            text = result.content[0].text
            assert estimate_tokens(text) <= cap and result.structured_content["returned"] >= 1
            assert result.structured_content["omitted"] > 0
        default = await client.call_tool("recall", {"query": "deploy failed", "limit": 40})
        assert estimate_tokens(default.content[0].text) <= 2000
        item = await client.call_tool("get", {"id": "log3", "max_tokens": 500})
        assert estimate_tokens(item.content[0].text) <= 500 and item.structured_content["truncated"]
        block = await client.call_tool("context", {"query": "deploy", "max_tokens": HARD_MAX_TOKENS})
        assert estimate_tokens(block.content[0].text) <= HARD_MAX_TOKENS + 200  # the block plus its JSON envelope

    with_client(hashing_memory, body)


def test_import_then_find_what_we_discussed(hashing_memory: Memory) -> None:
    async def body(client: Client) -> None:
        report = await call(client, "import_sources", {"paths": [str(EXAMPLE)]})
        assert report["added"] == 15 and report["dropped"] == {"invalid_json": 1}
        found = await call(client, "recall", {"query": "consumer lag partitions", "limit": 3})
        assert all("partition" in h["content"] for h in found["hits"][:2])
        sessions = await call(client, "search_sessions", {"query": "greyhound OR wedding", "limit": 5})
        assert {s["session_id"] for s in sessions["sessions"]} >= {"s2"}
        narrowed = await call(client, "search_sessions", {"query": "Juniper", "require": ["fence"]})
        assert [s["session_id"] for s in narrowed["sessions"]] == ["s2"]
        assert (await call(client, "search_sessions", {"query": "greyhound", "exclude": ["Juniper"]}))["sessions"] == []
        conversation = await call(client, "read_session", {"session_id": "s2"})
        assert len(conversation["messages"]) == 4 and "next_offset" not in conversation
        assert "no session" in await fails(client, "read_session", {"session_id": "nope"})
        assert "greater than or equal to 0" in await fails(client, "read_session", {"session_id": "s2", "offset": -1})

    with_client(hashing_memory, body)


def test_recent_memories_resource(hashing_memory: Memory) -> None:
    hashing_memory.add("older note", timestamp="2024-01-01T00:00:00Z")
    hashing_memory.add("newer note", timestamp="2024-06-01T00:00:00Z")

    async def body(client: Client) -> None:
        listed = await client.list_resources()
        assert "mnemo://memories/recent" in {str(r.uri) for r in listed.resources}
        read = await client.read_resource("mnemo://memories/recent")
        data = json.loads(read.contents[0].text)
        assert [m["content"] for m in data["memories"]] == ["newer note", "older note"]

    with_client(hashing_memory, body)


def test_a_pinned_server_cannot_be_talked_out_of_its_scope(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as setup:
        setup.add("alice: my bank PIN hint is the cat's birthday", user_id="alice", id="a1")
        setup.add("bob: my bank PIN hint is the dog's name", user_id="bob", id="b1")
        setup.add("bob in project x: secret roadmap", user_id="bob", project="x", id="b2")

    async def body(client: Client) -> None:
        found = await call(client, "recall", {"query": "bank PIN hint", "limit": 10})
        assert [h["id"] for h in found["hits"]] == ["a1"]
        for name, arguments in [
            ("recall", {"query": "bank PIN hint", "user_id": "bob"}),
            ("context", {"query": "bank PIN hint", "user_id": "bob"}),
            ("get", {"id": "b1", "user_id": "bob"}),
            ("forget", {"id": "b1", "user_id": "bob"}),
            ("remember", {"content": "planted", "user_id": "bob"}),
            ("stats", {"user_id": "bob"}),
        ]:
            assert "pinned to user_id='alice'" in await fails(client, name, arguments)
        assert "no memory" in await fails(client, "get", {"id": "b1"})
        assert (await call(client, "forget", {"id": "b1"}))["deleted"] == 0
        assert "bob" not in (await call(client, "context", {"query": "bank PIN secret roadmap"}))["text"]
        stored = await call(client, "remember", {"content": "alice likes tea"})
        assert stored["user_id"] == "alice"
        assert (await call(client, "stats", {}))["items"] == 2
        recent = json.loads((await client.read_resource("mnemo://memories/recent")).contents[0].text)
        assert {m["user_id"] for m in recent["memories"]} == {"alice"}

    with Memory(db_path, embedder="hashing", user_id="alice") as pinned:
        with_client(pinned, body)
    with Memory(db_path, embedder="hashing") as check:
        assert check.get("b1") is not None  # bob's memory survived the attempts


def test_facts_and_categories_tools(db_path: str) -> None:
    async def body(client: Client) -> None:
        for text in ("I work at Google and I live in Paris", "Actually I moved to Berlin last month"):
            await call(client, "remember", {"content": text, "kind": "message", "role": "user"})
        facts = (await call(client, "list_facts", {"relation": "lives_in"}))["facts"]
        assert [f["object"] for f in facts] == ["berlin"] and facts[0]["user_id"] == "gina"
        everything = (await call(client, "list_facts", {"relation": "lives_in", "status": "all"}))["facts"]
        assert {f["object"]: f["status"] for f in everything} == {"berlin": "active", "paris": "superseded"}
        assert "status" in await fails(client, "list_facts", {"status": "deleted"})
        assert "pinned" in await fails(client, "list_facts", {"user_id": "hank"})
        gone = await call(client, "forget", {"fact_id": facts[0]["id"]})
        assert gone == {"facts_forgotten": 1}
        assert (await call(client, "list_facts", {"relation": "lives_in"}))["facts"] == []
        assert "say what to forget" in await fails(client, "forget", {})

        tree = await call(client, "categories", {})
        assert tree["total"] >= 2 and "skills" in tree["categories"]
        resource = json.loads((await client.read_resource("mnemo://categories")).contents[0].text)
        assert resource["categories"].keys() == tree["categories"].keys()
        evolved = await call(client, "categories", {"evolve": True})
        assert "evolved" in evolved and evolved["total"] >= tree["total"]  # evolve backfills unassigned items
        used = next(name for name, node in tree["categories"].items() if node["count"])
        found = await call(client, "recall", {"query": "Berlin", "category": used})
        assert all(h["user_id"] == "gina" for h in found["hits"])

    with Memory(db_path, embedder="hashing") as setup:
        setup.add("I live in Oslo", role="user", user_id="hank")
    with Memory(db_path, embedder="hashing", user_id="gina") as pinned:
        with_client(pinned, body)


def test_recall_offers_exactly_the_search_modes_memory_has(hashing_memory: Memory) -> None:
    hashing_memory.add("the release train leaves every second Tuesday", id="r1")
    offered = inspect.signature(Memory.search).parameters

    async def body(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        properties = tools["recall"].input_schema["properties"]
        for mode in ("iterative", "progressive"):
            assert (mode in properties) == (mode in offered)
            if mode in properties:
                found = await call(client, "recall", {"query": "when does the release train leave?", mode: True})
                assert found["hits"][0]["id"] == "r1"

    with_client(hashing_memory, body)


def test_recall_says_why_a_weak_query_searches_poorly(hashing_memory: Memory) -> None:
    hashing_memory.add("Tom tried the new ramen place on Friday", id="t1")

    async def body(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "notes" in tools["recall"].output_schema["properties"]
        clear = await call(client, "recall", {"query": "ramen place"})
        assert "notes" not in clear and clear["hits"][0]["id"] == "t1"
        pointed = await call(client, "recall", {"query": "did he like it?"})
        assert len(pointed["notes"]) == 1 and "'he', 'it'" in pointed["notes"][0]
        common = await call(client, "recall", {"query": "the of and"})
        assert common["notes"][0].startswith("the query holds only common words")

    with_client(hashing_memory, body)


def test_recall_federated_weighs_the_kinds_and_says_how(hashing_memory: Memory) -> None:
    hashing_memory.add("the deploy runbook says to drain the queue first", kind="document", id="doc")
    hashing_memory.add("we deploy on Thursdays after the queue drains", id="msg")
    hashing_memory.add("Ann prefers deploys on Thursdays", kind="fact", id="fact")
    question = "what does the runbook in the docs say about the deploy queue?"

    async def body(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert {"federated", "source_weights"} <= set(tools["recall"].input_schema["properties"])
        found = await call(client, "recall", {"query": question, "federated": True})
        assert found["hits"][0]["id"] == "doc"
        assert found["sources"]["document"]["routed"] and not found["sources"]["message"]["routed"]
        # a weight of 0 leaves a kind out of the search
        weighed = await call(
            client, "recall", {"query": question, "federated": True, "source_weights": {"document": 0}}
        )
        assert "doc" not in {h["id"] for h in weighed["hits"]} and "document" not in weighed["sources"]
        assert weighed["sources"]["message"]["hits"] >= 1
        plain = await call(client, "recall", {"query": question})
        assert "sources" not in plain
        assert "set federated as well" in await fails(
            client, "recall", {"query": question, "source_weights": {"fact": 2}}
        )
        assert "search of its own" in await fails(
            client, "recall", {"query": question, "federated": True, "iterative": True}
        )
        unknown = await fails(client, "recall", {"query": question, "federated": True, "source_weights": {"tweets": 1}})
        assert "unknown source" in unknown.lower()
        for bad in ({"fact": True}, {"fact": "2"}):  # a flag or a string is not a weight
            await fails(client, "recall", {"query": question, "federated": True, "source_weights": bad})
        assert "category" in await fails(client, "recall", {"query": question, "federated": True, "category": "x"})

    with_client(hashing_memory, body)
