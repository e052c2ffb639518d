"""mnemo: a local-first memory engine for AI agents and coding assistants."""

from mnemo.api import Memory
from mnemo.compat import get_memory_context, search_memories, set_default_memory, store_memory
from mnemo.context.render import ContextPack
from mnemo.errors import ConfigError, InputError, MissingExtra, MnemoError, StoreError

# imported eagerly so the name `extract` is this function, not the subpackage it lives in
from mnemo.extract.pipeline import extract
from mnemo.records import Fact, Hit, ImportReport, Item, Kind, Scope, SearchFilter

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "ContextPack",
    "Fact",
    "Hit",
    "ImportReport",
    "InputError",
    "Item",
    "Kind",
    "Memory",
    "MissingExtra",
    "MnemoError",
    "Scope",
    "SearchFilter",
    "StoreError",
    "extract",
    "get_memory_context",
    "search_memories",
    "set_default_memory",
    "store_memory",
]
