"""`mnemo doctor`: check that a store's derived state agrees with its items, and repair it.

The items table is the source of truth; the full-text index, the vectors, the saved HNSW file,
subcategory assignments and fact rows are all derived from it. A crash, a hand edit or an old bug
can leave them out of step. Each check below is one SQL question asked of the file through its own
connection (so the check does not trust the code that wrote the rows); each repair rebuilds or drops
derived state only — it never deletes an item.

One check is of another sort: ``vector_inputs`` compares what the store records its turns were
embedded from (mnemo.embed.recorded) with the current ``turn_context`` setting, through the store's
own API, since the same question is asked of PostgreSQL.
"""

from __future__ import annotations

import glob
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnemo.embed.base import Embedder
from mnemo.embed.context import leans_on_previous, previous_turns, store_lookup
from mnemo.embed.inputs import embed_items
from mnemo.embed.recorded import MESSAGES, META_KEY, disagreement, inputs_of
from mnemo.errors import InputError, StoreError
from mnemo.records import Item, SearchFilter
from mnemo.store.base import Store
from mnemo.store.sqlite_rows import bump_seq, connect

#: Items re-embedded per transaction by a repair.
REEMBED_BATCH = 256


@dataclass(frozen=True)
class Check:
    """One question asked of the store: how many problems it found, and what a repair did."""

    name: str
    problems: int
    detail: str
    repaired: int = 0

    @property
    def ok(self) -> bool:
        return self.problems == 0

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "problems": self.problems, "detail": self.detail,
                "repaired": self.repaired}  # fmt: skip


@dataclass(frozen=True)
class DoctorReport:
    """What the checks found (``checks``) and, after ``--repair``, what they find now (``after``)."""

    backend: str
    checks: tuple[Check, ...]
    after: tuple[Check, ...] = ()
    skipped: tuple[str, ...] = ()
    repaired: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when the store is clean now (after the repair, if one ran)."""
        return all(check.ok for check in (self.after if self.repaired else self.checks))

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "backend": self.backend,
            "repaired": self.repaired,
            "checks": [c.as_dict() for c in self.checks],
            "after": [c.as_dict() for c in self.after],
            "skipped": list(self.skipped),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Target:
    """What doctor needs to know about the store besides its file."""

    store: Store
    embedder: Embedder | None
    index_path: str | None  # where Memory saves the HNSW index for this store and model
    turn_context: bool = True  # whether turns are embedded with the turn before them (Config.turn_context)


def run_doctor(target: Target, *, repair: bool = False, quick: bool = False) -> DoctorReport:
    """Check the store (and repair its derived state when ``repair``); see the module docstring."""
    if type(target.store).__name__ == "PostgresStore":
        from mnemo.doctor_postgres import run_postgres  # psycopg only when the store is PostgreSQL

        return run_postgres(target, repair=repair)
    path = getattr(target.store, "path", ":memory:")
    if path == ":memory:":
        raise InputError("doctor checks a store file; an in-memory store has no file to check")
    conn = connect(path, 10_000)
    try:
        checks = _sqlite_checks(conn, target, quick)
        if not repair or all(c.ok for c in checks):
            return DoctorReport("sqlite", checks, skipped=_skipped(target))
        if checks[0].name == "integrity" and not checks[0].ok:
            note = "the file itself is damaged: restore a backup or use sqlite3's .recover; nothing was repaired"
            return DoctorReport("sqlite", checks, skipped=_skipped(target), notes=(note,))
        repaired = tuple(_repair(conn, target, c) for c in checks)
        after = _sqlite_checks(conn, target, quick)
        return DoctorReport("sqlite", repaired, after=after, skipped=_skipped(target), repaired=True)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"doctor could not read {path}: {exc}") from exc
    finally:
        conn.close()


def _skipped(target: Target) -> tuple[str, ...]:
    skipped = []
    if target.embedder is None:
        skipped.append("vectors_missing, vectors_dimension: no embedder is configured, so no vectors are expected")
    if target.index_path is None:
        skipped.append("index_file: no vector index file is kept for this store")
    return tuple(skipped)


# -- checks (SQLite) ----------------------------------------------------------------------------


def _sqlite_checks(conn: sqlite3.Connection, target: Target, quick: bool) -> tuple[Check, ...]:
    checks = [check_integrity(conn, quick)]
    if not checks[0].ok:
        return tuple(checks)  # the rest would read a damaged file
    dim = target.embedder.dim if target.embedder is not None else None
    checks += [check_fts(conn), *check_vectors(conn, dim), check_subcategories(conn), check_facts(conn)]
    if target.embedder is not None:
        checks.append(check_vector_inputs(target))
    if target.index_path is not None:
        checks.append(check_index_file(target.index_path, _sequence(conn)))
    return tuple(checks)


def check_integrity(conn: sqlite3.Connection, quick: bool = False) -> Check:
    pragma = "quick_check" if quick else "integrity_check"
    try:
        rows = [str(r[0]) for r in conn.execute(f"PRAGMA {pragma}")]
    except sqlite3.DatabaseError as exc:  # damage bad enough that the check itself cannot finish
        rows = [str(exc)]
    if rows == ["ok"]:
        return Check("integrity", 0, f"PRAGMA {pragma}: ok")
    return Check("integrity", len(rows), f"PRAGMA {pragma}: " + "; ".join(rows[:5]))


def check_fts(conn: sqlite3.Connection) -> Check:
    """Rows the full-text index lacks or holds without an item, then FTS5's own integrity check."""
    missing = _count(conn, "SELECT count(*) FROM items WHERE rowid NOT IN (SELECT id FROM items_fts_docsize)")
    orphaned = _count(conn, "SELECT count(*) FROM items_fts_docsize WHERE id NOT IN (SELECT rowid FROM items)")
    try:
        # rank 1 also compares the index with the content of the items table, not only itself
        conn.execute("INSERT INTO items_fts (items_fts, rank) VALUES ('integrity-check', 1)")
        fts_ok = True
    except sqlite3.DatabaseError:
        fts_ok = False
    problems = missing + orphaned + (0 if fts_ok else 1)
    detail = f"{missing} items missing from the full-text index, {orphaned} index rows without an item"
    if not fts_ok:
        detail += "; FTS5 integrity-check failed (the index does not match the items' text)"
    return Check("fts", problems, detail)


def check_vectors(conn: sqlite3.Connection, dim: int | None) -> list[Check]:
    orphans = _count(conn, "SELECT count(*) FROM vectors WHERE item_rowid NOT IN (SELECT rowid FROM items)")
    checks = [Check("vectors_orphaned", orphans, f"{orphans} vectors whose item is gone")]
    if dim is None:
        return checks
    missing = len(_items_without_vectors(conn))
    checks.append(Check("vectors_missing", missing, f"{missing} items without a vector"))
    wrong = len(_wrong_dimension(conn, dim))
    checks.append(Check("vectors_dimension", wrong, f"{wrong} vectors whose length is not {dim}"))
    return checks


def check_subcategories(conn: sqlite3.Connection) -> Check:
    n = len(_dangling_subcategories(conn))
    return Check("subcategories", n, f"{n} items assigned to a subcategory that does not exist")


def check_facts(conn: sqlite3.Connection) -> Check:
    n = _count(conn, "SELECT count(*) FROM facts WHERE item_rowid NOT IN (SELECT rowid FROM items)")
    return Check("facts", n, f"{n} fact rows whose item is gone")


def check_index_file(path: str, sequence: int) -> Check:
    """The saved HNSW index: readable, not ahead of the store; leftovers of other stores or models."""
    problems, notes = 0, []
    saved = Path(path)
    if saved.exists():
        watermark = _saved_watermark(saved)
        if watermark is None:
            problems += 1
            notes.append("the saved index is unreadable or damaged")
        elif watermark > sequence:
            problems += 1
            notes.append(f"the saved index reflects change {watermark}, the store only {sequence} (stale)")
        else:
            notes.append(f"saved index {sequence - watermark} changes behind (caught up on the next search)")
    else:
        notes.append("no saved index (built from the store on the next search)")
    leftovers = _leftover_index_files(saved)
    if leftovers:
        problems += len(leftovers)
        notes.append(f"{len(leftovers)} index files of another store or model beside it")
    return Check("index_file", problems, "; ".join(notes))


# -- repairs (SQLite) ---------------------------------------------------------------------------


def _repair(conn: sqlite3.Connection, target: Target, check: Check) -> Check:
    if check.ok:
        return check
    repairs: dict[str, Callable[[], int]] = {
        "fts": lambda: _rebuild_fts(conn, check.problems),
        "vectors_orphaned": lambda: _drop_orphan_vectors(conn),
        "vectors_missing": lambda: reembed(target, _items_without_vectors(conn)),
        "vectors_dimension": lambda: reembed(target, _wrong_dimension(conn, _dim(target))),
        "subcategories": lambda: _clear_dangling(conn),
        "facts": lambda: _write(conn, "DELETE FROM facts WHERE item_rowid NOT IN (SELECT rowid FROM items)"),
        "index_file": lambda: _drop_index_files(target.index_path, _sequence(conn)),
        "vector_inputs": lambda: reembed_turns(target),
    }
    fix = repairs.get(check.name)
    if fix is None:
        return check
    return Check(check.name, check.problems, check.detail, repaired=fix())


def _rebuild_fts(conn: sqlite3.Connection, problems: int) -> int:
    _write(conn, "INSERT INTO items_fts (items_fts) VALUES ('rebuild')")
    return problems


def _drop_orphan_vectors(conn: sqlite3.Connection) -> int:
    """Delete vectors without an item, tombstoned so a loaded vector index drops their keys too."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        keys = [
            r[0]
            for r in conn.execute("SELECT item_rowid FROM vectors WHERE item_rowid NOT IN (SELECT rowid FROM items)")
        ]
        seq = bump_seq(conn)
        conn.executemany("DELETE FROM vectors WHERE item_rowid = ?", [(k,) for k in keys])
        conn.executemany("INSERT OR REPLACE INTO tombstones (item_rowid, seq) VALUES (?, ?)", [(k, seq) for k in keys])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(keys)


def reembed(target: Target, keys: Sequence[int]) -> int:
    """Embed these items afresh and store their vectors (through the store, which bumps the sequence)."""
    if target.embedder is None:
        return 0
    done = 0
    for start in range(0, len(keys), REEMBED_BATCH):
        fetched = target.store.fetch(keys[start : start + REEMBED_BATCH], SearchFilter())
        done += reembed_items(target, [fetched[key] for key in sorted(fetched)])  # in the order they were written
    return done


def reembed_items(target: Target, items: Sequence[Item]) -> int:
    """Embed these stored items afresh, each turn with the turn before it as the setting says."""
    if target.embedder is None or not items:
        return 0
    before = previous_turns(items, store_lookup(target.store.newest), stored=True) if target.turn_context else None
    vectors = embed_items(target.embedder, items, lambda _keys: {}, before)  # the cache may hold the bad vector
    target.store.write_vectors(list(zip(items, vectors, strict=True)))
    return len(items)


def check_vector_inputs(target: Target) -> Check:
    """Whether the store's turns were embedded from what the current setting embeds them from."""
    recorded = target.store.get_meta(META_KEY)
    current = inputs_of(target.turn_context)
    # only short turns differ between the settings; counted by a scan, and only when in doubt
    turns = 0 if recorded == current else sum(map(leans_on_previous, target.store.iter_items(MESSAGES)))
    problem = disagreement(recorded, current, turns)
    if problem is not None:
        return Check("vector_inputs", 1, problem)
    return Check("vector_inputs", 0, f"turns embedded as {current!r}" if recorded == current else "no turns yet")


def reembed_turns(target: Target) -> int:
    """Re-embed the short turns (the only ones a turn's context changes) and record the setting."""
    if target.embedder is None:
        return 0
    done, chunk = 0, []
    for item in target.store.iter_items(MESSAGES):
        if leans_on_previous(item):
            chunk.append(item)
        if len(chunk) == REEMBED_BATCH:
            done, chunk = done + reembed_items(target, chunk), []
    done += reembed_items(target, chunk)
    target.store.set_meta(META_KEY, inputs_of(target.turn_context))
    return done


def _clear_dangling(conn: sqlite3.Connection) -> int:
    """Unassign items from subcategories that no longer exist; the next evolve places them again."""
    keys = _dangling_subcategories(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("UPDATE items SET subcategory = NULL WHERE rowid = ?", [(k,) for k in keys])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(keys)


def _drop_index_files(path: str | None, sequence: int) -> int:
    """Delete a stale or damaged saved index and any leftovers; the next search rebuilds from SQLite."""
    if path is None:
        return 0
    saved = Path(path)
    doomed = _leftover_index_files(saved)
    if saved.exists():
        watermark = _saved_watermark(saved)
        if watermark is None or watermark > sequence:
            doomed.append(saved)
    for file in doomed:
        file.unlink(missing_ok=True)
        Path(f"{file}.json").unlink(missing_ok=True)
    return len(doomed)


# -- helpers ------------------------------------------------------------------------------------


def _items_without_vectors(conn: sqlite3.Connection) -> list[int]:
    return [r[0] for r in conn.execute("SELECT rowid FROM items WHERE rowid NOT IN (SELECT item_rowid FROM vectors)")]


def _wrong_dimension(conn: sqlite3.Connection, dim: int) -> list[int]:
    rows = conn.execute(  # float32: 4 bytes a dimension; orphans are the other check's
        "SELECT item_rowid FROM vectors JOIN items ON items.rowid = vectors.item_rowid WHERE length(embedding) != ?",
        (dim * 4,),
    )
    return [r[0] for r in rows]


def _dangling_subcategories(conn: sqlite3.Connection) -> list[int]:
    rows = conn.execute(
        "SELECT rowid FROM items WHERE subcategory IS NOT NULL AND subcategory != '' AND NOT EXISTS ("
        "SELECT 1 FROM subcategories s WHERE s.user_id = items.user_id AND s.category = items.category "
        "AND s.name = items.subcategory)"
    )
    return [r[0] for r in rows]


def _saved_watermark(path: Path) -> int | None:
    """The watermark of a saved index that would load, else None (missing sidecar, bad checksum)."""
    from mnemo.index.hnsw import HnswIndex, usearch_available

    try:
        meta = json.loads(Path(f"{path}.json").read_text())
        dim = int(meta["dim"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if usearch_available() and HnswIndex.load(path, dim, view=True) is None:
        return None
    return int(meta.get("watermark", 0))


def _leftover_index_files(saved: Path) -> list[Path]:
    """Index files beside the store that are not the current one (another store id, model, a temp)."""
    store_file = saved.name.rsplit(".", 3)[0]  # "<store>.<store id>.<dim>.hnsw"
    pattern = glob.escape(store_file)
    found = {*saved.parent.glob(f"{pattern}.*.hnsw"), *saved.parent.glob(f"{pattern}.*.hnsw.tmp")}
    return sorted(found - {saved})


def _count(conn: sqlite3.Connection, sql: str) -> int:
    return int(conn.execute(sql).fetchone()[0])


def _sequence(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'seq'").fetchone()
    return int(row[0]) if row else 0


def _dim(target: Target) -> int:
    assert target.embedder is not None  # only reached when the dimension check ran
    return target.embedder.dim


def _write(conn: sqlite3.Connection, sql: str) -> int:
    conn.execute("BEGIN IMMEDIATE")
    try:
        changed = conn.execute(sql).rowcount
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return max(changed, 0)
