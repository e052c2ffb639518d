"""Memory's per-turn method: learn from a turn and return the context to inject (logic in mnemo.hot)."""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from mnemo.context.render import ContextPack, render
from mnemo.embed.threads import blas_threads
from mnemo.errors import ConfigError, InputError, MissingExtra
from mnemo.hot.engine import HotPath, HotSettings
from mnemo.hot.records import TurnResult
from mnemo.hot.score import Weights
from mnemo.records import KINDS, Kind
from mnemo.redact import redact_text

#: Longest turn accepted; a longer text is refused rather than silently cut.
MAX_TURN_CHARS = 100_000
#: Guards the lazy creation of a Memory's hot path (two threads' first turns must share one).
_CREATE = threading.Lock()


class TurnsMixin:
    """Mixed into Memory: uses its store, config, embedder, _embed and _scope."""

    _hot: Any = None

    def turn(
        self, text: str, *, session_id: str | None = None, user_id: str | None = None, role: str = "user"
    ) -> TurnResult:
        """Classify the turn, store its facts, rank the known ones and return the memory message."""
        if not isinstance(text, str) or not text.strip():
            raise InputError("turn text must be a non-empty string")
        if len(text) > MAX_TURN_CHARS:
            raise InputError(f"turn text is {len(text)} characters; at most {MAX_TURN_CHARS} are accepted")
        if role not in ("user", "assistant"):
            raise InputError(f"role must be 'user' or 'assistant', got {role!r}")
        if session_id is not None and (not isinstance(session_id, str) or not session_id.strip()):
            raise InputError(f"session_id must be a non-empty string or None, got {session_id!r}")
        scope = self._scope({"user_id": user_id})  # type: ignore[attr-defined]
        if self.config.redact:  # type: ignore[attr-defined]  # facts extracted here are stored
            text = redact_text(text)
        return self._hot_path().turn(text.strip(), scope, session_id, role)

    def prompt_context(
        self,
        query: str,
        *,
        exclude_session: str | None = None,
        max_tokens: int = 600,
        conversation: Sequence[Mapping[str, str]] | None = None,
        **filters: Any,
    ) -> ContextPack:
        """context_pack for an assistant's prompt, leaving out one session: the conversation the prompt
        belongs to is already in the model's context window, so its memories would only repeat it.
        ``conversation``, that session's last messages, resolves the prompt's references first."""
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise InputError(f"max_tokens must be a positive integer, got {max_tokens!r}")
        # twice what context_pack reads, so the left-out session's hits do not leave the block short
        limit = 2 * min(1000, max(20, max_tokens // 25))
        context = list(conversation) if conversation else None
        hits = self.search(query, limit=limit, context=context, **filters)  # type: ignore[attr-defined]
        return render([h for h in hits if exclude_session is None or h.session_id != exclude_session], max_tokens)

    def prompt_turn(
        self,
        text: str,
        *,
        session_id: str | None = None,
        user_id: str | None = None,
        project: str | None = None,
        context_tokens: int = 0,
        record: Mapping[str, Any] | None = None,
        conversation: Sequence[Mapping[str, str]] | None = None,
    ) -> dict[str, Any]:
        """One assistant prompt end to end (what the Claude Code hook asks a server for): the memories
        of other sessions (``context_tokens`` > 0), the per-turn facts and rotating message, and the
        prompt stored as ``record`` (without a second fact extraction: the turn did that). The recent
        ``conversation`` of the prompt's session resolves its references before the search.

        Returns the turn's fields plus ``context`` (with ``searched_for``, the rewritten query if
        the conversation changed it) and ``text``, the block to show the model.
        """
        with blas_threads(self.config.blas_threads):  # type: ignore[attr-defined]
            pack = None
            if context_tokens:
                # every kind but facts: the turn's bullets are the facts, ranked per turn
                kinds = sorted(KINDS - {Kind.FACT.value})
                pack = self.prompt_context(
                    text,
                    exclude_session=session_id,
                    max_tokens=context_tokens,
                    conversation=conversation,
                    project=project,
                    kind=kinds,
                )
            try:
                result: TurnResult | None = self.turn(text, session_id=session_id, user_id=user_id)
            except MissingExtra:  # a server without the nlp extra still answers with the context block
                result = None
        stored = None
        if record is not None:
            report = self.add_many([record], extract_facts=False)  # type: ignore[attr-defined]
            stored = record.get("id") if report.added + report.updated + report.unchanged else None
        message = result.system_message if result else None
        blocks = [message["content"] if message else "", pack.text if pack else ""]
        context = {"tokens": 0, "used": [], "searched_for": None}
        if pack:
            context = {"tokens": pack.tokens, "used": [h.id for h in pack.used], "searched_for": pack.searched_for}
        fields = result.as_dict() if result else {"system_message": None, "bullets": [], "facts_added": []}
        return {**fields, "context": context, "stored": stored, "text": "\n\n".join(b for b in blocks if b)}

    def warm_turns(self) -> None:
        """Load what a first turn would (spaCy's English pipeline, the hot path) without learning
        anything, so a server's first hook call is not the one that waits seconds for it."""
        self._hot_path()
        if self.config.extract_facts:  # type: ignore[attr-defined]
            from mnemo.extract.pipeline import Extractor

            Extractor().analyse("My friend Anna lives in Paris and works at a bakery.")

    def turn_metrics(self) -> dict[str, Any]:
        """Per-stage p50/p95 and injection counts of this process's turns (saved ones included)."""
        return self._hot_path().metrics.summary()

    def flush_turn_metrics(self) -> None:
        if self._hot is not None:
            self._hot.flush()

    def _hot_path(self) -> HotPath:
        if self._hot is not None:
            return self._hot
        with _CREATE:
            if self._hot is not None:
                return self._hot
            config: Any = self.config  # type: ignore[attr-defined]
            model = self.embedder.name if self.embedder else None  # type: ignore[attr-defined]
            self._hot = HotPath(self.store, self._embed, model, hot_settings(config))  # type: ignore[attr-defined]
        return self._hot


def hot_settings(config: Any) -> HotSettings:
    try:
        parts = [float(p) for p in config.score_weights.split(",")]
    except ValueError:
        parts = []
    if len(parts) != 4 or not all(math.isfinite(p) and p >= 0 for p in parts):
        raise ConfigError(
            f"score_weights must be four non-negative numbers like 0.4,0.2,0.3,0.1: {config.score_weights!r}"
        )
    if config.bullets_max < 1 or config.hint_window < 1 or config.novelty_turns < 0 or config.recency_days <= 0:
        raise ConfigError("bullets_max and hint_window must be ≥ 1, novelty_turns ≥ 0 and recency_days > 0")
    weights = Weights(
        *parts, recency_days=config.recency_days, session_boost=config.session_boost,
        decay=config.fact_decay, stale_below=config.fact_stale_below,
    )  # fmt: skip
    return HotSettings(
        weights=weights, inject=config.inject, extract=config.extract_facts, role=config.inject_role,
        header=config.inject_header, window=config.hint_window, cap=config.bullets_max,
        novelty=config.novelty_turns, alpha=config.fact_alpha, blas_threads=config.blas_threads,
    )  # fmt: skip
