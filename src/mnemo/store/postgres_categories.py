"""Categories and evolving subcategories on PostgreSQL, with the semantics of store/sqlite_categories.py.

A mixin of PostgresStore: methods here use the store's ``_read`` (retried reads), ``_write``
(retried idempotent writes) and ``_transaction`` (one transaction, not retried). The items'
``category``/``subcategory`` columns belong to the core items table (store/postgres_schema.py);
this module owns the subcategory and history tables.

As on SQLite, category changes do not bump the items' sequence numbers (that would make every vector
reader catch up on unchanged vectors); ``category_version`` in ``meta`` is bumped instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from mnemo.errors import InputError
from mnemo.records import SearchFilter, Subcategory
from mnemo.store.postgres_filters import pg_where
from mnemo.store.sqlite_categories import Grouping, Member, history_entry
from mnemo.timeutil import from_epoch, now_utc, to_epoch

#: Idempotent DDL, run by PostgresStore's schema runner (mirrors SQLite migration 0004).
SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE IF NOT EXISTS subcategories (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL DEFAULT '',
        category TEXT NOT NULL,
        name TEXT NOT NULL,
        keywords TEXT NOT NULL DEFAULT '[]',
        centroid BYTEA,
        count BIGINT NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        UNIQUE (user_id, category, name)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS category_history (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at DOUBLE PRECISION NOT NULL,
        user_id TEXT NOT NULL DEFAULT '',
        category TEXT NOT NULL,
        action TEXT NOT NULL,
        old_names TEXT NOT NULL DEFAULT '[]',
        new_names TEXT NOT NULL DEFAULT '[]',
        detail TEXT NOT NULL DEFAULT ''
    )
    """,
    "CREATE INDEX IF NOT EXISTS category_history_by_user ON category_history (user_id, at)",
)

_SUBCATEGORY_COLUMNS = "id, user_id, category, name, keywords, count, created_at, updated_at"
#: Byte-wise ordering, as SQLite compares text, whatever the database's collation.
_C = 'COLLATE "C"'


class PgCategories:
    """Mixed into PostgresStore; see the module docstring."""

    _read: Any
    _write: Any
    _transaction: Any

    # -- reading ---------------------------------------------------------------------------

    def category_version(self) -> int:
        row = self._one("SELECT value FROM meta WHERE key = 'category_version'")
        return int(row[0]) if row else 0

    def category_users(self) -> list[str]:
        """Every user partition ('' = items without a user) that holds classified items."""
        rows = self._read(f"SELECT DISTINCT user_id {_C} FROM items WHERE category IS NOT NULL ORDER BY 1")
        return [r[0] for r in rows]

    def subcategories(self, user_id: str | None = None, category: str | None = None) -> list[Subcategory]:
        """Subcategories of one user partition ('' = no user), or of every partition when None."""
        parts, params = [], []
        if user_id is not None:
            parts.append("user_id = %s")
            params.append(user_id)
        if category is not None:
            parts.append("category = %s")
            params.append(category)
        where = " AND ".join(parts) or "TRUE"
        rows = self._read(
            f"SELECT {_SUBCATEGORY_COLUMNS} FROM subcategories WHERE {where} "
            f"ORDER BY category {_C}, count DESC, name {_C}",
            params,
        )
        return [_subcategory(row) for row in rows]

    def subcategory_centroids(self, user_id: str, category: str) -> list[tuple[str, np.ndarray]]:
        rows = self._read(
            "SELECT name, centroid FROM subcategories WHERE user_id = %s AND category = %s AND centroid IS NOT NULL "
            f"ORDER BY name {_C}",
            [user_id, category],
        )
        return [(name, np.frombuffer(blob, dtype=np.float32)) for name, blob in rows]

    def category_members(self, user_id: str, category: str) -> list[Member]:
        """Every item of one user partition and category that has a vector, in key order."""
        rows = self._read(
            "SELECT rowid, content, subcategory, embedding FROM items "
            "WHERE user_id = %s AND category = %s AND embedding IS NOT NULL ORDER BY rowid",
            [user_id, category],
        )
        return [Member(int(r[0]), r[1], r[2], _vector(r[3])) for r in rows]

    def unclassified(self, limit: int = 1000) -> list[tuple[int, str, str | None, np.ndarray | None]]:
        """(key, content, role, vector or None) of items not yet classified."""
        rows = self._read(
            "SELECT rowid, content, role, embedding FROM items WHERE category IS NULL ORDER BY rowid LIMIT %s",
            [limit],
        )
        return [(int(r[0]), r[1], r[2], None if r[3] is None else _vector(r[3])) for r in rows]

    def category_counts(self, flt: SearchFilter) -> dict[tuple[str, str | None], int]:
        """How many items in the filter sit in each (category, subcategory); unclassified left out."""
        where, params = pg_where(flt)
        rows = self._read(
            f"SELECT category, subcategory, count(*) FROM items WHERE {where} "
            "AND category IS NOT NULL AND category != '' GROUP BY category, subcategory",
            params,
        )
        return {(c, s): int(n) for c, s, n in rows}

    def max_item_key(self) -> int:
        return int(self._one("SELECT coalesce(max(rowid), 0) FROM items")[0])

    def items_since_evolve(self, cap: int) -> int:
        """Items written since the last evolve, counted up to ``cap`` (so the check stays cheap)."""
        last = self._one("SELECT value FROM meta WHERE key = 'category_evolved_rowid'")
        since = int(last[0]) if last else 0
        row = self._one("SELECT count(*) FROM (SELECT 1 FROM items WHERE rowid > %s LIMIT %s) AS t", [since, cap])
        return int(row[0])

    def category_history(self, user_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        where, params = ("user_id = %s", [user_id]) if user_id is not None else ("TRUE", [])
        rows = self._read(
            "SELECT at, user_id, category, action, old_names, new_names, detail FROM category_history "
            f"WHERE {where} ORDER BY id DESC LIMIT %s",
            [*params, limit],
        )
        return [history_entry(r) for r in rows]

    # -- writing ---------------------------------------------------------------------------

    def set_categories(self, assignments: Sequence[tuple[int, str, str | None]]) -> None:
        """Set (category, subcategory) of existing items by key (the backfill of older items)."""
        # in key order, so concurrent backfills lock rows in the same order
        rows = [(category, sub, key) for key, category, sub in sorted(assignments, key=lambda a: a[0])]

        def run(conn: Any) -> None:
            with conn.cursor() as cur:
                if rows:
                    cur.executemany("UPDATE items SET category = %s, subcategory = %s WHERE rowid = %s", rows)
                _bump_version(cur)

        self._write(run, "setting categories")

    def save_grouping(self, grouping: Grouping) -> None:
        """Replace one (user, category)'s subcategories and item assignments in one transaction."""
        stamp = to_epoch(now_utc())
        with self._transaction() as conn, conn.cursor() as cur:
            _lock_partition(cur, grouping.user_id, grouping.category)
            keep = [sub.id for sub, _ in grouping.subcategories]
            cur.execute(
                "DELETE FROM subcategories WHERE user_id = %s AND category = %s AND NOT (id = ANY(%s))",
                [grouping.user_id, grouping.category, keep],
            )
            # names are unique per (user, category): park kept rows under their ids first, so two
            # subcategories may swap names within one evolve without a constraint error
            cur.execute("UPDATE subcategories SET name = id WHERE id = ANY(%s)", [keep])
            for sub, centroid in grouping.subcategories:
                _upsert_subcategory(cur, grouping.user_id, sub, centroid, stamp)
            if grouping.assignments:
                cur.executemany(
                    "UPDATE items SET subcategory = %s WHERE rowid = %s",
                    [(name, key) for key, name in sorted(grouping.assignments, key=lambda a: a[0])],
                )
            for action, old, new, detail in grouping.history:
                _log(cur, stamp, grouping.user_id, grouping.category, action, old, new, detail)
            _bump_version(cur)

    def mark_evolved(self, upto_rowid: int | None = None) -> None:
        def run(conn: Any) -> None:
            upto = upto_rowid
            if upto is None:
                upto = int(conn.execute("SELECT coalesce(max(rowid), 0) FROM items").fetchone()[0])
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('category_evolved_rowid', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [str(upto)],
            )

        self._write(run, "marking categories evolved")

    def rename_subcategory(self, user_id: str, category: str, old: str, new: str) -> int:
        """Rename within one partition; returns how many items moved with it."""
        stamp = to_epoch(now_utc())
        with self._transaction() as conn, conn.cursor() as cur:
            _lock_partition(cur, user_id, category)
            _require(cur, user_id, category, old)
            if _exists(cur, user_id, category, new):
                raise InputError(f"{category}/{new} already exists; merge instead of renaming")
            cur.execute(
                "UPDATE subcategories SET name = %s, updated_at = %s "
                "WHERE user_id = %s AND category = %s AND name = %s",
                [new, stamp, user_id, category, old],
            )
            cur.execute(
                "UPDATE items SET subcategory = %s WHERE user_id = %s AND category = %s AND subcategory = %s",
                [new, user_id, category, old],
            )
            moved = cur.rowcount
            _log(cur, stamp, user_id, category, "renamed", (old,), (new,), "by request")
            _bump_version(cur)
        return moved

    def merge_subcategories(self, user_id: str, category: str, source: str, target: str) -> int:
        """Fold ``source`` into ``target`` (centroid weighted by counts); returns items moved."""
        stamp = to_epoch(now_utc())
        with self._transaction() as conn, conn.cursor() as cur:
            _lock_partition(cur, user_id, category)
            src = _require(cur, user_id, category, source)
            dst = _require(cur, user_id, category, target)
            total = int(src[1]) + int(dst[1])
            centroid = None
            if src[2] is not None and dst[2] is not None and total > 0:
                mixed = _vector(src[2]) * int(src[1]) + _vector(dst[2]) * int(dst[1])
                norm = float(np.linalg.norm(mixed))
                centroid = (mixed / (norm or 1.0)).astype(np.float32).tobytes()
            keywords = list(dict.fromkeys([*json.loads(dst[3]), *json.loads(src[3])]))[:10]
            cur.execute(
                "UPDATE subcategories SET count = %s, centroid = coalesce(%s, centroid), keywords = %s, "
                "updated_at = %s WHERE id = %s",
                [total, centroid, json.dumps(keywords), stamp, dst[0]],
            )
            cur.execute("DELETE FROM subcategories WHERE id = %s", [src[0]])
            cur.execute(
                "UPDATE items SET subcategory = %s WHERE user_id = %s AND category = %s AND subcategory = %s",
                [target, user_id, category, source],
            )
            moved = cur.rowcount
            _log(cur, stamp, user_id, category, "merged", (source, target), (target,), "by request")
            _bump_version(cur)
        return moved

    def _one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self._read(sql, params)
        return rows[0] if rows else None


def _vector(value: Any) -> np.ndarray:
    """A float32 vector from a pgvector value read as ``real[]`` or a centroid's bytes."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(value), dtype=np.float32)
    return np.asarray(value, dtype=np.float32)


def _subcategory(row: tuple[Any, ...]) -> Subcategory:
    sub_id, user_id, category, name, keywords, count, created, updated = row
    return Subcategory(
        id=sub_id,
        category=category,
        name=name,
        keywords=tuple(json.loads(keywords)),
        count=int(count),
        user_id=user_id or None,
        created_at=from_epoch(created),
        updated_at=from_epoch(updated),
    )


def _lock_partition(cur: Any, user_id: str, category: str) -> None:
    """Serialise writers of one (user, category) until commit: two evolves of it never interleave."""
    cur.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"mnemo.categories\x1f{user_id}\x1f{category}"]
    )


def _upsert_subcategory(cur: Any, user_id: str, sub: Subcategory, centroid: np.ndarray, stamp: float) -> None:
    blob = np.asarray(centroid, dtype=np.float32).tobytes()
    cur.execute(
        "INSERT INTO subcategories (id, user_id, category, name, keywords, centroid, count, created_at, updated_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET name = excluded.name, "
        "keywords = excluded.keywords, centroid = excluded.centroid, count = excluded.count, "
        "updated_at = excluded.updated_at",
        [sub.id, user_id, sub.category, sub.name, json.dumps(list(sub.keywords)), blob, sub.count, stamp, stamp],
    )


def _require(cur: Any, user_id: str, category: str, name: str) -> tuple[Any, ...]:
    row = cur.execute(
        "SELECT id, count, centroid, keywords FROM subcategories WHERE user_id = %s AND category = %s AND name = %s",
        [user_id, category, name],
    ).fetchone()
    if row is None:
        raise InputError(f"no subcategory {category}/{name}")
    return row


def _exists(cur: Any, user_id: str, category: str, name: str) -> bool:
    row = cur.execute(
        "SELECT 1 FROM subcategories WHERE user_id = %s AND category = %s AND name = %s", [user_id, category, name]
    ).fetchone()
    return row is not None


def _log(
    cur: Any,
    stamp: float,
    user_id: str,
    category: str,
    action: str,
    old: Sequence[str],
    new: Sequence[str],
    detail: str,
) -> None:
    cur.execute(
        "INSERT INTO category_history (at, user_id, category, action, old_names, new_names, detail) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s)",
        [stamp, user_id, category, action, json.dumps(list(old)), json.dumps(list(new)), detail],
    )


def _bump_version(cur: Any) -> None:
    cur.execute(
        "INSERT INTO meta (key, value) VALUES ('category_version', '1') "
        "ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text"
    )
