"""Opt-in redaction: secrets and contact details replaced by typed placeholders before storage.

Turned on with the ``redact`` setting (``MNEMO_REDACT=1``). What is replaced, in this order (a
later pattern never sees text an earlier one already replaced):

- private key blocks → ``[REDACTED_PRIVATE_KEY]``
- JSON Web Tokens (three base64url parts, the first starting ``eyJ``) → ``[REDACTED_JWT]``
- API keys with a known shape: OpenAI/Anthropic ``sk-…``, GitHub ``ghp_``/``gho_``/``ghs_``/
  ``ghu_``/``ghr_``/``github_pat_``, Slack ``xox?-``, AWS access key ids ``AKIA…``/``ASIA…``,
  Google ``AIza…``, Stripe ``sk_live_``/``rk_live_`` → ``[REDACTED_API_KEY]``
- ``Bearer <token>`` / ``Authorization: Basic <token>`` → ``Bearer [REDACTED_TOKEN]``
- ``password=…``, ``api_key: …``, ``secret=…`` style assignments → the value as ``[REDACTED_SECRET]``
- e-mail addresses → ``[REDACTED_EMAIL]``
- phone numbers (international ``+…`` or 10+ digits grouped like a phone number) → ``[REDACTED_PHONE]``
- long hex (32+) or base64 (40+, with a digit and both letter cases) strings → ``[REDACTED_SECRET]``

The patterns are plain regular expressions with bounded repetition, so a hostile 10 MB message
costs linear time. Redaction is lossy on purpose: the original text is never written anywhere.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

_PLACEHOLDER = "[REDACTED_{}]"

# (type, pattern, group to replace or 0 for the whole match)
_RULES: tuple[tuple[str, re.Pattern[str], int], ...] = (
    (
        "PRIVATE_KEY",
        re.compile(r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,10000}?-----END [A-Z ]{0,40}PRIVATE KEY-----"),
        0,
    ),
    ("JWT", re.compile(r"\beyJ[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,4096}"), 0),
    (
        "API_KEY",
        re.compile(
            r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,200}"
            r"|gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{30,255}"
            r"|xox[abposr]-[A-Za-z0-9-]{10,200}"
            r"|(?:AKIA|ASIA)[A-Z0-9]{16}"
            r"|AIza[A-Za-z0-9_-]{35}"
            r"|[sr]k_(?:live|test)_[A-Za-z0-9]{16,200})\b"
        ),
        0,
    ),
    ("TOKEN", re.compile(r"(?i)\b(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{16,4096})"), 1),
    (
        "SECRET",
        re.compile(
            r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?key|auth[_-]?token|client[_-]?secret)"
            r"\s{0,3}[:=]\s{0,3}[\"']?([^\s\"',;]{6,512})"
        ),
        1,
    ),
    (
        "EMAIL",
        re.compile(r"\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b"),
        0,
    ),
    (
        "PHONE",
        re.compile(
            r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?![\w])"
            r"|(?<![\w+])\+\d{8,15}(?!\w)"
        ),
        0,
    ),
    ("SECRET", re.compile(r"\b[A-Fa-f0-9]{32,4096}\b"), 0),
    ("SECRET", re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{40,4096}={0,2}(?![A-Za-z0-9+/=_-])"), 0),
)

#: A phone-shaped match needs at least this many digits, so dates (2024-05-01) and versions stay.
_PHONE_MIN_DIGITS = 9
_DATE_LIKE = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$")


def redact_text(text: str) -> str:
    """``text`` with every secret, e-mail address and phone number replaced by its placeholder."""
    if not text:
        return text
    for kind, pattern, group in _RULES:
        text = pattern.sub(_replacer(kind, group), text)
    return text


def _replacer(kind: str, group: int) -> Any:
    placeholder = _PLACEHOLDER.format(kind)

    def replace(match: re.Match[str]) -> str:
        whole = match.group(0)
        if kind == "PHONE" and not _phone_like(whole):
            return whole
        if kind == "SECRET" and group == 0 and not _secret_like(whole):
            return whole
        if group == 0:
            return placeholder
        start, end = match.span(group)
        offset = match.start(0)
        return whole[: start - offset] + placeholder + whole[end - offset :]

    return replace


def _phone_like(text: str) -> bool:
    digits = sum(c.isdigit() for c in text)
    return digits >= _PHONE_MIN_DIGITS and digits <= 15 and not _DATE_LIKE.match(text.strip())


def _secret_like(text: str) -> bool:
    """A long run is a secret when it mixes characters like one: hex is always random enough;
    base64 needs a digit and both cases (so a long identifier or word chain is kept)."""
    if re.fullmatch(r"[A-Fa-f0-9]+", text):
        return any(c.isdigit() for c in text) and any(c.isalpha() for c in text)
    body = text.rstrip("=")
    return any(c.isdigit() for c in body) and any(c.islower() for c in body) and any(c.isupper() for c in body)


def redact_value(value: Any) -> Any:
    """Strings redacted inside any JSON-like value (metadata): dict keys stay, values are scanned."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return {key: redact_value(inner) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_value(inner) for inner in value]
    return value


# -- log output ------------------------------------------------------------------------------

_LOG_LOCK = threading.Lock()
_log_installed = False


def install_log_redaction() -> None:
    """Redact the message of every log record from mnemo's loggers ("mnemo", "mnemo.*"), once.

    A record factory rather than a logger filter: filters on the "mnemo" logger do not apply to
    records of its child loggers, and mnemo configures no handlers of its own to filter on.
    """
    global _log_installed
    with _LOG_LOCK:
        if _log_installed:
            return
        previous = logging.getLogRecordFactory()

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = previous(*args, **kwargs)
            if record.name == "mnemo" or record.name.startswith("mnemo."):
                record.msg = redact_text(record.getMessage())
                record.args = None
            return record

        logging.setLogRecordFactory(factory)
        _log_installed = True


def enabled_in_env(env: Mapping[str, str]) -> bool:
    """Whether MNEMO_REDACT asks for redaction (for edges that run before any config is read)."""
    return env.get("MNEMO_REDACT", "").strip().lower() not in ("", "0", "false", "no", "off")


# -- records on their way to the store -------------------------------------------------------


def redact_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A memory record (``add``/``add_many``/import shape) with its text and metadata redacted."""
    out = dict(record)
    for key in ("content", "text"):
        if isinstance(out.get(key), str):
            out[key] = redact_text(out[key])
    if isinstance(out.get("metadata"), Mapping):
        out["metadata"] = redact_value(out["metadata"])
    return out


class RedactingSourceStore:
    """A store as the source importer sees it, with session titles and file state redacted.

    The importer writes session rows (titles come from the first user message) and per-file
    state beside the items; both would otherwise keep the text redaction removed from the items.
    Every other attribute is the wrapped store's.
    """

    def __init__(self, store: Any) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def upsert_sessions(self, sessions: Sequence[Any]) -> None:
        self._store.upsert_sessions([replace(s, title=redact_text(s.title) if s.title else s.title) for s in sessions])

    def record_sources(self, files: Sequence[Any]) -> None:
        self._store.record_sources([replace(f, state=redact_value(dict(f.state))) for f in files])
