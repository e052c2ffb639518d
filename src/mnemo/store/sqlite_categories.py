"""Categories and evolving subcategories: the subcategory table and the category columns of items.

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`.

Category changes made here (backfill, evolve, rename, merge) do not bump the items' sequence
numbers: those drive the vector index's catch-up, and re-reading 100k unchanged vectors after an
evolve would cost more than the evolve. Instead a separate ``category_version`` (in ``meta``) is
bumped; Memory puts it in every category filter, so no cached key list survives a change.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mnemo.errors import InputError
from mnemo.records import SearchFilter, Subcategory
from mnemo.store.sql import placeholders, where_clause
from mnemo.timeutil import from_epoch, now_utc, to_epoch

_SUBCATEGORY_COLUMNS = "id, user_id, category, name, keywords, count, created_at, updated_at"


@dataclass(frozen=True, slots=True)
class Member:
    """One classified item as the evolve step sees it."""

    key: int
    content: str
    subcategory: str | None
    vector: np.ndarray


@dataclass(frozen=True, slots=True)
class Grouping:
    """The outcome of evolving one (user, category): subcategories, item assignments, history."""

    user_id: str
    category: str
    subcategories: tuple[tuple[Subcategory, np.ndarray], ...]
    assignments: tuple[tuple[int, str | None], ...]
    history: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str], ...] = ()


class SQLiteCategories:
    """Mixed into SQLiteStore; see the module docstring."""

    # -- reading ---------------------------------------------------------------------------

    def category_version(self) -> int:
        rows = self._read("SELECT value FROM meta WHERE key = 'category_version'")
        return int(rows[0][0]) if rows else 0

    def category_users(self) -> list[str]:
        """Every user partition ('' = items without a user) that holds classified items."""
        rows = self._read("SELECT DISTINCT user_id FROM items WHERE category IS NOT NULL ORDER BY user_id")
        return [r[0] for r in rows]

    def subcategories(self, user_id: str | None = None, category: str | None = None) -> list[Subcategory]:
        """Subcategories of one user partition ('' = no user), or of every partition when None."""
        parts, params = [], []
        if user_id is not None:
            parts.append("user_id = ?")
            params.append(user_id)
        if category is not None:
            parts.append("category = ?")
            params.append(category)
        where = " AND ".join(parts) or "1"
        rows = self._read(
            f"SELECT {_SUBCATEGORY_COLUMNS} FROM subcategories WHERE {where} ORDER BY category, count DESC, name",
            params,
        )
        return [_subcategory(row) for row in rows]

    def subcategory_centroids(self, user_id: str, category: str) -> list[tuple[str, np.ndarray]]:
        rows = self._read(
            "SELECT name, centroid FROM subcategories WHERE user_id = ? AND category = ? AND centroid IS NOT NULL "
            "ORDER BY name",
            (user_id, category),
        )
        return [(name, np.frombuffer(blob, dtype=np.float32)) for name, blob in rows]

    def category_members(self, user_id: str, category: str) -> list[Member]:
        """Every item of one user partition and category that has a vector, in key order."""
        rows = self._read(
            "SELECT items.rowid, items.content, items.subcategory, vectors.embedding FROM items "
            "JOIN vectors ON vectors.item_rowid = items.rowid "
            "WHERE items.user_id = ? AND items.category = ? ORDER BY items.rowid",
            (user_id, category),
        )
        return [Member(r[0], r[1], r[2], np.frombuffer(r[3], dtype=np.float32)) for r in rows]

    def unclassified(self, limit: int = 1000) -> list[tuple[int, str, str | None, np.ndarray | None]]:
        """(key, content, role, vector or None) of items not yet classified (written before 0004)."""
        return [
            (r[0], r[1], r[2], None if r[3] is None else np.frombuffer(r[3], dtype=np.float32))
            for r in self._read(
                "SELECT items.rowid, items.content, items.role, vectors.embedding FROM items "
                "LEFT JOIN vectors ON vectors.item_rowid = items.rowid "
                "WHERE items.category IS NULL ORDER BY items.rowid LIMIT ?",
                (limit,),
            )
        ]

    def category_counts(self, flt: SearchFilter) -> dict[tuple[str, str | None], int]:
        """How many items in the filter sit in each (category, subcategory); unclassified left out."""
        where, params = where_clause(flt)
        rows = self._read(
            f"SELECT category, subcategory, count(*) FROM items WHERE {where} "
            "AND category IS NOT NULL AND category != '' GROUP BY category, subcategory",
            params,
        )
        return {(c, s): int(n) for c, s, n in rows}

    def max_item_key(self) -> int:
        return int(self._read("SELECT coalesce(max(rowid), 0) FROM items")[0][0])

    def items_since_evolve(self, cap: int) -> int:
        """Items written since the last evolve, counted up to ``cap`` (so the check stays cheap)."""
        last = self._read("SELECT value FROM meta WHERE key = 'category_evolved_rowid'")
        since = int(last[0][0]) if last else 0
        rows = self._read("SELECT count(*) FROM (SELECT 1 FROM items WHERE rowid > ? LIMIT ?)", (since, cap))
        return int(rows[0][0])

    def category_history(self, user_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        where, params = ("user_id = ?", [user_id]) if user_id is not None else ("1", [])
        rows = self._read(
            "SELECT at, user_id, category, action, old_names, new_names, detail FROM category_history "
            f"WHERE {where} ORDER BY id DESC LIMIT ?",
            [*params, limit],
        )
        return [history_entry(r) for r in rows]

    # -- writing ---------------------------------------------------------------------------

    def set_categories(self, assignments: Sequence[tuple[int, str, str | None]]) -> None:
        """Set (category, subcategory) of existing items by key (the backfill of older items)."""
        with self._transaction() as conn:
            conn.executemany(
                "UPDATE items SET category = ?, subcategory = ? WHERE rowid = ?",
                [(category, sub, key) for key, category, sub in assignments],
            )
            _bump_version(conn)

    def save_grouping(self, grouping: Grouping) -> None:
        """Replace one (user, category)'s subcategories and item assignments in one transaction."""
        stamp = to_epoch(now_utc())
        with self._transaction() as conn:
            keep = [sub.id for sub, _ in grouping.subcategories]
            kept = f"AND id NOT IN ({placeholders(len(keep))})" if keep else ""
            conn.execute(
                f"DELETE FROM subcategories WHERE user_id = ? AND category = ? {kept}",
                (grouping.user_id, grouping.category, *keep),
            )
            # names are unique per (user, category): park kept rows under their ids first, so two
            # subcategories may swap names within one evolve without a constraint error
            conn.executemany("UPDATE subcategories SET name = id WHERE id = ?", [(k,) for k in keep])
            for sub, centroid in grouping.subcategories:
                _upsert_subcategory(conn, grouping.user_id, sub, centroid, stamp)
            conn.executemany(
                "UPDATE items SET subcategory = ? WHERE rowid = ?", [(name, key) for key, name in grouping.assignments]
            )
            for action, old, new, detail in grouping.history:
                _log(conn, stamp, grouping.user_id, grouping.category, action, old, new, detail)
            _bump_version(conn)

    def mark_evolved(self, upto_rowid: int | None = None) -> None:
        with self._transaction() as conn:
            if upto_rowid is None:
                upto_rowid = int(conn.execute("SELECT coalesce(max(rowid), 0) FROM items").fetchone()[0])
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('category_evolved_rowid', ?)", (str(upto_rowid),)
            )

    def rename_subcategory(self, user_id: str, category: str, old: str, new: str) -> int:
        """Rename within one partition; returns how many items moved with it."""
        stamp = to_epoch(now_utc())
        with self._transaction() as conn:
            _require(conn, user_id, category, old)
            if _exists(conn, user_id, category, new):
                raise InputError(f"{category}/{new} already exists; merge instead of renaming")
            conn.execute(
                "UPDATE subcategories SET name = ?, updated_at = ? WHERE user_id = ? AND category = ? AND name = ?",
                (new, stamp, user_id, category, old),
            )
            moved = conn.execute(
                "UPDATE items SET subcategory = ? WHERE user_id = ? AND category = ? AND subcategory = ?",
                (new, user_id, category, old),
            ).rowcount
            _log(conn, stamp, user_id, category, "renamed", (old,), (new,), "by request")
            _bump_version(conn)
        return moved

    def merge_subcategories(self, user_id: str, category: str, source: str, target: str) -> int:
        """Fold ``source`` into ``target`` (centroid weighted by counts); returns items moved."""
        stamp = to_epoch(now_utc())
        with self._transaction() as conn:
            src = _require(conn, user_id, category, source)
            dst = _require(conn, user_id, category, target)
            total = src[1] + dst[1]
            centroid = None
            if src[2] is not None and dst[2] is not None and total > 0:
                mixed = np.frombuffer(src[2], np.float32) * src[1] + np.frombuffer(dst[2], np.float32) * dst[1]
                norm = float(np.linalg.norm(mixed))
                centroid = (mixed / (norm or 1.0)).astype(np.float32).tobytes()
            keywords = list(dict.fromkeys([*json.loads(dst[3]), *json.loads(src[3])]))[:10]
            conn.execute(
                "UPDATE subcategories SET count = ?, centroid = coalesce(?, centroid), keywords = ?, updated_at = ? "
                "WHERE id = ?",
                (total, centroid, json.dumps(keywords), stamp, dst[0]),
            )
            conn.execute("DELETE FROM subcategories WHERE id = ?", (src[0],))
            moved = conn.execute(
                "UPDATE items SET subcategory = ? WHERE user_id = ? AND category = ? AND subcategory = ?",
                (target, user_id, category, source),
            ).rowcount
            _log(conn, stamp, user_id, category, "merged", (source, target), (target,), "by request")
            _bump_version(conn)
        return moved


def new_subcategory_id() -> str:
    return uuid.uuid4().hex


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


def _upsert_subcategory(conn: sqlite3.Connection, user_id: str, sub: Subcategory, centroid: np.ndarray, stamp: float):
    blob = np.asarray(centroid, dtype=np.float32).tobytes()
    conn.execute(
        "INSERT INTO subcategories (id, user_id, category, name, keywords, centroid, count, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, "
        "keywords = excluded.keywords, centroid = excluded.centroid, count = excluded.count, "
        "updated_at = excluded.updated_at",
        (sub.id, user_id, sub.category, sub.name, json.dumps(list(sub.keywords)), blob, sub.count, stamp, stamp),
    )


def _require(conn: sqlite3.Connection, user_id: str, category: str, name: str) -> tuple[Any, ...]:
    row = conn.execute(
        "SELECT id, count, centroid, keywords FROM subcategories WHERE user_id = ? AND category = ? AND name = ?",
        (user_id, category, name),
    ).fetchone()
    if row is None:
        raise InputError(f"no subcategory {category}/{name}")
    return row


def _exists(conn: sqlite3.Connection, user_id: str, category: str, name: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM subcategories WHERE user_id = ? AND category = ? AND name = ?", (user_id, category, name)
    ).fetchone()
    return row is not None


def _log(
    conn: sqlite3.Connection,
    stamp: float,
    user_id: str,
    category: str,
    action: str,
    old: Sequence[str],
    new: Sequence[str],
    detail: str,
) -> None:
    conn.execute(
        "INSERT INTO category_history (at, user_id, category, action, old_names, new_names, detail) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (stamp, user_id, category, action, json.dumps(list(old)), json.dumps(list(new)), detail),
    )


def _bump_version(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('category_version', '0')")
    conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'category_version'")


def history_entry(row: Sequence[Any]) -> dict[str, Any]:
    """One category_history row (at, user_id, category, action, old, new, detail) as the API shows it."""
    at, user_id, category, action, old_names, new_names, detail = row
    return {
        "at": from_epoch(at).isoformat() if at is not None else None,
        "user_id": user_id or None,
        "category": category,
        "action": action,
        "old": json.loads(old_names),
        "new": json.loads(new_names),
        "detail": detail,
    }
