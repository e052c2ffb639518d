"""The OpenAI-compatible client against a real local HTTP server speaking the wire protocol."""

from __future__ import annotations

import time

import pytest

from mnemo.config import load_config
from mnemo.errors import ConfigError
from mnemo.llm import ChatClient, LLMError, LLMSettings, client_from_config
from tests.fake_llm import FakeLLM, down_url

pytestmark = pytest.mark.core


def test_sends_model_messages_and_key_and_reads_the_content() -> None:
    with FakeLLM(lambda body: "hello back") as server:
        client = ChatClient(LLMSettings(server.base_url, "tiny-model", api_key="sk-test", timeout=5))
        text = client.complete([{"role": "user", "content": "hello"}], max_tokens=7)
    assert text == "hello back"
    request = server.requests[0]
    assert request["model"] == "tiny-model"
    assert request["messages"] == [{"role": "user", "content": "hello"}]
    assert request["max_tokens"] == 7
    assert server.headers[0]["Authorization"] == "Bearer sk-test"


@pytest.mark.parametrize("mode", ["garbage", "empty", "error"])
def test_a_broken_answer_is_an_llm_error(mode: str) -> None:
    with FakeLLM(lambda body: "unused", mode=mode) as server:
        client = ChatClient(LLMSettings(server.base_url, "m", timeout=5))
        with pytest.raises(LLMError):
            client.complete([{"role": "user", "content": "hi"}])


def test_a_slow_endpoint_times_out_instead_of_hanging() -> None:
    with FakeLLM(lambda body: "late", mode="slow", delay=3.0) as server:
        client = ChatClient(LLMSettings(server.base_url, "m", timeout=0.3))
        started = time.monotonic()
        with pytest.raises(LLMError, match="did not answer"):
            client.complete([{"role": "user", "content": "hi"}])
        assert time.monotonic() - started < 2.0


def test_a_down_endpoint_is_an_llm_error() -> None:
    client = ChatClient(LLMSettings(down_url(), "m", timeout=2))
    with pytest.raises(LLMError, match="unreachable"):
        client.complete([{"role": "user", "content": "hi"}])


def test_settings_come_from_the_environment_and_nothing_is_configured_by_default() -> None:
    assert client_from_config(load_config(env={})) is None
    config = load_config(
        env={"MNEMO_LLM_BASE_URL": "http://127.0.0.1:9/v1", "MNEMO_LLM_MODEL": "m", "MNEMO_LLM_TIMEOUT": "2.5"}
    )
    client = client_from_config(config)
    assert client is not None and client.url == "http://127.0.0.1:9/v1/chat/completions"
    assert client.settings.timeout == 2.5


def test_bad_settings_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        LLMSettings("ftp://example", "m")
    with pytest.raises(ConfigError):
        LLMSettings("http://127.0.0.1:9", "")
