"""A zero-dependency embedder: signed feature hashing of character n-grams and words.

It knows nothing about meaning, only spelling, but it needs no model files,
is deterministic across processes and machines, and makes near-duplicate and
keyword-overlapping texts close, which is what a fallback has to do.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from mnemo.embed.base import Embedder, normalise_rows
from mnemo.errors import ConfigError

DEFAULT_DIM = 384
#: Character n-gram sizes taken inside each word (with boundary markers).
NGRAM_SIZES = (3, 4, 5)
#: Whole words carry more meaning than any one of their n-grams.
WORD_WEIGHT = 2.0
#: Feature standing in for "no content", so an empty text still gets a unit vector.
_EMPTY_FEATURE = "\x00empty"
#: Punctuation is not part of a word: "mat." and "mat" are the same word.
_WORD = re.compile(r"\w+")
#: Domain-separates these hashes from any other blake2b use (max 16 bytes).
_HASH_PERSON = b"mnemo-hashing-v1"


@lru_cache(maxsize=1 << 18)
def _hash_feature(feature: str, dim: int) -> tuple[int, float]:
    """(bucket, sign) for a feature: stable blake2b, never Python's salted hash().

    Cached because n-grams follow a Zipf distribution: most lookups repeat.
    """
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, person=_HASH_PERSON).digest()
    value = int.from_bytes(digest, "little")
    # The low bits pick the bucket, the top bit the sign, so they are independent.
    return value % dim, (1.0 if value >> 63 else -1.0)


def normalise_text(text: str) -> str:
    """NFKC, lower-case, collapse whitespace: spelling variants map to one form."""
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def features(text: str) -> Counter[str]:
    """Counts of whole words (runs of letters/digits) and boundary-marked n-grams of each.

    ``<cat>`` yields ``<ca``, ``cat``, ``at>``, ``<cat``, ... so a shared stem
    or a typo still shares most features with the original word.
    """
    counts: Counter[str] = Counter()
    for word in _WORD.findall(normalise_text(text)):
        counts["w:" + word] += 1
        marked = f"<{word}>"
        for n in NGRAM_SIZES:
            if n > len(marked):
                break
            counts.update(marked[i : i + n] for i in range(len(marked) - n + 1))
    return counts


class HashingEmbedder(Embedder):
    """Sublinear-tf, signed feature hashing into ``dim`` buckets; L2-normalised."""

    name = f"hashing-ngram-{DEFAULT_DIM}"
    dim = DEFAULT_DIM
    batch_size = 256

    def __init__(self, dim: int = DEFAULT_DIM) -> None:
        if dim < 8:
            raise ConfigError(f"hashing embedder needs dim >= 8, got {dim}")
        self.dim = dim
        self.name = f"hashing-ngram-{dim}"

    def _vector(self, text: str, out: np.ndarray) -> None:
        counts = features(text) or Counter({_EMPTY_FEATURE: 1})
        for feature, count in counts.items():
            bucket, sign = _hash_feature(feature, self.dim)
            weight = (1.0 + math.log(count)) * (WORD_WEIGHT if feature.startswith("w:") else 1.0)
            out[bucket] += sign * weight

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            self._vector(text, matrix[row])
        return normalise_rows(matrix)
