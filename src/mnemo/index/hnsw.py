"""Approximate index: a usearch HNSW graph, grown in place and saved next to the store.

usearch is the optional ``ann`` extra, imported only when an HnswIndex is made.
Vectors are stored as float16 by default: against float32 it halves the memory
(1M x 384: ~1.2 GB of usearch memory instead of ~2 GB) at the same recall@10
(0.995 at 100k), while int8 lost too much (0.96 at 100k, 0.89 at 1M).
Numbers: benchmarks/index_speed.py and benchmarks/results/index_speed.json.

Persistence is a usearch file plus a JSON sidecar (``<path>.json``) holding the
caller's watermark, the parameters, the vector count, and the file's size and CRC32.
The checksum is there because a damaged graph can crash the process inside C++
instead of raising, and ``load`` promises to return None rather than fail.
"""

from __future__ import annotations

import json
import logging
import os
import zlib
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from mnemo.errors import InputError, MissingExtra
from mnemo.index.base import (
    SearchResult,
    VectorIndex,
    as_keys,
    as_query,
    as_vectors,
    empty_result,
    last_wins,
    matvec,
    top_k,
)

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
_DTYPES = ("f32", "f16", "i8")
_READ_CHUNK = 1 << 22
# Oversampling for allowed-subset search: first ask for this many times the
# expected number of candidates needed, then multiply by _GROWTH per retry.
_OVERSAMPLE = 2.0
_GROWTH = 4
_FETCH_BATCH = 1024
_LAYOUT_PARAMS = ("dtype", "connectivity")


@dataclass(frozen=True)
class HnswParams:
    """usearch build and search settings; the defaults are tuned in benchmarks/index_speed.py."""

    dtype: str = "f16"
    connectivity: int = 16
    expansion_add: int = 64
    expansion_search: int = 256
    # How much one graph-search result slot costs relative to exactly scoring one
    # vector fetched from usearch: measured ~6 us vs ~2 us at 1M x 384 (see _use_exact).
    # It tilts the choice between oversampled graph search and exact subset scoring.
    exact_cost_ratio: float = 3.0
    threads: int = 0  # 0 = all cores, used for batch adds only

    def __post_init__(self) -> None:
        if self.dtype not in _DTYPES:
            raise InputError(f"HNSW dtype must be one of {_DTYPES}, got {self.dtype!r}")


def _usearch_index() -> Any:
    try:
        from usearch.index import Index
    except ImportError as exc:
        raise MissingExtra("ann", "usearch", "The approximate (HNSW) vector index") from exc
    return Index


def usearch_available() -> bool:
    try:
        _usearch_index()
    except MissingExtra:
        return False
    return True


class HnswIndex(VectorIndex):
    """Approximate top-k over a usearch HNSW graph (cosine metric)."""

    def __init__(self, dim: int, params: HnswParams | None = None, *, _index: Any = None) -> None:
        self.dim = dim
        self.params = params or HnswParams()
        #: How far this index is up to date, in the caller's terms; saved and loaded with it.
        self.watermark: int = 0
        if _index is None:
            _index = _usearch_index()(
                ndim=dim,
                metric="cos",  # cos, not ip: i8 quantisation needs the norm-aware kernel
                dtype=self.params.dtype,
                connectivity=self.params.connectivity,
                expansion_add=self.params.expansion_add,
                expansion_search=self.params.expansion_search,
            )
        self._index = _index
        #: The file a read-only memory-mapped index views; None once the index is in memory.
        self._view_of: Path | None = None

    def __len__(self) -> int:
        return int(self._index.size)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, (int, np.integer)) or key < 0:
            return False
        return bool(self._index.contains(int(key)))

    @property
    def expansion_search(self) -> int:
        """Candidate list size of a graph search: higher means better recall, slower search."""
        return self.params.expansion_search

    @expansion_search.setter
    def expansion_search(self, value: int) -> None:
        self.params = replace(self.params, expansion_search=value)
        self._index.expansion_search = value

    @property
    def memory_usage(self) -> int:
        """Bytes usearch holds for vectors and graph, reserved capacity included."""
        return int(self._index.memory_usage)

    def add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        keys = as_keys(keys)
        keys, vectors = last_wins(keys, as_vectors(vectors, self.dim, len(keys)))
        if len(keys) == 0:
            return
        self._writable()
        if keys.min() < 0:
            raise InputError("HNSW index keys must be non-negative (they are SQLite rowids)")
        ukeys = keys.view(np.uint64)
        # usearch rejects duplicate keys, so an upsert is remove-then-add; removed
        # slots are reused by later adds, so re-embedding does not grow the index.
        present = self._index.contains(ukeys)
        if present.any():
            self._index.remove(ukeys[present])
        self._index.add(ukeys, vectors, threads=self.params.threads)

    def remove(self, keys: np.ndarray) -> None:
        ukeys = _known(as_keys(keys))
        if len(ukeys):
            self._writable()
            self._index.remove(ukeys)

    def _writable(self) -> None:
        """A memory-mapped (viewed) index is read-only: read it into memory before the first change."""
        if self._view_of is not None:
            self._index = self._restore(self._view_of, self.params, view=False)
            self._view_of = None

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray | None = None) -> SearchResult:
        q = as_query(query, self.dim)
        if k <= 0 or len(self) == 0:
            return empty_result()
        if allowed is None:
            return self._ann(q, k)
        # Neither np.unique nor a presence check on the whole set: for a scope of a
        # million keys either costs more than the search. Duplicate or absent keys only
        # inflate the estimated subset size; the exact path checks presence (cheap there).
        candidates = _known(as_keys(allowed))
        if self._use_exact(len(candidates), k):
            return self._exact(q, self._present(candidates), k)
        return self._filtered(q, candidates, k)

    def _present(self, ukeys: np.ndarray) -> np.ndarray:
        return ukeys[self._index.contains(ukeys)] if len(ukeys) else ukeys

    def _use_exact(self, m: int, k: int) -> bool:
        """Exact scoring of m allowed keys costs about m; an oversampled graph search asks
        for about _OVERSAMPLE * k * n / m results at exact_cost_ratio each. Exact wins when
        m * m <= ratio * _OVERSAMPLE * k * n: for k=50, below ~5.5% of 100k keys or ~1.7% of 1M.
        """
        if m <= k:
            return True
        return m * m <= self.params.exact_cost_ratio * _OVERSAMPLE * k * len(self)

    def _ann(self, q: np.ndarray, count: int) -> SearchResult:
        matches = self._index.search(q, count, threads=1)
        keys = np.asarray(matches.keys, dtype=np.uint64).view(np.int64)
        scores = (1.0 - np.asarray(matches.distances, dtype=np.float32)).astype(np.float32)
        return keys, scores

    def _filtered(self, q: np.ndarray, candidates: np.ndarray, k: int) -> SearchResult:
        """Oversample the graph search until k allowed keys come back, else score exactly.

        Retries stop once the next graph search would cost more than scoring the subset
        exactly, so an unlucky subset costs at most a small multiple of the exact path.
        """
        allowed = _sorted(candidates.view(np.int64))
        count = int(np.ceil(k * _OVERSAMPLE * len(self) / len(candidates)))
        while count * self.params.exact_cost_ratio <= len(candidates) and count < len(self):
            keys, scores = self._ann(q, count)
            keep = _member(keys, allowed)
            if keep.sum() >= k:
                return keys[keep][:k], scores[keep][:k]
            count *= _GROWTH
        return self._exact(q, self._present(candidates), k)

    def _exact(self, q: np.ndarray, present: np.ndarray, k: int) -> SearchResult:
        """Exact scores over a few keys, with vectors fetched from usearch (no float32 copy kept)."""
        if len(present) == 0:
            return empty_result()
        keys = np.unique(present.view(np.int64))
        vectors = self.vectors(keys)
        norms = np.linalg.norm(vectors, axis=1)
        norms[norms == 0] = 1.0  # the graph uses cosine, so match it for unnormalised rows
        scores = matvec(vectors, q) / (norms * max(float(np.linalg.norm(q)), 1e-12))
        return top_k(keys, scores.astype(np.float32), k)

    def vectors(self, keys: np.ndarray) -> np.ndarray:
        """Stored vectors (decoded to float32) of keys that must all be present."""
        ukeys = as_keys(keys).view(np.uint64)
        out = np.empty((len(ukeys), self.dim), dtype=np.float32)
        # usearch returns one small array per key. Joining their buffers beats np.vstack
        # several times over, and doing it in batches keeps the short-lived objects few
        # (measured ~1/3 faster at 10k+ keys on a 1M index).
        for start in range(0, len(ukeys), _FETCH_BATCH):
            parts = self._index.get(ukeys[start : start + _FETCH_BATCH], dtype=np.float32)
            flat = np.frombuffer(b"".join(parts), dtype=np.float32)
            out[start : start + len(parts)] = flat.reshape(-1, self.dim)
        return out

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the index, then its sidecar, each atomically (temp file + os.replace).

        Index first: a crash between the two leaves a sidecar whose count no longer
        matches, so the next load returns None and the caller rebuilds.
        """
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        self._index.save(str(tmp))
        os.chmod(tmp, 0o600)  # vectors can be inverted to text: owner-only, like the store file
        self._writable()
        size, crc = _size_and_crc(tmp)
        edges = _edge_crc(tmp)
        _fsync(tmp)
        os.replace(tmp, path)
        meta = {
            "format": FORMAT_VERSION,
            "watermark": int(self.watermark),
            "dim": self.dim,
            "count": len(self),
            "bytes": size,
            "crc32": crc,
            "edge_crc32": edges,
            "params": asdict(self.params),
        }
        _write_atomic(sidecar_path(path), json.dumps(meta, indent=1).encode())
        _fsync_dir(path.parent)

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], dim: int, params: HnswParams | None = None, *, view: bool = False
    ) -> HnswIndex | None:
        """The saved index, or None if it is missing, damaged, or of another dim/format.

        With ``params``, the saved index must have the same dtype and connectivity (else
        None: rebuild). Other settings come from ``params``, or else from the defaults.
        """
        try:
            return cls._load(Path(path), dim, params, view)
        except Exception as exc:  # promise: never raise, the caller just rebuilds
            log.info("not using saved vector index %s: %s", path, exc)
            return None

    @classmethod
    def _load(cls, path: Path, dim: int, wanted: HnswParams | None, view: bool) -> HnswIndex | None:
        meta = json.loads(sidecar_path(path).read_text())
        if meta.get("format") != FORMAT_VERSION or meta.get("dim") != dim:
            log.info("saved vector index %s has another format or dimension", path)
            return None
        # Only what fixes the file layout comes from the sidecar; other settings come from
        # the caller or the current defaults, so tuning them never forces a rebuild.
        layout = {name: meta["params"][name] for name in _LAYOUT_PARAMS}
        if wanted is not None and layout != {name: getattr(wanted, name) for name in _LAYOUT_PARAMS}:
            log.info("saved vector index %s was built with other parameters", path)
            return None
        # A view maps the file instead of reading it (a process that only searches starts in
        # well under a second at 1M vectors), so it checks the size and both ends of the file;
        # a full read checks every byte.
        if view and "edge_crc32" in meta:
            intact = path.stat().st_size == meta["bytes"] and _edge_crc(path) == meta["edge_crc32"]
        else:
            view = False
            intact = _size_and_crc(path) == (meta["bytes"], meta["crc32"])
        if not intact:
            log.info("saved vector index %s does not match its checksum", path)
            return None
        params = replace(wanted or HnswParams(), **layout)
        index = cls._restore(path, params, view=view)
        if index is None or index.ndim != dim or index.size != meta["count"]:
            return None
        loaded = cls(dim, params, _index=index)
        loaded.watermark = int(meta["watermark"])
        loaded._view_of = path if view else None
        return loaded

    @staticmethod
    def _restore(path: Path, params: HnswParams, *, view: bool) -> Any:
        return _usearch_index().restore(
            str(path),
            view=view,
            connectivity=params.connectivity,
            expansion_add=params.expansion_add,
            expansion_search=params.expansion_search,
        )


def sidecar_path(path: str | os.PathLike[str]) -> Path:
    return Path(str(path) + ".json")


def _known(keys: np.ndarray) -> np.ndarray:
    """Non-negative keys as uint64; a negative key can never have been added."""
    return keys[keys >= 0].view(np.uint64)


def _sorted(keys: np.ndarray) -> np.ndarray:
    """Keys sorted; SQL usually hands them over sorted by rowid, which costs one check."""
    if len(keys) < 2 or bool(np.all(keys[1:] >= keys[:-1])):
        return keys
    return np.sort(keys)


def _member(keys: np.ndarray, sorted_allowed: np.ndarray) -> np.ndarray:
    """Which keys are in sorted_allowed: a binary search per key, no pass over the big set.

    (np.isin falls back to sorting both arrays when the key range is wide.)
    """
    pos = np.searchsorted(sorted_allowed, keys)
    pos[pos == len(sorted_allowed)] = 0
    return sorted_allowed[pos] == keys


def _edge_crc(path: Path, span: int = 4 << 20) -> int:
    """CRC32 of the first and last ``span`` bytes: catches truncation and a damaged header cheaply."""
    with open(path, "rb") as f:
        head = f.read(span)
        size = f.seek(0, os.SEEK_END)
        f.seek(max(len(head), size - span))
        return zlib.crc32(f.read(), zlib.crc32(head))


def _size_and_crc(path: Path) -> tuple[int, int]:
    crc = 0
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(_READ_CHUNK):
            crc = zlib.crc32(chunk, crc)
            size += len(chunk)
    return size, crc


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _fsync(path: Path) -> None:
    with open(path, "rb") as f:
        os.fsync(f.fileno())


def _fsync_dir(directory: Path) -> None:
    # Makes the renames durable; not possible on every platform, so best effort.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
