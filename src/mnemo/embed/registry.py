"""Build an embedder by name without loading any model until it is used."""

from __future__ import annotations

import re

from mnemo.embed.base import Embedder
from mnemo.embed.hashing import DEFAULT_DIM, HashingEmbedder
from mnemo.embed.minilm import MODEL_NAME, MiniLMEmbedder, minilm_available
from mnemo.errors import ConfigError

_MINILM_NAMES = {"minilm", MODEL_NAME.lower()}
#: ``hashing`` or a stored name such as ``hashing-ngram-256``.
_HASHING_NAME = re.compile(r"^hashing(?:-ngram-(\d+))?$")


def make_embedder(name: str = "auto") -> Embedder:
    """``auto``: MiniLM if installed, else hashing. ``minilm`` raises MissingExtra if absent."""
    key = name.strip().lower()
    if key == "auto":
        return MiniLMEmbedder() if minilm_available() else HashingEmbedder()
    if key in _MINILM_NAMES:
        return MiniLMEmbedder()
    match = _HASHING_NAME.match(key)
    if match:
        return HashingEmbedder(int(match.group(1)) if match.group(1) else DEFAULT_DIM)
    raise ConfigError(f"unknown embedder {name!r}; choose one of: auto, {', '.join(available_embedders())}")


def available_embedders() -> list[str]:
    """Registry names that can be built right now, best first (checks packages, loads nothing)."""
    names = ["minilm"] if minilm_available() else []
    return [*names, "hashing"]
