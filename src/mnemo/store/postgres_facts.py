"""Facts on PostgreSQL: the triple rows beside fact items, with the SQLite store's lifecycle.

A mixin of PostgresStore (it uses the store's ``_read`` and ``_write``). The semantics are those of
store/sqlite_facts.py, whose docstrings explain them: repetition reinforces, a correction or a new
value of a one-valued relation supersedes, negation ends, forget deletes the fact items (the facts
rows go with them by a foreign key) and takes their text out of the stating messages' keys.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mnemo.records import Fact, Item, Scope, SearchFilter
from mnemo.store.base import Embedding
from mnemo.store.postgres_filters import pg_where
from mnemo.store.postgres_rows import bump_seq, claim_model, tombstone, upsert_batch
from mnemo.store.sqlite_facts import FUNCTIONAL, _to_fact, fact_key, key_of_text, observe
from mnemo.store.sqlite_rows import owner_values

_FACT_COLUMNS = (
    "items.id, facts.user_id, facts.agent_id, facts.project, subject, relation, object, confidence, weight, "
    "first_seen, last_seen, status, provenance, valid_from, valid_to, lang, hedged"
)
_OWNER = "user_id = %s AND agent_id = %s AND project = %s"
_ABOUT = "(facts.subject = %s OR (facts.relation = 'friend_of' AND facts.object = %s))"


class PgFacts:
    """Mixed into PostgresStore; see the module docstring."""

    _read: Any
    _write: Any
    _ensure_vector_indexes: Any

    def record_facts(
        self,
        entries: Sequence[tuple[Item, Embedding | None, Fact]],
        *,
        now: float,
        alpha: float,
        model: str | None = None,
        source: Item | None = None,
    ) -> int:
        """Store extracted facts in one transaction; returns how many positive facts were written."""
        self._ensure_vector_indexes([vector for _, vector, _ in entries])

        def run(conn: Any) -> int:
            seq = bump_seq(conn)
            if model is not None:
                claim_model(conn, model)
            written = 0
            for item, vector, fact in entries:
                owner = owner_values(item.scope)
                if fact.negated:
                    _end(conn, owner, fact, now, same_object=True)
                    continue
                if fact.correction or fact.relation in FUNCTIONAL or fact.relation.startswith("favorite_"):
                    _end(conn, owner, fact, now, same_object=False)
                upsert_batch(conn, [item], [vector], seq, now)
                rowid = conn.execute(f"SELECT rowid FROM items WHERE {_OWNER} AND id = %s", [*owner, item.id])
                observe(conn, rowid.fetchone()[0], owner, fact, now, alpha, source.id if source else None, "%s")
                written += 1
            if source is not None:
                _add_keys(conn, source, [f for _, _, f in entries if not f.negated])
            return written

        # not retried: a lost commit followed by a second run would reinforce the facts twice
        return self._write(run, "recording facts", attempts=1)

    def list_facts(
        self, scope: Scope, subject: str | None, relation: str | None, status: str | None, limit: int
    ) -> list[Fact]:
        """Facts in scope, strongest first; ``status`` None means every status (the history)."""
        parts, params = _fact_filter(scope, subject, relation, None)
        if status is not None:
            parts.append("facts.status = %s")
            params.append(status)
        rows = self._read(
            f"SELECT {_FACT_COLUMNS} FROM facts JOIN items ON items.rowid = facts.item_rowid "
            f"WHERE {' AND '.join(parts)} ORDER BY facts.weight DESC, facts.last_seen DESC LIMIT %s",
            [*params, limit],
        )
        return [_to_fact(row) for row in rows]

    def forget_facts(self, scope: Scope, subject: str | None, relation: str | None, fact_id: str | None) -> int:
        """Hard forget: the fact items go (with their facts rows), tombstoned for vector indexes, and
        their text leaves the index keys of the messages that stated them."""
        parts, params = _fact_filter(scope, subject, relation, fact_id)

        def run(conn: Any) -> int:
            seq = bump_seq(conn)  # first, as every writer: the lock order that rules out deadlocks
            rows = conn.execute(
                "SELECT items.rowid, items.content, facts.provenance, items.user_id, items.agent_id, items.project "
                f"FROM facts JOIN items ON items.rowid = facts.item_rowid WHERE {' AND '.join(parts)}",
                params,
            ).fetchall()
            if not rows:
                return 0
            conn.execute("DELETE FROM items WHERE rowid = ANY(%s)", ([row[0] for row in rows],))
            tombstone(conn, [row[0] for row in rows], seq)
            for _, text, provenance, *owner in rows:
                for message_id in json.loads(provenance):
                    _drop_key(conn, owner, message_id, text)
            return len(rows)

        return self._write(run, "forgetting facts")

    def decay_facts(self, now: float, rate_per_day: float, stale_below: float) -> int:
        """Passive decay measured from ``last_seen`` (so repeated calls do not compound)."""

        def run(conn: Any) -> int:
            gone = conn.execute(
                "UPDATE facts SET status = 'stale', valid_to = %s WHERE status = 'active' "
                "AND weight * power(%s::float8, greatest(0.0, (%s - last_seen) / 86400.0)) < %s RETURNING item_rowid",
                (now, rate_per_day, now, stale_below),
            )
            return len(gone.fetchall())

        return self._write(run, "decaying facts")


def _fact_filter(
    scope: Scope, subject: str | None, relation: str | None, fact_id: str | None
) -> tuple[list[str], list[Any]]:
    where, params = pg_where(SearchFilter(scope=scope))
    parts = [where]
    if fact_id is not None:
        parts.append("items.id = %s")
        params.append(fact_id)
    if subject is not None:
        parts.append(_ABOUT)
        params += [subject, subject]
    if relation is not None:
        parts.append("facts.relation = %s")
        params.append(relation)
    return parts, params


def _end(conn: Any, owner: list[str], fact: Fact, now: float, *, same_object: bool) -> None:
    test = "object = %s" if same_object else "object <> %s"
    conn.execute(
        f"UPDATE facts SET status = 'superseded', valid_to = %s WHERE {_OWNER} "
        f"AND subject = %s AND relation = %s AND {test} AND status = 'active'",
        [now, *owner, fact.subject, fact.relation, fact.object],
    )


def _add_keys(conn: Any, source: Item, facts: list[Fact]) -> None:
    if not facts:
        return
    owner = owner_values(source.scope)
    row = conn.execute(f"SELECT keys FROM items WHERE {_OWNER} AND id = %s", [*owner, source.id]).fetchone()
    if row is None:
        return
    lines = (row[0] or "").splitlines()
    lines += [key for key in (fact_key(f) for f in facts) if key not in lines]
    conn.execute(f"UPDATE items SET keys = %s WHERE {_OWNER} AND id = %s", ["\n".join(lines), *owner, source.id])


def _drop_key(conn: Any, owner: list[str], message_id: str, text: str) -> None:
    row = conn.execute(f"SELECT keys FROM items WHERE {_OWNER} AND id = %s", [*owner, message_id]).fetchone()
    if row is None or not row[0]:
        return
    lines = [line for line in row[0].splitlines() if line != key_of_text(text)]
    conn.execute(
        f"UPDATE items SET keys = %s WHERE {_OWNER} AND id = %s", ["\n".join(lines) or None, *owner, message_id]
    )
