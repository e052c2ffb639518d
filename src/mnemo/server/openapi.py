"""An OpenAPI 3.1 document for the HTTP API, generated from the MCP tools' own JSON schemas."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

_ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
}
_ERRORS = {
    "400": {
        "description": "Bad arguments",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    },
    "401": {"description": "Missing or wrong API key"},
    "404": {"description": "Unknown operation or memory"},
}
_SCOPE_QUERY = [
    {"name": name, "in": "query", "required": False, "schema": {"type": "string"}}
    for name in ("user_id", "agent_id", "project")
]


def openapi_document(tools: Sequence[Any]) -> dict[str, Any]:
    """One POST operation per tool (body = its input schema, 200 = its output schema), plus the
    REST-style shortcuts and /health."""
    schemas: dict[str, Any] = {"Error": _ERROR}
    paths: dict[str, Any] = {}
    for tool in tools:
        body = _hoist(tool.input_schema, schemas)
        answer = _hoist(tool.output_schema or {"type": "object"}, schemas)
        paths[f"/v1/{tool.name}"] = {
            "post": {
                "operationId": tool.name,
                "summary": (tool.description or "").strip().split("\n")[0],
                "description": tool.description or "",
                "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
                "responses": {"200": _json_response("Result", answer), **_ERRORS},
            }
        }
    names = {tool.name for tool in tools}
    paths.update(_shortcuts(names))
    paths["/health"] = {"get": {"operationId": "health", "responses": {"200": {"description": "Server is up"}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "mnemo local API", "version": _version()},
        "components": {
            "schemas": schemas,
            "securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
        },
        "security": [{"apiKey": []}],
        "paths": paths,
    }


def _shortcuts(names: set[str]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    item_path: dict[str, Any] = {}
    parameter = {"name": "item_id", "in": "path", "required": True, "schema": {"type": "string"}}
    if "get" in names:
        item_path["get"] = {"operationId": "get_memory", "responses": {"200": {"description": "The memory"}, **_ERRORS}}
    if "forget" in names:
        item_path["delete"] = {
            "operationId": "delete_memory",
            "responses": {"200": {"description": "Deleted count"}, **_ERRORS},
        }
    if item_path:
        item_path["parameters"] = [parameter, *_SCOPE_QUERY]
        paths["/v1/memories/{item_id}"] = item_path
    paths["/v1/recent"] = {
        "get": {
            "operationId": "recent_memories",
            "parameters": [
                {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "default": 20}},
                *_SCOPE_QUERY,
            ],
            "responses": {"200": {"description": "The newest memories in scope"}, **_ERRORS},
        }
    }
    if "stats" in names:
        paths["/v1/stats"] = {
            "get": {
                "operationId": "get_stats",
                "parameters": _SCOPE_QUERY,
                "responses": {"200": {"description": "Counts"}},
            }
        }
    return paths


def _json_response(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _hoist(schema: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    """Move a JSON schema's local ``$defs`` into components and point its refs there."""
    schema = json.loads(json.dumps(schema).replace('"#/$defs/', '"#/components/schemas/'))
    schemas.update(schema.pop("$defs", {}))
    return schema


def _version() -> str:
    try:
        return version("mnemo")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0"
