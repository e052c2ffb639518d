"""One hook call around its work: parse the payload, time it, log the outcome or the reason.

Shared by `mnemo hook claude-code` and the fast entry script, so both log the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from mnemo.hooks.claude_code import HookOutcome
from mnemo.hooks.log import log_entry
from mnemo.hooks.payload import HookEvent, parse_payload

#: ``work`` returns this when it handed the call to another process, which logs for itself.
Delegated = None


def run_logged(raw: str, work: Callable[[HookEvent], HookOutcome | None]) -> HookOutcome | None:
    """The outcome to print, or None (nothing to print) when the call failed or was delegated."""
    started = time.perf_counter()
    entry: dict[str, Any] = {}
    try:
        event = parse_payload(raw)
        entry.update(event=event.event, session_id=event.session_id)
        outcome = work(event)
        if outcome is Delegated:
            return None
        entry.update(outcome.as_dict(), status="ok")
    # Deliberately broad, and only at this edge: an exception escaping a hook shows an error in the
    # user's session (or blocks the prompt); the reason goes to the log instead.
    except Exception as exc:
        entry.update(status="skipped", reason=f"{type(exc).__name__}: {exc}")
        outcome = None
    entry["ms"] = round((time.perf_counter() - started) * 1000, 1)
    log_entry(entry)
    return outcome
