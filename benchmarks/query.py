"""Query understanding benchmarks: rewriting quality/latency, and search variants on LoCoMo.

``python -m benchmarks.query rewrite`` scores the rule resolver on ``benchmarks/data/rewrite_dev.jsonl``
(lines ``{"id", "context", "query", "expect", "ambiguous"}``): an ambiguous query counts as
resolved when it was rewritten and every ``expect`` word is in the rewrite; a clear query must come
back unchanged. ``python -m benchmarks.query locomo`` compares single-pass (``search_mode="hybrid"``),
the default path (the fused round), iterative and progressive search on LoCoMo dev, per question
category (progressive and all-tiers on stores that also hold extractive session summaries, built
at ingestion, and LoCoMo's observations as facts; a summary or fact hit counts as the turns it
points to). ``python -m benchmarks.query speed`` times single-pass vs
iterative search on a copy of the synthetic 100k store of ``benchmarks/speed.py``
(``cp benchmarks/work/store-100000.db* benchmarks/work/query/``; the copy is migrated on open).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, SHARED, markdown_table, write_results
from benchmarks.locomo import CATEGORIES, evidence_ids, turns
from mnemo import Memory
from mnemo.records import Hit
from mnemo.retrieve.rewrite import QueryRewriter

REWRITE_DEV = ROOT / "benchmarks" / "data" / "rewrite_dev.jsonl"
LOCOMO = SHARED / "data" / "locomo" / "locomo_dev.json"
KS = (5, 10)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def wanted_words(row: dict[str, Any]) -> list[str]:
    """The words a correct rewrite contains (the held-out set calls them must_contain)."""
    return row.get("expect", row.get("must_contain", []))


def rewrite_benchmark(path: Path, show_failures: bool = False) -> dict[str, Any]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rewriter = QueryRewriter(cache_ttl=0)
    if rows:  # one untimed rewrite first: the process-wide pattern compilation is not per query
        rewriter.rewrite(rows[0]["query"], rows[0]["context"])
    resolved = unchanged = ambiguous = clear = not_detected = 0
    latencies: list[float] = []
    per_type: dict[str, dict[str, int]] = {}
    for row in rows:
        started = time.perf_counter()
        result = rewriter.rewrite(row["query"], row["context"])
        latencies.append((time.perf_counter() - started) * 1000)
        if row["ambiguous"]:
            ambiguous += 1
            text = result.expanded.lower()
            ok = result.was_rewritten and all(word.lower() in text for word in wanted_words(row))
            resolved += ok
            missed = not result.references  # the detector saw nothing to resolve
            not_detected += missed
            tally = per_type.setdefault(row.get("type") or "untyped", {"rows": 0, "resolved": 0, "not_detected": 0})
            tally["rows"] += 1
            tally["resolved"] += ok
            tally["not_detected"] += missed
        else:
            clear += 1
            ok = result.expanded == row["query"]
            unchanged += ok
        if show_failures and not ok:
            print(f"{row['id']}: {row['query']!r} -> {result.expanded!r} (want {wanted_words(row)})")
    return {
        "ambiguous": ambiguous,
        "clear": clear,
        "resolution_rate": resolved / ambiguous if ambiguous else 0.0,
        "clear_unchanged": unchanged / clear if clear else 0.0,
        "not_detected": not_detected,
        "latency_p50_ms": percentile(latencies, 0.5),
        "latency_p95_ms": percentile(latencies, 0.95),
        **_warm_latencies(rows),
        "by_type": {
            kind: {**tally, "resolution_rate": tally["resolved"] / tally["rows"]}
            for kind, tally in sorted(per_type.items())
        },
    }


def _warm_latencies(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The same rows again with a fresh rewriter (no rewrite cache) in the now warm process: the
    steady state of a server, whose patterns are compiled once and whose conversations repeat most
    of their messages from one query to the next. The first pass above is the cold figure: each
    row's first use of a pattern is paid inside its own timing."""
    rewriter = QueryRewriter(cache_ttl=0)
    latencies: list[float] = []
    for row in rows:
        started = time.perf_counter()
        rewriter.rewrite(row["query"], row["context"])
        latencies.append((time.perf_counter() - started) * 1000)
    return {"warm_latency_p50_ms": percentile(latencies, 0.5), "warm_latency_p95_ms": percentile(latencies, 0.95)}


def run_rewrite(args: argparse.Namespace) -> None:
    numbers = rewrite_benchmark(args.data or REWRITE_DEV, args.failures)
    table = markdown_table(
        ["ambiguous", "clear", "resolution rate", "clear unchanged", "not detected", "p50 ms", "p95 ms", "warm p95 ms"],
        [
            [numbers[k] for k in ("ambiguous", "clear", "resolution_rate", "clear_unchanged", "not_detected")]
            + [numbers["latency_p50_ms"], numbers["latency_p95_ms"], numbers["warm_latency_p95_ms"]]
        ],
    )
    # per reference type (rows without a ``type`` are "untyped"): where the resolver is weak
    table += "\n\n" + markdown_table(
        ["type", "rows", "resolved", "resolution rate", "not detected"],
        [[k, t["rows"], t["resolved"], t["resolution_rate"], t["not_detected"]] for k, t in numbers["by_type"].items()],
    )
    data = args.data or REWRITE_DEV
    # named after the data set, so a held-out run does not overwrite the dev figures
    is_dev = data.resolve() == REWRITE_DEV.resolve()
    name = "query_rewrite" if is_dev else f"query_rewrite_{data.stem.removeprefix('rewrite_')}"
    write_results(name, {"data": data.name, **numbers}, table)


def evidence_of(hit: Hit) -> list[str]:
    """The turn ids a hit stands for: itself, a fact's evidence, or the turns a summary quotes."""
    if hit.kind == "message":
        return [hit.id]
    meta = hit.metadata
    return list(meta.get("evidence") or meta.get("sources") or [])


def ranked_turns(hits: list[Hit]) -> list[str]:
    return list(dict.fromkeys(turn for hit in hits for turn in evidence_of(hit)))


def observations(conversation_id: int, sample: dict[str, Any]) -> list[dict[str, Any]]:
    """LoCoMo's per-session observations as fact items (kind "fact") with their evidence turn ids."""
    records = []
    for key, by_speaker in sample.get("observation", {}).items():
        session = key.split("_")[1]
        for speaker, entries in by_speaker.items():
            for n, entry in enumerate(entries):
                text, evidence = entry[0], entry[1] if len(entry) > 1 else ""
                ids = evidence if isinstance(evidence, list) else [evidence]
                records.append(
                    {
                        "id": f"obs:{session}:{speaker}:{n}",
                        "content": text,
                        "kind": "fact",
                        "role": speaker,
                        "session_id": session,
                        "metadata": {"evidence": ids},
                    }
                )
    return records


def _score(rows: dict[str, list[dict[str, float]]], category: str, relevant: set[str], ranked: list[str]) -> None:
    row = {f"recall@{k}": len(relevant & set(ranked[:k])) / len(relevant) for k in KS}
    rows[category].append(row)
    rows["all"].append(row)


def locomo_questions(sample: dict[str, Any]) -> list[tuple[dict[str, Any], str, set[str]]]:
    """(question, category, evidence turn ids) of one conversation's scored questions."""
    known = {r["id"] for r in turns(sample["conversation"])}
    questions = [(q, CATEGORIES.get(q.get("category"))) for q in sample["qa"]]
    scored = [(q, c, evidence_ids(q.get("evidence", []), known)) for q, c in questions if c]
    return [(q, c, relevant) for q, c, relevant in scored if relevant]


def locomo_variants(
    data: list[dict[str, Any]],
    workdir: Path,
    embedder: str,
    tiers_only: bool = False,
    sufficiency: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Single-pass vs iterative vs progressive (with summaries and facts) on the same questions."""
    variants = ["single", "default", "iterative", "all-tiers", "progressive"]
    scores: dict[str, dict[str, list[dict[str, float]]]] = {v: defaultdict(list) for v in variants}
    timings: dict[str, list[float]] = {v: [] for v in variants}
    pairs = TierPair()  # every tier vs progressive, on stores with summaries and facts
    sufficiency = sufficiency or {}  # progressive's min_results / min_quality, when not the defaults
    for number, sample in enumerate(data):
        path = workdir / f"locomo{number}.db"
        with Memory(str(path), embedder=embedder) as memory:
            if memory.stats()["items"] == 0:
                memory.add_many(list(turns(sample["conversation"])))
            single = Memory(str(path), embedder=embedder, search_mode="hybrid")
            runs = {  # "default" is Memory.search as configured out of the box (the fused round)
                "single": lambda q, single=single: single.search(q, limit=25),
                "default": lambda q: memory.search(q, limit=25),
                "iterative": lambda q: memory.search(q, limit=25, iterative=True),
            }
            questions = locomo_questions(sample)
            for q, category, relevant in questions if not tiers_only else []:
                for variant, run in runs.items():
                    started = time.perf_counter()
                    ranked = [h.id for h in run(q["question"])]
                    timings[variant].append(time.perf_counter() - started)
                    _score(scores[variant], category, relevant, ranked)
            single.close()
        tiered = workdir / f"locomo{number}-tiers.db"
        with Memory(str(tiered), embedder=embedder, summaries_on_ingest=True) as memory:
            if memory.stats()["items"] == 0:  # session summaries are built as the turns are ingested
                memory.add_many(list(turns(sample["conversation"])))
                memory.add_many(observations(number, sample))
            pairs.absorb(time_tier_pair(memory, questions, sufficiency))
    scores |= pairs.scores
    timings |= pairs.timings
    return {
        "scores": scores,
        "timings": timings,
        "tiers": pairs.tiers,
        "shares": pairs.shares,
        "tier_time": pairs.tier_time,
    }


@dataclass
class TierPair:
    """Every tier vs progressive search on the same questions: recall rows, seconds, tiers touched."""

    scores: dict[str, dict[str, list[dict[str, float]]]] = field(
        default_factory=lambda: {v: defaultdict(list) for v in ("all-tiers", "progressive")}
    )
    timings: dict[str, list[float]] = field(default_factory=lambda: {"all-tiers": [], "progressive": []})
    #: seconds after the shared query embedding
    tier_time: dict[str, float] = field(default_factory=lambda: {"all-tiers": 0.0, "progressive": 0.0})
    tiers: list[int] = field(default_factory=list)
    #: tiers searched, each by the share of its items (a descent counts its part)
    shares: list[float] = field(default_factory=list)
    #: (variant, tier, "descent" or "whole") -> milliseconds of each search of that tier
    tier_ms: dict[tuple[str, str, str], list[float]] = field(default_factory=lambda: defaultdict(list))

    def absorb(self, other: TierPair) -> None:
        """Add another run's figures (another conversation's) to these."""
        for variant in ("all-tiers", "progressive"):
            for category, rows in other.scores[variant].items():
                self.scores[variant][category] += rows
            self.timings[variant] += other.timings[variant]
            self.tier_time[variant] += other.tier_time[variant]
        self.tiers += other.tiers
        self.shares += other.shares
        for key, ms in other.tier_ms.items():
            self.tier_ms[key] += ms


def time_tier_pair(
    memory: Memory, questions: list[tuple[dict[str, Any], str, set[str]]], sufficiency: dict[str, Any]
) -> TierPair:
    """Each question searched through every tier and progressively, in alternating order (the
    second run finds the pages and key lists warm), each with a cold query vector whose embedding
    is timed apart: every tier shares that one vector."""
    out = TierPair()
    engine = memory._engine()
    for position, (q, category, relevant) in enumerate(questions):
        pair = (("all-tiers", False), ("progressive", True))
        for variant, stop in pair if position % 2 else pair[::-1]:
            engine.clear_cache()
            started = time.perf_counter()
            engine._embed(q["question"])
            embedded = time.perf_counter()
            result = memory.progressive_search(q["question"], limit=10, stop_when_sufficient=stop, **sufficiency)
            out.timings[variant].append(time.perf_counter() - started)
            out.tier_time[variant] += time.perf_counter() - embedded
            _score(out.scores[variant], category, relevant, ranked_turns(result.hits))
            for report in result.tiers:
                if report.searched:
                    how = "descent" if report.share < 1 else "whole"
                    out.tier_ms[(variant, report.tier, how)].append(report.ms)
            if stop:
                out.tiers.append(len(result.tiers_searched))
                out.shares.append(result.tier_equivalents)
    return out


def run_locomo(args: argparse.Namespace) -> None:
    data = json.loads((args.data or LOCOMO).read_text())
    workdir = args.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    knobs = ("min_results", "min_quality", "min_coverage", "min_depth", "descend_sessions")
    given = {k: getattr(args, k) for k in knobs}
    sufficiency = {k: v for k, v in given.items() if v is not None}
    result = locomo_variants(data, workdir, args.embedder, args.tiers_only, sufficiency)
    summary: dict[str, Any] = {}
    rows = []
    for variant, groups in result["scores"].items():
        if not groups:
            continue
        times = result["timings"][variant]
        summary[variant] = {
            group: {m: sum(r[m] for r in found) / len(found) for m in found[0]} | {"n": len(found)}
            for group, found in groups.items()
        }
        summary[variant]["latency_ms"] = {"p50": 1000 * percentile(times, 0.5), "p95": 1000 * percentile(times, 0.95)}
        for group in ["all", *CATEGORIES.values()]:
            if group in summary[variant]:
                numbers = summary[variant][group]
                rows.append([variant, group, numbers["n"], numbers["recall@5"], numbers["recall@10"]])
    tiers = result["tiers"]
    summary["progressive"]["average_tiers"] = sum(tiers) / len(tiers)
    table = markdown_table(["variant", "questions", "n", "R@5", "R@10"], rows)
    for variant in summary:
        latency = summary[variant]["latency_ms"]
        table += f"\n{variant}: p50 {latency['p50']:.1f} ms, p95 {latency['p95']:.1f} ms"
    summary["progressive"]["average_tier_equivalents"] = sum(result["shares"]) / len(tiers)
    table += f"\nprogressive: average tiers searched {summary['progressive']['average_tiers']:.2f}"
    table += " (a descent into a few sessions counted whole; by share of items searched: "
    table += f"{summary['progressive']['average_tier_equivalents']:.2f})"
    all_tiers = sum(result["timings"]["all-tiers"])
    saved = 1 - sum(result["timings"]["progressive"]) / all_tiers if all_tiers else 0.0
    summary["progressive"]["time_saved_vs_all_tiers"] = saved
    table += f"\nprogressive: {100 * saved:.0f}% less time than searching every tier"
    searching = result["tier_time"]
    saved_search = 1 - searching["progressive"] / searching["all-tiers"] if searching["all-tiers"] else 0.0
    summary["progressive"]["search_time_saved_vs_all_tiers"] = saved_search
    table += f" ({100 * saved_search:.0f}% less in the tier searches, the shared query embedding left out)"
    # a tiers-only or re-tuned run is written beside the full one, not over it
    name = "query_locomo_tiers" if args.tiers_only or sufficiency else "query_locomo"
    payload = {"data": (args.data or LOCOMO).name, "embedder": args.embedder, "sufficiency": sufficiency}
    write_results(name, payload | {"summary": summary}, table)


def run_speed(args: argparse.Namespace) -> None:
    """Single pass vs the default fused round vs iterative on the synthetic store of benchmarks/speed.py.

    Each query runs every variant in turn (rotating which goes first), each with a cold query
    vector, unscoped and scoped to one of the store's ten users: load from elsewhere on the
    machine lands on every variant alike, so the ratios hold on a busy machine too.
    """
    questions = [q["question"] for sample in json.loads(LOCOMO.read_text()) for q in sample["qa"]][: args.queries]
    with (
        Memory(str(args.store), embedder="minilm") as memory,
        Memory(str(args.store), embedder="minilm", search_mode="hybrid") as single,
    ):
        items = memory.stats()["items"]
        runs = {
            "single": lambda q, **scope: single.search(q, **scope),
            "default": lambda q, **scope: memory.search(q, **scope),
            "iterative": lambda q, **scope: memory.search(q, iterative=True, **scope),
        }
        for run in runs.values():
            run("warm up the index")
            run("warm up the index", user_id="u3")
        timings: dict[str, list[float]] = {f"{v}{s}": [] for v in runs for s in ("", " (user)")}
        for number, question in enumerate(questions):
            names = list(runs)
            for variant in names[number % 3 :] + names[: number % 3]:
                for suffix, scope in (("", {}), (" (user)", {"user_id": "u3"})):
                    memory._engine().clear_cache()
                    single._engine().clear_cache()
                    started = time.perf_counter()
                    runs[variant](question, **scope)
                    timings[variant + suffix].append(time.perf_counter() - started)
    numbers = {
        v: {
            "p50_ms": 1000 * percentile(t, 0.5),
            "p95_ms": 1000 * percentile(t, 0.95),
            "mean_ms": 1000 * sum(t) / len(t),
        }
        for v, t in timings.items()
    }
    ratios = {
        f"{v} / single p95": numbers[v]["p95_ms"] / numbers["single"]["p95_ms"] for v in ("default", "iterative")
    } | {f"{v} / single mean": numbers[v]["mean_ms"] / numbers["single"]["mean_ms"] for v in ("default", "iterative")}
    rows = [[v, items, n["p50_ms"], n["p95_ms"], n["mean_ms"]] for v, n in numbers.items()]
    table = markdown_table(["variant", "items", "p50 ms", "p95 ms", "mean ms"], rows)
    table += "".join(f"\n{name}: {value:.2f}x" for name, value in ratios.items())
    write_results(
        "query_speed",
        {"store": args.store.name, "items": items, "queries": len(questions), "latency": numbers, "ratios": ratios},
        table,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rewrite = sub.add_parser("rewrite")
    rewrite.add_argument("--data", type=Path)
    rewrite.add_argument(
        "--failures", "--show-failures", dest="failures", action="store_true", help="Print the queries that failed."
    )
    rewrite.set_defaults(run=run_rewrite)
    locomo = sub.add_parser("locomo")
    locomo.add_argument("--data", type=Path)
    locomo.add_argument("--embedder", default="minilm")
    locomo.add_argument("--workdir", type=Path, default=ROOT / "benchmarks" / "work" / "query")
    locomo.add_argument("--tiers-only", action="store_true", help="Only the progressive and all-tiers variants.")
    locomo.add_argument("--min-results", type=int, help="Progressive: good matches that stop the search.")
    locomo.add_argument("--min-quality", type=float, help="Progressive: the quality a good match reaches.")
    locomo.add_argument("--min-coverage", type=float, help="Progressive: share of query terms the good hits hold.")
    locomo.add_argument("--min-depth", type=float, help="Progressive: quality the limit-th hit must reach.")
    locomo.add_argument("--descend-sessions", type=int, help="Progressive: sessions a sufficient search descends into.")
    locomo.set_defaults(run=run_locomo)
    speed = sub.add_parser("speed")
    speed.add_argument("--store", type=Path, default=ROOT / "benchmarks" / "work" / "query" / "store-100000.db")
    speed.add_argument("--queries", type=int, default=200)
    speed.set_defaults(run=run_speed)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
