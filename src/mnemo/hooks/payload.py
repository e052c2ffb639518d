"""Claude Code hook payloads: the JSON object a hook command reads on stdin, checked and typed.

Every event carries ``session_id``, ``transcript_path``, ``cwd`` and ``hook_event_name``;
``UserPromptSubmit`` adds ``prompt``. Unknown keys are ignored so newer Claude Code versions,
which add fields, keep working.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mnemo.errors import InputError

PROMPT_EVENT = "UserPromptSubmit"
#: Events after which the transcript on disk holds the finished turn(s) worth importing.
IMPORT_EVENTS = frozenset({"Stop", "SessionEnd"})
EVENTS = frozenset({PROMPT_EVENT, *IMPORT_EVENTS})


@dataclass(frozen=True)
class HookEvent:
    event: str
    session_id: str
    cwd: str | None = None
    transcript_path: str | None = None
    prompt: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "session_id": self.session_id,
            "cwd": self.cwd,
            "transcript_path": self.transcript_path,
            "prompt": self.prompt,
        }


def parse_payload(raw: str) -> HookEvent:
    """The event in ``raw``; InputError says exactly what is wrong with it."""
    if not raw.strip():
        raise InputError("empty hook payload on stdin")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"hook payload is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(f"hook payload must be a JSON object, got {type(data).__name__}")
    event = _text(data, "hook_event_name")
    if event not in EVENTS:
        raise InputError(f"unsupported hook event {event!r}; handled: {', '.join(sorted(EVENTS))}")
    found = HookEvent(
        event=event,
        session_id=_text(data, "session_id"),
        cwd=_optional_text(data, "cwd"),
        transcript_path=_optional_text(data, "transcript_path"),
        prompt=_optional_text(data, "prompt"),
    )
    if event == PROMPT_EVENT and found.prompt is None:
        raise InputError("UserPromptSubmit payload has no 'prompt'")
    if event in IMPORT_EVENTS and found.transcript_path is None:
        raise InputError(f"{event} payload has no 'transcript_path'")
    return found


def _text(data: dict[str, Any], key: str) -> str:
    value = _optional_text(data, key)
    if value is None:
        raise InputError(f"hook payload lacks {key!r}")
    return value


def _optional_text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"hook payload field {key!r} must be a string, got {type(value).__name__}")
    return value if value.strip() else None
