"""Memory's per-turn method: learn from a turn and return the context to inject (logic in mnemo.hot)."""

from __future__ import annotations

import math
import threading
from typing import Any

from mnemo.errors import ConfigError, InputError
from mnemo.hot.engine import HotPath, HotSettings
from mnemo.hot.records import TurnResult
from mnemo.hot.score import Weights

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
        return self._hot_path().turn(text.strip(), scope, session_id, role)

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
    weights = Weights(*parts, recency_days=config.recency_days, session_boost=config.session_boost)
    return HotSettings(
        weights=weights, inject=config.inject, extract=config.extract_facts, role=config.inject_role,
        header=config.inject_header, window=config.hint_window, cap=config.bullets_max,
        novelty=config.novelty_turns, alpha=config.fact_alpha,
    )  # fmt: skip
