"""Starting the service: the bind-address rule, warming the model, and running uvicorn."""

from __future__ import annotations

import ipaddress

from mnemo.errors import InputError, MissingExtra

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """True for localhost and 127.0.0.0/8 / ::1; anything else (a LAN address, 0.0.0.0) is not."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_bind(host: str, api_key: str | None) -> None:
    """Memories are private: refuse to listen beyond this machine unless requests need a key."""
    if api_key is not None and len(api_key) < 8:
        raise InputError("the API key is too short; use at least 8 characters (e.g. `openssl rand -hex 16`)")
    if not is_loopback(host) and not api_key:
        raise InputError(
            f"refusing to listen on {host}, which other machines can reach, without an API key; "
            "pass --api-key (or MNEMO_API_KEY), or bind to 127.0.0.1"
        )


def run_http(app: object, host: str, port: int, log_level: str = "warning") -> None:
    """Serve ``app`` with uvicorn until interrupted."""
    try:
        import uvicorn
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise MissingExtra("mcp", "uvicorn", "the HTTP server") from exc
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False)  # type: ignore[arg-type]
