"""Memory's fact methods: extraction at ingestion, listing, hard forget (logic in mnemo.extract)."""

from __future__ import annotations

from collections.abc import Sequence

from mnemo.errors import InputError
from mnemo.facade.erase import erase_traces
from mnemo.records import Fact, Item
from mnemo.timeutil import now_utc, to_epoch


class FactsMixin:
    """Mixed into Memory: uses its store, config, embedder, _embed and _scope."""

    def facts(
        self,
        subject: str | None = None,
        relation: str | None = None,
        status: str | None = "active",
        limit: int = 100,
        **scope: str | None,
    ) -> list[Fact]:
        """Stored facts, strongest first; ``status=None`` lists every status (history included)."""
        if status not in (None, "active", "superseded", "stale"):
            raise InputError(f"status must be active, superseded, stale or None (all), got {status!r}")
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 10_000:
            raise InputError(f"limit must be an integer from 1 to 10000, got {limit!r}")
        if self.config.fact_decay > 0:
            self.store.decay_facts(to_epoch(now_utc()) or 0.0, self.config.fact_decay, self.config.fact_stale_below)
        return self.store.list_facts(self._scope(scope), subject, relation, status, limit)

    def forget(
        self, subject: str | None = None, relation: str | None = None, fact_id: str | None = None, **scope: str | None
    ) -> int:
        """Hard-forget the facts of a subject (and relation), or one fact: gone from every index."""
        if subject is None and fact_id is None:
            raise InputError("forget needs a subject or a fact id")
        removed = self.store.forget_facts(self._scope(scope), subject, relation, fact_id)
        if removed:
            erase_traces(self)
        return removed

    def _learn(self, items: Sequence[Item], enabled: bool | None) -> None:
        if not (self.config.extract_facts if enabled is None else enabled):
            return
        if not any(item.role == "user" and item.kind == "message" for item in items):
            return
        if self._learner is None:
            from mnemo.extract.learn import FactLearner

            self._learner = FactLearner()
        model = self.embedder.name if self.embedder else None
        self._learner.learn(self.store, self._embed, items, alpha=self.config.fact_alpha, model=model)
