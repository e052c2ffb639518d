"""The operations mnemo offers to agents, as plain functions over a Memory returning JSON-ready dicts.

The MCP server and the HTTP API both call these; neither adds behaviour of its own. Every listing
is sized by ``sizing`` so no call answers with more than a few thousand tokens. Scope pinning is
the Memory's: a pinned Memory refuses an owner field set to another value and filters every read
to its scope, so nothing here can widen it.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mnemo.api import Memory
from mnemo.errors import InputError
from mnemo.ingest.normalise import item_to_record
from mnemo.mcp.sizing import budget, cut_text, fit_entries, json_tokens, shrink_to
from mnemo.records import Hit, Item

#: Metadata values longer than this (tool output, uuid lists) stay out of listings; `get` shows more.
BRIEF_METADATA_CHARS = 200
MAX_REPORTED_ERRORS = 20


def warm(memory: Memory) -> None:
    """Load the embedding model and the vector index now, so the first real call is fast."""
    memory.search("warm up", limit=1)


def supports(memory: Memory, method: str, parameter: str | None = None) -> bool:
    """Whether this Memory has ``method`` (taking ``parameter``): features land independently."""
    function = getattr(type(memory), method, None)
    if function is None or not callable(function):
        return False
    return parameter is None or parameter in inspect.signature(function).parameters


def set_fields(**values: Any) -> dict[str, Any]:
    """Only the arguments the caller gave (None means "not given")."""
    return {name: value for name, value in values.items() if value is not None}


def brief_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Short scalar metadata (branch, file, flags); long text and lists are left to `get`."""
    brief: dict[str, Any] = {}
    for key, value in metadata.items():
        if isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= BRIEF_METADATA_CHARS):
            brief[key] = value
    return brief


def compact(record: Mapping[str, Any]) -> dict[str, Any]:
    """Drop empty fields: a model pays for every ``"role":null`` it reads."""
    return {key: value for key, value in record.items() if value not in (None, {}, [], "")}


def hit_entry(hit: Hit, explain: bool = False) -> dict[str, Any]:
    record = hit.as_dict()
    record["score"] = round(hit.score, 4)
    record["metadata"] = brief_metadata(record["metadata"])
    if not explain:
        del record["ranks"], record["signals"]
    return compact(record)


def item_entry(item: Item, full_metadata: bool = False) -> dict[str, Any]:
    record = item_to_record(item)
    if not full_metadata:
        record["metadata"] = brief_metadata(record["metadata"])
    return compact(record)


# -- writing -------------------------------------------------------------------------------


def remember(
    memory: Memory,
    content: str,
    *,
    kind: str = "note",
    role: str | None = None,
    source: str = "mcp",
    timestamp: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    id: str | None = None,  # noqa: A002 - the name clients see
    **scope: str | None,
) -> dict[str, Any]:
    """Store one memory; stamped with the current time unless given one, so recency ranking sees it."""
    item = memory.add(
        content,
        kind=kind,
        role=role,
        source=source,
        timestamp=timestamp or datetime.now(tz=UTC),
        metadata=metadata,
        id=id,
        **set_fields(**scope),
    )
    return compact({"id": item.id, "stored": True, "kind": item.kind, **item.scope.as_dict()})


def forget(
    memory: Memory,
    id: str | None = None,  # noqa: A002
    *,
    subject: str | None = None,
    relation: str | None = None,
    fact_id: str | None = None,
    **scope: str | None,
) -> dict[str, Any]:
    """Delete a memory by id, and/or retire facts by subject/relation/fact id when facts exist."""
    wants_facts = any(v is not None for v in (subject, relation, fact_id))
    if id is None and not wants_facts:
        raise InputError("say what to forget: an id, or a fact's subject/relation/fact_id")
    result: dict[str, Any] = {}
    if id is not None:
        result["id"] = id
        result["deleted"] = memory.delete(id, **set_fields(**scope))
    if wants_facts:
        result["facts_forgotten"] = memory.forget(
            subject=subject, relation=relation, fact_id=fact_id, **set_fields(**scope)
        )
    return result


def import_sources(memory: Memory, paths: Sequence[str]) -> dict[str, Any]:
    """Import files or folders (Claude Code transcripts, chat logs, notes, facts; detected per file).

    Malformed lines are skipped and counted in the report; files already imported unchanged are
    not read again.
    """
    if isinstance(paths, str) or not paths or not all(isinstance(p, str) and p.strip() for p in paths):
        raise InputError("paths must be a non-empty list of file or directory paths")
    resolved = [Path(p).expanduser() for p in paths]
    for path in resolved:
        if not path.exists():
            raise InputError(f"{path}: no such file or directory")
    report = memory.import_sources([str(p) for p in resolved]).as_dict()
    report["errors"] = report["errors"][:MAX_REPORTED_ERRORS]
    return report


# -- reading -------------------------------------------------------------------------------


def recall(
    memory: Memory,
    query: str,
    *,
    limit: int = 10,
    kind: Sequence[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    category: str | None = None,
    iterative: bool = False,
    progressive: bool = False,
    federated: bool = False,
    source_weights: Mapping[str, float] | None = None,
    explain: bool = False,
    max_tokens: int | None = None,
    **scope: str | None,
) -> dict[str, Any]:
    """Hybrid search within the scope; hits best-first, as many as fit ``max_tokens``.

    ``federated`` searches each kind on its own and fuses them with ``source_weights`` (a search of
    its own: not with ``iterative``, ``progressive`` or ``category``)."""
    cap = budget(max_tokens)
    options = set_fields(category=category)
    for name, wanted in (("iterative", iterative), ("progressive", progressive)):
        if wanted:
            options[name] = True
    filters = {"kind": list(kind) if kind else None, "since": since, "until": until, **set_fields(**scope)}
    sources = None
    if federated:
        hits, sources = _federated(memory, query, limit, options, source_weights, filters)
    elif source_weights:
        raise InputError("source_weights weighs the kinds of a federated search: set federated as well")
    else:
        for name in options:
            if not supports(memory, "search", name):
                raise InputError(f"search option {name!r} is not available in this version of mnemo")
        hits = memory.search(query, limit=limit, **filters, **options)
    entries, omitted = fit_entries([hit_entry(h, explain) for h in hits], cap)
    found: dict[str, Any] = {"hits": entries, "returned": len(entries), "omitted": omitted, "max_tokens": cap}
    if sources is not None:
        found["sources"] = sources
    if supports(memory, "query_notes"):
        notes = memory.query_notes(query)
        if notes:  # only when there is something to say: most answers stay as short as before
            found["notes"] = [note.message for note in notes]
    return found


def _federated(
    memory: Memory,
    query: str,
    limit: int,
    options: Mapping[str, Any],
    weights: Mapping[str, float] | None,
    filters: Mapping[str, Any],
) -> tuple[list[Hit], dict[str, dict[str, Any]]]:
    """The hits of a federated search and, per kind searched, its weight, hits and routing."""
    if options:
        raise InputError(f"federated is a search of its own: leave out {' and '.join(sorted(options))}")
    if not supports(memory, "federated_search"):
        raise InputError("federated search is not available in this version of mnemo")
    result = memory.federated_search(query, limit=limit, weights=weights, **filters)  # checks them
    routed = set(result.routed_to)
    sources = {
        kind: {"weight": numbers["weight"], "hits": int(numbers["hits"]), "routed": kind in routed}
        for kind, numbers in result.sources.items()
    }
    return result.hits, sources


def context(
    memory: Memory,
    query: str,
    *,
    max_tokens: int = 1000,
    kind: Sequence[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    category: str | None = None,
    group_by_category: bool = False,
    **scope: str | None,
) -> dict[str, Any]:
    """A prompt-ready block of the memories for ``query`` within ``max_tokens`` (capped)."""
    cap = budget(max_tokens)
    filters = set_fields(kind=list(kind) if kind else None, since=since, until=until, category=category, **scope)
    pack = memory.context_pack(query, max_tokens=cap, group_by_category=group_by_category, **filters)
    return {
        "text": pack.text,
        "tokens": pack.tokens,
        "max_tokens": cap,
        "considered": pack.considered,
        "used": [hit.id for hit in pack.used],
    }


def get(memory: Memory, id: str, *, max_tokens: int | None = None, **scope: str | None) -> dict[str, Any]:  # noqa: A002
    """One memory by id, its content cut to ``max_tokens`` if longer."""
    cap = budget(max_tokens)
    item = memory.get(id, **set_fields(**scope))
    if item is None:
        raise InputError(f"no memory with id {id!r} in this scope")
    entry, _cost = shrink_to(item_entry(item, full_metadata=True), "content", cap)
    if entry is None:  # metadata alone too big: show the brief form
        entry, _cost = shrink_to(item_entry(item), "content", cap)
    return entry or cut_text(item_entry(item), "content", cap // 2)


def stats(memory: Memory, **scope: str | None) -> dict[str, Any]:
    numbers = memory.stats(**set_fields(**scope))
    if json_tokens(numbers) > 1000:  # per-kind counts are few; never let a listing grow unbounded
        numbers = {k: v for k, v in numbers.items() if not isinstance(v, dict)}
    return numbers


def recent(memory: Memory, *, limit: int = 20, max_tokens: int | None = None, **scope: str | None) -> dict[str, Any]:
    """The newest memories in scope (by when they happened, else when they were stored)."""
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 200:
        raise InputError(f"limit must be an integer from 1 to 200, got {limit!r}")
    cap = budget(max_tokens)
    newest = [item_to_record(item) for item in memory.recent(limit, **set_fields(**scope))]
    records = [compact({**r, "metadata": brief_metadata(r.get("metadata") or {})}) for r in newest]
    entries, omitted = fit_entries(records, cap)
    return {"memories": entries, "returned": len(entries), "omitted": omitted, "max_tokens": cap}
