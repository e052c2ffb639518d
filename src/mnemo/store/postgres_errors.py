"""PostgreSQL failures as mnemo errors with the fix named, and bounded retries where one can help.

- psycopg missing → MissingExtra("postgres").
- Cannot connect (wrong URL, bad password, no such database, server down) → ConfigError naming the fix.
- The connection drops mid-query, or a deadlock / serialization failure → the operation is retried
  (reads and idempotent writes only, ``ATTEMPTS`` times with backoff), then StoreError.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

from mnemo.errors import ConfigError, MissingExtra, StoreError

T = TypeVar("T")

#: Tries of a read or idempotent write before a lost connection is reported.
ATTEMPTS = 3
BACKOFF_S = 0.2
#: SQLSTATE classes worth a retry: connection exceptions, transaction rollbacks (deadlock,
#: serialization), operator intervention (server restart, admin shutdown).
_RETRY_CLASSES = ("08", "40", "57P")


def require_psycopg() -> Any:
    """Import psycopg and psycopg_pool lazily, so the core install never needs them."""
    try:
        import psycopg
        import psycopg_pool  # noqa: F401 - checked here so the pool import later cannot fail
    except ImportError as exc:
        raise MissingExtra("postgres", "psycopg", "The PostgreSQL backend") from exc
    return psycopg


def redact(url: str) -> str:
    """The URL with any password replaced, for messages and logs."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def connect_error(url: str, exc: BaseException) -> ConfigError:
    """What failed when opening a connection, and what to do about it."""
    text = str(exc).strip()
    lower = text.lower()
    where = redact(url)
    if "password authentication failed" in lower or "no password supplied" in lower:
        fix = "check the user name and password in the URL (or PGPASSWORD / ~/.pgpass)"
    elif "role" in lower and "does not exist" in lower:
        fix = "use an existing user in the URL, or create it (createuser NAME)"
    elif "database" in lower and "does not exist" in lower:
        fix = "create the database first (createdb NAME, or CREATE DATABASE in psql)"
    elif "connection refused" in lower or "could not connect" in lower or "timeout" in lower or "timed out" in lower:
        fix = "is PostgreSQL running and listening there? Start the server or fix host and port in the URL"
    elif "could not translate host name" in lower or "name or service not known" in lower:
        fix = "the host name in the URL does not resolve; fix it"
    elif "invalid" in lower or "missing" in lower or "syntax" in lower:
        fix = "write the URL as postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
    elif "no pg_hba.conf entry" in lower:
        fix = "the server refuses this client; allow it in pg_hba.conf"
    else:
        fix = "check the URL and that the server accepts connections"
    return ConfigError(f"cannot connect to PostgreSQL at {where}: {fix}. (server said: {text})")


def retryable(exc: BaseException) -> bool:
    import psycopg

    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = getattr(exc, "sqlstate", None)
    return state is None or state.startswith(_RETRY_CLASSES)


def with_retry(operation: Callable[[], T], what: str, *, attempts: int = ATTEMPTS) -> T:
    """Run ``operation``; on a dropped connection or a transaction conflict run it again.

    Only for reads and idempotent writes: a write whose commit was lost in transit may have
    happened, and running it again must not change the outcome.
    """
    import psycopg
    from psycopg_pool import PoolTimeout

    for attempt in range(attempts):
        try:
            return operation()
        except PoolTimeout as exc:
            raise StoreError(
                f"{what}: no PostgreSQL connection could be opened in time; is the server up? ({exc})"
            ) from exc
        except psycopg.Error as exc:
            if not retryable(exc) or attempt == attempts - 1:
                raise store_error(exc, what, attempt + 1) from exc
            time.sleep(BACKOFF_S * (2**attempt))
    raise AssertionError("unreachable")


def store_error(exc: BaseException, what: str, tries: int = 1) -> StoreError:
    tried = f" after {tries} tries" if tries > 1 else ""
    if retryable(exc):
        return StoreError(f"{what} failed{tried}: the PostgreSQL connection was lost or the server restarted ({exc})")
    return StoreError(f"{what} failed{tried}: {exc}")
