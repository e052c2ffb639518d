"""Session search: which past conversations are about the query, best first, one entry per topic.

Pipeline (each step a function; only the store does I/O):

1. expand the parsed query (typo fixes, synonyms; ``session_terms``);
2. candidates: the best-matching counted messages by BM25 (FTS5, scope and noise filters in SQL),
   plus the nearest messages by embedding when the store has an embedder;
3. drop sessions lacking a required term or holding an excluded one (SQL over the candidates);
4. score the leading sessions' best messages by match quality (``session_rank``), sum them with
   decaying weight, boost the current project, break ties by recency;
5. collapse near-duplicate sessions (``session_dedup``) and build the hits with their snippets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from mnemo.records import Item, SearchFilter, SessionHit, Snippet
from mnemo.retrieve import session_rank as rank
from mnemo.retrieve.query_language import ParsedQuery, fts_any
from mnemo.retrieve.session_dedup import DedupCandidate, collapse, signature
from mnemo.retrieve.session_match import Marked, candidate_words, find_matches
from mnemo.retrieve.session_terms import ExpandedQuery, expand_query, stem_synonyms
from mnemo.retrieve.synonyms import load_synonyms
from mnemo.store.sqlite_session_search import MessageMatch
from mnemo.timeutil import from_epoch

VectorSearch = Callable[[np.ndarray, int, SearchFilter], list[tuple[int, float]]]
Embed = Callable[[str], np.ndarray]

#: Environment variables naming the session the user is in (never listed as a result).
CURRENT_SESSION_VARIABLES = ("MNEMO_CURRENT_SESSION", "CLAUDE_SESSION_ID")


@dataclass(frozen=True, slots=True)
class SessionSearchSettings:
    lexical_candidates: int = 1000
    #: Matching messages the candidate query may score before the most common terms are left out of it
    #: (about 4 µs each); those terms still count when the candidates' messages are scored.
    candidate_row_budget: int = 8000
    semantic_candidates: int = 100
    #: Sessions scored in depth: this multiple of the limit (at least ``min_deep``).
    deep_factor: int = 6
    min_deep: int = 30
    messages_per_session: int = 5
    snippets: int = 3
    semantic_weight: float = 1.0
    project_boost: float = 1.25
    #: A session whose first user message names a query term was opened on that topic.
    title_boost: float = 1.3
    #: Sessions in which no user message matches: the term came up only in the assistant's replies.
    assistant_only: float = 0.75
    recency_weight: float = 0.02
    #: Sessions scoring under this share of the best session are not listed.
    min_share_of_best: float = 0.1


@dataclass(slots=True)
class _Candidate:
    session_id: str
    messages: dict[int, MessageMatch] = field(default_factory=dict)
    semantic: dict[int, float] = field(default_factory=dict)
    rough: float = 0.0


def current_session_from(env: Mapping[str, str]) -> str | None:
    """The session the caller is in, from MNEMO_CURRENT_SESSION or CLAUDE_SESSION_ID."""
    return next((env[name].strip() for name in CURRENT_SESSION_VARIABLES if env.get(name, "").strip()), None)


def make_session_searcher(memory: Any) -> SessionSearcher:
    """A searcher over a Memory's store, synonyms file, embedder and vector index."""
    from mnemo.config import default_home
    from mnemo.embed.inputs import embed_query, query_blas_threads

    config = memory.config
    path = config.synonyms_file or str(Path(config.home or default_home()) / "synonyms.txt")

    def embed(text: str) -> np.ndarray:
        return embed_query(memory.embedder, text, query_blas_threads(memory.store, config.blas_threads))

    def nearest(vector: np.ndarray, k: int, flt: SearchFilter) -> list[tuple[int, float]]:
        return memory._vectors.search(vector, k, flt)

    semantic = memory.embedder is not None
    return SessionSearcher(
        memory.store, load_synonyms(path), embed if semantic else None, nearest if semantic else None
    )


class SessionSearcher:
    """Runs session searches against one store; holds the stemmed synonym index between queries."""

    def __init__(
        self,
        store: Any,
        synonyms: Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]],
        embed: Embed | None = None,
        vector_search: VectorSearch | None = None,
        settings: SessionSearchSettings | None = None,
    ) -> None:
        self.store = store
        self.synonyms = stem_synonyms(synonyms, store)
        self.embed = embed
        self.vector_search = vector_search
        self.settings = settings or SessionSearchSettings()

    def search(
        self,
        parsed: ParsedQuery,
        flt: SearchFilter,
        *,
        limit: int = 5,
        current_project: str | None = None,
        exclude_session: str | None = None,
        query_text: str = "",
    ) -> list[SessionHit]:
        expanded = expand_query(parsed, self.store, self.synonyms, self.store.session_corpus_size())
        found = self._candidates(expanded, flt, exclude_session, query_text)
        # only the leading sessions can make the list; checking +/- terms on the rest costs for nothing
        depth = max(self.settings.min_deep, limit * self.settings.deep_factor)
        leading = dict(sorted(found.items(), key=lambda pair: -pair[1].rough)[: depth * 4])
        candidates = self._apply_required_and_excluded(expanded, flt, exclude_session, leading)
        if not candidates:
            return []
        deep = sorted(candidates.values(), key=lambda c: -c.rough)[:depth]
        return self._rank(expanded, flt, exclude_session, deep, limit, current_project)

    # -- candidates ------------------------------------------------------------------------

    def _candidates(
        self, expanded: ExpandedQuery, flt: SearchFilter, exclude_session: str | None, query_text: str
    ) -> dict[str, _Candidate]:
        found: dict[str, _Candidate] = {}
        match_text = expanded.candidate_match(self.settings.candidate_row_budget)
        for match in self.store.session_message_matches(
            match_text, flt, exclude_session, self.settings.lexical_candidates
        ):
            found.setdefault(match.session_id, _Candidate(match.session_id)).messages[match.rowid] = match
        if self.embed is not None and self.vector_search is not None:
            text = query_text or " ".join(t.text for t in expanded.parsed.positive)
            nearest = dict(self.vector_search(self.embed(text), self.settings.semantic_candidates, flt))
            for match in self.store.session_message_rows(list(nearest), flt, exclude_session):
                candidate = found.setdefault(match.session_id, _Candidate(match.session_id))
                candidate.messages.setdefault(match.rowid, match)
                candidate.semantic[match.rowid] = rank.semantic_relevance(nearest[match.rowid])
        top = max((m.bm25 for c in found.values() for m in c.messages.values()), default=0.0) or 1.0
        for candidate in found.values():
            candidate.rough = rank.session_strength(
                [self._rough(candidate, key, top) for key in candidate.messages], 1.0
            )
        return found

    def _rough(self, candidate: _Candidate, key: int, top: float) -> float:
        match = candidate.messages[key]
        role = 1.0 if match.role == "user" else 0.8
        return role * (match.bm25 / top + self.settings.semantic_weight * candidate.semantic.get(key, 0.0))

    def _apply_required_and_excluded(
        self,
        expanded: ExpandedQuery,
        flt: SearchFilter,
        exclude_session: str | None,
        candidates: dict[str, _Candidate],
    ) -> dict[str, _Candidate]:
        """A session is kept only when it mentions every required term and no excluded one."""
        kept = dict(candidates)
        for group in expanded.required_groups():
            present = self.store.session_presence(group.match, flt, exclude_session, list(kept))
            kept = {sid: c for sid, c in kept.items() if sid in present}
        excluded = expanded.excluded_match()
        if excluded and kept:
            present = self.store.session_presence(excluded, flt, exclude_session, list(kept))
            kept = {sid: c for sid, c in kept.items() if sid not in present}
        if expanded.required_groups() and expanded.parsed.any_of and kept:
            # "cache +redis": the required term alone is not enough, one of the others must match too
            wanted = fts_any(v for g in expanded.groups if not g.required for v in g.variants) or '""'
            present = self.store.session_presence(wanted, flt, exclude_session, list(kept))
            kept = {sid: c for sid, c in kept.items() if sid in present or max(c.semantic.values(), default=0) > 0}
        return kept

    # -- ranking ---------------------------------------------------------------------------

    def _rank(
        self,
        expanded: ExpandedQuery,
        flt: SearchFilter,
        exclude_session: str | None,
        deep: Sequence[_Candidate],
        limit: int,
        current_project: str | None,
    ) -> list[SessionHit]:
        top = max((m.bm25 for c in deep for m in c.messages.values()), default=0.0) or 1.0
        chosen = {
            c.session_id: sorted(c.messages, key=lambda k, c=c: -self._rough(c, k, top))[
                : self.settings.messages_per_session
            ]
            for c in deep
        }
        items = self.store.fetch([k for ks in chosen.values() for k in ks], replace(flt, kinds=("message",)))
        overview = self.store.session_overview(list(chosen), flt, exclude_session)
        marked, on_topic = self._matches(expanded, items, overview)
        weights = [g.weight for g in expanded.groups]
        feats = {k: rank.features(m) for k, m in marked.items() if m.spans}
        lexical = {k: rank.term_score(f, weights) for k, f in feats.items()}
        best = max(lexical.values(), default=0.0) or 1.0
        shares = {k: v / best for k, v in lexical.items()}
        scored = []
        for c in deep:
            if c.session_id in overview:
                entry = self._score(c, [k for k in chosen[c.session_id] if k in items], feats, shares, weights)
                if entry is not None:
                    entry["info"] = overview[c.session_id]
                    entry["score"] *= self._boost(c, entry["info"], on_topic.get(c.session_id, 0.0), current_project)
                    scored.append(entry)
        _tie_break_by_recency(scored, self.settings.recency_weight)
        scored.sort(key=lambda s: -s["score"])
        if scored:  # a long tail of faint (mostly semantic) resemblances is noise, not results
            floor = scored[0]["score"] * self.settings.min_share_of_best
            scored = [s for s in scored if s["score"] >= floor]
        return self._hits(expanded, flt, exclude_session, scored, items, marked, limit)

    def _score(
        self,
        c: _Candidate,
        keys: Sequence[int],
        feats: Mapping[int, rank.MessageFeatures],
        shares: Mapping[int, float],
        weights: Sequence[float],
    ) -> dict[str, Any] | None:
        """A session's strength from its best messages' match quality."""
        messages = []
        hit_groups: set[int] = set()
        for key in keys:
            found = feats.get(key)
            strength = rank.message_strength(
                found,
                shares.get(key, 0.0),
                c.messages[key].role,
                c.semantic.get(key, 0.0),
                weights,
                self.settings.semantic_weight,
            )
            hit_groups |= found.groups if found is not None else set()
            messages.append((strength, key))
        if not messages or max(m[0] for m in messages) <= 0:
            return None
        # how much of the query the session covers: by its words, or (for a paraphrase) by meaning
        cover = max(rank.coverage(hit_groups, weights), max(c.semantic.values(), default=0.0))
        score = rank.session_strength([m[0] for m in messages], cover)
        return {"c": c, "score": score, "messages": messages, "coverage": cover}

    def _boost(self, c: _Candidate, info: Mapping[str, Any], opening: float, current_project: str | None) -> float:
        factor = 1.0
        # the session opened on this topic (as much of it as its first message names)
        factor *= 1.0 + (self.settings.title_boost - 1.0) * opening
        if not _user_brought_it_up(c):
            factor *= self.settings.assistant_only  # only the assistant brought the subject up
        if current_project and _same_project(info["project"], current_project):
            factor *= self.settings.project_boost
        return factor

    def _matches(
        self, expanded: ExpandedQuery, items: Mapping[int, Item], overview: Mapping[str, Mapping[str, Any]]
    ) -> tuple[dict[int, Marked], dict[str, float]]:
        """Where each message matches, and how much of the query each session's first user message names."""
        patterns = [g.patterns for g in expanded.groups]
        openings = {sid: (info["first_user_message"] or "")[:600] for sid, info in overview.items()}
        texts = [item.content for item in items.values()] + list(openings.values())
        words = sorted(candidate_words(texts, patterns))
        stems = {w: found[0] for w, found in self.store.stem_words(words).items() if found}
        marked = {key: find_matches(item.content, patterns, stems) for key, item in items.items()}
        weights = [g.weight for g in expanded.groups]
        on_topic = {
            sid: rank.coverage(set(find_matches(text, patterns, stems).groups), weights)
            for sid, text in openings.items()
        }
        return marked, on_topic

    def _hits(
        self,
        expanded: ExpandedQuery,
        flt: SearchFilter,
        exclude_session: str | None,
        scored: list[dict[str, Any]],
        items: Mapping[int, Item],
        marked: Mapping[int, Marked],
        limit: int,
    ) -> list[SessionHit]:
        pool = scored[: limit * 3]
        titles = {s["c"].session_id: self._title(s["c"].session_id, s["info"], flt) for s in pool}
        query_words = [w for g in expanded.groups for v in g.variants for w in v.words]
        openings = self.store.session_openings([s["c"].session_id for s in pool], flt, exclude_session)
        dedup = [
            DedupCandidate(
                session_id=s["c"].session_id,
                score=s["score"],
                ended_at=s["info"]["ended_at"],
                message_count=s["info"]["message_count"],
                project=s["info"]["project"],
                signature=signature(
                    [
                        *openings.get(s["c"].session_id, [titles[s["c"].session_id]]),
                        *(marked[m[1]].text for m in s["messages"]),
                    ],
                    query_words,
                ),
            )
            for s in pool
        ]
        groups = collapse(dedup)[:limit]
        shown = [pool[g[0]] for g in groups]
        # matches of the terms that found the candidates: an everyday word left out of that query
        # would make counting cost more than the search
        counts = self.store.session_match_counts(
            expanded.candidate_match(self.settings.candidate_row_budget),
            flt,
            exclude_session,
            [s["c"].session_id for s in shown],
        )
        hits = []
        for group, entry in zip(groups, shown, strict=True):
            sid = entry["c"].session_id
            snippets = self._snippets(entry["messages"], items, marked)
            semantic_only = sum(1 for key in entry["c"].semantic if entry["c"].messages[key].bm25 <= 0)
            hits.append(
                SessionHit(
                    session_id=sid,
                    project=entry["info"]["project"],
                    score=max(pool[i]["score"] for i in group),
                    started_at=from_epoch(entry["info"]["started_at"]),
                    ended_at=from_epoch(entry["info"]["ended_at"]),
                    title=titles[sid],
                    snippets=snippets,
                    total_matches=max(counts.get(sid, 0) + semantic_only, len(snippets)),
                    message_count=entry["info"]["message_count"],
                    also_in=tuple(pool[i]["c"].session_id for i in group[1:]),
                    signals={"coverage": entry["coverage"], "best_message": max(m[0] for m in entry["messages"])},
                )
            )
        return hits

    def _snippets(
        self, messages: Sequence[tuple[float, int]], items: Mapping[int, Item], marked: Mapping[int, Marked]
    ) -> tuple[Snippet, ...]:
        snippets = []
        for strength, key in sorted(messages, key=_by_strength)[: self.settings.snippets]:
            if strength <= 0:
                continue
            item = items[key]
            text, spans = rank.snippet(marked[key])
            snippets.append(Snippet(item.id, item.role, item.timestamp, text, strength, spans))
        return tuple(snippets)

    def _title(self, session_id: str, info: Mapping[str, Any], flt: SearchFilter) -> str:
        getter = getattr(self.store, "get_session", None)
        # scoped: a session shared with another owner must not show the title that owner's import set
        session = getter(session_id, flt.scope) if getter is not None else None
        title = getattr(session, "title", None) or info.get("first_user_message") or "(untitled session)"
        text = " ".join(str(title).split())
        return text if len(text) <= 100 else text[:99] + "…"


def _user_brought_it_up(c: _Candidate) -> bool:
    """A user message matches: by its words when the session matches by words at all, else by meaning."""
    lexical = any(m.bm25 > 0 for m in c.messages.values())
    if lexical:
        return any(m.role == "user" and m.bm25 > 0 for m in c.messages.values())
    return any(m.role == "user" and c.semantic.get(k, 0.0) >= 0.3 for k, m in c.messages.items())


def _by_strength(message: tuple[float, int]) -> tuple[float, int]:
    return (-message[0], message[1])


def _same_project(project: str | None, current: str) -> bool:
    """The current directory is the project or inside it."""
    if not project:
        return False
    base = project.rstrip("/")
    return current == base or current.startswith(base + "/")


def _tie_break_by_recency(scored: list[dict[str, Any]], weight: float) -> None:
    times = [s["info"]["ended_at"] for s in scored if s["info"]["ended_at"] is not None]
    if not times or weight <= 0:
        return
    oldest, newest = min(times), max(times)
    span = (newest - oldest) or 1.0
    for s in scored:
        ended = s["info"]["ended_at"]
        recency = 0.0 if ended is None else (ended - oldest) / span
        s["score"] *= 1.0 + weight * recency


def resolve_project(store: Any, cwd: str) -> str:
    """The stored project that ``cwd`` is (or is inside), the longest such; ``cwd`` itself if none."""
    projects = [p for p in store.grouped_counts("project", SearchFilter(kinds=("message",))) if p]
    inside = [p for p in projects if _same_project(p, cwd)]
    return max(inside, key=len) if inside else cwd
