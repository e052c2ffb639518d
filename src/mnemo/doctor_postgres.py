"""`mnemo doctor` on PostgreSQL: the checks that apply where the database keeps its own indexes.

PostgreSQL checks its own pages, and its GIN and HNSW indexes are maintained inside each
transaction, so there is no file to check and no index that can drift from its table. What can
still disagree are the values mnemo derives in the item rows (the text-search vector, the
embedding) and rows that point at other rows (facts, subcategory names). The HNSW index itself can
be missing: a bulk import drops it and builds it at its end (store/postgres_bulk.py), so a process
killed in between leaves it absent (searches stay correct, only slower).

A note says how many deleted or replaced rows still wait for VACUUM (their text is in the table
files until then); a repair runs it (``PostgresStore.scrub``, as a hard forget does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnemo.doctor import Check, DoctorReport, Target, check_vector_inputs, reembed, reembed_turns
from mnemo.store.postgres_schema import vector_index_name

SKIPPED = (
    "integrity: PostgreSQL checks its own pages (use amcheck / pg_amcheck for that)",
    "index_file: the vector index lives in the database (pgvector HNSW), not beside it",
    "vectors_orphaned: vectors live in the item rows, so none can outlive its item",
    "facts: a foreign key deletes fact rows with their item",
)

# the function the store's trigger computes tsv with (store/postgres_schema.py), so the two agree
_STALE_TSV = "FROM items WHERE tsv IS DISTINCT FROM mnemo_item_tsv(content, role, keys)"
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
    notes = _dead_rows_note(sql, target, vacuum=repair)
    if not repair or all(c.ok for c in checks):
        return DoctorReport("postgres", checks, skipped=skipped, notes=notes)
    repaired = tuple(_repair(sql, target, check) for check in checks)
    after = _checks(sql, target)
    return DoctorReport("postgres", repaired, after=after, skipped=skipped, repaired=True, notes=notes)


def _dead_rows_note(sql: _Sql, target: Target, *, vacuum: bool) -> tuple[str, ...]:
    """Deleted or replaced row versions the server's statistics count (an estimate, updated
    within about a second of each write); ``vacuum`` removes them."""
    from mnemo.store.postgres import SCRUB_TABLES

    query = "SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE relname = ANY(%s)"
    dead = int(sql.value(query, list(SCRUB_TABLES)))
    if dead == 0:
        return ()
    if vacuum:
        target.store.scrub()  # type: ignore[attr-defined]
        return (f"vacuumed {dead} deleted or replaced row versions of {', '.join(SCRUB_TABLES)}",)
    return (
        f"{dead} deleted or replaced row versions of {', '.join(SCRUB_TABLES)} keep their text in the table files "
        "until VACUUM (autovacuum runs it; so do a hard forget and `mnemo doctor --repair`)",
    )


def _checks(sql: _Sql, target: Target) -> tuple[Check, ...]:
    total = sql.count("FROM items")
    n = sql.count(_STALE_TSV)
    checks = [Check("fts", n, f"{n} of {total} items whose text-search vector does not match their text")]
    if target.embedder is not None:
        n = sql.count(_MISSING_VECTOR)
        checks.append(Check("vectors_missing", n, f"{n} items without a vector"))
        n = sql.count(_WRONG_DIMENSION, target.embedder.dim)
        checks.append(Check("vectors_dimension", n, f"{n} vectors whose length is not {target.embedder.dim}"))
        n = _missing_vector_index(sql, target.embedder.dim)
        checks.append(Check("vector_index", n, f"{n} vector dimension(s) without their HNSW index"))
        checks.append(check_vector_inputs(target))
    n = sql.count(_DANGLING)
    checks.append(Check("subcategories", n, f"{n} items assigned to a subcategory that does not exist"))
    return tuple(checks)


def _missing_vector_index(sql: _Sql, dim: int) -> int:
    """1 when items hold vectors of the embedder's dimension but their index is absent (and no bulk
    import of this process has dropped it on purpose)."""
    if dim in sql.store.deferred_dims():
        return 0
    vectors = sql.value("SELECT EXISTS (SELECT 1 FROM items WHERE embedding IS NOT NULL)")
    return int(bool(vectors) and sql.value("SELECT to_regclass(%s) IS NULL", vector_index_name(dim)))


def _repair(sql: _Sql, target: Target, check: Check) -> Check:
    if check.ok:
        return check
    dim = target.embedder.dim if target.embedder else 0
    repairs: dict[str, Callable[[], int]] = {
        # an update of content fires the trigger that recomputes tsv from the row
        "fts": lambda: sql.write(f"UPDATE items SET content = content WHERE rowid IN (SELECT rowid {_STALE_TSV})"),
        "vectors_missing": lambda: reembed(target, sql.keys(_MISSING_VECTOR)),
        "vectors_dimension": lambda: reembed(target, sql.keys(_WRONG_DIMENSION, dim)),
        "vector_index": lambda: _build(sql, dim),
        "vector_inputs": lambda: reembed_turns(target),
        "subcategories": lambda: sql.write(
            f"UPDATE items SET subcategory = NULL WHERE rowid IN (SELECT rowid {_DANGLING})"
        ),
    }
    fix = repairs.get(check.name)
    return check if fix is None else Check(check.name, check.problems, check.detail, repaired=fix())


def _build(sql: _Sql, dim: int) -> int:
    sql.store._build_vector_index(dim)  # the index a bulk import builds at its end
    return 1


class _Sql:
    """Plain statements over the store's connection pool (one transaction per statement)."""

    def __init__(self, store: Any) -> None:
        # the pool is the store's own I/O edge; doctor asks questions no Store method answers
        self.store = store
        self._pool = store._pool

    def count(self, tail: str, *params: Any) -> int:
        with self._pool.connection() as conn:
            return int(conn.execute(f"SELECT count(*) {tail}", params).fetchone()[0])

    def value(self, query: str, *params: Any) -> Any:
        with self._pool.connection() as conn:
            return conn.execute(query, params).fetchone()[0]

    def keys(self, tail: str, *params: Any) -> list[int]:
        with self._pool.connection() as conn:
            return [int(r[0]) for r in conn.execute(f"SELECT rowid {tail}", params).fetchall()]

    def write(self, statement: str) -> int:
        with self._pool.connection() as conn:
            return max(conn.execute(statement).rowcount, 0)
