"""Notes and documents: markdown files split into sections, and ``facts.jsonl`` of stored facts.

Markdown reuses ``mnemo.ingest.files`` (section splitting and stable section ids). Memory files an
assistant keeps for itself (MEMORY.md, CLAUDE.md, AGENTS.md) become ``note`` items; other markdown
becomes ``document`` items. Each fact line (subject/relation/object) becomes one ``fact`` item
whose content reads as a sentence, with the parts in metadata for the extraction helper.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mnemo.ingest.files import Rejected, read_document
from mnemo.ingest.lines import Line, parse_object

NOTE_FILES = frozenset({"memory.md", "claude.md", "agents.md"})
FACT_PARTS = ("subject", "relation", "object")
NOT_A_FACT = "not_a_fact"
#: Fact fields kept in metadata beside the three parts (the rest of a line is ignored).
_FACT_EXTRAS = ("confidence", "status", "source", "weight", "lang", "valid_from", "valid_to")


def markdown_records(path: Path) -> tuple[list[dict[str, Any]], Counter[str]]:
    """One record per non-empty section of a markdown/text file."""
    records: list[dict[str, Any]] = []
    dropped: Counter[str] = Counter()
    kind = "note" if path.name.lower() in NOTE_FILES else "document"
    for entry in read_document(path):
        if isinstance(entry, Rejected):
            dropped["invalid_utf8"] += 1
            continue
        metadata = {**entry["metadata"], "file": str(path)}
        records.append({**entry, "kind": kind, "source": "notes", "metadata": metadata})
    return records, dropped


def is_fact(value: dict[str, Any]) -> bool:
    return all(isinstance(value.get(part), str) and value[part].strip() for part in FACT_PARTS)


def fact_records(path: Path, lines: Sequence[Line], counted_from: int) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Fact records of a facts.jsonl run; malformed lines and lines without the three parts counted."""
    records: list[dict[str, Any]] = []
    dropped: Counter[str] = Counter()
    for line in lines:
        if not line.raw.strip():
            continue
        value = parse_object(line.raw)
        reason = value if isinstance(value, str) else (None if is_fact(value) else NOT_A_FACT)
        if reason is not None:
            if line.offset >= counted_from:
                dropped[reason] += 1
            continue
        assert isinstance(value, dict)
        records.append(fact_record(path, value))
    return records, dropped


def fact_record(path: Path, value: dict[str, Any]) -> dict[str, Any]:
    subject, relation, obj = (" ".join(str(value[p]).split()) for p in FACT_PARTS)
    digest = hashlib.blake2b(f"{subject}\x1f{relation}\x1f{obj}".lower().encode(), digest_size=10).hexdigest()
    metadata: dict[str, Any] = {"subject": subject, "relation": relation, "object": obj, "file": str(path)}
    metadata.update({k: value[k] for k in _FACT_EXTRAS if k in value})
    user = value.get("user_id") or value.get("user")
    return {
        "id": str(value.get("id") or f"fact:{digest}"),
        "content": f"{subject} {relation} {obj}",
        "kind": "fact",
        "source": "facts",
        "user_id": user if isinstance(user, str) and user.strip() else None,
        "timestamp": value.get("timestamp") or value.get("created_at"),
        "metadata": metadata,
    }
