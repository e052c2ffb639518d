"""A bound on BLAS threads while the per-turn path runs the embedding model.

Why: on a small machine the per-turn path parses with spaCy, then embeds a handful of facts.
OpenBLAS workers keep spinning after a call; with the cores already busy, the next small matrix
product waits on them and a 10 ms embed takes 300 ms. One BLAS thread avoids the hand-off and is
the fastest setting for batches of a few sentences (benchmarks/turns.py measures both).

The limit is applied around the calls that ask for it, never at import time, so bulk imports keep
the library's own thread count. The BLAS thread count is process-wide state, so overlapping limited
sections from several threads are counted: the first one in sets the limit, the last one out
restores the original (a plain nested set/restore would leave the limit behind under concurrency).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_LOCK = threading.Lock()
#: threadpoolctl's controller, made on first use (it lists the BLAS libraries loaded by then);
#: False when threadpoolctl is not installed (the core install, which runs no model).
_controller: Any = None
#: Limited sections running now, and the object that restores the original counts.
_active = 0
_restore: Any = None


def _get_controller() -> Any:
    global _controller
    if _controller is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:
            _controller = False
        else:
            _controller = ThreadpoolController()
    return _controller


@contextmanager
def blas_threads(limit: int) -> Iterator[None]:
    """Run the block with at most ``limit`` BLAS threads; ``limit`` ≤ 0 (or no threadpoolctl) changes nothing.

    While sections overlap, the first one's limit holds for all of them.
    """
    global _active, _restore
    if limit <= 0:
        yield
        return
    with _LOCK:
        controller = _get_controller()
        if not controller:
            entered = False
        else:
            entered = True
            if _active == 0:
                _restore = controller.limit(limits=limit, user_api="blas")
            _active += 1
    try:
        yield
    finally:
        if entered:
            with _LOCK:
                _active -= 1
                if _active == 0 and _restore is not None:
                    _restore.restore_original_limits()
                    _restore = None


def blas_info() -> list[dict[str, Any]]:
    """The loaded BLAS libraries and their thread counts now (benchmarks report it)."""
    with _LOCK:
        controller = _get_controller()
    if not controller:
        return []
    libraries = controller.select(user_api="blas").lib_controllers
    return [{"library": lib.internal_api, "threads": lib.num_threads} for lib in libraries]
