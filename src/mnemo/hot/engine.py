"""One user turn: intent and facts → one store write → hot index update → ranking → rotating message."""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mnemo.embed.threads import blas_threads
from mnemo.extract.coref import Mentions
from mnemo.extract.langs import LEXICONS
from mnemo.extract.learn import fact_id, fact_item
from mnemo.extract.pipeline import Analysis, Extractor
from mnemo.hot.index import FactMeta, HotIndex
from mnemo.hot.metrics import META_KEY, TurnMetrics
from mnemo.hot.phrasing import phrase
from mnemo.hot.records import Bullet, TurnResult
from mnemo.hot.score import STATING, Weights, asks_about, score, select, stale
from mnemo.hot.terms import words
from mnemo.hot.window import InjectWindow, render
from mnemo.records import Item, Scope
from mnemo.store.base import Embedding
from mnemo.timeutil import now_utc, to_epoch

#: Conversations whose pronoun state, turn counter and window are kept; the least recent go first.
MAX_CONVERSATIONS = 256
#: Facts read per owner when the hot index is built (the strongest first).
MAX_INDEXED = 2_000_000
_WORDS = re.compile(r"\w+", re.UNICODE)
#: First-person words that are only ever the object of a request ("remind me", "dis-moi").
_OBJECT_ONLY = frozenset({"me", "moi"})
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "je", "moi", "mon", "ma", "mes", "yo", "mi", "ich"})

Embed = Callable[[Sequence[Item]], Sequence[Embedding | None]]


@dataclass(frozen=True, slots=True)
class HotSettings:
    weights: Weights
    inject: bool
    extract: bool
    role: str
    header: str
    window: int
    cap: int
    novelty: int
    alpha: float
    #: BLAS threads while the model embeds this path's facts (0 = the library's own count).
    blas_threads: int = 1


class _Conversation:
    def __init__(self, window: int) -> None:
        self.extractor = Extractor()
        self.turn = 0
        self.window = InjectWindow(window)
        #: fact id → the turn it was last injected in (novelty is per conversation)
        self.injected: dict[str, int] = {}
        self.lock = threading.Lock()


class HotPath:
    """Owns the hot indices (one per owner), the conversations and the metrics of one Memory."""

    def __init__(self, store: Any, embed: Embed, model: str | None, settings: HotSettings) -> None:
        self.store, self.embed, self.model, self.settings = store, embed, model, settings
        self._lock = threading.Lock()
        self._indices: dict[tuple[str, ...], HotIndex] = {}
        # Writes by anyone else (Memory.add, forget, another process) bump the store's sequence
        # past base + our own writes: the indices are then dropped and rebuilt, so a forgotten
        # fact is never injected. Our writes hold _writing, during which the check is skipped.
        self._writing = threading.Lock()
        self._base = store.sequence()
        self._own = 0
        self._conversations: OrderedDict[tuple[Any, ...], _Conversation] = OrderedDict()
        self.metrics = TurnMetrics(store.get_meta(META_KEY))

    def turn(self, text: str, scope: Scope, session_id: str | None, role: str) -> TurnResult:
        started = time.perf_counter()
        conv = self._conversation(scope, session_id)
        index = self.index(scope)
        with conv.lock:  # one turn at a time per conversation: pronoun state and turn numbers stay in order
            conv.turn += 1
            number = conv.turn
            # one parse gives language, intent and triples; an assistant turn is read for its
            # entities only (a pronoun in the next user turn may point at them)
            analysis = conv.extractor.analyse(text)
        t_intent = time.perf_counter()
        user = role == "user"
        intent = analysis.intent.value if user else "ASSISTANT"
        added, gone, t_extract = self._learn(analysis if user else None, scope, session_id, index, text)
        t_update = time.perf_counter()
        bullets, gated, computed, pruned = (
            self._retrieve(text, intent, index, conv, number, session_id, added, analysis.lang)
            if user
            else ([], True, 0, 0)
        )
        t_retrieve = time.perf_counter()
        message = self._message(conv, number, bullets)
        end = time.perf_counter()
        timings = {
            "intent": (t_intent - started) * 1000, "extraction": (t_extract - t_intent) * 1000,
            "update": (t_update - t_extract) * 1000, "retrieval": (t_retrieve - t_update) * 1000,
            "total": (end - started) * 1000,
        }  # fmt: skip
        self.metrics.record(timings, turns=1, computed=computed, injected=len(bullets), gated=int(gated), pruned=pruned)
        if self.metrics.due():
            self.flush()
        return TurnResult(intent, analysis.lang, number, message, tuple(bullets),
                          tuple(added), tuple(gone), gated, timings)  # fmt: skip

    def flush(self) -> None:
        """Save the metrics in the store's meta table (for `mnemo stats --turns` in another process)."""
        if self.metrics.dirty:
            self.store.set_meta(META_KEY, self.metrics.dump())

    def index(self, scope: Scope) -> HotIndex:
        key = _owner(scope)
        if self._writing.acquire(blocking=False):  # never wait for a writer: its own write is known
            try:
                current = self.store.sequence()
                if current != self._base + self._own:
                    with self._lock:
                        self._indices.clear()
                    self._base, self._own = current, 0
            finally:
                self._writing.release()
        with self._lock:
            index = self._indices.get(key)
        if index is not None:
            return index
        facts = self.store.list_facts(scope, None, None, "active", MAX_INDEXED)
        metas = [
            FactMeta(f.id, f.subject, f.relation, f.object, to_epoch(f.last_seen) or 0.0, f.weight or 0.0)
            for f in facts
            if _owner(f.scope) == key and f.id
        ]
        with self._lock:  # two threads may build it; the first one kept wins
            return self._indices.setdefault(key, HotIndex(metas))

    def _learn(
        self, analysis: Analysis | None, scope: Scope, session_id: str | None, index: HotIndex, text: str
    ) -> tuple[list[str], list[str], float]:
        facts = list(analysis.facts) if analysis and self.settings.extract else []
        if not facts:
            return [], [], time.perf_counter()
        now = to_epoch(now_utc()) or 0.0
        owner = Scope(user_id=scope.user_id, agent_id=scope.agent_id, project=scope.project)
        message = Item(id=f"turn:{session_id or ''}", content=text, role="user", scope=owner, timestamp=now_utc())
        pairs = [(fact_item(f, message), f) for f in facts]
        positive = [i for i, f in pairs if not f.negated]
        with blas_threads(self.settings.blas_threads):
            vectors = dict(zip([i.id for i in positive], self.embed(positive), strict=True)) if positive else {}
        t_extract = time.perf_counter()
        entries = [(i, vectors.get(i.id), f) for i, f in pairs]
        kept = [(f, fact_id(f)) for f in facts if not f.negated]
        with self._writing:
            self.store.record_facts(entries, now=now, alpha=self.settings.alpha, model=self.model)
            self._own += 1
            gone = index.apply(kept, [f for f in facts if f.negated], now, session_id, self.settings.alpha)
        return [fid for _, fid in kept], gone, t_extract

    def _retrieve(
        self,
        text: str,
        intent: str,
        index: HotIndex,
        conv: _Conversation,
        number: int,
        session_id: str | None,
        added: list[str],
        lang: str | None,
    ) -> tuple[list[Bullet], bool, int, int]:
        query = words(text)
        with conv.lock:
            named = _meant(text, lang, conv.extractor.mentions, index)
        # a reaction that only says "I" does not call for the user's own facts
        targeted = any(e != "you" for e in named) or ("you" in named and intent != "REACTION")
        if not self.settings.inject or not named or not (targeted or intent in STATING):
            return [], True, 0, 0
        now = to_epoch(now_utc()) or 0.0
        fresh = set(added)
        idf = index.idf(query)
        weights = self.settings.weights
        ranked: list[tuple[float, FactMeta]] = []
        for meta in index.candidates(named):
            if meta.fact_id in fresh or stale(meta, now, weights):
                continue  # just stated by this very turn (already in the conversation), or decayed away
            last = conv.injected.get(meta.fact_id)
            recent = last is not None and last >= number - self.settings.novelty
            if recent and not (intent in ("PURE_QUESTION", "QUESTION_WITH_FACT") and asks_about(meta, query)):
                continue
            ranked.append((score(meta, query, now, session_id, weights, idf), meta))
        ranked.sort(key=lambda p: (-p[0], p[1].fact_id))
        chosen, pruned = select(ranked, intent, self.settings.cap, targeted)
        bullets = [Bullet(phrase(m.subject, m.relation, m.object), s, m.fact_id, m.relation) for s, m in chosen]
        with conv.lock:
            conv.injected.update(dict.fromkeys((b.fact_id for b in bullets), number))
        return bullets, not bullets, len(ranked), pruned

    def _message(self, conv: _Conversation, number: int, bullets: list[Bullet]) -> dict[str, str] | None:
        if not bullets:
            return None
        with conv.lock:
            conv.window.push(number, bullets)
            shown = conv.window.bullets(self.settings.cap)
        stamp = now_utc().isoformat(timespec="seconds")
        return {"role": self.settings.role, "content": render(self.settings.header, self.settings.window, stamp, shown)}

    def _conversation(self, scope: Scope, session_id: str | None) -> _Conversation:
        key = (*_owner(scope), session_id)
        with self._lock:
            conv = self._conversations.pop(key, None) or _Conversation(self.settings.window)
            self._conversations[key] = conv
            while len(self._conversations) > MAX_CONVERSATIONS:
                self._conversations.popitem(last=False)
            return conv


def _owner(scope: Scope) -> tuple[str, ...]:
    return (scope.user_id or "", scope.agent_id or "", scope.project or "")


def _meant(text: str, lang: str | None, mentions: Mentions, index: HotIndex) -> list[str]:
    """The known entities a turn is about: those it names, those its he/she/they point at ("where
    does she work?": the person the conversation was just about), and the user ("you") when they
    speak of themselves. "Tell me where she works" is about her, though: a bare object "me" beside
    another entity does not bring in the user's own facts."""
    named = [e for e in _ngrams(text) if e != "you" and index.known(e)]
    said = set(_WORDS.findall(text.lower()))
    named += [e for e in _pronoun_targets(said, lang, mentions) if e not in named and index.known(e)]
    first = _FIRST_PERSON & said
    if first and index.known("you") and (not named or first - _OBJECT_ONLY):
        named.append("you")
    return named


def _pronoun_targets(said: set[str], lang: str | None, mentions: Mentions) -> list[str]:
    """The people a turn's he/she/they point at, by the conversation's mention history (coref-lite)."""
    lex = LEXICONS.get(lang or "")
    if lex is None:
        return []
    found = [mentions.resolve(kind) for kind, forms in (("he", lex.he), ("she", lex.she), ("they", lex.they))
             if forms & said]  # fmt: skip
    return [name for name in dict.fromkeys(found) if name]


def _ngrams(text: str, longest: int = 3) -> list[str]:
    """Word n-grams of the turn (lowercased): the keys an entity may have in the index."""
    tokens = [t.strip(".,!?;:\"'()").lower() for t in text.split()]
    tokens = [t[:-2] if t.endswith("'s") else t for t in tokens if t]
    return list(dict.fromkeys(" ".join(tokens[i : i + n]) for n in range(1, longest + 1) for i in range(len(tokens))))
