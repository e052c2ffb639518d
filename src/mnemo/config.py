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
    #: Items embedded and written per transaction during add_many/import. Large enough that the
    #: embedder can sort texts by length and pad little (256 cost ~10% more embedding time).
    batch_size: int = 1024

    def __post_init__(self) -> None:
        if self.fusion not in ("rrf", "score"):
            raise ConfigError(f"fusion must be 'rrf' or 'score', got {self.fusion!r}")
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
        try:
            typed[name] = kind(value)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"setting {name}={value!r} is not a valid {kind.__name__}") from exc
    return replace(Config(), **typed)
