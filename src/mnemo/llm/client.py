"""A minimal OpenAI-compatible chat-completions client on the standard library.

Covers hosted APIs, Ollama (``http://localhost:11434/v1``), llama.cpp server and vLLM: they all
accept ``POST {base}/chat/completions`` with ``{"model", "messages", ...}`` and answer with
``{"choices": [{"message": {"content": ...}}]}``. Stdlib ``urllib`` keeps the core install free of
HTTP dependencies; every call has a hard time-out so a slow or dead endpoint never hangs a search.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mnemo.errors import ConfigError, MnemoError

#: The most of a response body that is read; a chat completion for a query rewrite is tiny.
MAX_RESPONSE_BYTES = 1_000_000


class LLMError(MnemoError):
    """The LLM endpoint failed, timed out or answered with something that is not a completion."""


@dataclass(frozen=True, slots=True)
class LLMSettings:
    base_url: str
    model: str
    api_key: str = ""
    timeout: float = 10.0

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"llm_base_url must start with http:// or https://, got {self.base_url!r}")
        if not self.model:
            raise ConfigError("llm_model must name the model to call")
        if not 0 < self.timeout <= 600:
            raise ConfigError(f"llm_timeout must be between 0 and 600 seconds, got {self.timeout!r}")


class ChatClient:
    """Sends chat messages, returns the assistant's text. Raises LLMError on any failure."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"

    def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        max_tokens: int = 200,
        temperature: float = 0.1,
        timeout: float | None = None,
    ) -> str:
        body = {
            "model": self.settings.model,
            "messages": [dict(m) for m in messages],
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": False,
        }
        payload = self._post(body, timeout or self.settings.timeout)
        return _content_of(payload)

    def _post(self, body: dict[str, Any], timeout: float) -> Any:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        request = urllib.request.Request(self.url, data=json.dumps(body).encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read(MAX_RESPONSE_BYTES)
        except urllib.error.HTTPError as exc:
            raise LLMError(f"LLM endpoint answered HTTP {exc.code}: {exc.reason}") from exc
        except TimeoutError as exc:
            raise LLMError(f"LLM endpoint did not answer within {timeout:g} s") from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, TimeoutError | socket.timeout):
                raise LLMError(f"LLM endpoint did not answer within {timeout:g} s") from exc
            raise LLMError(f"LLM endpoint unreachable: {reason}") from exc
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise LLMError("LLM endpoint answered with something that is not JSON") from exc


def _content_of(payload: Any) -> str:
    try:
        content = payload["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise LLMError("LLM response has no choices[0].message.content") from exc
    if not isinstance(content, str):
        raise LLMError("LLM response content is not text")
    return content


def client_from_config(config: Any) -> ChatClient | None:
    """A client when ``llm_base_url`` and ``llm_model`` are set in the config, else None."""
    base = getattr(config, "llm_base_url", "")
    if not base:
        return None
    settings = LLMSettings(
        base_url=base,
        model=getattr(config, "llm_model", ""),
        api_key=getattr(config, "llm_api_key", ""),
        timeout=float(getattr(config, "llm_timeout", 10.0)),
    )
    return ChatClient(settings)
