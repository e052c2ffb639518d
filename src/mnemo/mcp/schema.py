"""The types MCP clients see: argument annotations (with their descriptions) and result shapes."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from mnemo.errors import MissingExtra
from mnemo.mcp.sizing import HARD_MAX_TOKENS

try:
    from mcp.types import ToolAnnotations
    from pydantic import Field
    from typing_extensions import TypedDict  # pydantic needs this one below Python 3.12
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtra("mcp", "mcp", "the MCP server") from exc

KindName = Literal["message", "fact", "document", "note", "summary", "insight"]

Query = Annotated[str, Field(description="What to look for, in plain words.", min_length=1, max_length=4000)]
MaxTokens = Annotated[
    int,
    Field(description=f"Answer size cap in tokens (at most {HARD_MAX_TOKENS}).", ge=1, le=HARD_MAX_TOKENS),
]
UserId = Annotated[str | None, Field(description="Only this user's memories.")]
AgentId = Annotated[str | None, Field(description="Only this agent's memories.")]
Project = Annotated[str | None, Field(description="Only this project's memories.")]
SessionId = Annotated[str | None, Field(description="Only this conversation/session.")]
Kinds = Annotated[list[KindName] | None, Field(description="Only these kinds of memory.")]
Since = Annotated[str | None, Field(description="Only memories at or after this time (ISO-8601).")]
Until = Annotated[str | None, Field(description="Only memories before this time (ISO-8601).")]
Category = Annotated[
    str | None, Field(description='Only this category or subcategory, e.g. "skills" or "skills/python_testing".')
]

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
DELETES = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)


class Stored(TypedDict, total=False):
    id: str
    stored: bool
    kind: str


class Hits(TypedDict):
    hits: list[dict[str, Any]]
    returned: int
    omitted: int
    max_tokens: int
    #: Why the query may search poorly (only common words; "he"/"that" with nothing to resolve them).
    notes: NotRequired[list[str]]
    #: A federated search's kinds searched: each one's weight as used (the given or default weight,
    #: times the routing boost when the query names the kind), its hit count and whether it was named.
    sources: NotRequired[dict[str, dict[str, Any]]]


class ContextBlock(TypedDict):
    text: str
    tokens: int
    max_tokens: int
    considered: int
    used: list[str]


class Forgotten(TypedDict, total=False):
    id: str
    deleted: int
    facts_forgotten: int


class Recent(TypedDict):
    memories: list[dict[str, Any]]
    returned: int
    omitted: int
    max_tokens: int


class Sessions(TypedDict):
    sessions: list[dict[str, Any]]
    returned: int
    omitted: int
    max_tokens: int


class Facts(TypedDict):
    facts: list[dict[str, Any]]
    returned: int
    omitted: int
    max_tokens: int
