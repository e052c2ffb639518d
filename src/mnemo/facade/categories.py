"""Memory's category methods: classify, the tree, evolve, rename, merge (logic in mnemo.categories)."""

from __future__ import annotations

import logging
import threading
from typing import Any

from mnemo.categories import service as categories
from mnemo.errors import MnemoError
from mnemo.facade.common import Progress, check_query
from mnemo.records import SearchFilter

log = logging.getLogger(__name__)


class CategoriesMixin:
    """Mixed into Memory: uses its store, config, embedder and _scope."""

    def categorize(self, text: str) -> dict[str, Any]:
        """The category this text would get, with the evidence, without storing anything."""
        text = check_query(text)
        vector = self.embedder.embed_one(text) if self.embedder else None
        return self._classifier().classify(text, vector).as_dict()

    def categories(self, **scope: str | None) -> dict[str, Any]:
        """The category tree with live counts in scope: category -> subcategories -> count, keywords."""
        flt = SearchFilter(scope=self._scope(scope))
        users = None if flt.scope.user_id is None else [flt.scope.user_id]
        return categories.category_tree(self.store, flt, users)

    def evolve_categories(
        self, *, full: bool = False, user_id: str | None = None, progress: Progress | None = None
    ) -> categories.EvolveReport:
        """Re-grow subcategories now (all users unless one is given or pinned); ``full`` reclusters."""
        user = self._scope({"user_id": user_id}).user_id
        categorizer = self._categorizer or categories.Categorizer(self.store, self.embedder, self._category_settings())
        return categorizer.evolve(None if user is None else [user], full=full, progress=progress)

    def rename_category(self, old: str, new: str, *, user_id: str | None = None) -> dict[str, Any]:
        """Rename a subcategory ("skills/pytest" -> "python_testing"); its items move with it."""
        return categories.rename(self.store, self._scope({"user_id": user_id}).user_id, old, new)

    def merge_categories(self, source: str, target: str, *, user_id: str | None = None) -> dict[str, Any]:
        """Fold subcategory ``source`` into ``target`` (same category); history keeps the merge."""
        return categories.merge(self.store, self._scope({"user_id": user_id}).user_id, source, target)

    def category_history(self, limit: int = 100, *, user_id: str | None = None) -> list[dict[str, Any]]:
        return self.store.category_history(self._scope({"user_id": user_id}).user_id, limit)

    def _category_settings(self) -> categories.EvolveSettings:
        return categories.settings_from(self.config)

    def _new_categorizer(self) -> categories.Categorizer | None:
        if not self.config.categorize:
            return None
        return categories.Categorizer(
            self.store, self.embedder, self._category_settings(), categories.llm_from(self.config)
        )

    def _classifier(self) -> categories.Classifier:
        return self._categorizer.classifier if self._categorizer else categories.Classifier(self.embedder)

    def wait_for_background(self, timeout: float | None = None) -> bool:
        """Wait for an automatic category evolve running in the background; True once none runs."""
        running: threading.Thread | None = getattr(self, "_evolving", None)
        if running is not None:
            running.join(timeout)
            return not running.is_alive()
        return True

    def _auto_evolve(self) -> None:
        categorizer = self._categorizer
        if categorizer is None or not categorizer.due(self.config.category_evolve_after):
            return
        if not self.config.category_evolve_in_background:
            categorizer.evolve()
            return
        running: threading.Thread | None = getattr(self, "_evolving", None)
        if running is not None and running.is_alive():
            return  # one evolve at a time; the next write past the threshold starts another
        self._evolving = threading.Thread(
            target=_evolve_quietly, args=(categorizer,), name="mnemo-category-evolve", daemon=True
        )
        self._evolving.start()


def _evolve_quietly(categorizer: categories.Categorizer) -> None:
    """A background evolve that fails (a locked store, say) is logged and retried by a later write:
    the memories themselves were already committed, only their subcategories wait."""
    try:
        categorizer.evolve()
    except MnemoError as exc:
        log.warning("automatic category evolve failed, will retry after later writes: %s", exc)
