"""Extractive session summaries: the few sentences that best cover what a session talked about.

No LLM: a sentence scores by how many of the session's frequent informative terms it holds
(normalised by length, so one long rambling turn does not win), the best ``max_sentences`` from
different turns are kept in conversation order, and each summary remembers which items its
sentences came from, so a summary hit can point back at its evidence.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from mnemo.records import Item
from mnemo.store.sql import query_terms

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
SUMMARY_SOURCE = "mnemo-summary"


def summary_id(session_id: str) -> str:
    return f"summary:{session_id}"


def summarise(items: Sequence[Item], max_sentences: int = 4, max_chars: int = 600) -> tuple[str, list[str]]:
    """The summary text of one session's items and the ids of the items it quotes."""
    sentences: list[tuple[int, str, str]] = []  # (position, item id, sentence)
    for position, item in enumerate(items):
        for sentence in _SENTENCE.split(item.content.strip()):
            if len(query_terms(sentence)) >= 3:
                sentences.append((position, item.id, sentence.strip()))
    if not sentences:
        return "", []
    frequency: Counter[str] = Counter(t for _, _, s in sentences for t in set(query_terms(s)))

    def score(sentence: str) -> float:
        terms = set(query_terms(sentence))
        return sum(math.log(1 + frequency[t]) for t in terms if frequency[t] > 1) / math.sqrt(len(terms) + 1)

    chosen: list[tuple[int, str, str]] = []
    used_items: set[str] = set()
    for entry in sorted(sentences, key=lambda e: -score(e[2])):
        if entry[1] in used_items:
            continue
        chosen.append(entry)
        used_items.add(entry[1])
        if len(chosen) == max_sentences:
            break
    chosen.sort()
    text = " … ".join(f"{_speaker(items[p])}{s}" for p, _, s in chosen)
    return text[:max_chars], [i for _, i, _ in chosen]


SessionKey = tuple[str | None, ...]


def summarised_sessions(items: Iterable[Item]) -> set[SessionKey]:
    """The (user, agent, project, session) of each message that belongs to a session: the
    sessions whose summary an ingestion of these items makes stale."""
    return {
        (i.scope.user_id, i.scope.agent_id, i.scope.project, i.scope.session_id)
        for i in items
        if i.kind == "message" and i.scope.session_id
    }


def summary_records(items: Iterable[Item], max_sentences: int = 4) -> list[dict[str, Any]]:
    """One summary record (for ``Memory.add_many``) per (owner, session) of the given messages."""
    groups: dict[tuple[Any, ...], list[Item]] = {}
    for item in items:
        if item.kind != "message" or not item.scope.session_id:
            continue
        key = (item.scope.user_id, item.scope.agent_id, item.scope.project, item.scope.session_id)
        groups.setdefault(key, []).append(item)
    records = []
    for (user_id, agent_id, project, session_id), members in groups.items():
        members.sort(key=lambda i: (i.timestamp is None, i.timestamp or 0))
        text, sources = summarise(members, max_sentences)
        if not text:
            continue
        times = [i.timestamp for i in members if i.timestamp]
        records.append(
            {
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
                    "sources": sources,
                    "messages": len(members),
                    "method": "extractive",
                },
            }
        )
    return records


def _speaker(item: Item) -> str:
    return f"{item.role}: " if item.role and item.role not in ("user", "assistant") else ""
