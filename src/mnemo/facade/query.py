"""Memory's query-understanding methods: rewriting, iterative, progressive and federated search.

The logic lives in mnemo.retrieve (engine, iterate, tiers, rewrite).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mnemo.errors import InputError
from mnemo.facade import summaries
from mnemo.facade.common import CONTEXT_FILTERS, Progress, check_query
from mnemo.records import SearchFilter
from mnemo.retrieve.engine import QueryEngine
from mnemo.retrieve.iterate import IterativeResult
from mnemo.retrieve.query_notes import QueryNote, query_notes
from mnemo.retrieve.rewrite import RewriteResult
from mnemo.retrieve.summaries import SummaryReport
from mnemo.retrieve.tiers import FederatedResult, ProgressiveResult, check_weights


class QueryMixin:
    """Mixed into Memory: uses its store, config, embedder, _vectors, _filter and add_many."""

    def rewrite(self, query: str, context: Sequence[Mapping[str, str]] | None = None) -> RewriteResult:
        """Resolve the query's pronouns and references against the conversation ``context``."""
        return self._engine().rewrite(query, context)

    def query_notes(self, query: str, context: Sequence[Mapping[str, str]] | None = None) -> tuple[QueryNote, ...]:
        """What is weak about ``query`` as a search: only common words, or pointers ("he", "that")
        with no ``context`` to resolve them. Empty for most queries; search runs either way."""
        return query_notes(check_query(query), context_given=bool(context))

    def iterative_search(self, query: str, limit: int = 10, **options: Any) -> IterativeResult:
        """Seed 003's iterative search with each round's queries and contributions (``explain``).

        ``options``: max_iter, strategies, expansions, stop_confidence, fusion_mode, context, and
        search's filters (kind, since, until, scope fields)."""
        text, flt, rest = self._query_parts(query, limit, options)
        return self._engine().iterative(text, flt, limit, **rest)

    def progressive_search(self, query: str, limit: int = 10, **options: Any) -> ProgressiveResult:
        """Tiers from summaries to raw items, stopping when enough good matches were found.

        ``options``: min_results, min_quality, stop_when_sufficient, iterative, and search's filters."""
        text, flt, rest = self._query_parts(query, limit, options)
        return self._engine().progressive(text, flt, limit, **rest)

    def federated_search(self, query: str, limit: int = 10, **options: Any) -> FederatedResult:
        """One query over every source (kind) with per-source ``weights`` and domain ``routing``."""
        text, flt, rest = self._query_parts(query, limit, options)
        unknown = set(rest) - {"weights", "routing"}
        if unknown:
            raise InputError(f"unknown option(s) for federated search: {', '.join(sorted(unknown))}")
        weights = check_weights(rest.get("weights"))
        routing = rest.get("routing", True)
        if not isinstance(routing, bool):
            raise InputError(f"routing must be true or false, got {routing!r}")
        return self._engine().federated(text, flt, limit, weights, routing)

    def summarise_sessions(
        self,
        *,
        llm: bool | None = None,
        max_llm: int | None = None,
        rebuild: bool = False,
        progress: Progress | None = None,
        **scope: str | None,
    ) -> SummaryReport:
        """(Re)build the summary item (kind "summary") of every session in scope; ``llm`` None follows
        the config, True/False forces; ``max_llm`` bounds LLM calls. See mnemo.facade.summaries."""
        options = {"llm": llm, "max_llm": max_llm, "rebuild": rebuild, "progress": progress}
        return summaries.summarise_scope(self, scope=scope, **options)

    def summarise_categories(self, *, user_id: str | None = None, **options: Any) -> SummaryReport:
        """Topic summaries of every subcategory (kind "summary"); ``options`` as summarise_sessions'."""
        settings = {"llm": None, "max_llm": None, "rebuild": False, "progress": None, **options}
        return summaries.summarise_categories(self, user_id=user_id, **settings)

    def _summarise_touched(self, sessions: set[tuple[str | None, ...]]) -> None:
        """Rebuild the summaries of the sessions an ingestion touched (``summaries_on_ingest``)."""
        if sessions:
            summaries.summarise_touched(self, sessions)  # summary items touch no session: no recursion

    def _engine(self) -> QueryEngine:
        engine: QueryEngine | None = getattr(self, "_query_engine", None)
        if engine is None or engine.config is not self.config:  # config replaced: settings changed
            engine = QueryEngine(self.store, self.config, lambda: self.embedder, lambda *a: self._vectors.search(*a))
            self._query_engine = engine
        return engine

    def _query_parts(self, query: str, limit: int, options: dict[str, Any]) -> tuple[str, SearchFilter, dict[str, Any]]:
        """Validated query text, the filter from search's filter options, and the other options."""
        text = check_query(query)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InputError(f"limit must be an integer from 1 to 1000, got {limit!r}")
        filters = {k: options.pop(k) for k in list(options) if k in CONTEXT_FILTERS and k != "category"}
        flt = self._filter(filters.pop("kind", None), filters.pop("since", None), filters.pop("until", None), **filters)
        return text, flt, options
