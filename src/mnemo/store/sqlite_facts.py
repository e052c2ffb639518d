"""The facts table: subject/relation/object with status, confidence, weight and validity time, beside
the fact's item row.

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`.
"""

from __future__ import annotations


class SQLiteFacts:
    """Mixed into SQLiteStore; see the module docstring."""
