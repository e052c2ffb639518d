"""Reading the complete lines of a growing JSONL file from a byte offset, and parsing them safely."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INVALID_UTF8 = "invalid_utf8"
INVALID_JSON = "invalid_json"
NOT_OBJECT = "not_object"


@dataclass(frozen=True, slots=True)
class Line:
    offset: int  # byte offset of the line's first byte
    number: int  # 1-based line number in the file
    raw: bytes


@dataclass(frozen=True, slots=True)
class Lines:
    lines: list[Line]
    end: int  # the offset after the last line read: the next read starts here
    tail: int  # bytes after ``end`` left unread (an incomplete last line)


def read_lines(path: Path, start: int, start_line: int, size: int) -> Lines:
    """The complete lines between ``start`` and ``size`` (the size seen by stat).

    A file that grows while it is read is read only up to ``size``, and only up to its last
    newline: a half-written line is left for the next run. The one exception is a last line
    without a newline that parses as a JSON object: a half-written JSON line never does, and
    hand-written files often lack the final newline.
    """
    with path.open("rb") as handle:
        handle.seek(start)
        data = handle.read(max(0, size - start))
    cut = data.rfind(b"\n") + 1
    body, rest = data[:cut], data[cut:]
    if rest.strip() and isinstance(parse_object(rest), dict):
        body, rest = data, b""
    lines: list[Line] = []
    offset, number = start, start_line
    for raw in body.splitlines(keepends=True):
        lines.append(Line(offset, number, raw))
        offset += len(raw)
        number += 1
    return Lines(lines, start + len(body), len(rest))


def parse_object(raw: bytes) -> dict[str, Any] | str:
    """The JSON object on a line, or the reason it is not one."""
    try:
        value = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return INVALID_UTF8
    except json.JSONDecodeError:
        return INVALID_JSON
    except RecursionError:  # absurdly nested input must not crash an import
        return INVALID_JSON
    return value if isinstance(value, dict) else NOT_OBJECT


def head_hash(path: Path, length: int) -> str:
    """A fingerprint of the file's first ``length`` bytes: a rewritten file gets another one."""
    import hashlib

    with path.open("rb") as handle:
        return hashlib.blake2b(handle.read(length), digest_size=8).hexdigest()
