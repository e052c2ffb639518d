"""The hierarchical step of progressive search: a scoped search of a few sessions' messages.

Once the distilled tiers answer a query, the detail sits in the sessions their best hits came
from. Searching only those sessions' messages costs a vector search and a BM25 query per session
over a few dozen rows, where the whole messages tier costs a full fused search over all of them;
the hits carry the same signals (``semantic`` cosine, ``lexical`` BM25) the tier merge reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from mnemo.records import Hit, SearchFilter
from mnemo.retrieve import strategies as st
from mnemo.store.base import Store
from mnemo.store.sql import query_terms


def scoped_search(
    store: Store,
    vector_search: st.VectorSearch | None,
    vector: np.ndarray | None,
    query: str,
    flt: SearchFilter,
    kinds: tuple[str, ...],
    sessions: Sequence[str],
    per_session: int,
) -> tuple[list[Hit], int]:
    """The best ``per_session`` items of ``kinds`` in each session by meaning and by words, and
    how many items those sessions hold (what was searched). The filter's scope still applies: a
    session outside it, or another than the filter's own session, is not searched."""
    kinds = tuple(k for k in kinds if not flt.kinds or k in flt.kinds)
    chosen = [s for s in sessions if flt.scope.session_id in (None, s)]
    if not kinds or not chosen:
        return [], 0
    words = query_terms(query)
    hits: list[Hit] = []
    searched = 0
    for session in chosen:
        scoped = replace(flt, kinds=kinds, scope=replace(flt.scope, session_id=session))
        # the session's row keys: the store keeps them per filter for the vector search that
        # follows, so counting what is searched costs nothing more (a GROUP BY would cost a read)
        allowed = store.allowed_keys(scoped)
        size = store.count(scoped) if allowed is None else len(allowed)
        if not size:
            continue
        searched += size
        dense = st.semantic(vector, vector_search, scoped, per_session)
        lexical = st.exact(store, words, scoped, per_session)
        keys = list(dict.fromkeys([*dense, *lexical]))
        items = store.fetch(keys, scoped)
        for key in keys:
            if key in items:
                signals = {"semantic": dense[key]} if key in dense else {}
                if key in lexical:
                    signals["lexical"] = lexical[key]
                hits.append(Hit.of(items[key], dense.get(key, 0.0), {}, signals))
    return hits, searched
