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
    (
        "0002_sources",
        """
        -- conversations as imported; message counts are recomputed from the items they hold
        CREATE TABLE sessions (
            session_id TEXT PRIMARY KEY,
            project TEXT,
            source TEXT,
            path TEXT,
            title TEXT,
            started_at REAL,
            ended_at REAL,
            message_count INTEGER NOT NULL DEFAULT 0,
            user_message_count INTEGER NOT NULL DEFAULT 0,
            git_branch TEXT,
            is_fork INTEGER NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL
        );
        CREATE INDEX sessions_by_project ON sessions (project, started_at);
        CREATE INDEX sessions_by_start ON sessions (started_at);
        -- imported files and how far each was read: a re-run stats files and reads only growth
        CREATE TABLE sources (
            path TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            root TEXT,
            size INTEGER NOT NULL DEFAULT 0,
            mtime REAL NOT NULL DEFAULT 0,
            offset INTEGER NOT NULL DEFAULT 0,
            line INTEGER NOT NULL DEFAULT 1,
            bytes_read INTEGER NOT NULL DEFAULT 0,
            head_hash TEXT NOT NULL DEFAULT '',
            session_id TEXT,
            messages INTEGER NOT NULL DEFAULT 0,
            dropped INTEGER NOT NULL DEFAULT 0,
            imported_at REAL,
            state TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX sources_by_root ON sources (root);
        """,
    ),
    (
        "0003_facts",
        """
        -- extra index keys of an item: the facts a message stated ("you lives_in seattle"), so a
        -- search for the fact finds the message (key expansion); the full-text index gains a
        -- third column for them, content and role stay first so bm25 weights keep their meaning
        ALTER TABLE items ADD COLUMN keys TEXT;
        DROP TRIGGER items_fts_insert;
        DROP TRIGGER items_fts_delete;
        DROP TRIGGER items_fts_update;
        DROP TABLE items_vocab;
        DROP TABLE items_fts;
        CREATE VIRTUAL TABLE items_fts USING fts5 (
            content, role, keys,
            content = 'items', content_rowid = 'rowid',
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO items_fts (items_fts) VALUES ('rebuild');
        CREATE VIRTUAL TABLE items_vocab USING fts5vocab (items_fts, 'row');
        CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
            INSERT INTO items_fts (rowid, content, role, keys) VALUES (new.rowid, new.content, new.role, new.keys);
        END;
        CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
            INSERT INTO items_fts (items_fts, rowid, content, role, keys)
            VALUES ('delete', old.rowid, old.content, old.role, old.keys);
        END;
        CREATE TRIGGER items_fts_update AFTER UPDATE OF content, role, keys ON items BEGIN
            INSERT INTO items_fts (items_fts, rowid, content, role, keys)
            VALUES ('delete', old.rowid, old.content, old.role, old.keys);
            INSERT INTO items_fts (rowid, content, role, keys) VALUES (new.rowid, new.content, new.role, new.keys);
        END;
        -- one row per fact item: the triple and its lifecycle (history is kept: a superseded
        -- fact keeps its row with valid_to set)
        CREATE TABLE facts (
            item_rowid INTEGER PRIMARY KEY,
            user_id TEXT NOT NULL DEFAULT '',
            agent_id TEXT NOT NULL DEFAULT '',
            project TEXT NOT NULL DEFAULT '',
            subject TEXT NOT NULL,
            relation TEXT NOT NULL,
            object TEXT NOT NULL,
            confidence REAL NOT NULL,
            weight REAL NOT NULL,
            first_seen REAL NOT NULL,
            last_seen REAL NOT NULL,
            status TEXT NOT NULL DEFAULT 'active',
            provenance TEXT NOT NULL DEFAULT '[]',
            valid_from REAL,
            valid_to REAL,
            lang TEXT,
            hedged INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX facts_by_subject_relation ON facts (user_id, agent_id, project, subject, relation);
        CREATE INDEX facts_by_object ON facts (object);
        CREATE INDEX facts_by_status ON facts (status);
        CREATE TRIGGER items_facts_delete AFTER DELETE ON items BEGIN
            DELETE FROM facts WHERE item_rowid = old.rowid;
        END;
        """,
    ),
    (
        "0004_categories",
        """
        -- the top-level category (facts, preferences, skills, rules, context) of each item and the
        -- name of its evolving subcategory; NULL until classified / assigned
        ALTER TABLE items ADD COLUMN category TEXT;
        ALTER TABLE items ADD COLUMN subcategory TEXT;
        CREATE INDEX items_by_category ON items (category, subcategory);
        -- subcategories are grown per user (user_id '' = no user), so one user's topics never
        -- name or hold another user's memories
        CREATE TABLE subcategories (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL DEFAULT '',
            category TEXT NOT NULL,
            name TEXT NOT NULL,
            keywords TEXT NOT NULL DEFAULT '[]',
            centroid BLOB,
            count INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            UNIQUE (user_id, category, name)
        );
        CREATE TABLE category_history (
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            user_id TEXT NOT NULL DEFAULT '',
            category TEXT NOT NULL,
            action TEXT NOT NULL,
            old_names TEXT NOT NULL DEFAULT '[]',
            new_names TEXT NOT NULL DEFAULT '[]',
            detail TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX category_history_by_user ON category_history (user_id, at);
        """,
    ),
    (
        "0005_items_by_user_time",
        """
        -- a user's items inside a time window ("in May 2023", "after the move"): without it the
        -- scope's unique index walks every row of the user to find the window's few
        CREATE INDEX items_by_user_ts ON items (user_id, ts);
        """,
    ),
    (
        "0006_fts_kind_tags",
        """
        -- each item's kind as one token of a fourth full-text column ("kindfact"), so a search of
        -- one tier (facts, summaries) lets FTS5 intersect the query's matches with that kind's
        -- document list instead of joining every match in the store to its row to test the kind;
        -- bm25 weighs the column 0. The token adds one to every row's length (and so to the
        -- average): a uniform shift that PostgreSQL's BM25 reproduces (postgres_lexical.py and
        -- postgres_session_search.py). Searches limit the query's words to the other columns.
        ALTER TABLE items ADD COLUMN kind_tag TEXT GENERATED ALWAYS AS ('kind' || kind) VIRTUAL;
        DROP TRIGGER items_fts_insert;
        DROP TRIGGER items_fts_delete;
        DROP TRIGGER items_fts_update;
        DROP TABLE items_vocab;
        DROP TABLE items_fts;
        CREATE VIRTUAL TABLE items_fts USING fts5 (
            content, role, keys, kind_tag,
            content = 'items', content_rowid = 'rowid',
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO items_fts (items_fts) VALUES ('rebuild');
        CREATE VIRTUAL TABLE items_vocab USING fts5vocab (items_fts, 'row');
        CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
            INSERT INTO items_fts (rowid, content, role, keys, kind_tag)
            VALUES (new.rowid, new.content, new.role, new.keys, new.kind_tag);
        END;
        CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
            INSERT INTO items_fts (items_fts, rowid, content, role, keys, kind_tag)
            VALUES ('delete', old.rowid, old.content, old.role, old.keys, old.kind_tag);
        END;
        CREATE TRIGGER items_fts_update AFTER UPDATE OF content, role, keys, kind ON items BEGIN
            INSERT INTO items_fts (items_fts, rowid, content, role, keys, kind_tag)
            VALUES ('delete', old.rowid, old.content, old.role, old.keys, old.kind_tag);
            INSERT INTO items_fts (rowid, content, role, keys, kind_tag)
            VALUES (new.rowid, new.content, new.role, new.keys, new.kind_tag);
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
