"""Progressive hierarchical search (seed 000 §2): distilled tiers first, raw ones only when needed.

Tiers run from distilled to raw — summaries → facts/insights → messages → documents — and each
is searched with the same search as a plain query. After every distilled tier a sufficiency
judgement looks at what was found so far (``judge``):

- *good* hits: quality (cosine blended with query-term coverage) at least ``min_quality``;
- *coverage*: the share of the query's informative terms that the good hits hold between them
  (a question about "Caroline's adoption agency" is not answered by good hits about Caroline
  alone);
- *depth*: the quality of the ``limit``-th best hit. A later tier's hit can only enter the result
  by beating it, so while the result is short or its tail is weak a raw tier can still change it.

Session summaries only point the way: they end a search on their own only when no facts are in
scope to check them against, and in the result they come after every hit of the tiers below them
(an extractive summary quotes a few lines of its session; the facts and messages found through it
are the answer). On LoCoMo dev that ordering lifts recall@10 of both progressive search and the
search of every tier by about 0.02. When the judgement says "sufficient", the raw messages are not
searched whole: the search *descends* from the best distilled hits into the sessions they came
from (a session summary's session, a fact's session) and searches only their messages — the
hierarchical step, which finds the turns that hold the answer's detail (unless even the
``limit``-th hit outside the summaries is a good match: then a message could only enter the result
by pushing a good hit out; summaries never count here, as any message ranks before them). The
report counts that honestly: the messages tier is listed as searched, with the share of its items
the scoped search covered. Without a sufficient judgement the search first *probes* the best
distilled hit's session and judges again with its turns (``Sufficiency``); only when that fails
too is the whole messages tier read.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from mnemo.errors import InputError
from mnemo.records import Hit
from mnemo.store.sql import query_terms

#: (tier name, kinds it holds), most distilled first.
TIERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("summaries", ("summary",)),
    ("facts", ("fact", "insight")),
    ("messages", ("message",)),
    ("documents", ("document", "note")),
)
#: The raw tier a distilled hit points back into (its session's messages).
RAW_TIER = "messages"
#: Tiers that point the way but do not end a search while a distilled tier after them holds
#: something: an extractive summary quotes a few lines of its session, so its match says which
#: session is about the query, not that the quoted lines answer it.
NAVIGATION = frozenset({"summaries"})

SearchKinds = Callable[[tuple[str, ...], int], list[Hit]]
#: (sessions, hits wanted per session) -> (hits, messages searched): the scoped search of a descent.
Descend = Callable[[Sequence[str], int], tuple[list[Hit], int]]


@dataclass(frozen=True, slots=True)
class Sufficiency:
    """When the distilled tiers are enough, and how far a sufficient search descends.

    ``min_quality`` 0.55 needs a clear semantic match *and* some of the query's words (cosine
    alone tops out near 0.5 of the blend). ``min_coverage`` 0.6 asks that most of the query's
    informative words appear in the good hits, so one matching name is not enough.
    ``min_depth`` 0.33 is the quality of a hit that shares about a third of the query's words or
    is only loosely similar: a result whose ``limit``-th hit is weaker than that still has room
    a raw tier would fill. ``descend_sessions`` 1: a sufficient judgement means the good hits
    already cover the query, so the best hit's session is where the missing detail is; a
    question spread over several sessions shows up as facts from each (their evidence is in the
    result already) or fails the judgement and reads the whole tier. Each further session costs
    one more scoped search (on LoCoMo dev, 1 to 4 sessions gave the same recall).

    When the distilled tiers are *not* sufficient, the search first *probes*: it reads the
    messages of ``probe_sessions`` sessions (the best distilled hits', whatever their quality)
    and judges again, now with raw turns in hand, with ``probe_coverage`` and ``probe_depth``
    in place of ``min_coverage`` and ``min_depth``. The first judgement asks whether summaries
    and facts alone cover the query; the second whether they do together with the turns they
    point to, which hold the detail a fact leaves out, so it can ask less. Only when the probe
    is not enough is the whole messages tier read. On LoCoMo dev, probing one session with
    0.4 and 0.25 cut the questions that read the whole tier from 48% to 22% at the same
    recall@10 as searching every tier (0.704 vs 0.700; ``benchmarks.progressive_sweep``).
    ``probe_sessions`` 0 turns the probe off.
    """

    min_results: int = 1
    min_quality: float = 0.55
    min_coverage: float = 0.6
    min_depth: float = 0.33
    descend_sessions: int = 1
    probe_sessions: int = 1
    probe_coverage: float = 0.4
    probe_depth: float = 0.25

    def __post_init__(self) -> None:
        for name in ("min_quality", "min_coverage", "min_depth", "probe_coverage", "probe_depth"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise InputError(f"{name} must be a number from 0 to 1, got {value!r}")
        for name in ("min_results", "descend_sessions", "probe_sessions"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(f"{name} must be a whole number of 0 or more, got {value!r}")

    def after_probe(self) -> Sufficiency:
        """The settings of the judgement made once a probe has brought in raw turns."""
        return replace(self, min_coverage=self.probe_coverage, min_depth=self.probe_depth)


@dataclass(frozen=True, slots=True)
class Judgement:
    sufficient: bool
    good: int
    coverage: float
    depth: float

    @property
    def reason(self) -> str:
        return f"{self.good} good matches covering {self.coverage:.0%} of the query, depth {self.depth:.2f}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "sufficient": self.sufficient,
            "good": self.good,
            "coverage": round(self.coverage, 3),
            "depth": round(self.depth, 3),
        }


@dataclass(frozen=True, slots=True)
class TierReport:
    tier: str
    searched: bool
    hits: int
    good: int
    ms: float
    note: str = ""
    #: The share of the tier's in-scope items the search covered (a descent covers a few sessions;
    #: a whole tier read after a probe counts the probed part twice, so it exceeds 1).
    share: float = 1.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "tier": self.tier,
            "searched": self.searched,
            "hits": self.hits,
            "good": self.good,
            "ms": round(self.ms, 3),
            "note": self.note,
            "share": round(self.share if self.searched else 0.0, 4),
        }


@dataclass(frozen=True, slots=True)
class ProgressiveResult:
    query: str
    hits: list[Hit]
    tiers_searched: list[str]
    stopped_early: bool
    stop_reason: str
    tiers: list[TierReport] = field(default_factory=list)
    total_ms: float = 0.0
    judgement: Judgement | None = None
    descended_into: tuple[str, ...] = ()
    #: The sessions a probe read before the whole raw tier was judged needed, whether or not the
    #: probe settled the search (then they are ``descended_into`` too).
    probed: tuple[str, ...] = ()
    #: The navigation tier's hits that pointed the way but did not make the result, best first.
    guides: list[Hit] = field(default_factory=list)

    @property
    def tier_equivalents(self) -> float:
        """Tiers searched, each counted by the share of its items searched (a descent counts its part)."""
        return sum(t.share for t in self.tiers if t.searched)

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [h.as_dict() for h in self.hits],
            "tiers_searched": self.tiers_searched,
            "tier_equivalents": round(self.tier_equivalents, 4),
            "stopped_early": self.stopped_early,
            "stop_reason": self.stop_reason,
            "judgement": self.judgement.as_dict() if self.judgement else None,
            "descended_into": list(self.descended_into),
            "probed": list(self.probed),
            "guides": [h.as_dict() for h in self.guides],
            "tiers": [t.as_dict() for t in self.tiers],
            "total_ms": round(self.total_ms, 3),
        }


def quality(query: str, hit: Hit) -> float:
    """How good a match is on a 0-1 scale: its cosine similarity blended with query-term coverage."""
    return _quality(set(query_terms(query)), hit)


def _quality(wanted: set[str], hit: Hit) -> float:
    coverage = len(wanted & _terms(hit)) / len(wanted) if wanted else 0.0
    cosine = max((v for k, v in hit.signals.items() if k.startswith("semantic")), default=0.0)
    return 0.5 * max(0.0, cosine) + 0.5 * coverage


def _terms(hit: Hit) -> frozenset[str]:
    return _content_terms(hit.content)


@lru_cache(maxsize=4096)
def _content_terms(content: str) -> frozenset[str]:
    # a hit is scored when its tier is searched and again by each judgement; stored texts repeat
    # across queries too, so their term sets are kept (a tokenisation costs as much as a SQL read)
    return frozenset(query_terms(content, keep_stopwords=True))


Found = list[tuple[float, int, Hit]]  # (quality, tier order, hit)


def judge(wanted: set[str], found: Found, limit: int, s: Sufficiency) -> Judgement:
    """Whether the hits found so far answer the query well enough to leave the raw tiers alone."""
    best = _distinct(found)
    good = [hit for q, _, hit in best if q >= s.min_quality]
    covered: set[str] = set()
    for hit in good:
        covered |= wanted & _terms(hit)
    coverage = len(covered) / len(wanted) if wanted else 0.0
    depth = best[limit - 1][0] if limit > 0 and len(best) >= limit else 0.0
    enough = len(good) >= s.min_results and coverage >= s.min_coverage and depth >= s.min_depth
    return Judgement(enough, len(good), coverage, depth)


def descent_sessions(found: Found, count: int, floor: float) -> list[str]:
    """The sessions of the best distilled hits of quality ``floor`` or more, best first, at most
    ``count``: where their detail is."""
    sessions: list[str] = []
    if count <= 0:
        return sessions
    for q, _, hit in sorted(found, key=lambda e: (-e[0], e[1])):
        session = hit.metadata.get("summary_of") or hit.session_id
        if q < floor or not session or hit.kind == "message":
            continue
        if session not in sessions:
            sessions.append(str(session))
        if len(sessions) >= count:
            break
    return sessions


def progressive_search(
    search: SearchKinds,
    counts: Mapping[str, int],
    query: str,
    limit: int,
    sufficiency: Sufficiency = Sufficiency(),
    tiers: Sequence[tuple[str, tuple[str, ...]]] = TIERS,
    stop_when_sufficient: bool = True,
    descend: Descend | None = None,
) -> ProgressiveResult:
    started = time.perf_counter()
    wanted = set(query_terms(query))
    found: Found = []
    reports: list[TierReport] = []
    reason, early, verdict, descended = "all tiers searched", False, None, ()
    raw = next((n for n, (name, _) in enumerate(tiers) if name == RAW_TIER), len(tiers))
    live = [any(counts.get(k, 0) for k in kinds) for _, kinds in tiers]
    probe: TierReport | None = None
    probed: tuple[str, ...] = ()
    for order, (name, kinds) in enumerate(tiers):
        if not live[order]:
            continue
        if order == raw and verdict is not None and descend is not None:
            # the distilled tiers were not enough: first the turns of the session they point to
            probe, probed = _descend(descend, wanted, found, raw, tiers[raw], counts, limit, sufficiency, probe=True)
            after = _judge_probe(wanted, found, limit, sufficiency, probe)
            if probe is not None and after is not None and after.sufficient:
                verdict, early, descended = after, True, probed
                reason = f"{after.reason} after probing {probe.note}"
                reports.append(probe)
                break
        spent = probe if order == raw else None  # a probe on the way to the whole tier counts in it
        reports.append(_search_tier(search, wanted, found, order, (name, kinds), limit, sufficiency, spent))
        if not stop_when_sufficient or not any(live[order + 1 :]):
            continue  # after the last live tier there is nothing left to skip
        if name in NAVIGATION and any(live[order + 1 : raw]):
            continue  # summaries say where to look; facts are checked before they end a search
        verdict = judge(wanted, found, limit, sufficiency)
        if verdict.sufficient:
            reason, early = f"{verdict.reason} after {name}", True
            # when even the limit-th hit is good, a message could only enter by pushing out a good
            # hit; summaries do not count, since any message ranks before them (``_result``)
            needed = _depth(found, tiers, limit) < sufficiency.min_quality
            if descend is not None and needed and order < raw < len(tiers) and live[raw]:
                report, descended = _descend(descend, wanted, found, raw, tiers[raw], counts, limit, sufficiency)
                reports += [report] if report else []
            break
    reports = _complete(reports, tiers, live)
    searched = [r.tier for r in reports if r.searched]
    hits, guides = _result(found, tiers, limit)
    total = (time.perf_counter() - started) * 1000
    return ProgressiveResult(query, hits, searched, early, reason, reports, total, verdict, descended, probed, guides)


def _descend(
    descend: Descend,
    wanted: set[str],
    found: Found,
    order: int,
    tier: tuple[str, tuple[str, ...]],
    counts: Mapping[str, int],
    limit: int,
    s: Sufficiency,
    probe: bool = False,
) -> tuple[TierReport | None, tuple[str, ...]]:
    """The scoped search of the raw tier within the best distilled hits' sessions (adds to
    ``found``): after a sufficient judgement the sessions of good hits, as a probe after an
    insufficient one the best hits' sessions whatever their quality."""
    count, floor = (s.probe_sessions, 0.0) if probe else (s.descend_sessions, s.min_quality)
    sessions = descent_sessions(found, count, floor)
    if not sessions:
        return None, ()
    started = time.perf_counter()
    hits, searched = descend(sessions, limit)
    ms = (time.perf_counter() - started) * 1000
    good = _take(wanted, found, order, hits, s)
    total = sum(counts.get(k, 0) for k in tier[1]) or 1
    where = f"session{'s' if len(sessions) > 1 else ''} {', '.join(sessions)}"
    note = where if probe else f"descended into {where}"
    return TierReport(tier[0], True, len(hits), good, ms, note, min(1.0, searched / total)), tuple(sessions)


def _search_tier(
    search: SearchKinds,
    wanted: set[str],
    found: Found,
    order: int,
    tier: tuple[str, tuple[str, ...]],
    limit: int,
    s: Sufficiency,
    probe: TierReport | None,
) -> TierReport:
    """One tier searched whole (adds to ``found``), with the time and share of a probe spent
    before it: the probed session was read twice, so the report's share exceeds 1 by the probe's."""
    started = time.perf_counter()
    hits = search(tier[1], limit)
    good = _take(wanted, found, order, hits, s)
    ms = (time.perf_counter() - started) * 1000
    if probe is None:
        return TierReport(tier[0], True, len(hits), good, ms)
    note = f"whole, after probing {probe.note}"
    return TierReport(tier[0], True, len(hits), good, ms + probe.ms, note, 1.0 + probe.share)


def _take(wanted: set[str], found: Found, order: int, hits: Sequence[Hit], s: Sufficiency) -> int:
    """Adds a search's hits to ``found`` with their quality; returns how many are good."""
    scored = [(_quality(wanted, h), order, h) for h in hits]
    found.extend(scored)
    return sum(1 for q, _, _ in scored if q >= s.min_quality)


def _judge_probe(
    wanted: set[str], found: Found, limit: int, s: Sufficiency, probe: TierReport | None
) -> Judgement | None:
    """The judgement once a probe has read a session: None when it brought back no turn, since
    the looser settings stand for raw turns in hand (a session whose messages are out of scope
    or gone must not let the facts alone pass on them)."""
    if probe is None or probe.hits == 0:
        return None
    return judge(wanted, found, limit, s.after_probe())


def _complete(
    reports: list[TierReport], tiers: Sequence[tuple[str, tuple[str, ...]]], live: Sequence[bool]
) -> list[TierReport]:
    """Every tier once, in tier order: the unsearched ones say why."""
    by_name = {r.tier: r for r in reports}
    return [
        by_name.get(name) or TierReport(name, False, 0, 0, 0.0, "not needed" if alive else "empty in this scope", 0.0)
        for (name, _), alive in zip(tiers, live, strict=True)
    ]


def _split(found: Found, tiers: Sequence[tuple[str, tuple[str, ...]]]) -> tuple[Found, Found]:
    """The distinct hits, best first, outside and inside the navigation tiers."""
    navigation = {order for order, (name, _) in enumerate(tiers) if name in NAVIGATION}
    ranked = _distinct(found)
    return [e for e in ranked if e[1] not in navigation], [e for e in ranked if e[1] in navigation]


def _depth(found: Found, tiers: Sequence[tuple[str, tuple[str, ...]]], limit: int) -> float:
    """The quality of the ``limit``-th best hit outside the navigation tiers (0 when fewer)."""
    kept, _ = _split(found, tiers)
    return kept[limit - 1][0] if limit > 0 and len(kept) >= limit else 0.0


def _result(found: Found, tiers: Sequence[tuple[str, tuple[str, ...]]], limit: int) -> tuple[list[Hit], list[Hit]]:
    """The best ``limit`` hits, a navigation tier's after every other, and the navigation hits left
    out. A summary's match says where the answer is; the hits of the tiers below (the descent's
    among them) say what it is. Only when those are too few do summaries fill the result
    (on LoCoMo dev, ranking summaries by their match alone cost 0.02-0.03 of recall@10)."""
    kept, guides = _split(found, tiers)
    room = max(0, limit - len(kept))
    return [hit for _, _, hit in [*kept, *guides][:limit]], [hit for _, _, hit in guides[room : room + limit]]


def _distinct(found: Iterable[tuple[float, int, Hit]]) -> Found:
    """Best quality first (ties: the more distilled tier), each item once."""
    seen: set[str] = set()
    best: Found = []
    for entry in sorted(found, key=lambda e: (-e[0], e[1])):
        if entry[2].id not in seen:
            seen.add(entry[2].id)
            best.append(entry)
    return best
