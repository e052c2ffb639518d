"""Query understanding on top of a Memory's parts: rewrite, iterative, progressive, federated search.

Memory keeps thin delegating methods; this module wires the pure pieces (rewrite, iterate,
tiers) to the store, embedder and vector index it is given as callables, so a reindex that
swaps the embedder or the index is seen on the next call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from mnemo.config import Config, default_home
from mnemo.embed.base import Embedder
from mnemo.embed.inputs import embed_query, query_blas_threads
from mnemo.errors import InputError
from mnemo.records import Hit, SearchFilter
from mnemo.retrieve.expand import Synonyms
from mnemo.retrieve.hybrid import HybridSettings, hybrid_search
from mnemo.retrieve.iterate import ALIASES, EXPANSIONS, STRATEGIES, IterateSettings, IterativeResult, iterative_search
from mnemo.retrieve.progressive_descent import scoped_search
from mnemo.retrieve.rewrite import QueryRewriter, RewriteResult, normalise_context
from mnemo.retrieve.tiers import FederatedResult, ProgressiveResult, Sufficiency, federated_search, progressive_search
from mnemo.store.base import Store

VectorSearch = Callable[[np.ndarray, int, SearchFilter], list[tuple[int, float]]]


class QueryEngine:
    def __init__(
        self,
        store: Store,
        config: Config,
        embedder: Callable[[], Embedder | None],
        vector_search: VectorSearch,
    ) -> None:
        self.store = store
        self.config = config
        self._embedder = embedder
        self._vector_search = vector_search
        self._rewriter: QueryRewriter | None = None
        self._synonyms: Synonyms | None = None
        self._vectors: dict[tuple[str, str], np.ndarray] = {}
        self._counts: dict[SearchFilter, tuple[int, dict[str, int]]] = {}

    # -- rewriting -------------------------------------------------------------------------

    @property
    def rewriter(self) -> QueryRewriter:
        if self._rewriter is None:
            from mnemo.llm.client import client_from_config

            self._rewriter = QueryRewriter(
                client_from_config(self.config),
                min_confidence=self.config.rewrite_min_confidence,
                cache_ttl=self.config.rewrite_cache_ttl,
            )
        return self._rewriter

    def rewrite(self, query: Any, context: Any = None) -> RewriteResult:
        return self.rewriter.rewrite(query, context)

    # -- searching -------------------------------------------------------------------------

    def search(
        self,
        text: str,
        flt: SearchFilter,
        limit: int,
        *,
        iterative: bool = False,
        progressive: bool = False,
        context: Any = None,
    ) -> list[Hit]:
        """The hits of the chosen path, each carrying the rewrite when the context changed the query."""
        rewritten = self.rewrite(text, context) if context is not None else None
        query = rewritten.expanded if rewritten and rewritten.was_rewritten else text
        if progressive:
            hits = self.progressive(query, flt, limit, iterative=iterative).hits
        elif iterative:
            hits = self.iterative(query, flt, limit, context=context).hits
        else:
            hits = self.default(query, flt, limit, context=context)
        if rewritten is None or not rewritten.was_rewritten:
            return hits
        meta = {k: rewritten.as_dict()[k] for k in ("original", "expanded", "confidence", "resolved", "method")}
        return [replace(h, rewrite=meta) for h in hits]

    def default(self, text: str, flt: SearchFilter, limit: int, *, context: Any = None) -> list[Hit]:
        """The configured search path: one fused round (``search_mode="fused"``) or the single pass."""
        if self.config.search_mode == "fused" and self._embedder() is not None:
            # one round: every strategy fused, no feedback. Without embeddings the single pass is
            # kept: its keyword-overlap signal stands in for the missing vectors.
            return self.iterative(text, flt, limit, max_iter=1, context=context).hits
        return self.hybrid(text, flt, limit)

    def hybrid(self, text: str, flt: SearchFilter, limit: int) -> list[Hit]:
        """The single-pass hybrid search, with the same settings as Memory.search."""
        c = self.config
        settings = HybridSettings(
            weights={
                "lexical": c.weight_lexical,
                "semantic": c.weight_semantic,
                "keyword": c.weight_semantic,
                "recency": c.weight_recency,
            },
            rrf_k=c.rrf_k,
            candidates=max(limit * c.candidate_factor, c.min_candidates),
            fusion=c.fusion,
        )
        search = self._vector_search if self._embedder() is not None else None
        return hybrid_search(self.store, text, lambda: self._embed(text), search, flt, limit, settings)

    def iterative(
        self,
        text: str,
        flt: SearchFilter,
        limit: int,
        *,
        max_iter: int | None = None,
        strategies: Sequence[str] | None = None,
        expansions: Sequence[str] | None = None,
        stop_confidence: float | None = None,
        fusion_mode: str | None = None,
        context: Any = None,
    ) -> IterativeResult:
        settings = self.iterate_settings(limit, max_iter, strategies, expansions, stop_confidence, fusion_mode)
        embed = self._embed if self._embedder() is not None else None
        return iterative_search(
            self.store,
            text,
            embed,
            self._vector_search if embed else None,
            flt,
            limit,
            settings,
            self.synonyms,
            normalise_context(context),
        )

    def iterate_settings(
        self,
        limit: int,
        max_iter: int | None = None,
        strategies: Sequence[str] | None = None,
        expansions: Sequence[str] | None = None,
        stop_confidence: float | None = None,
        fusion_mode: str | None = None,
    ) -> IterateSettings:
        c = self.config
        chosen = _choose("strategies", strategies, STRATEGIES, c.iterate_strategies)
        expand = _choose("expansions", expansions, EXPANSIONS, c.iterate_expansions)
        rounds = c.iterate_max_iter if max_iter is None else max_iter
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 10:
            raise InputError(f"max_iter must be an integer from 1 to 10, got {rounds!r}")
        stop = c.iterate_stop_confidence if stop_confidence is None else stop_confidence
        if not 0 < stop <= 1:
            raise InputError(f"stop_confidence must be in (0, 1], got {stop!r}")
        mode = fusion_mode or c.iterate_fusion
        if mode not in ("weighted", "rrf"):
            raise InputError(f"fusion_mode must be 'weighted' or 'rrf', got {mode!r}")
        return IterateSettings(
            max_iter=rounds,
            strategies=chosen,
            expansions=expand,
            stop_confidence=stop,
            fusion=mode,
            rrf_k=c.rrf_k,
            candidates=max(limit * c.candidate_factor, c.iterate_candidates),
        )

    def progressive(
        self,
        text: str,
        flt: SearchFilter,
        limit: int,
        *,
        min_results: int | None = None,
        min_quality: float | None = None,
        stop_when_sufficient: bool = True,
        iterative: bool = False,
        **judgement: Any,
    ) -> ProgressiveResult:
        """``judgement``: the other Sufficiency fields (min_coverage, min_depth, descend_sessions and
        the probe's probe_sessions, probe_coverage, probe_depth)."""
        counts = self._kind_counts(flt)
        given = {"min_results": min_results, "min_quality": min_quality, **judgement}
        try:
            sufficiency = Sufficiency(**{k: v for k, v in given.items() if v is not None})
        except TypeError as exc:
            raise InputError(f"unknown progressive search option: {exc}") from exc

        def search(kinds: tuple[str, ...], n: int) -> list[Hit]:
            narrowed = replace(flt, kinds=tuple(k for k in kinds if not flt.kinds or k in flt.kinds))
            if not narrowed.kinds:
                return []
            # each tier with the same search as a plain query (its kinds in the SQL filter)
            return self.iterative(text, narrowed, n).hits if iterative else self.default(text, narrowed, n)

        def descend(sessions: Sequence[str], n: int) -> tuple[list[Hit], int]:
            # the hierarchical step: only the matched sessions' messages, with the shared query vector
            vector = self._embed(text)
            return scoped_search(self.store, self._vector_search, vector, text, flt, ("message",), sessions, n)

        return progressive_search(
            search, counts, text, limit, sufficiency, stop_when_sufficient=stop_when_sufficient, descend=descend
        )

    def federated(
        self, text: str, flt: SearchFilter, limit: int, weights: Mapping[str, float] | None = None, routing: bool = True
    ) -> FederatedResult:
        counts = self._kind_counts(flt)

        def search(kinds: tuple[str, ...], n: int) -> list[Hit]:
            return self.hybrid(text, replace(flt, kinds=kinds), n)

        return federated_search(search, counts, text, limit, weights, routing, self.config.rrf_k)

    # -- plumbing --------------------------------------------------------------------------

    @property
    def synonyms(self) -> Synonyms:
        if self._synonyms is None:
            from mnemo.retrieve.synonyms import load_synonyms

            path = getattr(self.config, "synonyms_file", "") or str(
                Path(self.config.home or default_home()) / "synonyms.txt"
            )
            self._synonyms = load_synonyms(path)
        return self._synonyms

    def clear_cache(self) -> None:
        """Forget cached query vectors (benchmarks time cold queries; the kind counts are the
        store's, not the query's, and stay)."""
        self._vectors.clear()

    def _embed(self, text: str) -> np.ndarray | None:
        """The query's vector; the last few are kept, so the tiers of one progressive search (and
        a repeated query) embed it once."""
        embedder = self._embedder()
        if embedder is None:
            return None
        key = (embedder.name, text)
        vector = self._vectors.get(key)
        if vector is None:
            vector = embed_query(embedder, text, query_blas_threads(self.store, self.config.blas_threads))
            self._vectors[key] = vector
            while len(self._vectors) > 8:
                self._vectors.pop(next(iter(self._vectors)))
        return vector

    def _kind_counts(self, flt: SearchFilter) -> dict[str, int]:
        """Items per kind in the filter's scope, kept until the store changes: the tiers an empty
        scope would skip are known without a count query on every search."""
        scope = replace(flt, kinds=())
        sequence = self.store.sequence()
        cached = self._counts.get(scope)
        if cached is None or cached[0] != sequence:
            cached = (sequence, self.store.grouped_counts("kind", scope))
            self._counts[scope] = cached
            while len(self._counts) > 16:
                self._counts.pop(next(iter(self._counts)))
        return {k: v for k, v in cached[1].items() if not flt.kinds or k in flt.kinds}


def _choose(name: str, given: Sequence[str] | str | None, known: Sequence[str], default: str) -> tuple[str, ...]:
    if given is None:
        given = default
    chosen = tuple(p.strip() for p in given.split(",")) if isinstance(given, str) else tuple(given)
    chosen = tuple(dict.fromkeys(ALIASES.get(c, c) for c in chosen if c))
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise InputError(f"unknown {name}: {', '.join(unknown)}; choose from {', '.join(known)}")
    return chosen
