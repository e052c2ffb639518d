"""Finding importable files and telling what each holds (transcript, chat log, notes, facts)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mnemo.errors import InputError
from mnemo.ingest import chatlog, notes
from mnemo.ingest.lines import parse_object

CLAUDE_CODE = "claude-code"
CHAT = "chat"
CHAT_JSON = "chat-json"
NOTES = "notes"
FACTS = "facts"
NOTE_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".rst"})
_CLAUDE_TYPES = frozenset({"user", "assistant", "summary", "file-history-snapshot", "progress", "queue-operation"})


def claude_code_files(root: Path) -> list[Path]:
    """Transcripts under a projects folder (``<dir>/<session>.jsonl``), then their subagent files.

    Main transcripts come first so a session's own file names its project and path.
    """
    main: list[Path] = []
    agents: list[Path] = []
    for project in _subdirs(root):
        for entry in _entries(project):
            if entry.is_file() and entry.name.endswith(".jsonl"):
                main.append(Path(entry.path))
            elif entry.is_dir():
                agents.extend(
                    Path(e.path) for e in _entries(Path(entry.path) / "subagents") if e.name.endswith(".jsonl")
                )
    if not main and not agents and any(root.glob("*.jsonl")):
        main = sorted(root.glob("*.jsonl"))  # a single project folder was given
    return sorted(main) + sorted(agents)


def _subdirs(root: Path) -> list[Path]:
    return [Path(e.path) for e in _entries(root) if e.is_dir()]


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return []


def expand(paths: Iterable[Path]) -> list[Path]:
    """Files named directly, plus every importable file under named folders."""
    files: list[Path] = []
    suffixes = NOTE_SUFFIXES | {".jsonl", ".ndjson", ".json"}
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in suffixes))
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or directory")
    return files


def detect_kind(path: Path) -> str | None:
    """What a file holds: a Claude Code transcript, a chat log, notes, or facts; None if unknown."""
    suffix = path.suffix.lower()
    if suffix in NOTE_SUFFIXES:
        return NOTES
    if suffix == ".json":
        return CHAT_JSON
    if suffix not in (".jsonl", ".ndjson"):
        return None
    if path.name.lower() == "facts.jsonl":
        return FACTS
    for value in _first_objects(path, 20):
        if value.get("type") in _CLAUDE_TYPES and ("sessionId" in value or "message" in value or "uuid" in value):
            return CLAUDE_CODE
        if notes.is_fact(value):
            return FACTS
        if chatlog.looks_like_chat(value):
            return CHAT
    return CHAT


def _first_objects(path: Path, count: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    with path.open("rb") as handle:
        for raw in handle:
            value = parse_object(raw) if raw.strip() else None
            if isinstance(value, dict):
                found.append(value)
                if len(found) == count:
                    break
    return found
