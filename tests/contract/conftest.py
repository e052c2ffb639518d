"""The backends every contract test runs against: a SQLite file, SQLite in memory, PostgreSQL.

A test takes ``backend_target`` (the string ``Memory`` is opened with) or the ready ``memory``
(hashing embedder). The PostgreSQL case uses a fresh database on the real server of ``pg_url``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemo import Memory

HAS_SPACY = importlib.util.find_spec("spacy") is not None
needs_spacy = pytest.mark.skipif(not HAS_SPACY, reason="the 'nlp' extra (spaCy models) is not installed")

BACKENDS = (
    pytest.param("sqlite-file", id="sqlite-file"),
    pytest.param("sqlite-memory", id="sqlite-memory"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def backend_target(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == "sqlite-file":
        return str(tmp_path / "contract.db")
    if backend == "sqlite-memory":
        return ":memory:"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def reopenable(backend: str) -> None:
    """For tests that close a store and open it again: an in-memory store does not survive that."""
    if backend == "sqlite-memory":
        pytest.skip("an in-memory store ends with its Memory; nothing to reopen")


@pytest.fixture
def memory(backend_target: str) -> Iterator[Memory]:
    with Memory(backend_target, embedder="hashing") as mem:
        yield mem


@pytest.fixture
def open_memory(backend_target: str) -> Iterator[Callable[..., Memory]]:
    """Open (more) Memories on the target; all are closed after the test."""
    opened: list[Memory] = []

    def make(**options: Any) -> Memory:
        options.setdefault("embedder", "hashing")
        mem = Memory(backend_target, **options)
        opened.append(mem)
        return mem

    yield make
    for mem in reversed(opened):
        mem.close()
