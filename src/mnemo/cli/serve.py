"""`mnemo mcp` (the MCP server, stdio or streamable HTTP) and `mnemo serve` (the local HTTP API)."""

from __future__ import annotations

import sys
from typing import Any

import click

from mnemo.api import Memory
from mnemo.cli.common import json_option
from mnemo.cli.output import emit_json, handle_errors

PIN_OPTIONS = (
    click.option("--user", "user_id", envvar="MNEMO_USER", help="Pin the server to this user (env MNEMO_USER)."),
    click.option("--agent", "agent_id", envvar="MNEMO_AGENT", help="Pin the server to this agent (env MNEMO_AGENT)."),
    click.option("--project", envvar="MNEMO_PROJECT", help="Pin the server to this project (env MNEMO_PROJECT)."),
)
API_KEY = click.option(
    "--api-key", envvar="MNEMO_API_KEY", help="Require this key (X-API-Key or Bearer header) on every request."
)


def pin_options(command: Any) -> Any:
    for option in reversed(PIN_OPTIONS):
        command = option(command)
    return command


def open_pinned(ctx: click.Context, **pins: str | None) -> Memory:
    """The Memory a server runs on: pinned scopes cannot be widened by any request."""
    memory = Memory(ctx.obj["db"], embedder=ctx.obj["embedder"], **pins)
    ctx.call_on_close(memory.close)
    from mnemo.mcp.tools import warm

    warm(memory)  # load the model and the vector index before the first client call
    return memory


@click.command(name="mcp")
@click.option("--http", "use_http", is_flag=True, help="Serve MCP over streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (with --http).")
@click.option("--port", default=8766, show_default=True, type=click.IntRange(0, 65535), help="Port (with --http).")
@API_KEY
@pin_options
@click.pass_context
@handle_errors
def mcp_command(ctx: click.Context, use_http: bool, host: str, port: int, api_key: str | None, **pins: Any) -> None:
    """Run mnemo as an MCP server for Claude Code, Claude Desktop, Cursor and other agents.

    Speaks MCP over stdin/stdout by default (nothing else is printed there); with --http, serves
    streamable HTTP at http://HOST:PORT/mcp.
    """
    from mnemo.mcp.server import build_server
    from mnemo.server.run import check_bind

    if use_http:
        check_bind(host, api_key)
    memory = open_pinned(ctx, **pins)
    if not use_http:
        build_server(memory).run()
        return
    from mnemo.server.app import build_app
    from mnemo.server.run import run_http

    click.echo(f"mnemo MCP server on http://{host}:{port}/mcp", err=True)
    run_http(build_app(memory, api_key=api_key, host=host, include_api=False), host, port)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@API_KEY
@pin_options
@json_option
@click.pass_context
@handle_errors
def serve(ctx: click.Context, host: str, port: int, api_key: str | None, as_json: bool, **pins: Any) -> None:
    """Run the local HTTP API (JSON endpoints, /openapi.json, MCP at /mcp) with the model kept warm.

    Listens on 127.0.0.1 unless told otherwise, and refuses any other address without --api-key.
    """
    from mnemo.server.app import build_app
    from mnemo.server.run import check_bind, run_http

    check_bind(host, api_key)
    memory = open_pinned(ctx, **pins)
    memory.warm_turns()  # spaCy for POST /v1/turn (the Claude Code hook), before the first prompt
    app = build_app(memory, api_key=api_key, host=host)
    url = f"http://{host}:{port}"
    if as_json:
        emit_json({"url": url, "openapi": f"{url}/openapi.json", "mcp": f"{url}/mcp", "api_key": bool(api_key)})
        sys.stdout.flush()
    else:
        click.echo(f"mnemo API on {url} (schema: {url}/openapi.json, MCP: {url}/mcp)", err=True)
    run_http(app, host, port)


COMMANDS = [mcp_command, serve]
