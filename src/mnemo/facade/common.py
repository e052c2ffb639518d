"""Small pieces the Memory facade and its mixins share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnemo.errors import InputError
from mnemo.records import SCOPE_FIELDS

#: progress(done, total) callbacks for long work; total is 0 when unknown
Progress = Callable[[int, int], None]

#: the filters context() and the search variants accept
CONTEXT_FILTERS = frozenset({"kind", "since", "until", "category", *SCOPE_FIELDS})


def check_query(query: Any) -> str:
    if not isinstance(query, str):
        raise InputError(f"query must be text, got {type(query).__name__}")
    if not query.strip():
        raise InputError("query is empty; give some words to search for")
    return query.strip()
