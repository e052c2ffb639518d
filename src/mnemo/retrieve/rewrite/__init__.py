"""Query rewriting: resolve the references of a query against the recent conversation.

``QueryRewriter.rewrite(query, context)`` takes the fast path for clear queries, uses a
configured LLM when there is one (validated, cached, with a hard time-out) and otherwise — or
when the LLM fails or is not confident — the rule resolver. It never raises for a bad query or a
broken endpoint: the result carries the original query and the reason.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mnemo.errors import InputError
from mnemo.llm.client import ChatClient, LLMError
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.chains import chained
from mnemo.retrieve.rewrite.detect import detect
from mnemo.retrieve.rewrite.llm import RewriteCache, confidence, llm_rewrite
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.resolve import Resolution, resolve
from mnemo.retrieve.rewrite.tidy import without_title_stops
from mnemo.store.sql import query_terms

#: Queries longer than this are pasted text, not conversational follow-ups; the rules' cost grows
#: with the query's length, so they are passed through unread.
MAX_QUERY_CHARS = 2000

__all__ = ["QueryRewriter", "RewriteResult", "detect", "normalise_context"]


@dataclass(frozen=True, slots=True)
class RewriteResult:
    original: str
    expanded: str
    was_rewritten: bool
    confidence: float
    resolved: tuple[Resolution, ...] = ()
    references: tuple[str, ...] = ()
    method: str = "none"  # none, resolver, llm
    reason: str = ""
    context_used: int = 0
    latency_ms: float = 0.0
    cached: bool = field(default=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "original": self.original,
            "expanded": self.expanded,
            "was_rewritten": self.was_rewritten,
            "confidence": round(self.confidence, 3),
            "resolved": [r.as_dict() for r in self.resolved],
            "references": list(self.references),
            "method": self.method,
            "reason": self.reason,
            "context_used": self.context_used,
            "latency_ms": round(self.latency_ms, 3),
        }


def normalise_context(context: Any) -> list[dict[str, str]]:
    """Accept a list of {role, content} messages (or plain strings); refuse anything else."""
    if context is None:
        return []
    if isinstance(context, (str, bytes)) or not isinstance(context, Sequence):
        raise InputError("context must be a list of {role, content} messages")
    messages: list[dict[str, str]] = []
    for position, message in enumerate(context):
        if isinstance(message, str):
            messages.append({"role": "user", "content": message})
        elif isinstance(message, Mapping) and isinstance(message.get("content", ""), str):
            messages.append({k: str(v) for k, v in message.items() if k in ("role", "name", "content") and v})
        else:
            raise InputError(f"context message {position} must be an object with a text 'content'")
    return messages


class QueryRewriter:
    def __init__(
        self,
        client: ChatClient | None = None,
        *,
        min_confidence: float = 0.7,
        max_context: int = 10,
        cache_ttl: float = 300.0,
    ) -> None:
        self.client = client
        self.min_confidence = min_confidence
        self.max_context = max_context
        self.cache = RewriteCache(cache_ttl)

    def rewrite(self, query: Any, context: Any = None) -> RewriteResult:
        started = time.perf_counter()
        result = self._rewrite(query, context)
        return replace(result, latency_ms=(time.perf_counter() - started) * 1000)

    def _rewrite(self, query: Any, context: Any) -> RewriteResult:
        if not isinstance(query, str) or not query.strip():
            text = query.strip() if isinstance(query, str) else ""
            return RewriteResult(text, text, False, 0.0, reason="empty query: nothing to rewrite")
        query = query.strip()
        if len(query) > MAX_QUERY_CHARS:  # a pasted document or log, no follow-up to resolve
            reason = f"query longer than {MAX_QUERY_CHARS} characters: left as it is"
            return RewriteResult(query, query, False, 1.0, reason=reason)
        messages = normalise_context(context)
        # one message a line: a lower-case message is then truecased on its own (anchoring.py)
        references = detect(query, "\n".join(m.get("content", "") for m in messages[-self.max_context :]))
        names = tuple(r.text for r in references)
        if not references:
            return RewriteResult(query, query, False, 1.0, reason="query is clear (no ambiguous references)")
        only_pointers = all(w in _POINTERS for w in query_terms(query, keep_stopwords=True))
        if only_pointers and not messages:
            return RewriteResult(query, query, False, 0.0, references=names, reason="only a pointer, no context")
        if not messages:
            return RewriteResult(query, query, False, 0.5, references=names, reason="no context to resolve references")
        fallback_reason = ""
        if self.client is not None:
            outcome = self._with_llm(query, messages, references)
            if isinstance(outcome, RewriteResult):
                return outcome
            fallback_reason = outcome
        return self._with_resolver(query, messages, references, fallback_reason)

    def _with_llm(self, query: str, messages: list[dict[str, str]], refs: list[Reference]) -> RewriteResult | str:
        assert self.client is not None
        key = self.cache.key(query, messages[-self.max_context :], self.client.settings.model)
        cached = self.cache.get(key)
        if isinstance(cached, RewriteResult):
            return replace(cached, cached=True)
        try:
            expanded = llm_rewrite(self.client, query, messages, refs, self.max_context)
        except LLMError as exc:
            return f"LLM failed ({exc}); used the rule resolver"
        score = confidence(query, expanded, refs, messages)
        if score < self.min_confidence:
            return f"LLM rewrite not trusted (confidence {score:.2f}); used the rule resolver"
        result = RewriteResult(
            query,
            expanded,
            True,
            score,
            references=tuple(r.text for r in refs),
            method="llm",
            reason="references expanded by the LLM",
            context_used=min(len(messages), self.max_context),
        )
        self.cache.put(key, result)
        return result

    def _with_resolver(
        self, query: str, messages: list[dict[str, str]], refs: list[Reference], why: str
    ) -> RewriteResult:
        messages = [{**m, "content": without_title_stops(m.get("content", ""))} for m in messages]
        candidates = extract(messages, self.max_context)
        # only personal pronouns use the chains, and each chained message costs an extraction
        pronouns = any(r.kind in ("person", "plural", "thing") for r in refs)
        centred = chained(messages, [replace(c) for c in candidates], self.max_context) if pronouns else None
        expanded, done = resolve(query, refs, candidates, messages[-self.max_context :], centred)
        names = tuple(r.text for r in refs)
        used = min(len(messages), self.max_context)
        if not done:
            reason = why or "no candidate in the context fits the references"
            return RewriteResult(query, query, False, 0.3, references=names, reason=reason, context_used=used)
        score = sum(r.confidence for r in done) / max(len(refs), len(done))
        reason = why or f"resolved {len(done)} of {len(refs)} reference(s) from the context"
        return RewriteResult(query, expanded, True, score, tuple(done), names, "resolver", reason, used)


_POINTERS = frozenset("he she it they him her them his its their this that these those there here".split())
