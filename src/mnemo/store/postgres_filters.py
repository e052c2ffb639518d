"""Scope filters as PostgreSQL WHERE fragments, and the names every PostgreSQL mixin shares.

Conventions of the PostgreSQL schema (store/postgres_schema.py) that mixins rely on:

- ``items.rowid`` (``KEY``) is the integer item key, as in SQLite.
- ``items.embedding`` (pgvector ``vector``, no fixed dimension) holds the item's vector, or NULL;
  connections from the store's pool load it as a float32 ``np.ndarray`` (``postgres_vectors``).
- ``items.tsv`` is the full-text vector (content weight A, role B, keys C) in the ``mnemo_text``
  configuration (``TEXT_CONFIG`` in postgres_schema); ``items.metadata`` is JSONB.
"""

from __future__ import annotations

from typing import Any

from mnemo.records import SearchFilter
from mnemo.store.sql import where_clause

#: The integer key column of ``items``.
KEY = "rowid"


def pg_where(flt: SearchFilter, alias: str = "items") -> tuple[str, list[Any]]:
    """The filter as a WHERE fragment with psycopg ``%s`` parameters (``TRUE`` when unrestricted).

    The same fragment SQLite gets (store/sql.py builds it), so both backends apply one scope logic;
    only the placeholder and the "no restriction" literal differ.
    """
    where, params = where_clause(flt, alias)
    if where == "1":
        return "TRUE", params
    return where.replace("?", "%s"), params
