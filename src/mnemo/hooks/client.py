"""A tiny stdlib client for a running `mnemo serve` (POST /v1/<tool>), so a hook needs no model.

The connect timeout is tiny on purpose: on loopback a listening server accepts within a
millisecond, so 50 ms only ever runs out when nothing listens, and the hook then works in-process.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mnemo.errors import ConfigError, MnemoError

DEFAULT_SERVER_URL = "http://127.0.0.1:8765"
CONNECT_TIMEOUT = 0.05
#: A context query on a warm server takes tens of milliseconds; this only bounds a stuck server.
READ_TIMEOUT = 10.0


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
    """One keep-alive connection to the server; ``connect`` raises ServerUnavailable fast."""

    def __init__(self, address: ServerAddress, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        self.address = address
        self._conn = http.client.HTTPConnection(address.host, address.port, timeout=connect_timeout)

    def connect(self) -> ServerClient:
        try:
            self._conn.connect()
        except OSError as exc:  # refused, timed out, unreachable: all mean "no server here"
            raise ServerUnavailable(f"no mnemo server at {self.address.host}:{self.address.port}: {exc}") from exc
        if self._conn.sock is not None:
            self._conn.sock.settimeout(READ_TIMEOUT)
            self._conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return self

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """POST /v1/<tool>; a non-200 answer raises MnemoError with the server's error text."""
        headers = {"Content-Type": "application/json"}
        if self.address.api_key:
            headers["X-API-Key"] = self.address.api_key
        try:
            self._conn.request("POST", f"/v1/{tool}", body=json.dumps(arguments), headers=headers)
            response = self._conn.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException) as exc:
            raise MnemoError(f"mnemo server failed on {tool}: {exc}") from exc
        try:
            data = json.loads(body or b"{}")
        except json.JSONDecodeError as exc:
            raise MnemoError(f"mnemo server sent non-JSON for {tool} (HTTP {response.status})") from exc
        if response.status != 200:
            error = data.get("error") if isinstance(data, dict) else None
            raise MnemoError(f"mnemo server refused {tool} (HTTP {response.status}): {error or data}")
        return data if isinstance(data, dict) else {"result": data}

    def close(self) -> None:
        self._conn.close()
