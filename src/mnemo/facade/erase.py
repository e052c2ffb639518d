"""What a hard forget does after the rows are gone: no copy of the text may stay anywhere.

Deleting rows leaves traces behind: the full-text index keeps deleted terms in its segments
until they are merged, the WAL keeps the old page images until a checkpoint, the in-memory and
saved vector indexes keep the vector (from which text can be approximated), and the query caches
keep vectors and rewrites of queries asked before. ``erase_traces`` clears each of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemo.index.hnsw import sidecar_path
from mnemo.records import OWNER_FIELDS, Scope

#: Facts scanned for ones stated by a deleted message (a forget is rare; a scope rarely holds more).
MAX_FACTS_SCANNED = 100_000


def erase_traces(memory: Any) -> None:
    """Bring every derived copy in line with the store after a delete (Memory.delete, forget)."""
    # A saved HNSW file keeps a removed vector's bytes in its freed slot (usearch cannot scrub
    # one), so the file goes and the next search rebuilds the index from SQLite; an in-memory
    # exact index drops the rows at once.
    saved = None if hasattr(memory.store, "nearest") else memory._index_path()  # pgvector: no file
    if saved is not None:
        for path in (Path(saved), sidecar_path(saved)):
            path.unlink(missing_ok=True)
    if memory._vectors.kind == "hnsw":
        memory._vectors = memory._new_vectors()
    else:
        memory._vectors.refresh()
    scrub = getattr(memory.store, "scrub", None)
    if scrub is not None:  # SQLite: merge full-text segments, truncate the WAL; PostgreSQL: VACUUM
        scrub()
    # cached query vectors, rewrites and session statistics are rebuilt on next use
    memory._query_engine = None
    memory._session_searcher = None


def forget_orphan_facts(memory: Any, message_id: str, scope: Scope) -> int:
    """Forget the facts that only the deleted message ``message_id`` stated.

    A fact extracted from a message repeats its words ("my locker code is ..."), so deleting the
    message must take such a fact with it; a fact that other messages stated too stays.
    """
    facts = memory.store.list_facts(scope, None, None, None, MAX_FACTS_SCANNED)
    forgotten = 0
    for fact in facts:
        if message_id not in fact.provenance or fact.id is None:
            continue
        owner = Scope(**{name: getattr(fact.scope, name) for name in OWNER_FIELDS})
        if all(memory.store.get(other, owner) is None for other in fact.provenance):
            forgotten += memory.store.forget_facts(owner, None, None, fact.id)
    return forgotten
