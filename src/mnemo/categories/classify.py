"""Top-level classification without an LLM: lexical cues plus embedding prototypes.

The score of a category is the sum of its cue weights (cues.py) plus the prototype evidence: how
much closer the memory's vector is to that category's example texts than to the average
category. A semantic model (MiniLM) earns a large prototype weight; the hashing embedder only
knows spelling, so there the cues carry the decision and the prototypes merely break ties.
The vector is the one ``Memory.add`` already computed for the item; nothing is embedded twice.
"""

from __future__ import annotations

import base64
import json
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from mnemo.categories.cues import cue_scores
from mnemo.categories.prototypes import prototype_digest, prototype_matrix
from mnemo.embed.base import Embedder
from mnemo.records import CATEGORIES

#: Weight of the prototype evidence per embedder family (see the module docstring); measured on
#: benchmarks/data/categories_dev.jsonl with benchmarks/categories.py.
PROTOTYPE_WEIGHT_SEMANTIC = 12.0
PROTOTYPE_WEIGHT_HASHING = 2.0
#: A category's prototype similarity is the mean of its best this-many example similarities.
TOP_EXAMPLES = 3
#: Softmax temperature turning scores into the reported confidence.
TEMPERATURE = 1.5
_WORD = re.compile(r"\w")


class MetaStore(Protocol):
    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Classification:
    """The category of one text (None when it has no words), with the evidence behind it."""

    category: str | None
    confidence: float
    scores: dict[str, float] = field(default_factory=dict)
    cues: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "confidence": round(self.confidence, 4),
            "scores": {k: round(v, 4) for k, v in self.scores.items()},
            "cues": list(self.cues),
        }


class Classifier:
    """Classifies texts into CATEGORIES; prototype vectors are made once per embedder."""

    def __init__(self, embedder: Embedder | None, saved: MetaStore | None = None) -> None:
        self.embedder = embedder
        self.saved = saved  # where prototype vectors persist between processes (a store's meta)
        self._prototypes: tuple[np.ndarray, np.ndarray] | None = None
        self._lock = threading.Lock()
        name = embedder.name if embedder else ""
        self.prototype_weight = PROTOTYPE_WEIGHT_HASHING if name.startswith("hashing") else PROTOTYPE_WEIGHT_SEMANTIC

    def classify(self, text: str, vector: np.ndarray | None = None) -> Classification:
        """One text, with its stored vector if there is one (never embedded here: cues only then)."""
        return self.classify_rows([text], None if vector is None else np.asarray(vector)[None, :])[0]

    def classify_many(self, texts: Sequence[str], vectors: np.ndarray | None = None) -> list[Classification]:
        """Many texts; without ``vectors`` they are embedded here (for loose texts, not stored items)."""
        if vectors is None and self.embedder is not None and texts:
            vectors = self.embedder.embed(list(texts))
        return self.classify_rows(texts, vectors)

    def classify_rows(self, texts: Sequence[str], vectors: np.ndarray | None) -> list[Classification]:
        """Texts and their vectors (one row each), or cues alone when ``vectors`` is None."""
        evidence = self._prototype_evidence(vectors)
        results = []
        for row, text in enumerate(texts):
            if not _WORD.search(text or ""):
                results.append(Classification(None, 0.0))
                continue
            scores, fired = cue_scores(text)
            if evidence is not None:
                for index, category in enumerate(CATEGORIES):
                    scores[category] += self.prototype_weight * float(evidence[row, index])
            best = max(CATEGORIES, key=lambda c: scores[c])  # ties go to the earlier (more general) one
            results.append(Classification(best, _confidence(scores, best), scores, tuple(fired)))
        return results

    def _prototype_evidence(self, vectors: np.ndarray | None) -> np.ndarray | None:
        """Per text and category: its prototype similarity minus the mean over categories."""
        if vectors is None or self.embedder is None or not len(vectors):
            return None
        protos, labels = self._prototype_vectors()
        vectors = np.asarray(vectors, dtype=np.float32)
        if protos.shape[1] != vectors.shape[1]:
            return None
        sims = vectors @ protos.T
        per_category = np.empty((len(vectors), len(CATEGORIES)), dtype=np.float32)
        for index in range(len(CATEGORIES)):
            mine = sims[:, labels == index]
            k = min(TOP_EXAMPLES, mine.shape[1])
            per_category[:, index] = np.partition(mine, -k, axis=1)[:, -k:].mean(axis=1)
        return per_category - per_category.mean(axis=1, keepdims=True)

    def _prototype_vectors(self) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            if self._prototypes is None:
                assert self.embedder is not None
                self._prototypes = _cached_prototypes(self.embedder, self.saved)
            return self._prototypes


_CACHE: dict[str, tuple[np.ndarray, np.ndarray]] = {}
_CACHE_LOCK = threading.Lock()


def _cached_prototypes(embedder: Embedder, saved: MetaStore | None) -> tuple[np.ndarray, np.ndarray]:
    """Prototype vectors per embedder, shared by every Memory in the process and kept in the store.

    Embedding the ~80 prototype texts costs about a second with MiniLM on a slow machine; kept in
    the store's meta (keyed by model and a digest of the texts), a new process reads them instead.
    """
    key = f"category_prototypes:{embedder.name}:{prototype_digest()}"
    with _CACHE_LOCK:
        if key not in _CACHE:
            stored = saved.get_meta(key) if saved is not None else None
            if stored:
                _CACHE[key] = _decode(stored)
            else:
                _CACHE[key] = prototype_matrix(embedder)
                if saved is not None:
                    saved.set_meta(key, _encode(*_CACHE[key]))
        return _CACHE[key]


def _encode(vectors: np.ndarray, labels: np.ndarray) -> str:
    payload = {"shape": list(vectors.shape), "labels": labels.tolist()}
    blob = base64.b64encode(np.ascontiguousarray(vectors, dtype=np.float32).tobytes()).decode()
    return json.dumps({**payload, "vectors": blob})


def _decode(text: str) -> tuple[np.ndarray, np.ndarray]:
    data = json.loads(text)
    vectors = np.frombuffer(base64.b64decode(data["vectors"]), dtype=np.float32).reshape(data["shape"])
    return vectors, np.asarray(data["labels"], dtype=np.int64)


def _confidence(scores: dict[str, float], best: str) -> float:
    top = scores[best]
    total = sum(math.exp((s - top) / TEMPERATURE) for s in scores.values())
    return 1.0 / total
