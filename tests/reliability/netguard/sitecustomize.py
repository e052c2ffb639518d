"""A socket guard loaded at interpreter start (this folder on PYTHONPATH) when MNEMO_NETGUARD_REPORT is set.

Every attempt to reach a non-loopback address — connect, connect_ex, sendto, send on a socket
connected elsewhere, or a name lookup of anything but localhost — is refused (OSError) and
counted. At exit the process appends one JSON line to the report file: its pid, argv, the number
of attempts, the bytes it tried to send, loopback connections (allowed) and the first targets.
Child processes inherit the environment, so they are guarded and report too.
"""

from __future__ import annotations

import atexit
import errno
import ipaddress
import json
import os
import socket
import sys
from typing import Any

_REPORT = os.environ.get("MNEMO_NETGUARD_REPORT")
_COUNTS: dict[str, Any] = {"attempts": 0, "bytes_sent": 0, "loopback": 0, "lookups": 0, "targets": []}
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


def _is_local_host(host: Any) -> bool:
    if host is None:
        return True
    text = host.decode() if isinstance(host, bytes) else str(host)
    if text.lower() in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(text.split("%")[0]).is_loopback
    except ValueError:
        return False


def _is_local(sock: socket.socket, address: Any) -> bool:
    if sock.family == getattr(socket, "AF_UNIX", None) or not isinstance(address, tuple):
        return True
    return _is_local_host(address[0])


def _refuse(address: Any, size: int = 0) -> OSError:
    _COUNTS["attempts"] += 1
    _COUNTS["bytes_sent"] += size
    if len(_COUNTS["targets"]) < 20:
        _COUNTS["targets"].append(repr(address))
    return OSError(errno.ENETUNREACH, f"network access blocked by the mnemo test guard: {address!r}")


def _install() -> None:
    cls = socket.socket
    connect, connect_ex, sendto = cls.connect, cls.connect_ex, cls.sendto
    send, sendall = cls.send, cls.sendall
    getaddrinfo = socket.getaddrinfo

    def guarded_connect(self: socket.socket, address: Any) -> None:
        if not _is_local(self, address):
            raise _refuse(address)
        if self.family != getattr(socket, "AF_UNIX", None):
            _COUNTS["loopback"] += 1
        return connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        if not _is_local(self, address):
            _refuse(address)
            return errno.ENETUNREACH
        return connect_ex(self, address)

    def guarded_sendto(self: socket.socket, data: bytes, *args: Any) -> int:
        address = args[-1]
        if not _is_local(self, address):
            raise _refuse(address, len(data))
        return sendto(self, data, *args)

    def _peer_is_local(self: socket.socket) -> bool:
        try:
            return _is_local(self, self.getpeername())
        except OSError:
            return True  # not connected: send fails by itself

    def guarded_send(self: socket.socket, data: bytes, *args: Any) -> int:
        if not _peer_is_local(self):
            raise _refuse(self.getpeername(), len(data))
        return send(self, data, *args)

    def guarded_sendall(self: socket.socket, data: bytes, *args: Any) -> None:
        if not _peer_is_local(self):
            raise _refuse(self.getpeername(), len(data))
        return sendall(self, data, *args)

    def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_local_host(host):
            _COUNTS["lookups"] += 1
            _refuse(("dns", host))
            raise socket.gaierror(socket.EAI_NONAME, f"name lookup blocked by the mnemo test guard: {host!r}")
        return getaddrinfo(host, *args, **kwargs)

    cls.connect, cls.connect_ex, cls.sendto = guarded_connect, guarded_connect_ex, guarded_sendto  # type: ignore[method-assign]
    cls.send, cls.sendall = guarded_send, guarded_sendall  # type: ignore[method-assign]
    socket.getaddrinfo = guarded_getaddrinfo
    atexit.register(_write_report)


def _write_report() -> None:
    line = json.dumps({"pid": os.getpid(), "argv": sys.argv[:6], **_COUNTS})
    try:
        with open(_REPORT or os.devnull, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    except OSError:
        pass


if _REPORT:
    _install()
