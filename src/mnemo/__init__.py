"""mnemo: a local-first memory engine for AI agents and coding assistants.

The public names are loaded on first use (PEP 562), not at ``import mnemo``: importing the
engine (numpy, the store, retrieval, categories) takes about 0.4 s, and commands that never touch
it, like ``mnemo hook claude-code`` talking to a running server, must start in tens of milliseconds.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mnemo.api import Memory
    from mnemo.compat import get_memory_context, search_memories, set_default_memory, store_memory
    from mnemo.context.render import ContextPack
    from mnemo.errors import ConfigError, InputError, MissingExtra, MnemoError, StoreError
    from mnemo.extract.pipeline import extract
    from mnemo.records import Fact, Hit, ImportReport, Item, Kind, Scope, SearchFilter

__version__ = "0.1.0"

#: public name → the module that defines it
_LAZY = {
    "Memory": "mnemo.api",
    "get_memory_context": "mnemo.compat",
    "search_memories": "mnemo.compat",
    "set_default_memory": "mnemo.compat",
    "store_memory": "mnemo.compat",
    "ContextPack": "mnemo.context.render",
    "ConfigError": "mnemo.errors",
    "InputError": "mnemo.errors",
    "MissingExtra": "mnemo.errors",
    "MnemoError": "mnemo.errors",
    "StoreError": "mnemo.errors",
    "Fact": "mnemo.records",
    "Hit": "mnemo.records",
    "ImportReport": "mnemo.records",
    "Item": "mnemo.records",
    "Kind": "mnemo.records",
    "Scope": "mnemo.records",
    "SearchFilter": "mnemo.records",
}

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemo' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """``mnemo.extract`` is the extraction function, although ``mnemo/extract/`` is also a subpackage:
    importing the subpackage sets the attribute of the same name on its parent, which this property
    ignores, so the name means the function whatever was imported first."""

    @property
    def extract(self) -> Any:
        return importlib.import_module("mnemo.extract.pipeline").extract

    @extract.setter
    def extract(self, _value: Any) -> None:
        pass


sys.modules[__name__].__class__ = _Package
