"""The hook's log: one JSON line per call in $MNEMO_HOME/hook.log, never on stdout.

Claude Code adds a UserPromptSubmit hook's stdout to the model's context, so anything diagnostic
printed there would leak into the conversation; the log file is where the reasons go.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mnemo.config import default_home
from mnemo.redact import enabled_in_env, redact_text

LOG_NAME = "hook.log"


def log_path(home: str | None = None) -> Path:
    return Path(home or default_home()) / LOG_NAME


def log_entry(entry: dict[str, Any], home: str | None = None) -> None:
    """Append ``entry`` (stamped with the time); a log that cannot be written is given up silently,
    since failing here would turn a harmless hook call into a broken session."""
    line = json.dumps({"time": datetime.now(tz=UTC).isoformat(timespec="milliseconds"), **entry}, default=str)
    if enabled_in_env(os.environ):  # reasons can quote the prompt; the log is read without a config
        line = redact_text(line)
    try:
        path = log_path(home)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # prompts and session ids are private: the log is owner-only, like the store
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    except OSError:
        pass
