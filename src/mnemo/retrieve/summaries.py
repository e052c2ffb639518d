"""Extractive session summaries: the few sentences that best cover what a session talked about.

No LLM: a sentence scores by how many of the session's frequent informative terms it holds
(normalised by length, so one long rambling turn does not win), the best ``max_sentences`` from
different turns are kept in conversation order, and each summary remembers which items its
sentences came from, so a summary hit can point back at its evidence. The same ranking picks
what an LLM summary's prompt quotes when a session is too long to send whole (summary_llm.py).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mnemo.records import Item, Subcategory
from mnemo.store.sql import query_terms

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
SUMMARY_SOURCE = "mnemo-summary"

SessionKey = tuple[str | None, ...]  # (user_id, agent_id, project, session_id)


@dataclass(frozen=True, slots=True)
class Sentence:
    position: int  # the item's place in the session
    item_id: str
    text: str
    score: float


def summary_id(session_id: str) -> str:
    return f"summary:{session_id}"


def ranked_sentences(items: Sequence[Item]) -> list[Sentence]:
    """Every sentence of three or more informative words, most central to the session first."""
    sentences: list[tuple[int, str, str]] = []
    for position, item in enumerate(items):
        for sentence in _SENTENCE.split(item.content.strip()):
            if len(query_terms(sentence)) >= 3:
                sentences.append((position, item.id, sentence.strip()))
    frequency: Counter[str] = Counter(t for _, _, s in sentences for t in set(query_terms(s)))

    def score(sentence: str) -> float:
        terms = set(query_terms(sentence))
        return sum(math.log(1 + frequency[t]) for t in terms if frequency[t] > 1) / math.sqrt(len(terms) + 1)

    scored = [Sentence(p, i, s, score(s)) for p, i, s in sentences]
    return sorted(scored, key=lambda s: (-s.score, s.position))


def summarise(items: Sequence[Item], max_sentences: int = 4, max_chars: int = 600) -> tuple[str, list[str]]:
    """The summary text of one session's items and the ids of the items it quotes."""
    chosen: list[Sentence] = []
    used_items: set[str] = set()
    for sentence in ranked_sentences(items):
        if sentence.item_id in used_items:
            continue
        chosen.append(sentence)
        used_items.add(sentence.item_id)
        if len(chosen) == max_sentences:
            break
    if not chosen:
        return "", []
    chosen.sort(key=lambda s: s.position)
    text = " … ".join(f"{speaker(items[s.position])}{s.text}" for s in chosen)
    return text[:max_chars], [s.item_id for s in chosen]


def summarised_sessions(items: Iterable[Item]) -> set[SessionKey]:
    """The (user, agent, project, session) of each message that belongs to a session: the
    sessions whose summary an ingestion of these items makes stale."""
    return {
        (i.scope.user_id, i.scope.agent_id, i.scope.project, i.scope.session_id)
        for i in items
        if i.kind == "message" and i.scope.session_id
    }


def session_groups(items: Iterable[Item]) -> dict[SessionKey, list[Item]]:
    """The messages of each (owner, session), in the order they happened (unknown times last)."""
    groups: dict[SessionKey, list[Item]] = {}
    for item in items:
        if item.kind == "message" and item.scope.session_id:
            key = (item.scope.user_id, item.scope.agent_id, item.scope.project, item.scope.session_id)
            groups.setdefault(key, []).append(item)
    for members in groups.values():
        members.sort(key=lambda i: (i.timestamp is None, i.timestamp or 0))
    return groups


def session_digest(members: Sequence[Item]) -> str:
    """A fingerprint of a session's messages: an unchanged session need not be summarised again."""
    hasher = hashlib.sha256()
    for item in members:
        hasher.update(f"{item.id}\x1f{item.content_hash or item.content}\x1e".encode())
    return hasher.hexdigest()[:24]


def summary_record(key: SessionKey, members: Sequence[Item], text: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The summary item (a record for ``Memory.add_many``) of one session's messages."""
    user_id, agent_id, project, session_id = key
    assert session_id is not None  # session_groups only groups messages that have a session
    times = [i.timestamp for i in members if i.timestamp]
    return {
        "id": summary_id(session_id),
        "content": text,
        "kind": "summary",
        "source": SUMMARY_SOURCE,
        "user_id": user_id,
        "agent_id": agent_id,
        "project": project,
        "session_id": session_id,
        "timestamp": max(times) if times else None,
        "metadata": {
            "summary_of": session_id,
            "messages": len(members),
            "digest": session_digest(members),
            **metadata,
        },
    }


def summary_records(items: Iterable[Item], max_sentences: int = 4) -> list[dict[str, Any]]:
    """One extractive summary record (for ``Memory.add_many``) per (owner, session) of the given messages."""
    records = []
    for key, members in session_groups(items).items():
        text, sources = summarise(members, max_sentences)
        if text:
            records.append(summary_record(key, members, text, {"sources": sources, "method": "extractive"}))
    return records


def category_summary_id(sub: Subcategory) -> str:
    """One id per (user, subcategory); the user is part of it because a user-less partition ("-")
    has no owner field that would tell its summaries apart from everyone else's."""
    return f"summary:category:{sub.user_id or '-'}:{sub.path}"


def category_label(sub: Subcategory) -> str:
    """What a category summary starts with, so a search for the topic's name or keywords finds it."""
    keywords = ", ".join(sub.keywords[:5])
    return f"{sub.category} / {sub.name.replace('_', ' ')}" + (f" ({keywords})" if keywords else "") + ": "


def category_summary_record(
    sub: Subcategory, members: Sequence[Item], text: str, metadata: Mapping[str, Any]
) -> dict[str, Any]:
    """The summary item of one subcategory's memories: tier 1 of progressive search holds topics too."""
    times = [i.timestamp for i in members if i.timestamp]
    return {
        "id": category_summary_id(sub),
        "content": category_label(sub) + text,
        "kind": "summary",
        "source": SUMMARY_SOURCE,
        "user_id": sub.user_id or None,
        "timestamp": max(times) if times else None,
        "metadata": {
            "summary_of_category": sub.path,
            "messages": len(members),
            "digest": session_digest(members),
            **metadata,
        },
    }


@dataclass(frozen=True, slots=True)
class SummaryReport:
    """What a summarising run did: how many sessions (or subcategories) got which kind of summary, and why."""

    sessions: int = 0
    llm: int = 0
    extractive: int = 0
    kept: int = 0  # unchanged since their last summary of the same method: not rebuilt
    empty: int = 0  # nothing summarisable (no sentence of three informative words)
    pending: int = 0  # an LLM was wanted but not used (call budget or endpoint failure)
    fallbacks: Mapping[str, int] = field(default_factory=dict)  # reason -> sessions
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0  # summaries of subcategories that no longer exist

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "llm": self.llm,
            "extractive": self.extractive,
            "kept": self.kept,
            "empty": self.empty,
            "pending": self.pending,
            "fallbacks": dict(self.fallbacks),
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "removed": self.removed,
        }


def speaker(item: Item) -> str:
    return f"{item.role}: " if item.role and item.role not in ("user", "assistant") else ""
