"""The Memory facade: wires store, embedder, vector index, retrieval and context together."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import replace
from datetime import datetime
from typing import Any

from mnemo.categories import service as categories
from mnemo.config import Config, load_config
from mnemo.context.grouped import render_grouped
from mnemo.context.render import ContextPack, render
from mnemo.doctor import DoctorReport, Target, reembed_items, run_doctor
from mnemo.embed.base import Embedder
from mnemo.embed.choice import choose_embedder
from mnemo.embed.context import previous_turns, store_lookup
from mnemo.embed.inputs import embed_items, embed_query, query_blas_threads
from mnemo.embed.recorded import META_KEY as INPUTS_KEY
from mnemo.embed.recorded import inputs_of, note_write
from mnemo.errors import InputError
from mnemo.facade.categories import CategoriesMixin
from mnemo.facade.common import CONTEXT_FILTERS, Progress, check_query
from mnemo.facade.erase import erase_traces, forget_orphan_facts
from mnemo.facade.facts import FactsMixin
from mnemo.facade.query import QueryMixin
from mnemo.facade.sources import SourcesMixin
from mnemo.facade.turns import TurnsMixin
from mnemo.index.adaptive import AdaptiveIndex, open_index
from mnemo.ingest.normalise import item_to_record, make_item
from mnemo.records import (
    KINDS,
    OWNER_FIELDS,
    SCOPE_FIELDS,
    Hit,
    ImportReport,
    Item,
    Scope,
    SearchFilter,
)
from mnemo.redact import install_log_redaction, redact_record
from mnemo.retrieve.hybrid import HybridSettings, hybrid_search
from mnemo.retrieve.sessions import SessionSearcher
from mnemo.retrieve.store_vectors import StoreVectorIndex
from mnemo.retrieve.summaries import summarised_sessions
from mnemo.retrieve.vectors import SyncedVectorIndex
from mnemo.store.base import Embedding
from mnemo.store.factory import open_store
from mnemo.timeutil import to_utc


class Memory(SourcesMixin, FactsMixin, CategoriesMixin, QueryMixin, TurnsMixin):
    """A memory store for one machine or one team.

    ``Memory("path.db")``, ``Memory(":memory:")`` or ``Memory()`` (the default data directory).
    Scope fields given here (``user_id``, ``agent_id``, ``project``) pin every call to that scope.
    """

    def __init__(
        self,
        path: str | None = None,
        *,
        embedder: str | Embedder | None = None,
        config: Config | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        project: str | None = None,
        **settings: Any,
    ) -> None:
        overrides = dict(settings, db=path)
        if isinstance(embedder, str):
            overrides["embedder"] = embedder
        if config is None:
            self.config = load_config(overrides)
        else:  # explicit arguments still win over a given Config
            self.config = replace(config, **{k: v for k, v in overrides.items() if v is not None})
        self.pinned = Scope(user_id=user_id, agent_id=agent_id, project=project)
        if self.config.redact:
            install_log_redaction()
        self.store = open_store(self.config.db_target, self.config)
        try:
            self.embedder = choose_embedder(
                embedder if isinstance(embedder, Embedder) else self.config.embedder,
                self.store.get_meta("embedder"),
            )
        except BaseException:
            self.store.close()
            raise
        self._vectors = self._new_vectors()
        self._inputs_recorded = False  # whether this process brought the record of turn inputs up to date
        self._session_searcher: SessionSearcher | None = None
        self._categorizer = self._new_categorizer()
        self._learner: Any = None

    # -- writing ---------------------------------------------------------------------------

    def add(
        self,
        content: str,
        *,
        role: str | None = None,
        session_id: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        project: str | None = None,
        task_id: str | None = None,
        timestamp: datetime | str | float | None = None,
        id: str | None = None,  # noqa: A002 - the public name the API promises
        metadata: Mapping[str, Any] | None = None,
        kind: str = "message",
        source: str | None = None,
    ) -> Item:
        """Store one memory and return it; re-adding an id in the same scope updates it."""
        record = {
            "content": content,
            "role": role,
            "session_id": session_id,
            "user_id": user_id,
            "agent_id": agent_id,
            "project": project,
            "task_id": task_id,
            "timestamp": timestamp,
            "id": id,
            "metadata": metadata,
            "kind": kind,
            "source": source,
        }
        item = self._validate(record)
        item = self._write_one(item)
        self._learn([item], None)
        return item

    def add_many(
        self,
        records: Iterable[Mapping[str, Any]],
        *,
        skip_invalid: bool = False,
        progress: Progress | None = None,
        total: int | None = None,
        extract_facts: bool | None = None,
    ) -> ImportReport:
        """Store many memories, ``batch_size`` per transaction.

        User messages also yield facts when ``extract_facts`` is on (default: the config's
        ``extract_facts_on_import``, off).

        Invalid records raise InputError naming their position — before anything of that batch
        is written — unless ``skip_invalid`` is set, in which case they are counted and skipped.
        """
        counts = {"added": 0, "updated": 0, "unchanged": 0}
        skipped: list[str] = []

        def valid_items() -> Iterator[Item]:
            for position, record in enumerate(records):
                try:
                    yield self._validate(record)
                except InputError as exc:
                    if not skip_invalid:
                        raise InputError(f"record {position}: {exc}") from exc
                    skipped.append(f"record {position}: {exc}")

        done = 0
        touched: set[tuple[str | None, ...]] = set()
        # PostgreSQL: a large import builds its vector index once at the end (store/postgres_bulk.py)
        with getattr(self.store, "bulk_writes", nullcontext)():
            for batch in _chunks(valid_items(), self.config.batch_size):
                for status in self._write(batch):
                    counts[status] += 1
                self._learn(batch, self.config.extract_facts_on_import if extract_facts is None else extract_facts)
                touched |= summarised_sessions(batch) if self.config.summaries_on_ingest else set()
                done += len(batch)
                if progress:
                    progress(done, total or 0)
        self._summarise_touched(touched)
        self._auto_evolve()
        return ImportReport(skipped=len(skipped), errors=tuple(skipped[:100]), **counts)

    def delete(self, id: str, **scope: str | None) -> int:  # noqa: A002
        """Delete the item(s) with this id within the given (and pinned) scope; returns how many.

        A hard delete: no copy of the text stays in the indexes, caches or WAL (facade.erase)."""
        within = self._scope(scope)
        removed = self.store.delete(id, within)
        if removed:
            forget_orphan_facts(self, id, within)
            erase_traces(self)
        return removed

    def reindex(self, embedder: str | Embedder, progress: Progress | None = None) -> int:
        """Re-embed every item with another model and record it as the store's model."""
        from mnemo.embed.registry import make_embedder

        model = embedder if isinstance(embedder, Embedder) else make_embedder(embedder)
        total, done = self.store.count(SearchFilter()), 0
        # the doctor's re-embedding, with the new model: each turn after the turn before it in the store
        target = Target(self.store, model, None, self.config.turn_context)
        for chunk in _chunks(self.store.iter_items(SearchFilter()), self.config.batch_size):
            done += reembed_items(target, chunk)
            if progress:
                progress(done, total)
        self.store.set_meta("embedder", model.name)
        self.store.set_meta(INPUTS_KEY, inputs_of(self.config.turn_context))  # every turn re-embedded
        self._inputs_recorded = True
        self.embedder = model
        self._vectors = self._new_vectors()
        self._categorizer = self._new_categorizer()
        return done

    # -- reading ---------------------------------------------------------------------------

    def search(
        self,
        query: str,
        limit: int = 10,
        kind: str | Sequence[str] | None = None,
        user_id: str | None = None,
        session_id: str | None = None,
        project: str | None = None,
        since: datetime | str | float | None = None,
        until: datetime | str | float | None = None,
        *,
        agent_id: str | None = None,
        task_id: str | None = None,
        category: str | None = None,
        iterative: bool = False,
        progressive: bool = False,
        context: Sequence[Mapping[str, str]] | None = None,
    ) -> list[Hit]:
        """Hybrid search within a scope; every filter is applied inside the store's queries.

        ``iterative`` runs the multi-round, multi-strategy search (``iterative_search``),
        ``progressive`` searches tiers from summaries to raw items (``progressive_search``), and a
        conversation ``context`` first resolves the query's references (``rewrite``).

        ``category`` keeps one category ("skills") or subcategory ("skills/python_testing").
        """
        text = check_query(query)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InputError(f"limit must be an integer from 1 to 1000, got {limit!r}")
        flt = self._filter(
            kind,
            since,
            until,
            user_id=user_id,
            session_id=session_id,
            project=project,
            agent_id=agent_id,
            task_id=task_id,
        )
        if category is not None:
            categories.parse_path(category)
            flt = replace(flt, category=category.strip(), category_version=self.store.category_version())
        if iterative or progressive or context is not None or self.config.search_mode == "fused":
            engine = self._engine()
            return engine.search(text, flt, limit, iterative=iterative, progressive=progressive, context=context)
        return self._single_pass(text, flt, limit)

    def _single_pass(self, text: str, flt: SearchFilter, limit: int) -> list[Hit]:
        """The foundation's hybrid search (``search_mode="hybrid"``): one lexical and one vector ranking."""
        candidates = max(limit * self.config.candidate_factor, self.config.min_candidates)
        settings = HybridSettings(
            weights={
                "lexical": self.config.weight_lexical,
                "semantic": self.config.weight_semantic,
                "keyword": self.config.weight_semantic,
                "recency": self.config.weight_recency,
            },
            rrf_k=self.config.rrf_k,
            candidates=candidates,
            fusion=self.config.fusion,
        )
        if self.embedder is None:
            return hybrid_search(self.store, text, None, None, flt, limit, settings)
        # Passed as a callable: a PostgreSQL store ranks the full-text half on the server while the
        # query is embedded. SQLite embeds first on purpose: its full-text query in a thread beside
        # the embedding measured slower on 2 cores (BLAS, SQLite and the GIL contend), see benchmarks/speed.py.
        embedder, threads = self.embedder, query_blas_threads(self.store, self.config.blas_threads)
        return hybrid_search(
            self.store, text, lambda: embed_query(embedder, text, threads), self._vectors.search, flt, limit, settings
        )

    def context_pack(
        self, query: str, max_tokens: int = 1000, *, group_by_category: bool = False, **filters: Any
    ) -> ContextPack:
        """The memories for a prompt, rendered within ``max_tokens``, with what was used.

        ``filters`` are search's: kind, scope fields, since, until, category.
        ``group_by_category`` puts the bullets under one heading per category.
        """
        unknown = set(filters) - CONTEXT_FILTERS
        if unknown:
            raise InputError(f"unknown filter(s) for context: {', '.join(sorted(unknown))}")
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise InputError(f"max_tokens must be a positive integer, got {max_tokens!r}")
        limit = min(1000, max(20, max_tokens // 25))
        draw = render_grouped if group_by_category else render
        return draw(self.search(query, limit=limit, **filters), max_tokens)

    def context(self, query: str, max_tokens: int = 1000, **filters: Any) -> str:
        return self.context_pack(query, max_tokens, **filters).text

    def get(self, id: str, **scope: str | None) -> Item | None:  # noqa: A002
        return self.store.get(id, self._scope(scope))

    def recent(self, limit: int = 20, **filters: Any) -> list[Item]:
        """The newest memories in scope (by when they happened, else when they were stored)."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InputError(f"limit must be an integer from 1 to 1000, got {limit!r}")
        return self.store.newest(self._filter(filters.pop("kind", None), None, None, **filters), limit)

    def export(self, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every item in scope as a JSON-ready record that ``add_many``/``import`` read back."""
        for item in self.store.iter_items(self._filter(filters.pop("kind", None), None, None, **filters)):
            yield item_to_record(item)

    def stats(self, **scope: str | None) -> dict[str, Any]:
        flt = SearchFilter(scope=self._scope(scope))
        numbers: dict[str, Any] = {
            "db": self.config.db_target,
            "items": self.store.count(flt),
            "by_kind": self.store.grouped_counts("kind", flt),
            "sessions": len(self.store.grouped_counts("session_id", flt)),
            "embedder": self.embedder.name if self.embedder else None,
        }
        if flt.scope == Scope():  # the index spans every scope: only an unscoped view shows it
            numbers.update(vectors_indexed=len(self._vectors), vector_index=self._vectors.kind)
        return numbers

    def doctor(self, repair: bool = False, *, quick: bool = False) -> DoctorReport:
        """Check that the full-text index, vectors, saved index, subcategories and facts agree with the items;
        ``repair`` rebuilds or drops whatever does not (never an item). See mnemo.doctor."""
        self.wait_for_background()  # an evolve mid-way is not damage
        target = Target(self.store, self.embedder, self._index_path(), self.config.turn_context)
        report = run_doctor(target, repair=repair, quick=quick)
        if report.repaired:  # the in-process vector index may hold what the repair dropped
            self._vectors = self._new_vectors()
        return report

    def close(self) -> None:
        self.wait_for_background()  # a background evolve uses the store until it is done
        try:
            self.flush_turn_metrics()  # per-turn timings outlive the process (`mnemo stats --turns`)
        finally:
            try:
                self._vectors.save()
            finally:
                self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing --------------------------------------------------------------------------

    def _new_vectors(self) -> SyncedVectorIndex | StoreVectorIndex:
        if hasattr(self.store, "nearest"):  # the store searches its own index (pgvector)
            return StoreVectorIndex(self.store)  # type: ignore[arg-type]
        return SyncedVectorIndex(self.store, self._open_index, self._save_index)

    def _index_path(self) -> str | None:
        """Beside the store file, named by the store's id so a recreated store never reuses it."""
        if self.store.path == ":memory:" or self.embedder is None or hasattr(self.store, "nearest"):
            return None  # in memory, no vectors, or the index lives in the database (pgvector)
        return f"{self.store.path}.{self.store.store_id[:12]}.{self.embedder.dim}.hnsw"

    def _open_index(self) -> AdaptiveIndex:
        dim = self.embedder.dim if self.embedder else 0
        return open_index(dim, self._index_path(), threshold=self.config.hnsw_threshold)

    def _save_index(self, index: AdaptiveIndex) -> None:
        path = self._index_path()
        if path is not None:
            index.save(path)

    def _scope(self, given: Mapping[str, str | None]) -> Scope:
        unknown = set(given) - set(SCOPE_FIELDS)
        if unknown:
            raise InputError(f"unknown scope field(s): {', '.join(sorted(unknown))}")
        for name, value in given.items():
            # an empty id is refused rather than read as "any": a caller that meant a user but
            # passed "" must not search or delete across every user
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise InputError(f"{name} must be a non-empty string or None, got {value!r}")
        requested = Scope(**given)
        self._check_pin(requested)
        return requested.merged(self.pinned)

    def _check_pin(self, scope: Scope) -> None:
        """Refuse an owner field set to anything but the pinned value (unset fields take the pin)."""
        for name in OWNER_FIELDS:
            pin, asked = getattr(self.pinned, name), getattr(scope, name)
            if pin is not None and asked is not None and asked != pin:
                raise InputError(f"this Memory is pinned to {name}={pin!r}; {asked!r} is out of scope")

    def _filter(self, kind: str | Sequence[str] | None, since: Any, until: Any, **scope: str | None) -> SearchFilter:
        if kind is not None and not isinstance(kind, (str, list, tuple)):
            raise InputError(f"kind must be a kind name or a list of them, got {kind!r}")
        kinds = (kind,) if isinstance(kind, str) else tuple(kind or ())
        bad = [k for k in kinds if k not in KINDS]
        if bad:
            raise InputError(f"unknown kind {bad[0]!r}; use one of: {', '.join(sorted(KINDS))}")
        start, end = to_utc(since, field="since"), to_utc(until, field="until")
        if start and end and start >= end:
            raise InputError("since must be earlier than until")
        return SearchFilter(scope=self._scope(scope), kinds=kinds, since=start, until=end)

    def _validate(self, record: Mapping[str, Any]) -> Item:
        if not isinstance(record, Mapping):
            raise InputError(f"a record must be an object, got {type(record).__name__}")
        if self.config.redact:  # before make_item: the content hash and every copy see only placeholders
            record = redact_record(record)
        item = make_item(record, self.pinned)
        self._check_pin(item.scope)  # on the normalised values: 0 and "0" are the same owner
        return item

    def _write(self, items: Sequence[Item]) -> list[str]:
        return self._store_items(*self._prepare(items))

    def _write_one(self, item: Item) -> Item:
        items, vectors = self._prepare([item])
        self._store_items(items, vectors)
        self._auto_evolve()
        return items[0]

    def _prepare(self, items: Sequence[Item]) -> tuple[Sequence[Item], Sequence[Embedding | None]]:
        """Embed, then classify with those same vectors (nothing is embedded twice)."""
        vectors = self._embed(items)
        if self._categorizer is not None:
            items = self._categorizer.label(items, vectors)
        return items, vectors

    def _store_items(self, items: Sequence[Item], vectors: Sequence[Embedding | None]) -> list[str]:
        model = self.embedder.name if self.embedder else None
        if model is not None and not self._inputs_recorded:  # before the write: were there turns?
            self._inputs_recorded = note_write(self.store, items, inputs_of(self.config.turn_context))
        return [o.status for o in self.store.write(items, vectors, model=model)]

    def _embed(self, items: Sequence[Item]) -> Sequence[Embedding | None]:
        if self.embedder is None:
            return [None] * len(items)
        return embed_items(self.embedder, items, self.store.cached_vectors, self._previous_turns(items))

    def _previous_turns(self, items: Sequence[Item]) -> list[Item | None] | None:
        """Each new turn's previous turn, the context it is embedded with (None: the setting is off)."""
        if not self.config.turn_context:
            return None
        return previous_turns(items, store_lookup(self.store.newest))


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
