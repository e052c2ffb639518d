"""A BERT encoder forward pass in numpy: safetensors reading, weights, layers, pooling.

Split from ``minilm.py`` (which finds the model, tokenises and batches) so each module keeps
one job; nothing here knows where the weights came from.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mnemo.errors import ConfigError

#: Rows of the FFN processed at once; keeps the (rows, 1536) GELU input in cache.
_FFN_ROW_CHUNK = 256
#: Additive attention bias for padding keys: exp() of it underflows to exactly 0.
_MASK_BIAS = np.float32(-1e9)


# ---------------------------------------------------------------------------
# safetensors reader
# ---------------------------------------------------------------------------

_SAFETENSORS_DTYPES: dict[str, str] = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "I64": "<i8",
    "I32": "<i4",
    "BF16": "<u2",
}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a .safetensors file, as read-only views of a memory map.

    Layout: u64 little-endian header size, a JSON header mapping names to
    dtype/shape/data_offsets (relative to the end of the header), raw bytes.
    Views cost nothing until read; callers copy what they keep so the map is
    released afterwards (and a later change to the file cannot crash them).
    """
    with open(path, "rb") as handle:
        (header_len,) = struct.unpack("<Q", handle.read(8))
        header: dict[str, Any] = json.loads(handle.read(header_len))
    raw = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + header_len)
    tensors: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        array = raw[start:end].view(_SAFETENSORS_DTYPES[info["dtype"]])
        if info["dtype"] == "BF16":  # bfloat16 is the top half of a float32
            array = (array.astype(np.uint32) << 16).view(np.float32)
        tensors[name] = array.reshape(info["shape"])
    return tensors


# ---------------------------------------------------------------------------
# Weights
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Layer:
    """One encoder layer, weights pre-transposed to (in, out) for ``x @ w``."""

    w_qkv: np.ndarray  # (H, 3H): query (pre-scaled by 1/sqrt(head_dim)), key, value fused
    b_qkv: np.ndarray
    w_attn_out: np.ndarray
    b_attn_out: np.ndarray
    ln_attn: tuple[np.ndarray, np.ndarray]
    w_ffn_in: np.ndarray
    b_ffn_in: np.ndarray
    w_ffn_out: np.ndarray
    b_ffn_out: np.ndarray
    ln_ffn: tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class _Weights:
    word: np.ndarray  # (vocab, H)
    position_plus_type: np.ndarray  # (max_pos, H): token type is always 0 for single texts
    ln_embed: tuple[np.ndarray, np.ndarray]
    layers: tuple[_Layer, ...]
    heads: int
    eps: float


def _f32(array: np.ndarray) -> np.ndarray:
    """An owned, C-contiguous float32 copy (never a view into the memory map)."""
    return np.array(array, dtype=np.float32, order="C", copy=True)


def _strip_prefix(tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Some exports name tensors ``bert.encoder...``; normalise to ``encoder...``."""
    return {name.removeprefix("bert."): value for name, value in tensors.items()}


def _build_layer(t: dict[str, np.ndarray], i: int, head_dim: int) -> _Layer:
    def get(name: str) -> np.ndarray:
        return _f32(t[f"encoder.layer.{i}.{name}"])

    def norm(prefix: str) -> tuple[np.ndarray, np.ndarray]:
        return get(prefix + ".LayerNorm.weight"), get(prefix + ".LayerNorm.bias")

    # Folding the 1/sqrt(d) score scale into the query projection saves a pass
    # over the (rows, heads, L, L) scores; fusing Q, K and V makes one matmul of three.
    scale = np.float32(1.0 / np.sqrt(head_dim))
    parts = ("attention.self.query", "attention.self.key", "attention.self.value")
    w_qkv = np.concatenate([get(f"{part}.weight") for part in parts])
    b_qkv = np.concatenate([get(f"{part}.bias") for part in parts])
    w_qkv[: len(w_qkv) // 3] *= scale
    b_qkv[: len(b_qkv) // 3] *= scale
    return _Layer(
        w_qkv=_f32(w_qkv.T),
        b_qkv=b_qkv,
        w_attn_out=_f32(get("attention.output.dense.weight").T),
        b_attn_out=get("attention.output.dense.bias"),
        ln_attn=norm("attention.output"),
        w_ffn_in=_f32(get("intermediate.dense.weight").T),
        b_ffn_in=get("intermediate.dense.bias"),
        w_ffn_out=_f32(get("output.dense.weight").T),
        b_ffn_out=get("output.dense.bias"),
        ln_ffn=norm("output"),
    )


def load_weights(model_dir: Path) -> _Weights:
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("hidden_act", "gelu") != "gelu":
        raise ConfigError(f"unsupported hidden_act {config['hidden_act']!r}; only exact 'gelu' is implemented")
    t = _strip_prefix(read_safetensors(model_dir / "model.safetensors"))
    heads = int(config["num_attention_heads"])
    head_dim = int(config["hidden_size"]) // heads
    return _Weights(
        word=_f32(t["embeddings.word_embeddings.weight"]),
        position_plus_type=_f32(t["embeddings.position_embeddings.weight"])
        + _f32(t["embeddings.token_type_embeddings.weight"][0]),
        ln_embed=(_f32(t["embeddings.LayerNorm.weight"]), _f32(t["embeddings.LayerNorm.bias"])),
        layers=tuple(_build_layer(t, i, head_dim) for i in range(int(config["num_hidden_layers"]))),
        heads=heads,
        eps=float(config.get("layer_norm_eps", 1e-12)),
    )


# ---------------------------------------------------------------------------
# Numerics
# ---------------------------------------------------------------------------


def _gelu_coefficients() -> tuple[list[np.float32], list[np.float32], np.float32]:
    """Coefficients of 0.5 * erf(x / sqrt(2)) as x * P(x^2) / Q(x^2).

    The base rational approximation of erf on [-4, 4] is Eigen's float32 erf
    (abs error 6e-8 in exact arithmetic, < 5e-7 evaluated in float32; erf is
    1.0f beyond |x| = 4). Substituting x / sqrt(2) and folding in the 1/2 of
    GELU turns 0.5 * (1 + erf(x / sqrt(2))) into 0.5 + x * P(x^2) / Q(x^2)
    with two fewer passes over the activations.
    """
    alpha = [
        -2.72614225801306e-10,
        2.77068142495902e-08,
        -2.10102402082508e-06,
        -5.69250639462346e-05,
        -7.34990630326855e-04,
        -2.95459980854025e-03,
        -1.60960333262415e-02,
    ]  # x^12 .. x^0
    beta = [
        -1.45660718464996e-05,
        -2.13374055278905e-04,
        -1.68282697438203e-03,
        -7.37332916720468e-03,
        -1.42647390514189e-02,
    ]  # x^8 .. x^0
    half = 0.5
    p = [np.float32(c * half ** (len(alpha) - 1 - i) * half**0.5 * half) for i, c in enumerate(alpha)]
    q = [np.float32(c * half ** (len(beta) - 1 - i)) for i, c in enumerate(beta)]
    return p, q, np.float32(4.0 / half**0.5)


_GELU_P, _GELU_Q, _GELU_CLIP = _gelu_coefficients()


def _horner(t: np.ndarray, coefficients: list[np.float32]) -> np.ndarray:
    out = np.multiply(t, coefficients[0])
    np.add(out, coefficients[1], out=out)
    for c in coefficients[2:]:
        np.multiply(out, t, out=out)
        np.add(out, c, out=out)
    return out


def gelu_(x: np.ndarray) -> np.ndarray:
    """Exact (erf) GELU, in place, float32: x * 0.5 * (1 + erf(x / sqrt(2))).

    numpy has no erf ufunc and scipy is not a dependency; a rational
    approximation keeps the error below 1e-6 with ~25 vectorised passes.
    """
    xc = np.clip(x, -_GELU_CLIP, _GELU_CLIP)
    t = np.multiply(xc, xc)
    p = _horner(t, _GELU_P)
    q = _horner(t, _GELU_Q)
    np.multiply(p, xc, out=p)
    np.divide(p, q, out=p)
    np.add(p, np.float32(0.5), out=p)
    np.multiply(x, p, out=x)
    return x


def layer_norm_(x: np.ndarray, gain: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis, in place (biased variance, like torch)."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("...i,...i->...", x, x)[..., None]
    var /= np.float32(x.shape[-1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    x /= var
    x *= gain
    x += bias
    return x


def _softmax_(scores: np.ndarray) -> np.ndarray:
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores


# ---------------------------------------------------------------------------
# Forward pass
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PackedBatch:
    """A batch stored without padding: the dense layers only ever see real tokens.

    Only attention needs the (rows, width) grid; tokens are scattered into it
    and gathered back there. With length-sorted batches this removes ~8% of
    the matmul work on chat-length text, and far more on unsorted input.
    """

    ids: np.ndarray  # (tokens,) all sequences' ids, concatenated
    row: np.ndarray  # (tokens,) which sequence each token belongs to
    position: np.ndarray  # (tokens,) position of each token within its sequence
    starts: np.ndarray  # (rows,) index of each sequence's first token
    lengths: np.ndarray  # (rows,)
    key_bias: np.ndarray  # (rows, width): 0 for real keys, -1e9 for padding

    @classmethod
    def from_token_ids(cls, sequences: Sequence[Sequence[int]]) -> PackedBatch:
        lengths = np.array([len(seq) for seq in sequences], dtype=np.int64)
        total = int(lengths.sum())
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        ids = np.fromiter((token for seq in sequences for token in seq), dtype=np.int64, count=total)
        row = np.repeat(np.arange(len(lengths)), lengths)
        position = np.arange(total, dtype=np.int64) - starts[row]
        valid = np.arange(int(lengths.max()))[None, :] < lengths[:, None]
        key_bias = np.where(valid, np.float32(0.0), _MASK_BIAS).astype(np.float32)
        return cls(ids, row, position, starts, lengths, key_bias)

    @property
    def shape(self) -> tuple[int, int]:
        return self.key_bias.shape  # (rows, width)


def _embed_tokens(weights: _Weights, batch: PackedBatch) -> np.ndarray:
    """(tokens, H) LayerNormed word + position + token-type embeddings."""
    x = weights.word[batch.ids]
    x += weights.position_plus_type[batch.position]
    return layer_norm_(x, *weights.ln_embed, weights.eps)


def _attend(qkv: np.ndarray, batch: PackedBatch, heads: int) -> np.ndarray:
    """Multi-head attention from packed (tokens, 3H) projections to packed (tokens, H) context."""
    rows, width = batch.shape
    head_dim = qkv.shape[1] // (3 * heads)
    # Scatter into a contiguous (3, rows, heads, width, d) grid: batched matmuls
    # on contiguous (width, d) slices beat strided views, and padding stays 0.
    grid = np.zeros((3, rows, heads, width, head_dim), dtype=np.float32)
    grid[:, batch.row, :, batch.position, :] = qkv.reshape(-1, 3, heads, head_dim)
    scores = grid[0] @ grid[1].transpose(0, 1, 3, 2)  # (rows, heads, width, width)
    scores += batch.key_bias[:, None, None, :]
    _softmax_(scores)
    context = scores @ grid[2]  # (rows, heads, width, d)
    return context[batch.row, :, batch.position, :].reshape(len(qkv), -1)


def _attention_block(x: np.ndarray, layer: _Layer, batch: PackedBatch, heads: int, eps: float) -> np.ndarray:
    """Self-attention + output projection + residual + LayerNorm on packed (tokens, H)."""
    qkv = x @ layer.w_qkv
    qkv += layer.b_qkv
    out = _attend(qkv, batch, heads) @ layer.w_attn_out
    out += layer.b_attn_out
    out += x
    return layer_norm_(out, *layer.ln_attn, eps)


def _ffn_block(x: np.ndarray, layer: _Layer, eps: float) -> np.ndarray:
    """Intermediate dense + GELU + output dense + residual + LayerNorm, in row chunks.

    Chunking keeps each (chunk, 1536) activation small enough that GELU's many
    elementwise passes run from cache instead of main memory (4x faster).
    """
    out = np.empty_like(x)
    for start in range(0, len(x), _FFN_ROW_CHUNK):
        chunk = x[start : start + _FFN_ROW_CHUNK]
        hidden = chunk @ layer.w_ffn_in
        hidden += layer.b_ffn_in
        gelu_(hidden)
        target = out[start : start + _FFN_ROW_CHUNK]
        np.matmul(hidden, layer.w_ffn_out, out=target)
        target += layer.b_ffn_out
        target += chunk
        layer_norm_(target, *layer.ln_ffn, eps)
    return out


def forward(weights: _Weights, batch: PackedBatch) -> np.ndarray:
    """(rows, H) mean-pooled, un-normalised embeddings of a packed batch."""
    x = _embed_tokens(weights, batch)
    for layer in weights.layers:
        x = _attention_block(x, layer, batch, weights.heads, weights.eps)
        x = _ffn_block(x, layer, weights.eps)
    # Mean over each sequence's tokens (sentence-transformers' mean pooling; no
    # padding is stored, so no mask is needed). Sequences are never empty: [CLS][SEP].
    summed = np.add.reduceat(x, batch.starts, axis=0)
    return summed / batch.lengths[:, None].astype(np.float32)
