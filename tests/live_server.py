"""A real `mnemo serve` process on a free loopback port, for tests that talk to it over HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def mnemo_server(db: str, *args: str, host: str = "127.0.0.1", serve: tuple[str, ...] = ("serve",)) -> Iterator[int]:
    """Start `mnemo --db DB serve ARGS` (hashing embedder: fast start) and yield its port once /health
    answers; stop it afterwards. ``serve`` can name another command, e.g. ("mcp", "--http")."""
    port = free_port()
    command = [sys.executable, "-m", "mnemo", "--db", db, *serve, "--host", host, "--port", str(port), *args]
    env = {**os.environ, "MNEMO_EMBEDDER": "hashing"}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not _healthy(port):
            if process.poll() is not None:
                raise AssertionError(f"server exited: {process.stderr.read() if process.stderr else ''}")
            assert time.monotonic() < deadline, "server did not come up"
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as response:
            return response.status == 200
    except (OSError, urllib.error.URLError):
        return False
