"""Per-turn memory (Memory.turn) replayed over a multi-session dialogue, at 10k and 100k stored facts.

The dialogue is LoCoMo dev conversations (both speakers played as user turns, one session id per
LoCoMo session) with labelled probe pairs from benchmarks/data/turn_probes.jsonl woven in: a setup
turn states a fact, a probe turn a few turns later asks about it. Synthetic facts about other people
fill the store up to the target size first (written through the store's own fact method); one in 20
is about the user or a LoCoMo speaker, so the names the dialogue uses have hundreds of candidates.

Reports per-stage and total p50/p95, retrieval mean, relevance@3 (the probe's fact among the turn's
first three bullets), duplicate re-injection within 3 turns, bullets per turn and the share of turns
whose memory message stays within the bullet cap.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m benchmarks.turns --facts 10000 100000

(Without OPENBLAS_NUM_THREADS=1, on 2 cores spaCy's spinning BLAS threads stall the MiniLM embedding
of a turn's facts: extraction p95 ~340 ms instead of ~10 ms.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, SHARED, markdown_table, write_results
from mnemo import Memory
from mnemo.extract.learn import fact_id, fact_item
from mnemo.hot.metrics import STAGES, percentile
from mnemo.records import Fact, Item, Scope

PROBES = ROOT / "benchmarks" / "data" / "turn_probes.jsonl"
LOCOMO = SHARED / "data" / "locomo" / "locomo_dev.json"
USER = "bench"
RELATIONS = ("lives_in", "works_at", "born_in", "moved_from", "has", "went_to", "likes", "is")
#: Every CROWD_EVERY-th synthetic fact is about the user or a LoCoMo speaker, so turns that name
#: them rank hundreds of candidates (at 100k facts, ~450 per name) instead of a handful.
CROWD = ("you", "caroline", "melanie", "mel", "jon", "gina", "john", "maria", "joanna", "nate", "tim")
CROWD_EVERY = 20
#: Turns between a probe's setup and its question (cycled), so novelty and the window are exercised.
GAPS = (2, 5, 9, 14)


def fill(memory: Memory, target: int, batch: int = 5000) -> float:
    """Synthetic facts about other people, written in batches; returns seconds taken."""
    started = time.perf_counter()
    scope = Scope(user_id=USER)
    message = Item(id="synthetic", content="", role="user", scope=scope)
    for start in range(0, target, batch):
        entries = []
        for i in range(start, min(target, start + batch)):
            k = i // CROWD_EVERY
            if i % CROWD_EVERY == 0:  # every crowd name gets every relation in turn
                subject, relation = CROWD[k % len(CROWD)], RELATIONS[(k // len(CROWD)) % len(RELATIONS)]
            else:
                subject, relation = f"person{i // 4}", RELATIONS[i % len(RELATIONS)]
            fact = Fact(subject, relation, f"thing{i % 997}", lang="en")
            entries.append((fact_item(fact, message), None, fact))
        memory.store.record_facts(entries, now=time.time() - 86400 * (start % 30), alpha=0.3)
    return time.perf_counter() - started


def dialogue(limit: int) -> list[tuple[str, str, dict[str, Any] | None]]:
    """(session id, text, probe or None) in order: LoCoMo turns with the probe pairs woven in."""
    turns: list[tuple[str, str]] = []
    for conv in json.loads(LOCOMO.read_text()):
        talk = conv["conversation"]
        for key in sorted((k for k in talk if k.startswith("session_") and not k.endswith("date_time")),
                          key=lambda k: int(k.split("_")[1])):  # fmt: skip
            turns += [(f"{conv['sample_id']}:{key}", t["text"]) for t in talk[key] if t.get("text")]
    turns = turns[:limit]
    probes = [json.loads(line) for line in PROBES.read_text().splitlines() if line.strip()]
    out: list[tuple[str, str, dict[str, Any] | None]] = [(s, t, None) for s, t in turns]
    step = max(1, len(out) // (len(probes) + 1))
    for n, probe in reversed(list(enumerate(probes))):  # from the end so earlier positions stay valid
        at = (n + 1) * step
        session = out[min(at, len(out) - 1)][0]
        gap = GAPS[n % len(GAPS)]
        out.insert(min(at + gap, len(out)), (session, probe["probe"], probe))
        out.insert(at, (session, probe["setup"], None))
    return out


def replay(memory: Memory, turns: list[tuple[str, str, dict[str, Any] | None]]) -> dict[str, Any]:
    timings: dict[str, list[float]] = defaultdict(list)
    recent: dict[str, deque[set[str]]] = defaultdict(lambda: deque(maxlen=3))
    injected = duplicates = within_cap = hits = probes = 0
    per_turn: list[int] = []
    cap = memory.config.bullets_max
    for session, text, probe in turns:
        result = memory.turn(text, session_id=session, user_id=USER)
        for stage in STAGES:
            timings[stage].append(result.timings_ms[stage])
        ids = {b.fact_id for b in result.bullets}
        duplicates += sum(1 for i in ids if any(i in earlier for earlier in recent[session]))
        injected += len(ids)
        recent[session].append(ids)
        per_turn.append(len(result.bullets))
        shown = result.system_message["content"].count("\n- ") if result.system_message else 0
        within_cap += shown <= cap
        if probe is not None:
            probes += 1
            expected = fact_id(Fact(*probe["expect"]))
            hits += expected in [b.fact_id for b in result.bullets[:3]]
    return {
        "turns": len(turns),
        "stages_ms": {s: {"p50": percentile(v, 0.5), "p95": percentile(v, 0.95)} for s, v in timings.items()},
        "retrieval_mean_ms": statistics.fmean(timings["retrieval"]),
        "relevance_at_3": hits / probes if probes else 0.0,
        "probes": probes,
        "duplicate_reinjection": duplicates / injected if injected else 0.0,
        "bullets_per_turn": statistics.fmean(per_turn),
        "within_cap": within_cap / len(turns),
    }


def run(size: int, turns: int, embedder: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, Memory(str(Path(tmp) / "turns.db"), embedder=embedder) as memory:
        fill_s = fill(memory, size)
        started = time.perf_counter()
        # cold start, reported apart: spaCy and the embedding model (a fact to embed, under another
        # user), then the bench user's hot index (built from the store on its first turn)
        memory.turn("My friend Warm Up lives in Nowhere.", session_id="warmup", user_id="warmup")
        memory.turn("hello", session_id="warmup", user_id=USER)
        warm_s = time.perf_counter() - started
        result = replay(memory, dialogue(turns))
    return {"facts": size, "fill_s": fill_s, "first_turn_s": warm_s, "embedder": embedder, **result}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--facts", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--turns", type=int, default=600, help="LoCoMo turns replayed (probes come on top)")
    parser.add_argument("--embedder", default="auto", help="embedder of the store (auto = MiniLM when installed)")
    args = parser.parse_args()
    runs = [run(size, args.turns, args.embedder) for size in args.facts]
    headers = ["facts", "turns", *(f"{s} p50/p95 ms" for s in STAGES), "retrieval mean ms", "relevance@3",
               "dup re-inject", "bullets/turn", "within cap"]  # fmt: skip
    rows = [
        [r["facts"], r["turns"], *(f"{r['stages_ms'][s]['p50']:.2f}/{r['stages_ms'][s]['p95']:.2f}" for s in STAGES),
         r["retrieval_mean_ms"], r["relevance_at_3"], r["duplicate_reinjection"], r["bullets_per_turn"],
         r["within_cap"]]
        for r in runs
    ]  # fmt: skip
    write_results("turns", {"runs": runs, "turns_arg": args.turns}, markdown_table(headers, rows))


if __name__ == "__main__":
    main()
