"""Open the store a target names: a file path or ``:memory:`` (SQLite), or a PostgreSQL URL."""

from __future__ import annotations

from mnemo.config import Config
from mnemo.errors import ConfigError
from mnemo.store.base import Store
from mnemo.store.sqlite import SQLiteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(target: str, config: Config) -> Store:
    if target.startswith(POSTGRES_SCHEMES):
        # imported here: the core install has no psycopg, and SQLite users never load it
        from mnemo.store.postgres import PostgresStore

        # an empty setting opens an existing store in whatever language it was created with
        store = PostgresStore(target, pool_size=config.pg_pool_size, text_language=config.pg_text_language or None)
        return store  # type: ignore[return-value]
    if "://" in target and not target.startswith("sqlite://"):
        scheme = target.split("://", 1)[0]
        raise ConfigError(
            f"no store backend for '{scheme}://' URLs; use a file path, ':memory:' or postgresql://USER@HOST/DB"
        )
    path = target.removeprefix("sqlite://") or ":memory:"
    return SQLiteStore(path, busy_timeout_ms=config.busy_timeout_ms)
