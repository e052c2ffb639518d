"""Configuration precedence: keyword arguments > MNEMO_* environment > config file > defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemo import ConfigError, Memory
from mnemo.config import Config, load_config

pytestmark = pytest.mark.core


def test_precedence(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("[mnemo]\nrrf_k = 30\nweight_recency = 0.5\nbatch_size = 64\n")
    env = {"MNEMO_HOME": str(home), "MNEMO_RRF_K": "20", "MNEMO_WEIGHT_RECENCY": "0.3"}
    config = load_config({"rrf_k": 5.0}, env=env)
    assert config.rrf_k == 5.0  # keyword beats environment and file
    assert config.weight_recency == 0.3  # environment beats file
    assert config.batch_size == 64  # file beats default
    assert config.weight_lexical == Config().weight_lexical  # default


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"fusion": "magic"}, "fusion"),
        ({"rrf_k": "fast"}, "rrf_k"),
        ({"weight_lexical": -1.0}, "negative"),
        ({"colour": "blue"}, "unknown setting"),
    ],
)
def test_bad_settings_are_config_errors(overrides: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(overrides, env={})


def test_broken_config_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("this is = = not toml")
    with pytest.raises(ConfigError, match=r"config\.toml"):
        load_config(env={"MNEMO_HOME": str(tmp_path)})


def test_memory_takes_settings_as_keywords(tmp_path: Path) -> None:
    with Memory(str(tmp_path / "m.db"), embedder="hashing", rrf_k=42.0, weight_recency=0.0) as memory:
        assert memory.config.rrf_k == 42.0 and memory.config.weight_recency == 0.0


def test_unknown_backend_url_is_explained(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no store backend"):
        Memory("mongodb://localhost/x")
