"""Pure functions that build SQL text and parameters; executing it is the store's job.

Kept apart so the generated SQL can be tested as strings and shared by every SQL backend.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from mnemo.records import SCOPE_FIELDS, SearchFilter
from mnemo.timeutil import to_epoch

_WORD = re.compile(r"\w+", re.UNICODE)

#: Function words that match almost every turn; dropping them keeps BM25 on the informative terms.
STOPWORDS: frozenset[str] = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves s t don did didn doesn isn wasn""".split()
)


def where_clause(flt: SearchFilter, alias: str = "items") -> tuple[str, list[Any]]:
    """Translate a filter into a WHERE fragment (``1`` when unrestricted) with ``?`` parameters."""
    parts: list[str] = []
    params: list[Any] = []
    for name in SCOPE_FIELDS:
        value = getattr(flt.scope, name)
        if value is not None:
            parts.append(f"{alias}.{name} = ?")
            params.append(value)
    if flt.kinds:
        parts.append(f"{alias}.kind IN ({', '.join('?' for _ in flt.kinds)})")
        params.extend(flt.kinds)
    if flt.since is not None:
        parts.append(f"{alias}.ts >= ?")
        params.append(to_epoch(flt.since))
    if flt.until is not None:
        parts.append(f"{alias}.ts < ?")
        params.append(to_epoch(flt.until))
    if flt.category:  # "skills" or the subcategory path "skills/python_testing"
        category, _, subcategory = flt.category.partition("/")
        parts.append(f"{alias}.category = ?")
        params.append(category)
        if subcategory:
            parts.append(f"{alias}.subcategory = ?")
            params.append(subcategory)
    return (" AND ".join(parts) or "1"), params


def query_terms(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased word tokens of a free-text query, stopwords dropped unless nothing else is left."""
    words = [w.lower() for w in _WORD.findall(text)]
    informative = [w for w in words if w not in STOPWORDS]
    chosen = words if keep_stopwords or not informative else informative
    return list(dict.fromkeys(chosen))  # de-duplicate, keep order


def fts_match_expression(terms: Sequence[str]) -> str | None:
    """An FTS5 MATCH string that ORs quoted terms, so no user text is ever parsed as FTS5 syntax."""
    quoted = ['"' + term.replace('"', '""') + '"' for term in terms if term]
    return " OR ".join(quoted) or None


#: SQLite's full-text index holds each item's kind as one token more (``kind_tag``), which FTS5
#: counts in the row's length and so in the average length; PostgreSQL's BM25 counts it too.
KIND_TAG_TOKENS = 1


def in_text_columns(match: str) -> str:
    """An FTS5 expression limited to the columns that hold an item's words (not its kind token):
    a query word that happens to spell a kind token must not match every item of that kind."""
    return f"{{content role keys}} : ({match})"


def kind_tag(kind: str) -> str:
    """The token that marks an item's kind in SQLite's full-text index (its ``kind_tag`` column)."""
    return f"kind{kind}"


def affordable_terms(frequencies: Sequence[tuple[str, int]], budget: int) -> list[str]:
    """The rarest terms whose document counts add up to at most ``budget``, in query order.

    The rarest term is always kept, so a query never loses its lexical signal entirely; terms
    that occur nowhere cost nothing and are kept too.
    """
    ranked = sorted(frequencies, key=lambda pair: pair[1])
    chosen: set[str] = set()
    spent = 0
    for position, (term, count) in enumerate(ranked):
        if position > 0 and spent + count > budget:
            break
        chosen.add(term)
        spent += count
    return [term for term, _ in frequencies if term in chosen]


def placeholders(count: int) -> str:
    return ", ".join("?" for _ in range(count))
