"""Rewriting with an LLM: the prompt, cleaning the answer, and judging whether to trust it.

The model gets the seed's rules (expand only the ambiguous references, use only the context,
keep what cannot be resolved, answer with the query alone). Its answer is validated: the
references must be gone, the length sane, and the words it added must come from the context;
anything below the confidence threshold is discarded by the caller in favour of the resolver.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from mnemo.llm.client import ChatClient
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.store.sql import STOPWORDS

from . import cached_re

SYSTEM_PROMPT = (
    "You rewrite search queries so they can be understood without the conversation. Replace the "
    "ambiguous references (pronouns, 'that', 'this', 'there', 'the bug', 'earlier', ...) with the "
    "explicit people, things, places or topics they refer to.\n"
    "Rules:\n"
    "1. Change only the ambiguous references; keep every other word and the question's intent.\n"
    "2. Use only information found in the conversation given.\n"
    "3. If a reference cannot be resolved from the conversation, leave it as it is.\n"
    "4. Answer with the rewritten query only: one line, no quotes, no explanation."
)
MAX_CONTEXT_CHARS = 500
_WORD = re.compile(r"[\w']+")
_PREFIX = re.compile(r"^(?:expanded|rewritten)?\s*query\s*:\s*", re.IGNORECASE)


def build_messages(
    query: str, context: Sequence[Mapping[str, str]], references: Sequence[Reference], max_messages: int
) -> list[dict[str, str]]:
    recent = list(context)[-max_messages:]
    lines = [
        f"[{str(m.get('name') or m.get('role') or 'unknown').upper()}]: "
        + str(m.get("content") or "")[:MAX_CONTEXT_CHARS]
        for m in reversed(recent)
    ]
    tokens = ", ".join(dict.fromkeys(r.text for r in references)) or "none detected"
    user = (
        "CONVERSATION (most recent first):\n"
        + "\n".join(lines)
        + f"\n\nQUERY: {query}\nAMBIGUOUS REFERENCES: {tokens}\nREWRITTEN QUERY:"
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def clean_answer(answer: str) -> str:
    """First non-empty line, without a 'Query:' label or wrapping quotes."""
    line = next((part.strip() for part in answer.strip().splitlines() if part.strip()), "")
    line = _PREFIX.sub("", line).strip()
    return line.strip("\"'`").strip()


def confidence(
    original: str, rewritten: str, references: Sequence[Reference], context: Sequence[Mapping[str, str]]
) -> float:
    """Seed 000's score, plus grounding: references gone (0.7) + sane length (0.3), halved if the
    words the model added are mostly absent from the conversation (it made them up)."""
    if not rewritten or rewritten.strip().lower() == original.strip().lower():
        return 0.0
    words = {w.lower() for w in _WORD.findall(rewritten)}
    gone = [r for r in references if not _still_there(r.text, rewritten, words)]
    ratio = len(gone) / len(references) if references else 0.8
    length = len(rewritten) / max(1, len(original))
    score = ratio * 0.7 + (0.3 if 1.0 <= length <= 3.0 else 0.15)
    known = {w.lower() for m in context for w in _WORD.findall(str(m.get("content") or ""))}
    known |= {str(m.get("name") or m.get("role") or "").lower() for m in context}
    known |= {w.lower() for w in _WORD.findall(original)}
    added = [w for w in words if w not in known and w not in STOPWORDS and not w.endswith("'s")]
    content_added = [w for w in words if w not in STOPWORDS and w not in {x.lower() for x in _WORD.findall(original)}]
    if content_added and len(added) / len(content_added) > 0.4:
        score *= 0.5
    return min(1.0, score)


def _still_there(reference: str, text: str, words: set[str]) -> bool:
    low = reference.lower()
    if " " in low:
        return cached_re.search(rf"\b{re.escape(low)}\b", text.lower()) is not None
    return low in words


def llm_rewrite(
    client: ChatClient,
    query: str,
    context: Sequence[Mapping[str, str]],
    references: Sequence[Reference],
    max_messages: int,
) -> str:
    """The model's rewrite, cleaned; raises LLMError when the endpoint fails."""
    answer = client.complete(build_messages(query, context, references, max_messages), max_tokens=200, temperature=0.1)
    return clean_answer(answer)


class RewriteCache:
    """Rewrites by (query, context, model), each kept ``ttl`` seconds; least recently used evicted."""

    def __init__(self, ttl: float = 300.0, size: int = 1024) -> None:
        self.ttl = ttl
        self.size = size
        self._entries: OrderedDict[str, tuple[float, object]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(query: str, context: Sequence[Mapping[str, str]], model: str) -> str:
        blob = json.dumps([query, [dict(m) for m in context], model], sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def get(self, key: str) -> object | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            stored_at, value = entry
            if time.monotonic() - stored_at > self.ttl:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return value

    def put(self, key: str, value: object) -> None:
        if self.ttl <= 0:
            return
        with self._lock:
            self._entries[key] = (time.monotonic(), value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
