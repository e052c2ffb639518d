"""Facts from messages into the store: which messages, which items, one extractor per conversation."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from mnemo.extract.pipeline import Extractor
from mnemo.records import Fact, Item, Scope
from mnemo.store.base import Embedding
from mnemo.timeutil import now_utc, to_epoch

#: Conversations whose pronoun state is kept in memory; the least recent are dropped.
MAX_CONVERSATIONS = 256

Embed = Callable[[Sequence[Item]], Sequence[Embedding | None]]


def fact_id(fact: Fact) -> str:
    """One item per (subject, relation, object) per owner: repetition reinforces it."""
    digest = hashlib.blake2b("\x1f".join(fact.triple).encode("utf-8"), digest_size=10).hexdigest()
    return f"fact:{digest}"


def fact_item(fact: Fact, message: Item) -> Item:
    scope = Scope(user_id=message.scope.user_id, agent_id=message.scope.agent_id, project=message.scope.project)
    content = fact.text
    return Item(
        id=fact_id(fact),
        content=content,
        kind="fact",
        source="extract",
        scope=scope,
        timestamp=message.timestamp,
        metadata={"subject": fact.subject, "relation": fact.relation, "object": fact.object, "lang": fact.lang},
        content_hash=hashlib.blake2b(content.encode("utf-8"), digest_size=16).hexdigest(),
    )


class FactLearner:
    """Runs extraction on user messages and records the facts (with their keys) in the store."""

    def __init__(self) -> None:
        self._extractors: OrderedDict[tuple[Any, ...], Extractor] = OrderedDict()

    def learn(self, store: Any, embed: Embed, items: Sequence[Item], *, alpha: float, model: str | None) -> int:
        found: list[tuple[Item, list[tuple[Item, Fact]]]] = []
        for message in items:
            if message.role != "user" or message.kind != "message":
                continue
            facts = self._extractor(message).extract(message.content)
            if facts:
                found.append((message, [(fact_item(f, message), f) for f in facts]))
        # one embedding call for the whole batch: the model is far faster on batches
        positive = {i.id: i for _, pairs in found for i, f in pairs if not f.negated}
        vectors = dict(zip(positive, embed(list(positive.values())), strict=True)) if positive else {}
        stored = 0
        for message, pairs in found:
            entries = [(i, vectors.get(i.id), f) for i, f in pairs]
            now = to_epoch(message.ingested_at or now_utc()) or 0.0
            stored += store.record_facts(entries, now=now, alpha=alpha, model=model, source=message)
        return stored

    def _extractor(self, message: Item) -> Extractor:
        key = (*message.scope.as_dict().values(),)
        extractor = self._extractors.pop(key, None) or Extractor()
        self._extractors[key] = extractor
        while len(self._extractors) > MAX_CONVERSATIONS:
            self._extractors.popitem(last=False)
        return extractor
