"""The Embedder protocol: one abstract method that embeds a batch of texts.

The base class does the batching so providers only implement ``embed_batch``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np


class Embedder(ABC):
    """Turns texts into L2-normalised float32 vectors, so cosine similarity is a dot product."""

    #: Stable identifier stored with the vectors; a store refuses vectors from another model.
    name: str = "abstract"
    dim: int = 0
    batch_size: int = 64

    @abstractmethod
    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Return a (len(texts), dim) float32 array of unit-length rows."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed any number of texts, ``batch_size`` at a time."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            self.embed_batch(texts[start : start + self.batch_size]) for start in range(0, len(texts), self.batch_size)
        ]
        return np.vstack(parts).astype(np.float32, copy=False)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


def normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """Scale each row to unit length; all-zero rows stay zero instead of becoming NaN."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)
