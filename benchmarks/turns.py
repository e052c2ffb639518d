"""Per-turn memory (Memory.turn) replayed over a multi-session dialogue, at 10k and 100k stored facts.

The dialogue is LoCoMo dev conversations (both speakers played as user turns, one session id per
LoCoMo session) with labelled probe pairs from benchmarks/data/turn_probes.jsonl woven in: a setup
turn states a fact, a probe turn a few turns later asks about it. Synthetic facts about other people
fill the store up to the target size first (written through the store's own fact method); one in 20
is about the user or a LoCoMo speaker, so the names the dialogue uses have hundreds of candidates.

Reports per-stage and total p50/p95, retrieval mean, relevance@3 (the probe's fact among the turn's
first three bullets), duplicate re-injection within 3 turns, bullets per turn and the share of turns
whose memory message stays within the bullet cap.

    .venv/bin/python -m benchmarks.turns --facts 10000 100000 --blas-threads 1 0
    .venv/bin/python -m benchmarks.turns --facts 10000 --probes benchmarks/data/turn_probes_hard.jsonl --name turns_hard

--blas-threads runs each size with MNEMO_BLAS_THREADS set to each value (0 = the BLAS library's
own count: on 2 cores spaCy's spinning BLAS threads then stall the MiniLM embedding of a turn's facts).
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
from mnemo.embed.threads import blas_info
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


#: One replayed turn: (session id, text, the probe it asks or None, user id).
Turn = tuple[str, str, dict[str, Any] | None, str]


def dialogue(limit: int, probe_file: Path = PROBES) -> list[Turn]:
    """The replay in order: LoCoMo turns with the probes woven in.

    A probe's ``setup`` is one turn or a list of turns (a turn may be ``{"text", "user"}``: said by
    another user, whose facts must never answer this user's probe). The probe comes ``gap`` turns
    later (default: cycling through GAPS; 0 = right after the setup, as a pronoun needs), or with
    ``new_session`` in the next LoCoMo session.
    """
    turns: list[tuple[str, str]] = []
    for conv in json.loads(LOCOMO.read_text()):
        talk = conv["conversation"]
        for key in sorted((k for k in talk if k.startswith("session_") and not k.endswith("date_time")),
                          key=lambda k: int(k.split("_")[1])):  # fmt: skip
            turns += [(f"{conv['sample_id']}:{key}", t["text"]) for t in talk[key] if t.get("text")]
    turns = turns[:limit]
    probes = [json.loads(line) for line in probe_file.read_text().splitlines() if line.strip()]
    out: list[Turn] = [(s, t, None, USER) for s, t in turns]
    step = max(1, len(out) // (len(probes) + 1))
    for n, probe in reversed(list(enumerate(probes))):  # from the end so earlier positions stay valid
        at = min((n + 1) * step, len(out) - 1)
        session = out[at][0]
        where = min(at + probe.get("gap", GAPS[n % len(GAPS)]), len(out))
        asked_in = session
        if probe.get("new_session"):
            where = next((i for i in range(at, len(out)) if out[i][0] != session), len(out))
            asked_in = out[where][0] if where < len(out) else f"{session}:later"
        out.insert(where, (asked_in, probe["probe"], probe, USER))
        setup = probe["setup"] if isinstance(probe["setup"], list) else [probe["setup"]]
        for said in reversed(setup):
            text, user = (said["text"], said.get("user", USER)) if isinstance(said, dict) else (said, USER)
            out.insert(at, (session, text, None, user))
    return out


def replay(memory: Memory, turns: list[Turn]) -> dict[str, Any]:
    timings: dict[str, list[float]] = defaultdict(list)
    recent: dict[str, deque[set[str]]] = defaultdict(lambda: deque(maxlen=3))
    injected = duplicates = within_cap = hits = probes = 0
    per_turn: list[int] = []
    cap = memory.config.bullets_max
    by_kind: dict[str, list[bool]] = defaultdict(list)
    misses: list[dict[str, Any]] = []
    for session, text, probe, user in turns:
        result = memory.turn(text, session_id=session, user_id=user)
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
            hit = expected in [b.fact_id for b in result.bullets[:3]]
            hits += hit
            by_kind[probe.get("kind", "easy")].append(hit)
            if not hit:
                misses.append({"probe": text, "expect": probe["expect"], "got": [b.text for b in result.bullets]})
    return {
        "turns": len(turns),
        "stages_ms": {s: {"p50": percentile(v, 0.5), "p95": percentile(v, 0.95)} for s, v in timings.items()},
        "retrieval_mean_ms": statistics.fmean(timings["retrieval"]),
        "relevance_at_3": hits / probes if probes else 0.0,
        "relevance_by_kind": {k: sum(v) / len(v) for k, v in sorted(by_kind.items())},
        "misses": misses,
        "probes": probes,
        "duplicate_reinjection": duplicates / injected if injected else 0.0,
        "bullets_per_turn": statistics.fmean(per_turn),
        "within_cap": within_cap / len(turns),
    }


def run(size: int, turns: int, embedder: str, blas: int, probes: Path = PROBES) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        memory = Memory(str(Path(tmp) / "turns.db"), embedder=embedder, blas_threads=blas)
        with memory:
            fill_s = fill(memory, size)
            started = time.perf_counter()
            # cold start, reported apart: spaCy and the embedding model (a fact to embed, under another
            # user), then the bench user's hot index (built from the store on its first turn)
            memory.turn("My friend Warm Up lives in Nowhere.", session_id="warmup", user_id="warmup")
            memory.turn("hello", session_id="warmup", user_id=USER)
            warm_s = time.perf_counter() - started
            result = replay(memory, dialogue(turns, probes))
    return {"facts": size, "blas_threads": blas, "probe_set": probes.name, "fill_s": fill_s,
            "first_turn_s": warm_s, "embedder": embedder, **result}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--facts", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--turns", type=int, default=600, help="LoCoMo turns replayed (probes come on top)")
    parser.add_argument("--embedder", default="auto", help="embedder of the store (auto = MiniLM when installed)")
    parser.add_argument("--blas-threads", type=int, nargs="+", default=[1],
                        help="MNEMO_BLAS_THREADS values to run (0 = the BLAS library's own count)")  # fmt: skip
    parser.add_argument("--probes", type=Path, nargs="+", default=[PROBES], help="probe files (JSONL)")
    parser.add_argument("--name", default="turns", help="results file name under benchmarks/results/")
    args = parser.parse_args()
    runs = [
        run(size, args.turns, args.embedder, blas, probes)
        for probes in args.probes
        for blas in args.blas_threads
        for size in args.facts
    ]
    headers = ["probes", "facts", "blas threads", "turns", *(f"{s} p50/p95 ms" for s in STAGES), "retrieval mean ms",
               "relevance@3", "dup re-inject", "bullets/turn", "within cap"]  # fmt: skip
    rows = [
        [r["probe_set"], r["facts"], r["blas_threads"] or "default", r["turns"],
         *(f"{r['stages_ms'][s]['p50']:.2f}/{r['stages_ms'][s]['p95']:.2f}" for s in STAGES),
         r["retrieval_mean_ms"], r["relevance_at_3"], r["duplicate_reinjection"], r["bullets_per_turn"],
         r["within_cap"]]
        for r in runs
    ]  # fmt: skip
    meta = {"runs": runs, "turns_arg": args.turns, "blas": blas_info()}
    write_results(args.name, meta, markdown_table(headers, rows))


if __name__ == "__main__":
    main()
