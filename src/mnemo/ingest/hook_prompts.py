"""The id under which a hook records a user prompt, shared by the hook and the transcript importer.

A Claude Code hook stores each prompt the moment it is submitted (so the next prompt can already
find it); the transcript, imported later, holds the same message under its own id. Both sides
derive this id from (session, text), so the importer can retract the hook's copy when it writes
the transcript's, and the store keeps the message once. Whitespace at the ends is ignored: the
transcript and the hook payload may differ there.
"""

from __future__ import annotations

import hashlib

PREFIX = "hook:"


def hook_prompt_id(session_id: str, text: str) -> str:
    digest = hashlib.sha256(f"{session_id}\0{text.strip()}".encode()).hexdigest()[:16]
    return f"{PREFIX}{session_id}:{digest}"
