"""Pick the embedder for a store: the one asked for, checked against the one the store was built with."""

from __future__ import annotations

from mnemo.embed.base import Embedder
from mnemo.errors import ConfigError

#: Stored model names mapped to the registry names that recreate them.
_BY_STORED_NAME = {"all-MiniLM-L6-v2": "minilm"}


def registry_name(stored: str) -> str:
    return _BY_STORED_NAME.get(stored, stored)


def choose_embedder(requested: str | Embedder, recorded: str | None) -> Embedder | None:
    """``auto`` follows the store's recorded model; ``none`` disables vectors (keyword fallback)."""
    from mnemo.embed.registry import make_embedder

    if isinstance(requested, Embedder):
        embedder = requested
    elif requested == "none":
        return None
    elif requested == "auto" and recorded:
        embedder = make_embedder(registry_name(recorded))
    else:
        embedder = make_embedder(requested)
    if recorded and embedder.name != recorded:
        raise ConfigError(
            f"this store's vectors were made by '{recorded}', not '{embedder.name}'; "
            f"open it with embedder='{registry_name(recorded)}' (or MNEMO_EMBEDDER), "
            "or re-embed it with `mnemo reindex`"
        )
    return embedder
