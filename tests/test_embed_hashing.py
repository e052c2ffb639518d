"""The hashing fallback embedder and the registry's choice between embedders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mnemo.embed import registry
from mnemo.embed.hashing import HashingEmbedder, features, normalise_text
from mnemo.errors import ConfigError

SRC = Path(__file__).resolve().parents[1] / "src"
TEXTS = ["The cat sat on the mat.", "Quarterly revenue grew 12%", "", "日本語 テキスト", "a"]


def test_shape_dtype_and_unit_norm() -> None:
    vectors = HashingEmbedder().embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384) and vectors.dtype == np.float32
    assert np.all(np.isfinite(vectors))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)


def test_empty_and_blank_strings_give_finite_unit_vectors() -> None:
    empty, blank = HashingEmbedder().embed(["", " \t\n "])
    assert np.all(np.isfinite(empty))
    assert np.linalg.norm(empty) == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_array_equal(empty, blank)


def test_deterministic_within_process() -> None:
    np.testing.assert_array_equal(HashingEmbedder().embed(TEXTS), HashingEmbedder().embed(TEXTS))


def test_deterministic_across_processes() -> None:
    code = (
        "import json, sys\n"
        "from mnemo.embed.hashing import HashingEmbedder\n"
        "print(json.dumps(HashingEmbedder().embed(json.loads(sys.argv[1])).tolist()))\n"
    )
    # A different PYTHONHASHSEED proves the vectors do not depend on hash().
    env = {
        **os.environ,
        "PYTHONHASHSEED": "12345",
        "PYTHONPATH": os.pathsep.join([*filter(None, sys.path), str(SRC)]),
    }
    result = subprocess.run(
        [sys.executable, "-c", code, json.dumps(TEXTS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    other = np.array(json.loads(result.stdout), dtype=np.float32)
    np.testing.assert_array_equal(other, HashingEmbedder().embed(TEXTS))


def test_similar_strings_are_closer_than_dissimilar() -> None:
    anchor, near, typo, far = HashingEmbedder().embed(
        [
            "Melanie painted a sunrise over the lake",
            "melanie painted the sunrise over a lake",
            "Melany paintd a sunrise ovr the lake",
            "Quarterly revenue grew by twelve percent",
        ]
    )
    assert anchor @ near > anchor @ far + 0.3
    assert anchor @ typo > anchor @ far + 0.2


def test_case_and_whitespace_are_normalised() -> None:
    a, b = HashingEmbedder().embed(["Hello   World", "hello world"])
    np.testing.assert_array_equal(a, b)
    assert normalise_text("  Ｈello\tWORLD ") == "hello world"


def test_features_include_words_and_marked_ngrams() -> None:
    counts = features("Cat cat")
    assert counts["w:cat"] == 2
    assert counts["<ca"] == 2 and counts["at>"] == 2 and counts["<cat>"] == 2


def test_dim_and_name() -> None:
    embedder = HashingEmbedder(dim=128)
    assert embedder.name == "hashing-ngram-128"
    assert embedder.embed(["x y z"]).shape == (1, 128)
    assert HashingEmbedder().name == "hashing-ngram-384"
    with pytest.raises(ConfigError):
        HashingEmbedder(dim=0)


def test_registry_hashing_names() -> None:
    assert isinstance(registry.make_embedder("hashing"), HashingEmbedder)
    assert registry.make_embedder("hashing-ngram-256").dim == 256
    assert "hashing" in registry.available_embedders()
    with pytest.raises(ConfigError):
        registry.make_embedder("no-such-model")


def test_auto_falls_back_to_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "minilm_available", lambda: False)
    assert isinstance(registry.make_embedder("auto"), HashingEmbedder)
    assert registry.available_embedders() == ["hashing"]
