"""How well the LLM-summary hallucination guard tells a session's own summary from someone else's.

LoCoMo dev ships a written (LLM-made, human-checked) summary per session. For every session the
guard (mnemo.retrieve.summary_llm.rejection) judges three candidates: the session's own summary
(a faithful abstractive summary: it should pass), the summary of another session of the same
conversation (same two speakers, other events: it should fail) and a summary from another
conversation (other people: it should fail). LoCoMo's summaries run longer than the 1,000
characters mnemo asks of its LLM, so they are judged sentence-window by sentence-window: the
first four sentences, the size mnemo's prompt asks for.

    .venv/bin/python -m benchmarks.summaries
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.common import SHARED, markdown_table, write_results
from benchmarks.locomo import turns
from mnemo.records import Item, Scope
from mnemo.retrieve.summary_llm import rejection

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
SENTENCES = 4


def sessions(conversation: dict[str, Any]) -> dict[str, list[Item]]:
    grouped: dict[str, list[Item]] = {}
    for turn in turns(conversation["conversation"]):
        item = Item(
            id=turn["id"],
            content=turn["content"],
            role=turn["role"],
            scope=Scope(session_id=turn["session_id"]),
            timestamp=turn["timestamp"],
        )
        grouped.setdefault(turn["session_id"], []).append(item)
    return grouped


def short(summary: str, dated: bool = True) -> str:
    """The first sentences of a summary; ``dated=False`` skips those holding a number (LoCoMo's
    summaries open with the session's date, which alone tells most sessions apart)."""
    kept = [s for s in _SENTENCE.split(summary.strip()) if dated or not re.search(r"\d", s)]
    return " ".join(kept[:SENTENCES])


def evaluate(data: list[dict[str, Any]], dated: bool) -> dict[str, Any]:
    summaries = {
        (c["sample_id"], key.split("_")[1]): short(text, dated)
        for c in data
        for key, text in c["session_summary"].items()
        if text
    }
    outcomes: dict[str, Counter[str]] = {
        "own": Counter(),
        "same conversation": Counter(),
        "other conversation": Counter(),
    }
    timings: list[float] = []
    for conversation in data:
        sample = conversation["sample_id"]
        grouped = sessions(conversation)
        numbers = sorted(grouped, key=int)
        for position, number in enumerate(numbers):
            own = summaries.get((sample, number))
            if own is None:
                continue
            neighbour = summaries.get((sample, numbers[(position + 1) % len(numbers)]))
            others = [s for (c, n), s in summaries.items() if c != sample and n == number]
            for label, candidate in (
                ("own", own),
                ("same conversation", neighbour),
                ("other conversation", others[0] if others else None),
            ):
                if candidate is None:
                    continue
                started = time.perf_counter()
                reason = rejection(candidate, grouped[number])
                timings.append(time.perf_counter() - started)
                outcomes[label][_code(reason)] += 1
    timings.sort()
    return {
        "outcomes": {label: dict(counts) for label, counts in outcomes.items()},
        "guard_ms": {"p50": 1000 * timings[len(timings) // 2], "p95": 1000 * timings[int(len(timings) * 0.95)]},
    }


def _code(reason: str | None) -> str:
    if reason is None:
        return "accepted"
    for code in ("numbers", "names", "occur", "long", "short", "empty"):
        if code in reason:
            return code
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=SHARED / "data" / "locomo" / "locomo_dev.json")
    args = parser.parse_args()
    data = json.loads(args.data.read_text())
    results = {"as written": evaluate(data, True), "sentences with numbers removed": evaluate(data, False)}
    rows = []
    for variant, result in results.items():
        for label, counts in result["outcomes"].items():
            total = sum(counts.values())
            accepted = counts.get("accepted", 0)
            reasons = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "accepted")
            rows.append([variant, label, total, accepted / total if total else 0.0, reasons or "-"])
    table = markdown_table(["candidates", "summary judged", "n", "accepted", "rejections by check"], rows)
    timing = results["as written"]["guard_ms"]
    table += f"\n\nguard time per summary: p50 {timing['p50']:.2f} ms, p95 {timing['p95']:.2f} ms"
    write_results("summaries_guard", {"data": args.data.name, "sentences": SENTENCES, "results": results}, table)


if __name__ == "__main__":
    main()
