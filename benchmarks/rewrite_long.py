"""Worst-case rewriting latency: long messages in the context.

The development sets have short turns, so their p95 says nothing about a pasted log, a long
assistant answer or a message that repeats a pattern the rules scan for ("before that" two thousand
times). Each case here is one synthetic context of about 20,000 characters (40,000 for the
all-lower-case chat), rewritten with three queries that take different paths: a pronoun, a time
pointer and a comparative choice. The figure is the slowest of ``--repeat`` runs per pair, with the
rewrite cache off.

``python -m benchmarks.rewrite_long`` writes ``benchmarks/results/rewrite_long.{json,md}``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from benchmarks.common import markdown_table, write_results
from mnemo.retrieve.rewrite import QueryRewriter

QUERIES = ("should i take it", "how long after that before i can eat", "is the cheaper one ok")


def _chat(*messages: str) -> list[dict[str, str]]:
    roles = ("user", "assistant")
    return [{"role": roles[n % 2], "content": text} for n, text in enumerate(messages)]


CASES: dict[str, list[dict[str, str]]] = {
    "'before that' x2000": _chat("hi", "before that " * 2000),
    "'the day after' x1500": _chat("hi", "the day after " * 1500),
    "prose 20k": _chat("hi", "We went to the market and bought apples, then walked home. " * 340),
    "lists and prices 20k": _chat(
        "Braga (1h by train), Guimarães (1h15) or Aveiro (canals); £45 for PureGym, £70 for Third Space. " * 200,
        "ok",
    ),
    "drugs and services 20k": _chat(
        "i take metformin, ramipril and vitamin d; my knee hurts; restart nginx. " * 280, "ok"
    ),
    "pronouns 20k": _chat("my sister said she would bring it when he asks her about them. " * 320, "ok"),
    "lower-case chat 40k": _chat("we booked the ryokan in kyoto and dr osei said its fine " * 720, "ok"),
}


def measure(repeat: int) -> list[dict[str, Any]]:
    rewriter = QueryRewriter(cache_ttl=0)
    rows = []
    for name, context in CASES.items():
        chars = sum(len(m["content"]) for m in context)
        for query in QUERIES:
            slowest = 0.0
            for _ in range(repeat):
                started = time.perf_counter()
                rewriter.rewrite(query, context)
                slowest = max(slowest, time.perf_counter() - started)
            rows.append({"case": name, "chars": chars, "query": query, "seconds": slowest})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="runs per pair; the slowest counts")
    args = parser.parse_args()
    rows = measure(args.repeat)
    worst = max(rows, key=lambda r: r["seconds"])
    table = markdown_table(
        ["case", "characters", "query", "slowest (ms)"],
        [(r["case"], r["chars"], r["query"], round(r["seconds"] * 1000, 1)) for r in rows],
    )
    table += f"\n\nWorst: {worst['seconds'] * 1000:.1f} ms ({worst['case']}, {worst['query']!r})."
    write_results("rewrite_long", {"repeat": args.repeat, "rows": rows, "worst": worst}, table)


if __name__ == "__main__":
    main()
