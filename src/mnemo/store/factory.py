"""Open the store a target names: a file path or ``:memory:`` (SQLite); URLs come with their backends."""

from __future__ import annotations

from mnemo.config import Config
from mnemo.errors import ConfigError
from mnemo.store.base import Store
from mnemo.store.sqlite import SQLiteStore


def open_store(target: str, config: Config) -> Store:
    if "://" in target and not target.startswith("sqlite://"):
        scheme = target.split("://", 1)[0]
        raise ConfigError(f"no store backend for '{scheme}://' URLs in this version; use a file path")
    path = target.removeprefix("sqlite://") or ":memory:"
    return SQLiteStore(path, busy_timeout_ms=config.busy_timeout_ms)
