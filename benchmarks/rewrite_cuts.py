"""Whole replacements: how often the resolver puts a piece of a name into a query.

A replacement is cut when its first or last word is written in the chat only as part of a longer
token joined by a symbol or a digit: "B" of "B&H", "v5" of "v5.1", "Disney" of "Disney+", "N" of
"N+1". A plural or a possessive ("sisters", "Anna's") is no cut. The check runs every rewrite set
and counts, per set, the replacements and the cut ones; no row is printed, so the never-read sets
can be counted too.

``python -m benchmarks.rewrite_cuts`` writes ``benchmarks/results/rewrite_cuts.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchmarks.common import markdown_table, write_results
from mnemo.retrieve.rewrite import QueryRewriter

DATA = Path(__file__).parent / "data"
#: Punctuation around a word that is no part of it.
_OUTER = ".,;:!?()[]\"'`*“”‘’"
#: What continues a token past a word that is a piece of it.
_JOINING = set("&/-_.@#+:")


def cut_piece(word: str, tokens: Iterable[str], at_end: bool) -> str | None:
    """The chat's token that ``word`` is a cut piece of (its start when ``at_end``, else its end),
    or None when the chat also writes the word alone."""
    bare = word.strip(_OUTER).lower()
    if not bare:
        return None
    tokens = [t for t in tokens if t]
    if any(t.lower() == bare for t in tokens):
        return None
    for token in tokens:
        low = token.lower()
        if len(low) <= len(bare) or not (low.startswith(bare) if at_end else low.endswith(bare)):
            continue
        joint = low[len(bare)] if at_end else low[-len(bare) - 1]
        if joint in _JOINING or joint.isdigit():
            return token
    return None


def cuts(replacement: str, context_text: str) -> str | None:
    """The token a replacement cuts at its first or last word, or None."""
    words = replacement.split()
    if not words:
        return None
    tokens = [t.strip(_OUTER) for t in context_text.split()]
    return cut_piece(words[-1], tokens, at_end=True) or cut_piece(words[0], tokens, at_end=False)


def measure(paths: Iterable[Path]) -> list[dict[str, Any]]:
    rewriter = QueryRewriter(cache_ttl=0)
    rows = []
    for path in paths:
        replaced = cut = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            result = rewriter.rewrite(row["query"], row["context"])
            said = " ".join(str(m.get("content") or "") for m in row["context"])
            for resolution in result.resolved:
                replaced += 1
                cut += cuts(resolution.replacement, said) is not None
        rows.append({"set": path.name, "replacements": replaced, "cut": cut})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", nargs="*", type=Path, help="rewrite sets (default: every benchmarks/data/rewrite_*)")
    args = parser.parse_args()
    paths = args.data or sorted(DATA.glob("rewrite_*.jsonl"))
    rows = measure(paths)
    total = {"replacements": sum(r["replacements"] for r in rows), "cut": sum(r["cut"] for r in rows)}
    table = markdown_table(["set", "replacements", "cut"], [(r["set"], r["replacements"], r["cut"]) for r in rows])
    table += f"\n\nAll sets: {total['cut']} of {total['replacements']} replacements cut a token of the chat."
    write_results("rewrite_cuts", {"rows": rows, "total": total}, table)


if __name__ == "__main__":
    main()
