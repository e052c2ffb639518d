"""Query rewriting: detection, the rule resolver, the LLM path over real HTTP, and bad input."""

from __future__ import annotations

import time

import pytest

from mnemo.errors import InputError
from mnemo.llm import ChatClient, LLMSettings
from mnemo.retrieve.rewrite import QueryRewriter, detect
from tests.fake_llm import FakeLLM, down_url, query_of

pytestmark = pytest.mark.core

JOHN = [
    {"role": "user", "content": "Ask John about the database migration."},
    {"role": "assistant", "content": "John said the migration is blocked on the schema review."},
]


def kinds(query: str, context: str = "") -> dict[str, str]:
    return {r.text.lower(): r.kind for r in detect(query, context)}


def test_detects_pronouns_demonstratives_temporal_and_implicit_references() -> None:
    assert kinds("What did he say?") == {"he": "person"}
    assert kinds("Tell me more about that") == {"that": "demonstrative"}
    assert kinds("What did we decide earlier?") == {"earlier": "temporal"}
    assert kinds("Is the bug fixed?") == {"the bug": "implicit"}
    assert kinds("What did we do there?") == {"there": "place"}


@pytest.mark.parametrize(
    "query",
    [
        "How to implement OAuth2 authentication?",
        "Find the function that parses YAML anchors",
        "Is there a way to rerun failed tests?",
        "What did we decide about pricing this week?",
        "Where has Melanie camped with her family?",
        "When did Caroline go to the support group before the move?",
    ],
)
def test_clear_queries_have_no_references(query: str) -> None:
    assert detect(query, "some context about tests and pricing") == []


def test_resolver_rewrites_people_and_things_from_the_context() -> None:
    result = QueryRewriter().rewrite("What did he say about that migration?", JOHN)
    assert result.was_rewritten and result.method == "resolver"
    assert result.expanded == "What did John say about the migration?"
    assert {r.reference for r in result.resolved} == {"he", "that migration"}
    assert 0.7 <= result.confidence <= 1.0


def test_resolver_uses_gender_speaker_roles_and_places() -> None:
    context = [
        {"role": "Caroline", "content": "I went to a support group in Boston with Tom."},
        {"role": "Melanie", "content": "That sounds lovely!"},
    ]
    rewriter = QueryRewriter()
    assert "Tom" in rewriter.rewrite("What did he think of it?", context).expanded
    assert "Boston" in rewriter.rewrite("What did she do there?", context).expanded
    she = rewriter.rewrite("What did she do there?", context)
    assert she.expanded.startswith("What did Caroline") or "Melanie" in she.expanded


def test_possessive_pronouns_become_possessive_names() -> None:
    context = [{"role": "user", "content": "Emma is leading the accessibility audit."}]
    assert QueryRewriter().rewrite("What did her audit find?", context).expanded == "What did Emma's audit find?"


def test_clear_query_takes_the_fast_path_unchanged() -> None:
    result = QueryRewriter().rewrite("How to implement OAuth2 authentication?", JOHN)
    assert not result.was_rewritten and result.expanded == result.original
    assert result.confidence == 1.0 and "clear" in result.reason


@pytest.mark.parametrize(
    ("query", "context", "reason"),
    [
        ("", JOHN, "empty"),
        ("   ", JOHN, "empty"),
        ("it", [], "no context"),
        ("What did he say?", [], "no context"),
        ("What did she say?", [{"role": "user", "content": "the weather is nice"}], "no candidate"),
    ],
)
def test_bad_or_unresolvable_input_returns_the_original_with_a_reason(query: str, context: list, reason: str) -> None:
    result = QueryRewriter().rewrite(query, context)
    assert not result.was_rewritten and result.expanded == query.strip() and reason in result.reason


def test_malformed_context_is_an_input_error() -> None:
    with pytest.raises(InputError):
        QueryRewriter().rewrite("What did he say?", "not a list")
    with pytest.raises(InputError):
        QueryRewriter().rewrite("What did he say?", [{"role": "user", "content": 5}])


def llm_rewriter(server: FakeLLM, timeout: float = 5.0, ttl: float = 300.0) -> QueryRewriter:
    return QueryRewriter(ChatClient(LLMSettings(server.base_url, "fake", timeout=timeout)), cache_ttl=ttl)


def test_llm_rewrite_is_used_validated_and_cached() -> None:
    answers = {"What did he say about that?": "What did John say about the database migration?"}
    with FakeLLM(lambda body: answers[query_of(body)]) as server:
        rewriter = llm_rewriter(server)
        first = rewriter.rewrite("What did he say about that?", JOHN)
        second = rewriter.rewrite("What did he say about that?", JOHN)
    assert first.method == "llm" and first.was_rewritten
    assert first.expanded == "What did John say about the database migration?"
    assert first.confidence >= 0.7
    assert second.expanded == first.expanded and second.cached
    assert len(server.requests) == 1  # the second came from the cache
    prompt = server.requests[0]["messages"][-1]["content"]
    assert "John said the migration" in prompt and "he, that" in prompt


def test_cache_entries_expire_after_the_ttl() -> None:
    with FakeLLM(lambda body: "What did John say about the database migration?") as server:
        rewriter = llm_rewriter(server, ttl=0.2)
        rewriter.rewrite("What did he say about that?", JOHN)
        time.sleep(0.3)
        rewriter.rewrite("What did he say about that?", JOHN)
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    "answer",
    [
        "What did he say about that?",  # nothing resolved
        "What did Gandalf say about the dragon hoard in Mordor?",  # words not in the context
        "",
    ],
)
def test_untrusted_llm_rewrites_fall_back_to_the_resolver(answer: str) -> None:
    with FakeLLM(lambda body: answer) as server:
        result = llm_rewriter(server).rewrite("What did he say about that?", JOHN)
    assert result.method == "resolver" and "John" in result.expanded
    assert "not trusted" in result.reason


@pytest.mark.parametrize("mode", ["garbage", "empty", "error"])
def test_broken_llm_answers_fall_back_to_the_resolver(mode: str) -> None:
    with FakeLLM(lambda body: "unused", mode=mode) as server:
        result = llm_rewriter(server).rewrite("What did he say about that?", JOHN)
    assert result.method == "resolver" and "John" in result.expanded and "LLM failed" in result.reason


def test_slow_llm_times_out_and_falls_back_quickly() -> None:
    with FakeLLM(lambda body: "late", mode="slow", delay=3.0) as server:
        started = time.monotonic()
        result = llm_rewriter(server, timeout=0.3).rewrite("What did he say about that?", JOHN)
        elapsed = time.monotonic() - started
    assert elapsed < 2.0
    assert result.method == "resolver" and "did not answer" in result.reason


def test_down_llm_falls_back_to_the_resolver() -> None:
    rewriter = QueryRewriter(ChatClient(LLMSettings(down_url(), "fake", timeout=2)))
    result = rewriter.rewrite("What did he say about that?", JOHN)
    assert result.method == "resolver" and "unreachable" in result.reason


def test_clear_queries_never_reach_the_llm() -> None:
    with FakeLLM(lambda body: "should not be asked") as server:
        result = llm_rewriter(server).rewrite("How to implement OAuth2 authentication?", JOHN)
    assert not result.was_rewritten and server.requests == []
