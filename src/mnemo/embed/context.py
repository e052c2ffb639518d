"""The turn before: the context a conversation turn is embedded with.

A reply such as "Yes, last Tuesday, with my sister!" says little on its own: what it answers is in
the turn before it. Embedding a short turn together with the start of the previous turn of its
session puts the reply near questions about what was asked. On the LoCoMo development set this
lifted the default (fused) search from 0.613 to 0.651 recall@5 and from 0.728 to 0.751 recall@10
(``python -m benchmarks.query locomo``). It costs embedding time: 99 → 57 LoCoMo turns a second
in add_many on two cores. Dense-only retrieval of the very turn drops (0.501 to 0.486 recall@10,
``python -m benchmarks.locomo``): a vector now also matches the turn after its topic, which the
fused round's neighbour strategy turns to use.

Only short conversation turns get a context (``leans_on_previous``): items of kind ``message``
with a session and a role, whose own text is under ``SHORT_TURN_CHARS``; ``Config.turn_context``
turns it off. The previous turn is the one before in the same batch (a batch is written in
conversation order), else
the newest earlier turn of the same scope in the store. Items already in the store (re-embedding)
ask the store first, since a batch read back from it need not hold adjacent turns. A turn with no
timestamp can only take its context from the batch: the store cannot say which turn came before it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mnemo.records import Item, Kind, SearchFilter

#: How much of the previous turn is read: enough for the question it asked, not so much that it
#: outweighs the turn itself (the model reads at most 256 word pieces, about 1,000 characters).
CONTEXT_CHARS = 200
#: A turn this short leans on the one before it; a longer one carries its own topic, and a context
#: before it would push its own last words out of the model's 256 word pieces.
SHORT_TURN_CHARS = 300

Earlier = Callable[[Item], "Item | None"]


def in_session(item: Item) -> bool:
    """A message of a session: a turn that can come before another one."""
    return item.kind == Kind.MESSAGE.value and item.session_id is not None


def leans_on_previous(item: Item) -> bool:
    """A short conversation turn: a message of a session, with a role and under SHORT_TURN_CHARS."""
    return in_session(item) and bool(item.role) and len(item.content) < SHORT_TURN_CHARS


def context_line(before: Item) -> str:
    """The previous turn as the first line of a turn's embedding input."""
    text = " ".join(before.content.split())
    return f"{before.role}: {text}"[:CONTEXT_CHARS] if before.role else text[:CONTEXT_CHARS]


def previous_turns(items: Sequence[Item], earlier: Earlier, stored: bool = False) -> list[Item | None]:
    """For each item, the turn before it (None for an item that is no turn, or a session's first).

    ``earlier`` looks an item's previous turn up in the store; ``stored`` says the items are in the
    store already (a re-embedding), so the store, not the batch order, says which turn came before.
    """
    last: dict[object, Item] = {}
    found: list[Item | None] = []
    for item in items:
        before: Item | None = None
        if in_session(item):
            if leans_on_previous(item):
                before = _turn_before(item, last.get(item.scope), earlier, stored)
            last[item.scope] = item  # a long turn still comes before the next one
        found.append(before)
    return found


def _turn_before(item: Item, in_batch: Item | None, earlier: Earlier, stored: bool) -> Item | None:
    if in_batch is not None and not _later(in_batch, item) and not (stored and item.timestamp is not None):
        return in_batch
    return earlier(item) if item.timestamp is not None else None


def store_lookup(newest: Callable[[SearchFilter, int], list[Item]]) -> Earlier:
    """The previous turn of an item's session, from a store's ``newest``: strictly earlier in time
    (``until`` is exclusive), so never the item itself when it is stored already, and of exactly
    the item's scope (an unset owner in a filter means "any", and nobody else's words may shape a
    vector)."""

    def earlier(item: Item) -> Item | None:
        flt = SearchFilter(scope=item.scope, kinds=(Kind.MESSAGE.value,), until=item.timestamp)
        newest_one = next(iter(newest(flt, 1)), None)
        return newest_one if newest_one is not None and newest_one.scope == item.scope else None

    return earlier


def _later(first: Item, second: Item) -> bool:
    return first.timestamp is not None and second.timestamp is not None and first.timestamp > second.timestamp
