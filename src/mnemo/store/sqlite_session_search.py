"""Full-text queries that session search needs beyond plain hybrid search (phrases, required and
excluded terms, per-session aggregation).

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`.
"""

from __future__ import annotations


class SQLiteSessionSearch:
    """Mixed into SQLiteStore; see the module docstring."""
