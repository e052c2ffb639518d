"""One Config dataclass. Precedence: keyword arguments > MNEMO_* environment > config file > defaults.

Reading the environment or the config file happens only in ``load_config``, never at import time.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from mnemo.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Config:
    #: Where the default store and the config file live (MNEMO_HOME).
    home: str = ""
    #: Store location: a file path, ":memory:" or (later) a database URL. Empty = <home>/mnemo.db.
    db: str = ""
    #: "auto" (the bundled MiniLM when installed, else hashing), "minilm", "hashing" or "none".
    embedder: str = "auto"
    #: "rrf" (reciprocal rank fusion) or "score" (weighted sum of min-max normalised scores).
    fusion: str = "rrf"
    #: RRF constant: larger flattens the difference between rank 1 and rank 10. The literature's 60
    #: suits many long rankings; with two strategies the top few ranks of each carry the signal,
    #: and 10 measured better on LoCoMo dev (recall@10 0.66 vs 0.60; benchmarks/locomo.py).
    rrf_k: float = 10.0
    weight_lexical: float = 1.0
    weight_semantic: float = 1.0
    weight_recency: float = 0.1
    #: Candidates each strategy contributes before fusion, as a multiple of the requested limit.
    candidate_factor: int = 5
    min_candidates: int = 50
    #: Above this many vectors the exact numpy search hands over to an HNSW index.
    hnsw_threshold: int = 50_000
    busy_timeout_ms: int = 10_000
    #: Most connections one process keeps to a PostgreSQL store (MNEMO_PG_POOL_SIZE; docs/postgres.md).
    pg_pool_size: int = 8
    #: Language a new PostgreSQL store stems its full text in: a Snowball language PostgreSQL ships
    #: (english, french, german, spanish, ...) or simple (no stemming). Fixed at creation; opening a
    #: store with another one is an error (MNEMO_PG_TEXT_LANGUAGE; docs/postgres.md).
    pg_text_language: str = "english"
    #: Token budget of the memory block the Claude Code hook injects per prompt (`mnemo hook claude-code`).
    hook_max_tokens: int = 600
    #: Items embedded and written per transaction during add_many/import. Large enough that the
    #: embedder can sort texts by length and pad little (256 cost ~10% more embedding time).
    batch_size: int = 1024
    #: Classify every memory into facts/preferences/skills/rules/context at ingestion.
    categorize: bool = True
    #: Evolve subcategories automatically once this many memories arrived since the last evolve
    #: (0 = only on request, `mnemo categories evolve`).
    category_evolve_after: int = 1000
    #: Run that automatic evolve in a background thread, so the write that crosses the threshold
    #: returns at once (an evolve of a large store takes tens of seconds); close() waits for it.
    category_evolve_in_background: bool = True
    #: Cosine to a subcategory centroid needed to join it; near-duplicate centroids above the
    #: merge threshold merge; a subcategory whose mean member cosine falls below the split
    #: coherence is split (all measured with MiniLM on benchmarks/data/categories_dev.jsonl).
    category_assign_threshold: float = 0.4
    category_merge_threshold: float = 0.9
    category_split_coherence: float = 0.45
    category_min_cluster_size: int = 3
    category_max_subcategories: int = 10
    #: Ask the configured LLM (llm_base_url) about memories the local classifier is unsure of.
    category_llm: bool = False
    #: Session search synonyms file (format in mnemo/data/synonyms.txt). Empty = <home>/synonyms.txt.
    synonyms_file: str = ""
    #: Optional LLM (OpenAI-compatible chat completions: Ollama, llama.cpp, vLLM, hosted APIs).
    #: Empty base URL = no LLM: nothing is ever sent anywhere unless this is set.
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: str = ""
    llm_timeout: float = 5.0
    #: Query rewriting: seconds a rewrite stays cached, and the least confidence an LLM rewrite needs.
    rewrite_cache_ttl: float = 300.0
    rewrite_min_confidence: float = 0.7
    #: Build the extractive summary of every session an add_many/import touched (progressive search's
    #: first tier) as it is ingested. Off by default: the summaries are items, counted and searched.
    summaries_on_ingest: bool = False
    #: Have the configured LLM (llm_base_url) write session summaries; without an LLM, or with this
    #: off, they are extractive. An answer the session does not support falls back (docs/summaries.md).
    summaries_llm: bool = True
    #: Most sessions one ingestion asks the LLM to summarise; the rest stay extractive, marked
    #: llm_pending, until a later `mnemo summarise`.
    summaries_llm_max: int = 20
    #: Iterative search (seed 003): rounds, strategies and expansions used when iterative=True.
    iterate_max_iter: int = 2
    iterate_strategies: str = "exact,semantic,concept,temporal,neighbours,speaker"
    iterate_expansions: str = "synonyms,hierarchical,context,feedback"
    iterate_stop_confidence: float = 0.9
    #: "weighted" (min-max normalised scores) or "rrf"; weighted measured better on LoCoMo dev.
    iterate_fusion: str = "weighted"
    iterate_candidates: int = 100
    #: Default path of Memory.search: "fused" (one iterative round: every strategy fused, no
    #: feedback rounds; LoCoMo dev recall@10 0.734 vs 0.658) or "hybrid" (the single pass; see
    #: benchmarks/query.py for both).
    search_mode: str = "fused"
    #: Embed each conversation turn under 300 characters after the start of the turn before it
    #: (mnemo/embed/context.py): LoCoMo dev default search R@5 0.613 -> 0.651, R@10 0.728 -> 0.751,
    #: for about 1.7x the embedding time of short turns. MNEMO_TURN_CONTEXT=0 turns it off; the
    #: setting applies to what is embedded from then on (`mnemo reindex` re-embeds the rest).
    turn_context: bool = True
    #: Extract facts from user-role messages added one by one (MNEMO_EXTRACT_FACTS=0 turns it off),
    #: and from those of bulk imports (add_many, `mnemo import`) only when this second switch is on
    #: or the caller asks: imports stay fast and their counts unchanged by default.
    extract_facts: bool = True
    extract_facts_on_import: bool = False
    #: EWMA step of a fact's weight per repetition (weight += alpha × (1 − weight)).
    fact_alpha: float = 0.3
    #: Optional passive decay of fact weights per day (e.g. 0.99); 0 = off. Facts whose decayed
    #: weight falls below fact_stale_below turn "stale" when facts are listed.
    fact_decay: float = 0.0
    fact_stale_below: float = 0.1
    #: Per-turn memory (Memory.turn, seed 004): injection kill switch, the rotating message's role
    #: and header, how many turns it covers, the bullet cap, the novelty window (turns), the score
    #: weights "priority,recency,lexical,weight", the recency half-scale in days and the boost of
    #: facts from the same session.
    inject: bool = True
    inject_role: str = "system"
    inject_header: str = "Use the following factual context if helpful:"
    hint_window: int = 10
    bullets_max: int = 5
    novelty_turns: int = 3
    score_weights: str = "0.4,0.2,0.3,0.1"
    recency_days: float = 3.0
    session_boost: float = 1.2
    #: Replace e-mail addresses, phone numbers, API keys and tokens by typed placeholders before
    #: anything is stored, and in mnemo's log output (mnemo.redact; MNEMO_REDACT=1). Off by default.
    redact: bool = False
    #: BLAS threads while the per-turn path (turn, the hook's server endpoint) runs the embedding
    #: model, and while a search embeds its query for a PostgreSQL server on this machine; 0 leaves
    #: the BLAS library's own count. One is fastest there: idle spinning BLAS threads of spaCy's
    #: parse otherwise starve the model's small matrix products (see docs/hook.md), and after a
    #: query's they take the core the server needs (docs/postgres.md).
    blas_threads: int = 1

    def __post_init__(self) -> None:
        if self.search_mode not in ("hybrid", "fused") or self.iterate_fusion not in ("weighted", "rrf"):
            raise ConfigError("search_mode must be 'hybrid' or 'fused'; iterate_fusion 'weighted' or 'rrf'")
        if self.fusion not in ("rrf", "score"):
            raise ConfigError(f"fusion must be 'rrf' or 'score', got {self.fusion!r}")
        if self.summaries_llm_max < 0:
            raise ConfigError(f"summaries_llm_max must be 0 or more, got {self.summaries_llm_max!r}")
        if self.rrf_k <= 0 or self.candidate_factor < 1 or self.batch_size < 1 or self.hnsw_threshold < 1:
            raise ConfigError("rrf_k, candidate_factor, batch_size and hnsw_threshold must be positive")
        numbers = (self.rrf_k, self.weight_lexical, self.weight_semantic, self.weight_recency)
        if not all(math.isfinite(n) for n in numbers):
            raise ConfigError("rrf_k and the fusion weights must be finite numbers")
        if min(self.weight_lexical, self.weight_semantic, self.weight_recency) < 0:
            raise ConfigError("fusion weights cannot be negative")

    @property
    def db_target(self) -> str:
        return self.db or str(Path(self.home or default_home()) / "mnemo.db")


def default_home() -> str:
    """MNEMO_HOME, else the XDG data directory; nothing is created until a store is opened."""
    explicit = os.environ.get("MNEMO_HOME")
    if explicit:
        return explicit
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "mnemo")


def load_config(overrides: dict[str, Any] | None = None, env: dict[str, str] | None = None) -> Config:
    env = dict(os.environ) if env is None else env
    home = (overrides or {}).get("home") or env.get("MNEMO_HOME") or default_home()
    values: dict[str, Any] = {"home": home}
    values.update(_read_file(Path(home) / "config.toml"))
    values.update(_from_env(env))
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    return _coerce(values)


def _read_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    return dict(data.get("mnemo", data))


def _from_env(env: dict[str, str]) -> dict[str, Any]:
    names = {f.name for f in fields(Config)}
    return {
        key[len("MNEMO_") :].lower(): value
        for key, value in env.items()
        if key.startswith("MNEMO_") and key[len("MNEMO_") :].lower() in names
    }


def _coerce(values: dict[str, Any]) -> Config:
    known = {f.name: f for f in fields(Config)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ConfigError(f"unknown setting(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    typed: dict[str, Any] = {}
    for name, value in values.items():
        kind = type(getattr(Config(), name))
        if kind is int and isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"setting {name}={value!r} must be a whole number")
        if kind is bool and isinstance(value, str):  # from the environment: bool("false") would be True
            value = value.strip().lower() not in ("0", "false", "no", "off", "")
        try:
            typed[name] = kind(value)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"setting {name}={value!r} is not a valid {kind.__name__}") from exc
    return replace(Config(), **typed)
