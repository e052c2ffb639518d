"""Source files (path, size, mtime, offset) and conversation sessions: the tables behind incremental
imports and `mnemo sources`.

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`.
"""

from __future__ import annotations


class SQLiteSources:
    """Mixed into SQLiteStore; see the module docstring."""
