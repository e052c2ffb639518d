"""Read importable files into records: JSONL/JSON messages and markdown/text documents.

Readers yield ``Record`` or ``Rejected`` values instead of raising, so an import can skip and count
malformed lines and keep going.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mnemo.errors import InputError

JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
JSON_SUFFIXES = frozenset({".json"})
TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".rst"})
_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Rejected:
    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


Entry = Mapping[str, Any] | Rejected


def stable_id(record: Mapping[str, Any], where: str) -> str:
    """An id derived from where a message sits and what it says (after the import's own scope is
    applied), so importing the same file twice adds nothing new, while the same words said twice,
    or imported into another session, stay separate memories."""
    parts = [
        where,
        *(
            str(record.get(k) or "")
            for k in ("user_id", "agent_id", "project", "session_id", "role", "timestamp", "content", "text")
        ),
    ]
    return "m-" + hashlib.blake2b("\x1f".join(parts).encode("utf-8", "replace"), digest_size=12).hexdigest()


def read_file(path: Path, overrides: Mapping[str, Any] | None = None) -> Iterator[Entry]:
    """Records of one file, with ``overrides`` (the import's scope) applied before ids are made."""
    suffix = path.suffix.lower()
    if suffix in JSONL_SUFFIXES:
        yield from read_jsonl(path, overrides or {})
    elif suffix in JSON_SUFFIXES:
        yield from read_json(path, overrides or {})
    elif suffix in TEXT_SUFFIXES:
        yield from (
            {**entry, **(overrides or {})} if isinstance(entry, dict) else entry for entry in read_document(path)
        )
    else:
        known = sorted(JSONL_SUFFIXES | JSON_SUFFIXES | TEXT_SUFFIXES)
        raise InputError(f"{path}: unsupported file type '{suffix}'; mnemo imports {', '.join(known)}")


def count_entries(path: Path) -> int | None:
    """A cheap total for the progress bar (lines of a JSONL file); None when unknown."""
    if path.suffix.lower() not in JSONL_SUFFIXES:
        return None
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


def read_jsonl(path: Path, overrides: Mapping[str, Any]) -> Iterator[Entry]:
    with path.open("rb") as handle:  # bytes, so one bad line cannot stop the decoder for the rest
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            entry = _parse_line(raw, f"{path.name}:{number}")
            yield (
                entry if isinstance(entry, Rejected) else _with_id({**entry, **overrides}, f"{path.resolve()}:{number}")
            )


def _parse_line(raw: bytes, where: str) -> Entry:
    try:
        # utf-8-sig: editors on some systems start a file with a byte-order mark
        value = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        return Rejected(where, f"not valid UTF-8 (byte {exc.start})")
    except json.JSONDecodeError as exc:
        return Rejected(where, f"not valid JSON ({exc.msg})")
    if not isinstance(value, dict):
        return Rejected(where, f"expected a JSON object, got {type(value).__name__}")
    return value


def read_json(path: Path, overrides: Mapping[str, Any]) -> Iterator[Entry]:
    try:
        value = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        yield Rejected(path.name, f"not a valid UTF-8 JSON file ({exc})")
        return
    messages = value.get("messages") if isinstance(value, dict) else value
    if not isinstance(messages, list):
        yield Rejected(path.name, "expected a list of messages or an object with a 'messages' list")
        return
    for number, message in enumerate(messages):
        if isinstance(message, dict):
            yield _with_id({**message, **overrides}, f"{path.resolve()}[{number}]")
        else:
            yield Rejected(f"{path.name}[{number}]", f"expected an object, got {type(message).__name__}")


def _with_id(record: dict[str, Any], where: str) -> dict[str, Any]:
    return record if record.get("id") not in (None, "") else {**record, "id": stable_id(record, where)}


def read_document(path: Path) -> Iterator[Entry]:
    """Split a markdown/text file at its headings; each section becomes one ``document`` item."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        yield Rejected(path.name, f"not valid UTF-8 (byte {exc.start})")
        return
    seen: dict[str, int] = {}
    for heading, body in split_sections(text):
        if not body.strip():
            continue
        slug = _SLUG.sub("-", heading.lower()).strip("-") or "top"
        seen[slug] = seen.get(slug, 0) + 1
        suffix = f"-{seen[slug]}" if seen[slug] > 1 else ""
        yield {
            # the resolved path: two README.md files in different folders are different documents
            "id": f"{path.resolve()}#{slug}{suffix}",
            "content": body.strip(),
            "kind": "document",
            "source": str(path),
            "metadata": {"section": heading, "file": path.name},
        }


def split_sections(text: str) -> list[tuple[str, str]]:
    """(heading path, section text) pairs; the heading line stays in the text it introduces."""
    sections: list[tuple[str, str]] = []
    trail: list[str] = []
    current: list[str] = []
    title = ""
    in_code = False
    for line in text.splitlines():
        in_code ^= line.lstrip().startswith("```")
        match = None if in_code else _HEADING.match(line)
        if match:
            sections.append((title, "\n".join(current)))
            level = len(match.group(1))
            trail = [*trail[: level - 1], match.group(2)]
            title = " > ".join(trail)
            current = [line]
        else:
            current.append(line)
    sections.append((title, "\n".join(current)))
    return [(heading, body) for heading, body in sections if body.strip()]
