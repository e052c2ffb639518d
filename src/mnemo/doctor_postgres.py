"""`mnemo doctor` on PostgreSQL: the checks that apply where the database keeps its own indexes.

PostgreSQL checks its own pages, and its GIN and HNSW indexes are maintained inside each
transaction, so there is no file to check and no index that can drift from its table. What can
still disagree are the values mnemo derives in the item rows (the text-search vector, the
embedding) and rows that point at other rows (facts, subcategory names).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnemo.doctor import Check, DoctorReport, Target, reembed
from mnemo.store.postgres_schema import TEXT_CONFIG

SKIPPED = (
    "integrity: PostgreSQL checks its own pages (use amcheck / pg_amcheck for that)",
    "index_file: the vector index lives in the database (pgvector HNSW), not beside it",
    "vectors_orphaned: vectors live in the item rows, so none can outlive its item",
    "facts: a foreign key deletes fact rows with their item",
)

_EXPECTED_TSV = (  # what the store's trigger computes (store/postgres_schema.py, mnemo_items_tsv)
    f"setweight(to_tsvector('{TEXT_CONFIG}', content), 'A') "
    f"|| setweight(to_tsvector('{TEXT_CONFIG}', coalesce(role, '')), 'B') "
    f"|| setweight(to_tsvector('{TEXT_CONFIG}', coalesce(keys, '')), 'C')"
)
_STALE_TSV = f"FROM items WHERE tsv IS DISTINCT FROM ({_EXPECTED_TSV})"
_MISSING_VECTOR = "FROM items WHERE embedding IS NULL"
_WRONG_DIMENSION = "FROM items WHERE embedding IS NOT NULL AND vector_dims(embedding) != %s"
_DANGLING = (
    "FROM items WHERE subcategory IS NOT NULL AND subcategory != '' AND NOT EXISTS ("
    "SELECT 1 FROM subcategories s WHERE s.user_id = items.user_id AND s.category = items.category "
    "AND s.name = items.subcategory)"
)


def run_postgres(target: Target, *, repair: bool = False) -> DoctorReport:
    sql = _Sql(target.store)
    checks = _checks(sql, target)
    skipped = SKIPPED + (() if target.embedder else ("vectors_missing, vectors_dimension: no embedder is configured",))
    if not repair or all(c.ok for c in checks):
        return DoctorReport("postgres", checks, skipped=skipped)
    repaired = tuple(_repair(sql, target, check) for check in checks)
    return DoctorReport("postgres", repaired, after=_checks(sql, target), skipped=skipped, repaired=True)


def _checks(sql: _Sql, target: Target) -> tuple[Check, ...]:
    total = sql.count("FROM items")
    n = sql.count(_STALE_TSV)
    checks = [Check("fts", n, f"{n} of {total} items whose text-search vector does not match their text")]
    if target.embedder is not None:
        n = sql.count(_MISSING_VECTOR)
        checks.append(Check("vectors_missing", n, f"{n} items without a vector"))
        n = sql.count(_WRONG_DIMENSION, target.embedder.dim)
        checks.append(Check("vectors_dimension", n, f"{n} vectors whose length is not {target.embedder.dim}"))
    n = sql.count(_DANGLING)
    checks.append(Check("subcategories", n, f"{n} items assigned to a subcategory that does not exist"))
    return tuple(checks)


def _repair(sql: _Sql, target: Target, check: Check) -> Check:
    if check.ok:
        return check
    dim = target.embedder.dim if target.embedder else 0
    repairs: dict[str, Callable[[], int]] = {
        # an update of content fires the trigger that recomputes tsv from the row
        "fts": lambda: sql.write(f"UPDATE items SET content = content WHERE rowid IN (SELECT rowid {_STALE_TSV})"),
        "vectors_missing": lambda: reembed(target, sql.keys(_MISSING_VECTOR)),
        "vectors_dimension": lambda: reembed(target, sql.keys(_WRONG_DIMENSION, dim)),
        "subcategories": lambda: sql.write(
            f"UPDATE items SET subcategory = NULL WHERE rowid IN (SELECT rowid {_DANGLING})"
        ),
    }
    fix = repairs.get(check.name)
    return check if fix is None else Check(check.name, check.problems, check.detail, repaired=fix())


class _Sql:
    """Plain statements over the store's connection pool (one transaction per statement)."""

    def __init__(self, store: Any) -> None:
        # the pool is the store's own I/O edge; doctor asks questions no Store method answers
        self._pool = store._pool

    def count(self, tail: str, *params: Any) -> int:
        with self._pool.connection() as conn:
            return int(conn.execute(f"SELECT count(*) {tail}", params).fetchone()[0])

    def keys(self, tail: str, *params: Any) -> list[int]:
        with self._pool.connection() as conn:
            return [int(r[0]) for r in conn.execute(f"SELECT rowid {tail}", params).fetchall()]

    def write(self, statement: str) -> int:
        with self._pool.connection() as conn:
            return max(conn.execute(statement).rowcount, 0)
