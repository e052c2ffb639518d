"""Categories and evolving subcategories: the subcategory table and the category columns of items.

A mixin of SQLiteStore: methods here use the store's `_read` and `_transaction`.
"""

from __future__ import annotations


class SQLiteCategories:
    """Mixed into SQLiteStore; see the module docstring."""
