"""The hook's log: one JSON line per call in $MNEMO_HOME/hook.log, never on stdout.

Claude Code adds a UserPromptSubmit hook's stdout to the model's context, so anything diagnostic
printed there would leak into the conversation; the log file is where the reasons go.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mnemo.config import default_home

LOG_NAME = "hook.log"


def log_path(home: str | None = None) -> Path:
    return Path(home or default_home()) / LOG_NAME


def log_entry(entry: dict[str, Any], home: str | None = None) -> None:
    """Append ``entry`` (stamped with the time); a log that cannot be written is given up silently,
    since failing here would turn a harmless hook call into a broken session."""
    line = json.dumps({"time": datetime.now(tz=UTC).isoformat(timespec="milliseconds"), **entry}, default=str)
    try:
        path = log_path(home)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    except OSError:
        pass
