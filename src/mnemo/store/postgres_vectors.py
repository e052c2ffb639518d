"""pgvector values on the wire, without the ``pgvector`` package: numpy arrays in, numpy arrays out.

Vectors travel in pgvector's binary format (uint16 dimension, uint16 zero, big-endian float32s):
the text form costs ~0.5 ms per 384-d vector each way, which would dominate an import. Each pool
connection gets a dumper for ``np.ndarray`` (so a vector parameter needs no cast) and loaders for
both result formats (text for the mixins' plain queries, binary for bulk reads).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

_HEADER = struct.Struct(">HH")
#: A filtered search whose scope holds fewer items than this compares all their vectors (exact, through
#: the scope's B-tree index): walking the HNSW graph past thousands of out-of-scope neighbours
#: measured 20x slower for a 1% scope than sorting that scope outright.
EXACT_SCOPE_BELOW = 2000
#: Candidates the HNSW scan keeps (pgvector's ef_search, set per connection); a query for more than
#: half as many neighbours raises it to 2·k. Filtered searches scan on past it (iterative scan,
#: relaxed order) until k rows pass the filter.
EF_SEARCH = 200


def encode(values: np.ndarray) -> bytes:
    array = np.asarray(values, dtype=">f4").reshape(-1)
    return _HEADER.pack(array.shape[0], 0) + array.tobytes()


def decode(data: bytes | bytearray | memoryview) -> np.ndarray:
    return np.frombuffer(data, dtype=">f4", offset=_HEADER.size).astype(np.float32)


def literal(values: np.ndarray) -> str:
    """The text form ``[x,y,…]``, for SQL typed by hand (tests, psql)."""
    return "[" + ",".join(repr(float(x)) for x in np.asarray(values, dtype=np.float32).reshape(-1)) + "]"


def nearest_sql(dim: int, where: str) -> str:
    """One statement for the ``k`` nearest vectors of one dimension within a filter.

    Unfiltered (``where`` is ``TRUE``), parameters are ``[query, query, k]``: the HNSW index.
    Filtered, parameters are ``[*filter, query, *filter, query, k, query, *filter, query, k]``: both
    plans are in the statement and a one-time condition on the scope's size (its items, with or
    without a vector, counted up to ``EXACT_SCOPE_BELOW``) runs one. The exact branch orders by
    the bare column, which no index serves; the approximate branch repeats the partial HNSW
    index's expression and predicate.
    """
    dim = int(dim)
    rows = f"FROM items WHERE vector_dims(items.embedding) = {dim} AND {where}"
    typed = f"(items.embedding::vector({dim}))"
    approximate = f"SELECT items.rowid, 1 - ({typed} <=> %b) {rows}{{gate}} ORDER BY {typed} <=> %b LIMIT %s"
    if where == "TRUE":
        return approximate.format(gate="")
    small = f"(SELECT count(*) FROM scoped) < {EXACT_SCOPE_BELOW}"
    # the gate counts the scope's items, not its vectors: vector_dims() would read every vector
    # (most sit out of line, in TOAST), which measured 20 ms for a 10k-item scope at 100k items
    return (
        f"WITH scoped AS MATERIALIZED (SELECT 1 FROM items WHERE {where} LIMIT {EXACT_SCOPE_BELOW}) "
        f"(SELECT items.rowid, 1 - (items.embedding <=> %b) {rows} AND {small} "
        "ORDER BY items.embedding <=> %b LIMIT %s) "
        f"UNION ALL ({approximate.format(gate=f' AND NOT {small}')})"
    )


def nearest_params(query: np.ndarray, where: str, params: list[Any], k: int) -> list[Any]:
    """The parameters of ``nearest_sql(dim, where)`` in its order, ``params`` being the filter's."""
    ann = [query, *params, query, k]
    return ann if where == "TRUE" else [*params, *ann, *ann]


def register(conn: Any) -> bool:
    """Teach one psycopg connection the ``vector`` type; False when the extension is missing."""
    from psycopg.adapt import Dumper, Loader
    from psycopg.pq import Format
    from psycopg.types import TypeInfo

    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        return False

    class VectorDumper(Dumper):
        format = Format.BINARY
        oid = info.oid

        def dump(self, obj: Any) -> bytes:
            return encode(obj)

    class VectorBinaryLoader(Loader):
        format = Format.BINARY

        def load(self, data: Any) -> np.ndarray:
            return decode(data)

    class VectorTextLoader(Loader):
        def load(self, data: Any) -> np.ndarray:
            return np.array(bytes(data)[1:-1].split(b","), dtype=np.float32)

    conn.adapters.register_dumper(np.ndarray, VectorDumper)
    conn.adapters.register_loader(info.oid, VectorBinaryLoader)
    conn.adapters.register_loader(info.oid, VectorTextLoader)
    return True
