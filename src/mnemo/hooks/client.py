"""A tiny stdlib client for a running `mnemo serve` (POST /v1/<tool>), so a hook needs no model.

It speaks HTTP/1.1 over a plain socket, one request per connection: ``http.client`` would pull in
``ssl`` and the ``email`` package, which cost more start-up time than the whole call to a warm
server. The connect timeout is tiny on purpose: on loopback a listening server accepts within a
millisecond, so 50 ms only ever runs out when nothing listens, and the hook then works in-process.
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mnemo.errors import ConfigError, MnemoError

DEFAULT_SERVER_URL = "http://127.0.0.1:8765"
CONNECT_TIMEOUT = 0.05
#: A turn on a warm server takes tens of milliseconds; this only bounds a stuck server.
READ_TIMEOUT = 10.0
#: An answer larger than this is refused (a context block is a few kilobytes).
MAX_ANSWER_BYTES = 16 * 1024 * 1024


class ServerUnavailable(MnemoError):
    """Nothing answered at the server address: the caller falls back to in-process work."""


@dataclass(frozen=True)
class ServerAddress:
    host: str
    port: int
    api_key: str | None = None


def server_address(env: dict[str, str] | None = None) -> ServerAddress:
    """From MNEMO_SERVER_URL (default http://127.0.0.1:8765) and MNEMO_API_KEY."""
    env = dict(os.environ) if env is None else env
    url = env.get("MNEMO_SERVER_URL") or DEFAULT_SERVER_URL
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise ConfigError(f"MNEMO_SERVER_URL must be an http://host:port address, got {url!r}")
    try:
        port = parts.port or 80
    except ValueError as exc:
        raise ConfigError(f"MNEMO_SERVER_URL has a bad port: {url!r}") from exc
    return ServerAddress(parts.hostname, port, env.get("MNEMO_API_KEY") or None)


class ServerClient:
    """Requests to the server; ``connect`` raises ServerUnavailable fast when nothing listens."""

    def __init__(self, address: ServerAddress, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        self.address = address
        self.connect_timeout = connect_timeout
        self._sock: socket.socket | None = None

    def connect(self) -> ServerClient:
        try:
            sock = socket.create_connection((self.address.host, self.address.port), timeout=self.connect_timeout)
        except OSError as exc:  # refused, timed out, unreachable: all mean "no server here"
            raise ServerUnavailable(f"no mnemo server at {self.address.host}:{self.address.port}: {exc}") from exc
        sock.settimeout(READ_TIMEOUT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock = sock
        return self

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """POST /v1/<tool>; a non-200 answer raises MnemoError with the server's error text."""
        if self._sock is None:
            self.connect()
        assert self._sock is not None
        body = json.dumps(arguments).encode()
        headers = [
            f"POST /v1/{tool} HTTP/1.1",
            f"Host: {self.address.host}:{self.address.port}",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            "Connection: close",
        ]
        if self.address.api_key:
            headers.append(f"X-API-Key: {self.address.api_key}")
        try:
            self._sock.sendall("\r\n".join(headers).encode("latin-1") + b"\r\n\r\n" + body)
            status, payload = read_response(self._sock)
        except (OSError, ValueError) as exc:
            raise MnemoError(f"mnemo server failed on {tool}: {exc}") from exc
        finally:
            self.close()
        try:
            data = json.loads(payload or b"{}")
        except json.JSONDecodeError as exc:
            raise MnemoError(f"mnemo server sent non-JSON for {tool} (HTTP {status})") from exc
        if status != 200:
            error = data.get("error") if isinstance(data, dict) else None
            raise MnemoError(f"mnemo server refused {tool} (HTTP {status}): {error or data}")
        return data if isinstance(data, dict) else {"result": data}

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def read_response(sock: socket.socket) -> tuple[int, bytes]:
    """(status, body) of one HTTP/1.1 response on a connection the server closes after it."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise ValueError(f"answer over {MAX_ANSWER_BYTES} bytes")
    head, separator, body = b"".join(chunks).partition(b"\r\n\r\n")
    if not separator:
        raise ValueError("incomplete HTTP response")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ValueError(f"not an HTTP response: {lines[0][:80]!r}")
    fields = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    if "chunked" in fields.get("transfer-encoding", "").lower():
        body = _unchunk(body)
    elif "content-length" in fields:
        body = body[: int(fields["content-length"])]
    return int(parts[1]), body


def _unchunk(data: bytes) -> bytes:
    out: list[bytes] = []
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        data = rest[size + 2 :]
    return b"".join(out)
