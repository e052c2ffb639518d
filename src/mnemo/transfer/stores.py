"""Opening the two ends of a migration by their targets (a SQLite path, ``:memory:`` or a URL)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from mnemo.config import load_config
from mnemo.errors import ConfigError, InputError
from mnemo.store.factory import open_store
from mnemo.store.transfer_rows import TransferStore


def is_url(target: str) -> bool:
    return "://" in target and not target.startswith("sqlite://")


def open_end(target: str, *, must_exist: bool) -> TransferStore:
    """The store a target names; a source file that does not exist is an error, not a new store."""
    if not target or not target.strip():
        raise InputError("a migration needs a source and a destination (a file path or a postgresql:// URL)")
    path = target.removeprefix("sqlite://")
    if must_exist and not is_url(target):
        if path in ("", ":memory:"):
            raise InputError("an in-memory store cannot be a migration source: it is empty when opened")
        if not Path(path).expanduser().is_file():
            raise InputError(f"{path}: no such store file")
    config = load_config({"db": target})
    if must_exist:  # a source is read in its own text language, whatever new stores here would get
        config = replace(config, pg_text_language="")
    store = open_store(config.db_target, config)
    if not all(hasattr(store, name) for name in ("export_rows", "replace_rows", "count_rows", "finish_import")):
        store.close()
        raise ConfigError(f"the {type(store).__name__} backend does not support migration in this version")
    return store  # type: ignore[return-value]


def describe(target: str) -> str:
    """A target fit for printing: a URL without its password."""
    if not is_url(target) or "@" not in target:
        return target
    scheme, rest = target.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}@{host}"
