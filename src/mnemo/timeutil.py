"""Timestamps in, timestamps out: everything inside mnemo is timezone-aware UTC."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from mnemo.errors import InputError


def to_utc(value: datetime | str | int | float | None, *, field: str = "timestamp") -> datetime | None:
    """Accept a datetime, an ISO-8601 string or epoch seconds; naive values are taken as UTC."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, bool):  # bool is an int subclass; True is not a time
        raise InputError(f"{field}: expected a datetime, ISO-8601 string or epoch seconds, got {value!r}")
    elif isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise InputError(f"{field}: epoch seconds must be finite, got {value!r}")
        try:
            moment = datetime.fromtimestamp(float(value), tz=UTC)
        except (OverflowError, OSError, ValueError) as exc:
            raise InputError(f"{field}: epoch seconds out of range: {value!r}") from exc
    elif isinstance(value, str):
        moment = _parse_iso(value.strip(), field)
    else:
        raise InputError(f"{field}: expected a datetime, ISO-8601 string or epoch seconds, got {type(value).__name__}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError as exc:
        raise InputError(f"{field}: {value!r} is out of range") from exc
    # stored as epoch seconds; keep a margin so reading it back can never overflow a datetime
    if not 1 <= moment.year <= 9998:
        raise InputError(f"{field}: year {moment.year} is out of range (1-9998)")
    return moment


def _parse_iso(text: str, field: str) -> datetime:
    # fromisoformat in 3.11 accepts "Z" and most ISO forms; a space separator is common in logs.
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError as exc:
        raise InputError(f"{field}: not an ISO-8601 timestamp: {text[:60]!r}") from exc


def to_epoch(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def from_epoch(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, tz=UTC)


def now_utc() -> datetime:
    return datetime.now(tz=UTC)
