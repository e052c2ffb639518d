"""Named, ordered schema migrations for the SQLite store; each runs in its own transaction."""

from __future__ import annotations

import sqlite3
import time

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "0001_items",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta (key, value) VALUES ('seq', '0');
        INSERT INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));
        CREATE TABLE items (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            -- owner fields use '' for "unset" so the UNIQUE constraint below treats them as equal
            user_id TEXT NOT NULL DEFAULT '',
            agent_id TEXT NOT NULL DEFAULT '',
            project TEXT NOT NULL DEFAULT '',
            session_id TEXT,
            task_id TEXT,
            content TEXT NOT NULL,
            kind TEXT NOT NULL,
            role TEXT,
            source TEXT,
            ts REAL,
            ingested_at REAL NOT NULL,
            metadata TEXT NOT NULL DEFAULT '{}',
            content_hash TEXT NOT NULL,
            seq INTEGER NOT NULL,
            UNIQUE (user_id, agent_id, project, id)
        );
        CREATE INDEX items_by_id ON items (id);
        CREATE INDEX items_by_session ON items (session_id);
        CREATE INDEX items_by_ts ON items (ts);
        -- vectors live in their own table, so item rows stay small: full-text search joins
        -- items row by row, and a 1.5 KB blob in every row made that join three times slower
        CREATE TABLE vectors (
            item_rowid INTEGER PRIMARY KEY,
            -- hash of the exact text the vector was computed from: the embedding cache key
            vector_key TEXT NOT NULL,
            embedding BLOB NOT NULL
        );
        CREATE INDEX vectors_by_key ON vectors (vector_key);
        CREATE TRIGGER items_vector_delete AFTER DELETE ON items BEGIN
            DELETE FROM vectors WHERE item_rowid = old.rowid;
        END;
        -- term statistics, so a query on a large store can leave out terms too common to rank by
        CREATE VIRTUAL TABLE items_vocab USING fts5vocab (items_fts, 'row');
        CREATE INDEX items_by_seq ON items (seq);
        CREATE INDEX items_by_kind ON items (kind);
        -- deletions, so derived vector indexes can catch up without a rebuild
        CREATE TABLE tombstones (item_rowid INTEGER PRIMARY KEY, seq INTEGER NOT NULL);
        CREATE INDEX tombstones_by_seq ON tombstones (seq);
        CREATE VIRTUAL TABLE items_fts USING fts5 (
            content, role,
            content = 'items', content_rowid = 'rowid',
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
            INSERT INTO items_fts (rowid, content, role) VALUES (new.rowid, new.content, new.role);
        END;
        CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
            INSERT INTO items_fts (items_fts, rowid, content, role)
            VALUES ('delete', old.rowid, old.content, old.role);
        END;
        CREATE TRIGGER items_fts_update AFTER UPDATE OF content, role ON items BEGIN
            INSERT INTO items_fts (items_fts, rowid, content, role)
            VALUES ('delete', old.rowid, old.content, old.role);
            INSERT INTO items_fts (rowid, content, role) VALUES (new.rowid, new.content, new.role);
        END;
        """,
    ),
)


def apply_migrations(conn: sqlite3.Connection) -> list[str]:
    """Apply every migration not yet recorded; returns the names applied now."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    applied: list[str] = []
    for name, script in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # re-check under the write lock: another process may have migrated meanwhile
            if conn.execute("SELECT 1 FROM schema_migrations WHERE name = ?", (name,)).fetchone():
                conn.execute("ROLLBACK")
                continue
            for statement in _statements(script):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, time.time()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied


def _statements(script: str) -> list[str]:
    """Split a script on statement boundaries, keeping trigger bodies (BEGIN … END;) whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if line.strip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
