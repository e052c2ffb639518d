"""Which inputs a store's turn vectors were embedded from, kept in the store's meta.

A short conversation turn is embedded with the turn before it, or alone when
``Config.turn_context`` is off (mnemo.embed.context). The two give different vectors for the same
text, so a store written partly under one setting and partly under the other ranks its turns by
two measures. The store records the setting its turns were embedded under (``META_KEY``); a write
under another one marks the store ``MIXED``, and ``mnemo doctor`` reports any disagreement with
the current setting (``mnemo doctor --repair`` re-embeds the short turns, ``mnemo reindex`` all).

A store written before this record existed has turns but no record: what they were embedded from
is unknown, and the doctor says so rather than guess; ``mnemo doctor --repair`` settles it.

Everything here but ``note_write`` is pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from mnemo.embed.context import CONTEXT_CHARS, SHORT_TURN_CHARS, leans_on_previous
from mnemo.records import Item, Kind, SearchFilter

META_KEY = "vector_inputs"
#: Turns embedded under more than one setting.
MIXED = "mixed"
PLAIN = "plain"
MESSAGES = SearchFilter(kinds=(Kind.MESSAGE.value,))


class MetaStore(Protocol):
    """The part of a store the record needs (a Store has it; embed does not import the stores)."""

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def count(self, flt: SearchFilter) -> int: ...


def inputs_of(turn_context: bool) -> str:
    """The name of what a setting embeds a short turn from ("turn-context 200/300" or "plain")."""
    return f"turn-context {CONTEXT_CHARS}/{SHORT_TURN_CHARS}" if turn_context else PLAIN


def after_write(recorded: str | None, current: str, store_empty: bool, writes_turns: bool) -> str | None:
    """What the record becomes when items embedded as ``current`` are written (None: unchanged).

    A new store takes the setting of its first write. A store with items but no record was
    written before the record existed: what its turns were embedded from stays unknown. Short
    turns written under another setting than the recorded one make the store ``MIXED``."""
    if recorded in (current, MIXED):
        return None
    if recorded is None:
        return current if store_empty else None
    return MIXED if writes_turns else None


def disagreement(recorded: str | None, current: str, turns: int) -> str | None:
    """What is wrong with the store's ``turns`` short-turn vectors under the current setting, or None."""
    if turns == 0 or recorded == current:
        return None
    now = f"the current setting embeds them as {current!r}"
    if recorded is None:
        return f"{turns} short turns were embedded before the store recorded how; {now}"
    if recorded == MIXED:
        return f"{turns} short turns were embedded under more than one setting; {now}"
    return f"{turns} short turns were embedded as {recorded!r}; {now}"


def note_write(store: MetaStore, items: Sequence[Item], current: str) -> bool:
    """Bring the record up to date before ``items``, embedded as ``current``, are written.

    True once nothing a later write of the same process does can change it (a caller then stops
    asking): a read of the meta per write until then, and a count the first time."""
    recorded = store.get_meta(META_KEY)
    store_empty = recorded is None and store.count(SearchFilter()) == 0
    writes_turns = any(leans_on_previous(item) for item in items)
    new = after_write(recorded, current, store_empty, writes_turns)
    if new is not None:
        store.set_meta(META_KEY, new)
    return recorded in (None, current, MIXED) or new == MIXED
