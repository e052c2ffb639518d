"""Turn loosely typed input (keyword arguments, dicts, JSON lines) into validated Items."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from typing import Any

from mnemo.errors import InputError
from mnemo.records import KINDS, SCOPE_FIELDS, Item, Scope
from mnemo.timeutil import to_utc

#: Far beyond any chat turn or document section; past this a clear error beats SQLite's own.
MAX_CONTENT_CHARS = 64_000_000
#: Keys an input record may carry. ``text`` is accepted as a synonym of ``content``.
RECORD_KEYS = frozenset({"content", "text", "id", "kind", "role", "source", "timestamp", "metadata", *SCOPE_FIELDS})
#: Keys that ``export`` writes for information and ``import`` ignores.
IGNORED_KEYS = frozenset({"ingested_at", "content_hash"})


def content_hash(content: str) -> str:
    return hashlib.blake2b(content.encode("utf-8"), digest_size=16).hexdigest()


def clean_content(value: Any) -> str:
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"content is not valid UTF-8 (bad byte at offset {exc.start})") from exc
    if not isinstance(value, str):
        raise InputError(f"content must be text, got {type(value).__name__}")
    if not value.strip():
        raise InputError("content is empty or whitespace")
    if len(value) > MAX_CONTENT_CHARS:
        raise InputError(f"content has {len(value):,} characters; the limit is {MAX_CONTENT_CHARS:,}")
    return _valid_unicode(value, "content")


def _optional_text(record: Mapping[str, Any], name: str) -> str | None:
    value = record.get(name)
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise InputError(f"{name} must be text, got {type(value).__name__}")
    return _valid_unicode(value, name)


def _valid_unicode(value: str, name: str) -> str:
    # lone surrogates (from a bad decode upstream) cannot be stored as UTF-8
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"{name} holds characters that are not valid Unicode at offset {exc.start}") from exc
    return value


def _metadata(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputError(f"metadata must be an object, got {type(value).__name__}")
    try:
        text = json.dumps(dict(value), ensure_ascii=False, default=str)
    except (TypeError, ValueError) as exc:
        raise InputError(f"metadata is not JSON-serialisable: {exc}") from exc
    return json.loads(_valid_unicode(text, "metadata"))


def _kind(value: Any) -> str:
    kind = "message" if value in (None, "") else str(value).lower()
    if kind not in KINDS:
        raise InputError(f"unknown kind {value!r}; use one of: {', '.join(sorted(KINDS))}")
    return kind


_NO_SCOPE = Scope()


def make_item(record: Mapping[str, Any], defaults: Scope = _NO_SCOPE) -> Item:
    """Validate one record; raises InputError with a message fit to show a user."""
    unknown = set(record) - RECORD_KEYS - IGNORED_KEYS
    if unknown:
        raise InputError(f"unknown field(s): {', '.join(sorted(map(repr, unknown)))}")
    raw = record.get("content", record.get("text"))
    content = clean_content(raw)
    scope = defaults.merged(Scope(**{name: _optional_text(record, name) for name in SCOPE_FIELDS}))
    return Item(
        id=_optional_text(record, "id") or uuid.uuid4().hex,
        content=content,
        kind=_kind(record.get("kind")),
        role=_optional_text(record, "role"),
        source=_optional_text(record, "source"),
        scope=scope,
        timestamp=to_utc(record.get("timestamp")),
        metadata=_metadata(record.get("metadata")),
        content_hash=content_hash(content),
    )


def item_to_record(item: Item) -> dict[str, Any]:
    """The JSON form written by ``export``; ``make_item`` reads it back to an equal item."""
    return {
        "id": item.id,
        "content": item.content,
        "kind": item.kind,
        "role": item.role,
        "source": item.source,
        **{k: v for k, v in item.scope.as_dict().items()},
        "timestamp": item.timestamp.isoformat() if item.timestamp else None,
        "metadata": dict(item.metadata),
        "ingested_at": item.ingested_at.isoformat() if item.ingested_at else None,
    }
