"""A list the query draws from rather than chooses among: "does the first one have music storage"
after "Battery and music" names an item of that list, so the list is the criteria, not the options.
Split from lists.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import cached_re


def repeats_an_item(asked: str, items: Sequence[str]) -> bool:
    """Whether the query names an item itself: "does the first one have music storage" after "Battery and music"."""
    low = " " + cached_re.sub(r"[^\w\s'-]", " ", asked.lower()) + " "
    return bool(asked) and any(f" {item.lower()} " in low for item in items)
