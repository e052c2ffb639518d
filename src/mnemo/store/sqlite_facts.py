"""The facts table: subject/relation/object with status, confidence, weight and validity time, beside
the fact's item row.

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`. A fact is an item
of kind "fact" (so it is searchable, embedded and exported like any memory) plus one row here with
its lifecycle. Deleting the item deletes the row (trigger), so every delete path stays whole.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from mnemo.records import Fact, Item, Scope, SearchFilter
from mnemo.store.base import Embedding
from mnemo.store.sql import where_clause
from mnemo.store.sqlite_rows import bump_seq, claim_model, owner_values, upsert
from mnemo.timeutil import from_epoch

#: A person has one of each: a new value replaces the old even without "actually".
FUNCTIONAL = frozenset({"name", "age", "born_in"})
#: Message ids remembered per fact; the oldest are dropped past this.
MAX_PROVENANCE = 20
_FACT_COLUMNS = (
    "items.id, facts.user_id, facts.agent_id, facts.project, subject, relation, object, confidence, weight, "
    "first_seen, last_seen, status, provenance, valid_from, valid_to, lang, hedged"
)


class SQLiteFacts:
    """Mixed into SQLiteStore; see the module docstring."""

    _read: Any
    _transaction: Any

    def record_facts(
        self,
        entries: Sequence[tuple[Item, Embedding | None, Fact]],
        *,
        now: float,
        alpha: float,
        model: str | None = None,
        source: Item | None = None,
    ) -> int:
        """Store extracted facts in one transaction; returns how many positive facts were written.

        Repetition reinforces a fact's weight (EWMA towards 1 with ``alpha``); a correction, or a
        new value of a one-valued relation, supersedes only the active facts of the same subject
        and relation (kept, with ``valid_to``); a negated fact ends the matching active one.
        ``source`` is the message that stated them: its index keys gain the facts' text.
        """
        written = 0
        with self._transaction() as conn:
            if model is not None:
                claim_model(conn, model)
            seq = bump_seq(conn)
            for item, vector, fact in entries:
                owner = owner_values(item.scope)
                if fact.negated:
                    _end(conn, owner, fact, now, same_object=True)
                    continue
                if fact.correction or fact.relation in FUNCTIONAL or fact.relation.startswith("favorite_"):
                    _end(conn, owner, fact, now, same_object=False)
                upsert(conn, item, vector, seq, now)
                rowid = conn.execute(
                    "SELECT rowid FROM items WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ?",
                    [*owner, item.id],
                ).fetchone()[0]
                observe(conn, rowid, owner, fact, now, alpha, source.id if source else None)
                written += 1
            if source is not None:
                _add_keys(conn, source, [f for _, _, f in entries if not f.negated])
        return written

    def list_facts(
        self, scope: Scope, subject: str | None, relation: str | None, status: str | None, limit: int
    ) -> list[Fact]:
        """Facts in scope, strongest first; ``status`` None means every status (the history)."""
        where, params = where_clause(SearchFilter(scope=scope))
        parts = [where]
        if subject is not None:
            parts.append("(facts.subject = ? OR (facts.relation = 'friend_of' AND facts.object = ?))")
            params += [subject, subject]
        if relation is not None:
            parts.append("facts.relation = ?")
            params.append(relation)
        if status is not None:
            parts.append("facts.status = ?")
            params.append(status)
        rows = self._read(
            f"SELECT {_FACT_COLUMNS} FROM facts JOIN items ON items.rowid = facts.item_rowid "
            f"WHERE {' AND '.join(parts)} ORDER BY facts.weight DESC, facts.last_seen DESC LIMIT ?",
            [*params, limit],
        )
        return [_to_fact(row) for row in rows]

    def forget_facts(self, scope: Scope, subject: str | None, relation: str | None, fact_id: str | None) -> int:
        """Hard forget: the fact items go (full-text, vectors and facts rows with them), tombstoned
        for vector indexes, and their text leaves the index keys of the messages that stated them."""
        where, params = where_clause(SearchFilter(scope=scope))
        parts = [where]
        if fact_id is not None:
            parts.append("items.id = ?")
            params.append(fact_id)
        if subject is not None:
            parts.append("(facts.subject = ? OR (facts.relation = 'friend_of' AND facts.object = ?))")
            params += [subject, subject]
        if relation is not None:
            parts.append("facts.relation = ?")
            params.append(relation)
        with self._transaction() as conn:
            rows = conn.execute(
                "SELECT items.rowid, items.content, facts.provenance, items.user_id, items.agent_id, items.project "
                f"FROM facts JOIN items ON items.rowid = facts.item_rowid WHERE {' AND '.join(parts)}",
                params,
            ).fetchall()
            if not rows:
                return 0
            seq = bump_seq(conn)
            for rowid, text, provenance, *owner in rows:
                conn.execute("DELETE FROM items WHERE rowid = ?", (rowid,))
                conn.execute("INSERT OR REPLACE INTO tombstones (item_rowid, seq) VALUES (?, ?)", (rowid, seq))
                for message_id in json.loads(provenance):
                    _drop_key(conn, owner, message_id, text)
        return len(rows)

    def decay_facts(self, now: float, rate_per_day: float, stale_below: float) -> int:
        """Passive decay: weight × rate^(days since last seen); active facts below the floor go stale.

        Decay is measured from ``last_seen`` each time, so the stored weight is the weight at the
        last observation and repeated calls do not compound.
        """
        with self._transaction() as conn:
            rows = conn.execute("SELECT item_rowid, weight, last_seen FROM facts WHERE status = 'active'").fetchall()
            gone = [
                (now, rowid)
                for rowid, weight, seen in rows
                if weight * rate_per_day ** max(0.0, (now - seen) / 86400.0) < stale_below
            ]
            conn.executemany("UPDATE facts SET status = 'stale', valid_to = ? WHERE item_rowid = ?", gone)
        return len(gone)


def _end(conn: sqlite3.Connection, owner: list[str], fact: Fact, now: float, *, same_object: bool) -> None:
    test = "object = ?" if same_object else "object != ?"
    conn.execute(
        "UPDATE facts SET status = 'superseded', valid_to = ? WHERE user_id = ? AND agent_id = ? AND project = ? "
        f"AND subject = ? AND relation = ? AND {test} AND status = 'active'",
        [now, *owner, fact.subject, fact.relation, fact.object],
    )


def observe(
    conn: Any,
    rowid: int,
    owner: list[str],
    fact: Fact,
    now: float,
    alpha: float,
    source: str | None,
    mark: str = "?",
) -> None:
    """Record one sighting of a fact: a new row, or the existing row reinforced (``reinforcement``).

    Shared by the SQL backends; ``mark`` is the connection's parameter placeholder ("?" for
    sqlite3, "%s" for psycopg)."""
    found = conn.execute(
        "SELECT weight, status, provenance, confidence FROM facts WHERE item_rowid = ?".replace("?", mark), (rowid,)
    ).fetchone()
    if found is None:
        conn.execute(
            ("INSERT INTO facts (item_rowid, user_id, agent_id, project, subject, relation, object, confidence, "
             "weight, first_seen, last_seen, status, provenance, valid_from, lang, hedged) "
             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)").replace("?", mark),
            [rowid, *owner, fact.subject, fact.relation, fact.object, fact.confidence, alpha, now, now,
             json.dumps([source] if source else []), now, fact.lang, bool(fact.hedged)],
        )  # fmt: skip
        return
    change = reinforcement(found, fact, alpha, source)
    if change is None:
        return
    weight, provenance, confidence, reopened = change
    conn.execute(
        ("UPDATE facts SET weight = ?, last_seen = ?, status = 'active', provenance = ?, confidence = ?, "
         "hedged = ?, valid_from = CASE WHEN ? THEN ? ELSE valid_from END, "
         "valid_to = CASE WHEN ? THEN NULL ELSE valid_to END WHERE item_rowid = ?").replace("?", mark),
        [weight, now, provenance, confidence, bool(fact.hedged), reopened, now, reopened, rowid],
    )  # fmt: skip


def reinforcement(
    found: Sequence[Any], fact: Fact, alpha: float, source: str | None
) -> tuple[float, str, float, bool] | None:
    """The evidence rule of a fact seen again, shared by every backend: ``found`` is its stored
    (weight, status, provenance JSON, confidence); returns the new (weight, provenance JSON,
    confidence, reopened), or None when the same message was seen before (a re-import is no news)."""
    weight, status, provenance, old_confidence = found
    seen = json.loads(provenance)
    if source is not None and source in seen and status == "active":
        return None
    sources = [s for s in seen if s != source] + ([source] if source else [])
    return (
        weight + alpha * (1.0 - weight),
        json.dumps(sources[-MAX_PROVENANCE:]),
        max(old_confidence, fact.confidence),
        status != "active",
    )


def _add_keys(conn: sqlite3.Connection, source: Item, facts: list[Fact]) -> None:
    if not facts:
        return
    owner = owner_values(source.scope)
    row = conn.execute(
        "SELECT keys FROM items WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ?", [*owner, source.id]
    ).fetchone()
    if row is None:
        return
    lines = (row[0] or "").splitlines()
    lines += [key for key in (fact_key(f) for f in facts) if key not in lines]
    conn.execute(
        "UPDATE items SET keys = ? WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ?",
        ["\n".join(lines), *owner, source.id],
    )


def _drop_key(conn: sqlite3.Connection, owner: list[str], message_id: str, text: str) -> None:
    row = conn.execute(
        "SELECT keys FROM items WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ?", [*owner, message_id]
    ).fetchone()
    if row is None or not row[0]:
        return
    lines = [line for line in row[0].splitlines() if line != key_of_text(text)]
    conn.execute(
        "UPDATE items SET keys = ? WHERE user_id = ? AND agent_id = ? AND project = ? AND id = ?",
        ["\n".join(lines) or None, *owner, message_id],
    )


def fact_key(fact: Fact) -> str:
    """The words a fact adds to its message's index: relation in words plus the entities."""
    return key_of_text(fact.text)


def key_of_text(text: str) -> str:
    return text.replace("_", " ")


def _to_fact(row: tuple[Any, ...]) -> Fact:
    (item_id, user_id, agent_id, project, subject, relation, obj, confidence, weight, first_seen, last_seen,
     status, provenance, valid_from, valid_to, lang, hedged) = row  # fmt: skip
    return Fact(
        subject=subject,
        relation=relation,
        object=obj,
        confidence=confidence,
        hedged=bool(hedged),
        lang=lang,
        id=item_id,
        status=status,
        weight=weight,
        first_seen=from_epoch(first_seen),
        last_seen=from_epoch(last_seen),
        valid_from=from_epoch(valid_from),
        valid_to=from_epoch(valid_to),
        provenance=tuple(json.loads(provenance)),
        scope=Scope(user_id=user_id or None, agent_id=agent_id or None, project=project or None),
    )
