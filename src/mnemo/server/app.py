"""The local HTTP API: every MCP tool as a JSON endpoint, plus the MCP streamable HTTP transport.

``POST /v1/<tool>`` takes the tool's arguments as a JSON object and answers with its structured
result; the tool's own schema validates the body, so the HTTP API and the MCP server cannot
drift apart. Errors are JSON ``{"error": ...}``: 400 bad input, 401 missing/wrong key, 404 unknown
operation or memory, 500 anything unexpected (details stay in the server log).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from mnemo.api import Memory
from mnemo.errors import MissingExtra, MnemoError
from mnemo.mcp import tools
from mnemo.mcp.server import build_server
from mnemo.server.openapi import openapi_document
from mnemo.server.turn import PATH as TURN_PATH
from mnemo.server.turn import openapi_paths as turn_paths
from mnemo.server.turn import turn_endpoint

try:
    import anyio
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
    from pydantic import ValidationError
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Mount, Route
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtra("mcp", "starlette", "the HTTP API") from exc

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Header names a client may use for the key; ``Authorization: Bearer <key>`` works too.
KEY_HEADER = "x-api-key"
#: Paths answered without a key: they reveal nothing stored.
OPEN_PATHS = frozenset({"/health"})
#: Request bodies larger than this are refused before parsing (an import names paths, not data).
MAX_BODY_BYTES = 4 * 1024 * 1024


class ApiKeyMiddleware:
    """Refuses every request but OPEN_PATHS unless it carries the key (constant-time compare)."""

    def __init__(self, app: ASGIApp, api_key: str) -> None:
        self.app = app
        self.key = api_key.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or scope.get("path") in OPEN_PATHS or self._allowed(scope):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # policy violation
        else:
            response = JSONResponse({"error": "missing or wrong API key"}, status_code=401)
            await response(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        headers = {name.decode("latin-1").lower(): value for name, value in scope.get("headers", [])}
        given = headers.get(KEY_HEADER)
        if given is None:
            auth = headers.get("authorization", b"")
            given = auth[7:] if auth[:7].lower() == b"bearer " else None
        return given is not None and hmac.compare_digest(given.strip(), self.key)


def build_app(
    memory: Memory,
    *,
    api_key: str | None = None,
    host: str = "127.0.0.1",
    include_api: bool = True,
    server: MCPServer | None = None,
) -> ASGIApp:
    """The ASGI app: the JSON API (unless ``include_api`` is off) and MCP at ``/mcp``."""
    server = server or build_server(memory)
    mcp_app = server.streamable_http_app(streamable_http_path="/mcp", host=host)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with server.session_manager.run():  # the MCP transport's task group lives here
            yield

    routes: list[Route | Mount] = [Route("/health", _health(server), methods=["GET"])]
    if include_api:
        routes += _api_routes(server, memory)
    routes.append(Mount("/", app=mcp_app))
    app: ASGIApp = Starlette(routes=routes, lifespan=lifespan)
    return ApiKeyMiddleware(app, api_key) if api_key else app


def _health(server: MCPServer) -> Callable[[Request], Awaitable[Response]]:
    async def health(_request: Request) -> Response:
        names = sorted(tool.name for tool in await server.list_tools())
        return JSONResponse({"status": "ok", "tools": names})

    return health


def _api_routes(server: MCPServer, memory: Memory) -> list[Route | Mount]:
    names: set[str] = set()  # the tools are fixed once the server is built; list them once

    async def run(name: str, arguments: dict[str, Any]) -> Response:
        if not names:
            names.update(tool.name for tool in await server.list_tools())
        if name not in names:
            return _error(f"unknown operation {name!r}", 404)
        return await _run(server, name, arguments)

    async def call(request: Request) -> Response:
        try:
            arguments = await _json_body(request)
        except ValueError as exc:
            return _error(str(exc), 400)
        return await run(request.path_params["operation"], arguments)

    async def memory_by_id(request: Request) -> Response:
        arguments = {"id": request.path_params["item_id"], **_scope_params(request)}
        return await run("get" if request.method == "GET" else "forget", arguments)

    async def stats(request: Request) -> Response:
        return await run("stats", _scope_params(request))

    async def recent(request: Request) -> Response:
        try:
            limit = int(request.query_params.get("limit", "20"))
            listing = await anyio.to_thread.run_sync(
                lambda: tools.recent(memory, limit=limit, **_scope_params(request))
            )
        except (ValueError, MnemoError) as exc:  # a non-number limit, a scope outside the pin
            return _error(str(exc), 400)
        return JSONResponse(listing)

    async def schema(_request: Request) -> Response:
        document = openapi_document(await server.list_tools())
        document["paths"].update(turn_paths())  # not an MCP tool: the per-turn path for hooks and chat front ends
        return JSONResponse(document)

    turn = turn_endpoint(memory)

    async def turn_call(request: Request) -> Response:
        try:
            body = await _json_body(request)
        except ValueError as exc:
            return _error(str(exc), 400)
        return await turn(request, body)

    return [
        Route("/openapi.json", schema, methods=["GET"]),
        Route(TURN_PATH, turn_call, methods=["POST"]),
        Route("/v1/stats", stats, methods=["GET"]),
        Route("/v1/recent", recent, methods=["GET"]),
        Route("/v1/memories/{item_id:path}", memory_by_id, methods=["GET", "DELETE"]),
        Route("/v1/{operation}", call, methods=["POST"]),
    ]


async def _run(server: MCPServer, name: str, arguments: dict[str, Any]) -> Response:
    try:
        result = await server.call_tool(name, arguments)
    except UnexpectedToolError:
        return _error("internal error; see the server log", 500)
    except ToolError as exc:
        message = _argument_errors(exc) or str(exc).removeprefix(f"Error executing tool {name}: ")
        return _error(message, 404 if message.startswith("no memory with id") else 400)
    return JSONResponse(getattr(result, "structured_content", None))


def _argument_errors(exc: ToolError) -> str | None:
    """Schema failures as one line per field ("limit: Input should be a valid integer")."""
    cause = exc.__cause__
    if not isinstance(cause, ValidationError):
        return None
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in cause.errors())


async def _json_body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise ValueError(f"request body over {MAX_BODY_BYTES} bytes")
    if not body.strip():
        return {}
    try:
        value = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"request body is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ValueError("request body must be a JSON object of the operation's arguments")
    return value


def _scope_params(request: Request) -> dict[str, Any]:
    allowed = ("user_id", "agent_id", "project")
    return {name: request.query_params[name] for name in allowed if name in request.query_params}


def _error(message: str, status: int) -> Response:
    return JSONResponse({"error": message}, status_code=status)
