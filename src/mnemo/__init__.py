"""mnemo: a local-first memory engine for AI agents and coding assistants."""

from mnemo.api import Memory
from mnemo.compat import get_memory_context, search_memories, set_default_memory, store_memory
from mnemo.context.render import ContextPack
from mnemo.errors import ConfigError, InputError, MissingExtra, MnemoError, StoreError
from mnemo.records import Hit, ImportReport, Item, Kind, Scope, SearchFilter

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "ContextPack",
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
    "get_memory_context",
    "search_memories",
    "set_default_memory",
    "store_memory",
]
