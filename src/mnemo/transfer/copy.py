"""Copy every table of one store into another, a page at a time, resumable after a kill.

Pages are read in key order; each replaces the same key range in the destination (rows the source
no longer has there are deleted, the page's rows upserted by key), and then the last copied key is
recorded in the destination's meta (``migrate.<table>``). A copy killed between a page's write and
that record re-copies the page, which changes nothing. Memory stays bounded by one page. Vectors
are copied as stored, never re-embedded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mnemo.errors import InputError
from mnemo.store.transfer_rows import COPIED_META, TABLES, TransferStore

#: Called after each page: (table, rows copied so far in this table, rows in the source table).
Progress = Callable[[str, int, int], None]

SOURCE_KEY = "migrate.source"
DONE_KEY = "migrate.done"


def progress_key(table: str) -> str:
    return f"migrate.{table}"


@dataclass(frozen=True, slots=True)
class CopyReport:
    """Rows copied by this run per table, and where each table resumed (None: from its start)."""

    copied: dict[str, int] = field(default_factory=dict)
    resumed_from: dict[str, Any] = field(default_factory=dict)

    @property
    def resumed(self) -> bool:
        return any(v is not None for v in self.resumed_from.values())

    def as_dict(self) -> dict[str, Any]:
        return {"copied": dict(self.copied), "resumed_from": dict(self.resumed_from), "resumed": self.resumed}


def copy_store(
    source: TransferStore,
    target: TransferStore,
    *,
    batch: int = 1000,
    restart: bool = False,
    progress: Progress | None = None,
    build_indexes: bool = True,
) -> CopyReport:
    """Copy ``source`` into ``target``; continue a copy from the same source unless ``restart``.

    The target must be empty or hold an unfinished (or finished) copy of this same source: a
    copy into a store with memories of its own would mix two stores' keys. ``build_indexes=False``
    leaves the after-load index build (``target.finish_import()``) to the caller, who times it.
    """
    if not isinstance(batch, int) or isinstance(batch, bool) or not 1 <= batch <= 100_000:
        raise InputError(f"batch must be an integer from 1 to 100000, got {batch!r}")
    if source.store_id == target.store_id:
        raise InputError("source and destination are the same store")
    _check_target(source, target)
    target.set_meta(SOURCE_KEY, source.store_id)
    target.set_meta(DONE_KEY, "0")
    for name in COPIED_META:  # first, so the destination knows its embedder before any vector lands
        value = source.get_meta(name)
        if value is not None:
            target.set_meta(name, value)
    copied: dict[str, int] = {}
    resumed: dict[str, Any] = {}
    for table in TABLES:
        start = None if restart else _load_key(target.get_meta(progress_key(table.name)))
        resumed[table.name] = start
        copied[table.name] = _copy_table(source, target, table.name, start, batch, progress)
    if build_indexes:
        target.finish_import()
    target.set_meta(DONE_KEY, "1")
    return CopyReport(copied=copied, resumed_from=resumed)


def _copy_table(
    source: TransferStore, target: TransferStore, table: str, start: Any, batch: int, progress: Progress | None
) -> int:
    total = source.count_rows(table)
    done = target.count_rows(table) if start is not None else 0
    copied, after = 0, start
    while rows := source.export_rows(table, after, batch):
        upto = rows[-1][_key_of(table)]
        target.replace_rows(table, after, upto, rows)
        target.set_meta(progress_key(table), json.dumps(upto))
        after = upto
        copied += len(rows)
        if progress:
            progress(table, min(total, done + copied), total)
    target.replace_rows(table, after, None, [])  # what lies past the source's last key is gone there
    if progress and copied == 0:
        progress(table, total, total)
    return copied


def _key_of(table: str) -> str:
    return next(t.key for t in TABLES if t.name == table)


def _check_target(source: TransferStore, target: TransferStore) -> None:
    earlier = target.get_meta(SOURCE_KEY)
    if earlier == source.store_id:
        return
    if earlier is not None:
        raise InputError(
            f"the destination holds a copy of another store ({earlier[:12]}…); migrate into an empty store"
        )
    filled = [t.name for t in TABLES if target.count_rows(t.name)]
    if filled:
        raise InputError(f"the destination is not empty ({', '.join(filled)}); migrate into an empty store")


def _load_key(text: str | None) -> Any:
    return None if text is None else json.loads(text)
