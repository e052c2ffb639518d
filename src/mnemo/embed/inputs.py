"""What text an item is embedded from, and the embedding cache around the embedder.

Conversation turns are embedded with their speaker ("Caroline: I went to a support group"): a
question about a person then lands near what that person said. On the LoCoMo development set this
lifts MiniLM dense recall@10 from 0.30 to 0.50 (see the foundation issue's closing note). A turn
is also preceded by the start of the turn before it (context.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np

from mnemo.embed.base import Embedder
from mnemo.embed.context import context_line
from mnemo.embed.threads import blas_threads
from mnemo.records import Item
from mnemo.store.base import Embedding

#: The model reads at most 256 word pieces; no text needs more characters than this to fill them,
#: and cutting here keeps a 10 MB message from costing seconds to tokenise.
EMBED_PREFIX_CHARS = 8192

CacheLookup = Callable[[Sequence[str]], dict[str, np.ndarray]]


def embedding_input(item: Item, before: Item | None = None) -> str:
    """What an item is embedded from: a turn with its speaker, after the start of the turn before
    it when it has one (context.py)."""
    body = item.content[:EMBED_PREFIX_CHARS]
    text = f"{item.role}: {body}" if item.role else body
    return f"{context_line(before)}\n{text}" if before is not None else text


def query_input(text: str) -> str:
    return text[:EMBED_PREFIX_CHARS]


def query_blas_threads(store: object, limit: int) -> int:
    """BLAS threads for a search's query embedding: ``limit`` when the store's server shares this
    machine's cores (``shares_cores``: PostgreSQL on loopback), else 0, the library's own count.

    Why: a query is a dozen tokens, and a second BLAS thread saves ~2 ms of matrix products but
    keeps spinning after them. A server on this machine needs that core next: at 1M items on 2
    vCPUs one thread took the embedding's p95 from 20 to 15 ms and the server's from 29 to 21 ms.
    SQLite runs in this process's own thread, so there the second BLAS thread only helps (one
    thread measured ~3 ms slower at p95 on 100k items); so does a server on another machine.
    """
    return limit if getattr(store, "shares_cores", False) else 0


def embed_query(embedder: Embedder, text: str, threads: int) -> np.ndarray:
    """The query's vector, computed on at most ``threads`` BLAS threads (0: the library's own count)."""
    with blas_threads(threads):
        return embedder.embed_one(query_input(text))


def vector_key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def embed_items(
    embedder: Embedder, items: Sequence[Item], cached: CacheLookup, before: Sequence[Item | None] | None = None
) -> list[Embedding]:
    """One Embedding per item; texts already embedded (in the store or this batch) are not redone.

    ``before`` holds each item's previous turn (context.py's ``previous_turns``), or is None for none.
    """
    previous = before if before is not None else [None] * len(items)
    texts = [embedding_input(item, turn) for item, turn in zip(items, previous, strict=True)]
    keys = [vector_key(text) for text in texts]
    known = cached(keys)
    missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in known}
    if missing:
        fresh = embedder.embed(list(missing.values()))
        known.update(zip(missing, fresh, strict=True))
    return [Embedding(key, known[key]) for key in keys]
