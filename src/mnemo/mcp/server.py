"""The MCP server: mnemo's tools and resources on the official SDK's MCPServer.

Each tool is a typed signature (the schema a client sees) over a function in ``tools``. mnemo's
own errors become tool errors (``isError`` results the model can read and correct), never a dead
server. Only capabilities the Memory really has are offered; nothing is registered as a stand-in.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from mnemo.api import Memory
from mnemo.errors import MissingExtra, MnemoError
from mnemo.mcp import knowledge_tools, session_tools, tools
from mnemo.mcp.schema import (
    DELETES,
    READ_ONLY,
    WRITES,
    AgentId,
    Category,
    ContextBlock,
    Facts,
    Forgotten,
    Hits,
    KindName,
    Kinds,
    MaxTokens,
    Project,
    Query,
    SessionId,
    Sessions,
    Since,
    Stored,
    Until,
    UserId,
)
from mnemo.mcp.sizing import DEFAULT_MAX_TOKENS, to_json

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import CallToolResult, TextContent
    from pydantic import Field, StrictFloat
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtra("mcp", "mcp", "the MCP server") from exc

INSTRUCTIONS = (
    "mnemo is this user's long-term memory. Call `recall` (or `context` for a ready prompt block) "
    "before answering questions about past conversations, decisions or preferences; call "
    "`remember` to store something worth keeping. Listings are capped by `max_tokens`."
)

FEDERATED = (
    "Search each kind of memory (message, fact, document, note, ...) on its own and merge them, "
    "favouring the kind the query names ('in the docs', 'what do I prefer')."
)
SOURCE_WEIGHTS = 'With federated: a weight per kind, e.g. {"fact": 1.5}; 0 leaves that kind out.'


def run_tool(function: Callable[..., dict[str, Any]], *args: Any, **kwargs: Any) -> CallToolResult:
    """Call a tools function; its dict goes out as compact JSON text and as structured content."""
    try:
        payload = function(*args, **kwargs)
    except MnemoError as exc:  # bad input, a setting, the store: the model reads why and can retry
        raise ToolError(str(exc)) from exc
    return CallToolResult(content=[TextContent(type="text", text=to_json(payload))], structured_content=payload)


def without_parameters(function: Callable[..., Any], names: Sequence[str]) -> Callable[..., Any]:
    """``function`` with ``names`` left out of the signature the SDK builds its schema from."""
    if names:
        signature = inspect.signature(function, eval_str=True)
        kept = [p for p in signature.parameters.values() if p.name not in names]
        function.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    return function


def build_server(memory: Memory, *, name: str = "mnemo") -> MCPServer:
    """An MCPServer over ``memory``; the caller owns the Memory (and closes it)."""
    server = MCPServer(name, instructions=INSTRUCTIONS, log_level="WARNING")
    _add_memory_tools(server, memory)
    _add_import_tools(server, memory)
    _add_search_tools(server, memory)
    _add_lookup_tools(server, memory)
    _add_session_tools(server, memory)
    _add_knowledge_tools(server, memory)
    _add_resources(server, memory)
    return server


def _add_memory_tools(server: MCPServer, memory: Memory) -> None:
    @server.tool(annotations=WRITES)
    def remember(
        content: Annotated[str, Field(description="The text to remember.", min_length=1)],
        kind: Annotated[KindName, Field(description="What it is.")] = "note",
        role: Annotated[str | None, Field(description="Who said it (user, assistant, a name).")] = None,
        timestamp: Annotated[str | None, Field(description="When it happened (ISO-8601); default now.")] = None,
        metadata: Annotated[dict[str, Any] | None, Field(description="JSON object stored with it.")] = None,
        id: Annotated[str | None, Field(description="Your id; storing the same id again updates it.")] = None,  # noqa: A002
        source: Annotated[str, Field(description="Where it came from (a tool, an importer).", min_length=1)] = "mcp",
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
        session_id: SessionId = None,
    ) -> Annotated[CallToolResult, Stored]:
        """Store a memory (a fact, decision, preference or note) so later conversations can recall it."""
        return run_tool(
            tools.remember,
            memory,
            content,
            kind=kind,
            role=role,
            timestamp=timestamp,
            metadata=metadata,
            id=id,
            source=source,
            user_id=user_id,
            agent_id=agent_id,
            project=project,
            session_id=session_id,
        )

    @server.tool(annotations=DELETES)
    def forget(
        id: Annotated[str | None, Field(description="The id of a memory to delete (from recall/get).")] = None,  # noqa: A002
        subject: Annotated[str | None, Field(description="Forget the facts about this subject.")] = None,
        relation: Annotated[str | None, Field(description="With subject: only this relation.")] = None,
        fact_id: Annotated[str | None, Field(description="Forget this one fact (from list_facts).")] = None,
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
    ) -> Annotated[CallToolResult, Forgotten]:
        """Delete a memory by id, and/or forget facts (all about a subject, one relation of it, or one
        fact by id). Returns how many were removed."""
        return run_tool(
            tools.forget,
            memory,
            id,
            subject=subject,
            relation=relation,
            fact_id=fact_id,
            user_id=user_id,
            agent_id=agent_id,
            project=project,
        )


def _add_import_tools(server: MCPServer, memory: Memory) -> None:
    @server.tool(annotations=WRITES)
    def import_sources(
        paths: Annotated[list[str], Field(description="Files or directories on this machine.", min_length=1)],
    ) -> Annotated[CallToolResult, dict[str, Any]]:
        """Import files or folders into memory: Claude Code transcripts (e.g. ~/.claude/projects), chat
        logs (JSONL), markdown notes and facts.jsonl, detected per file. Unchanged files are not read
        again; malformed lines are skipped and counted in the report."""
        return run_tool(tools.import_sources, memory, paths)


def _add_search_tools(server: MCPServer, memory: Memory) -> None:
    def recall(
        query: Query,
        limit: Annotated[int, Field(description="Most hits to return.", ge=1, le=100)] = 10,
        kind: Kinds = None,
        since: Since = None,
        until: Until = None,
        category: Category = None,
        iterative: Annotated[
            bool, Field(description="Search in rounds, expanding the query from what the first round found.")
        ] = False,
        progressive: Annotated[
            bool, Field(description="Search summaries and facts first; go to raw messages only if needed.")
        ] = False,
        federated: Annotated[bool, Field(description=FEDERATED)] = False,
        source_weights: Annotated[dict[str, StrictFloat] | None, Field(description=SOURCE_WEIGHTS)] = None,
        explain: Annotated[bool, Field(description="Include each strategy's rank and score.")] = False,
        max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
        session_id: SessionId = None,
    ) -> Annotated[CallToolResult, Hits]:
        """Search memory (words + meaning + recency) and return the best matches, best first, with
        ids, text, time and where each came from. Use it for "what did we discuss/decide about X"."""
        return run_tool(
            tools.recall,
            memory,
            query,
            limit=limit,
            kind=kind,
            since=since,
            until=until,
            category=category,
            iterative=iterative,
            progressive=progressive,
            federated=federated,
            source_weights=source_weights,
            explain=explain,
            max_tokens=max_tokens,
            user_id=user_id,
            agent_id=agent_id,
            project=project,
            session_id=session_id,
        )

    # offer the search modes this Memory really has, and no others
    missing = [mode for mode in ("iterative", "progressive") if not tools.supports(memory, "search", mode)]
    if not tools.supports(memory, "federated_search"):
        missing += ["federated", "source_weights"]
    server.add_tool(without_parameters(recall, missing), annotations=READ_ONLY)

    @server.tool(annotations=READ_ONLY)
    def context(
        query: Query,
        max_tokens: MaxTokens = 1000,
        kind: Kinds = None,
        since: Since = None,
        until: Until = None,
        category: Category = None,
        group_by_category: Annotated[bool, Field(description="One heading per category in the block.")] = False,
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
        session_id: SessionId = None,
    ) -> Annotated[CallToolResult, ContextBlock]:
        """The memories relevant to `query` as one prompt-ready text block that fits `max_tokens`."""
        return run_tool(
            tools.context,
            memory,
            query,
            max_tokens=max_tokens,
            kind=kind,
            since=since,
            until=until,
            category=category,
            group_by_category=group_by_category,
            user_id=user_id,
            agent_id=agent_id,
            project=project,
            session_id=session_id,
        )


def _add_lookup_tools(server: MCPServer, memory: Memory) -> None:
    @server.tool(annotations=READ_ONLY)
    def get(
        id: Annotated[str, Field(description="A memory id from recall.", min_length=1)],  # noqa: A002
        max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
    ) -> Annotated[CallToolResult, dict[str, Any]]:
        """One memory in full (content cut to `max_tokens`), with its metadata."""
        return run_tool(
            tools.get, memory, id, max_tokens=max_tokens, user_id=user_id, agent_id=agent_id, project=project
        )

    @server.tool(annotations=READ_ONLY)
    def stats(
        user_id: UserId = None, agent_id: AgentId = None, project: Project = None
    ) -> Annotated[CallToolResult, dict[str, Any]]:
        """How many memories there are, by kind, and which embedding model the store uses."""
        return run_tool(tools.stats, memory, user_id=user_id, agent_id=agent_id, project=project)


def _add_session_tools(server: MCPServer, memory: Memory) -> None:
    @server.tool(annotations=READ_ONLY)
    def search_sessions(
        query: Annotated[
            str,
            Field(
                description='Words to find. Supports AND/OR/NOT, "quoted phrases" and -word to exclude.',
                min_length=1,
                max_length=4000,
            ),
        ],
        require: Annotated[list[str] | None, Field(description="Terms every session must contain.")] = None,
        exclude: Annotated[list[str] | None, Field(description="Terms no session may contain.")] = None,
        project: Annotated[str | None, Field(description="Only sessions of this project (path).")] = None,
        current_project: Annotated[str | None, Field(description="Rank this project's sessions higher.")] = None,
        exclude_session: Annotated[str | None, Field(description="Leave out this session (the current one).")] = None,
        limit: Annotated[int, Field(description="Most sessions to return.", ge=1, le=20)] = 5,
        max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
        user_id: UserId = None,
        agent_id: AgentId = None,
    ) -> Annotated[CallToolResult, Sessions]:
        """Find past conversations (Claude Code sessions, chat logs) about something, best first, each
        with its best matching messages. Read one in full with `read_session`."""
        return run_tool(
            session_tools.search_sessions,
            memory,
            query,
            require=require or (),
            exclude=exclude or (),
            project=project,
            current_project=current_project,
            exclude_session=exclude_session,
            limit=limit,
            max_tokens=max_tokens,
            user_id=user_id,
            agent_id=agent_id,
        )

    @server.tool(annotations=READ_ONLY)
    def read_session(
        session_id: Annotated[str, Field(description="A session id (or a unique prefix of one).", min_length=1)],
        offset: Annotated[int, Field(description="Skip this many messages (use next_offset).", ge=0)] = 0,
        max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
    ) -> Annotated[CallToolResult, dict[str, Any]]:
        """One past conversation's messages in order, as many as fit `max_tokens`; continue from
        `next_offset` when it is present."""
        return run_tool(
            session_tools.read_session,
            memory,
            session_id,
            offset=offset,
            max_tokens=max_tokens,
            user_id=user_id,
            agent_id=agent_id,
            project=project,
        )


def _add_knowledge_tools(server: MCPServer, memory: Memory) -> None:
    @server.tool(annotations=READ_ONLY)
    def list_facts(
        subject: Annotated[str | None, Field(description='Only facts about this subject (e.g. "user").')] = None,
        relation: Annotated[str | None, Field(description='Only this relation (e.g. "works_at").')] = None,
        status: Annotated[
            Literal["active", "superseded", "stale", "all"], Field(description="Which facts: current ones by default.")
        ] = "active",
        limit: Annotated[int, Field(description="Most facts to return.", ge=1, le=500)] = 50,
        max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
    ) -> Annotated[CallToolResult, Facts]:
        """Facts learned from conversations (subject, relation, object, confidence, when), strongest
        first. Corrected facts are "superseded"; use status "all" to see the history."""
        return run_tool(
            knowledge_tools.list_facts,
            memory,
            subject=subject,
            relation=relation,
            status=status,
            limit=limit,
            max_tokens=max_tokens,
            user_id=user_id,
            agent_id=agent_id,
            project=project,
        )

    @server.tool(annotations=WRITES)
    def categories(
        evolve: Annotated[bool, Field(description="Re-grow subcategories from recent memories first.")] = False,
        full: Annotated[bool, Field(description="With evolve: recluster from scratch.")] = False,
        rename: Annotated[
            list[str] | None,
            Field(description='Rename a subcategory first: [path, new name], e.g. ["skills/pytest", "testing"].'),
        ] = None,
        merge: Annotated[
            list[str] | None,
            Field(description="Fold one subcategory into another first: [source path, target path]."),
        ] = None,
        max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
        user_id: UserId = None,
        agent_id: AgentId = None,
        project: Project = None,
    ) -> Annotated[CallToolResult, dict[str, Any]]:
        """The category tree of memory (top-level categories, their subcategories with keywords, and
        counts). Filter recall/context by a path from it, e.g. "skills/python_testing"."""
        return run_tool(
            knowledge_tools.categories,
            memory,
            evolve=evolve,
            full=full,
            rename=rename,
            merge=merge,
            max_tokens=max_tokens,
            user_id=user_id,
            agent_id=agent_id,
            project=project,
        )


def _add_resources(server: MCPServer, memory: Memory) -> None:
    @server.resource(
        "mnemo://memories/recent",
        name="recent-memories",
        description="The 20 newest memories in this server's scope (JSON).",
        mime_type="application/json",
    )
    def recent_memories() -> str:
        return to_json(tools.recent(memory, limit=20))

    @server.resource(
        "mnemo://categories",
        name="category-tree",
        description="Categories and subcategories of memory with counts (JSON).",
        mime_type="application/json",
    )
    def category_tree() -> str:
        return to_json(knowledge_tools.categories(memory))
