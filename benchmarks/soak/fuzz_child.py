"""One fuzz run in its own process: ``python -m benchmarks.soak.fuzz_child TARGET RUNS SECONDS WORKDIR``.

With atheris installed (the ``fuzz`` extra) the target runs under libFuzzer, coverage-guided over
the mnemo modules it exercises; libFuzzer stops at the first crash and reports a stuck input as a
timeout. Without atheris a mutation loop (byte flips, splices of the seeds, inserted tokens) runs
instead, and a per-input alarm turns a stuck input into a counted hang.

Either way the last line on stdout is one JSON object: engine, inputs, crashes, hangs, first failure.
"""

from __future__ import annotations

import json
import random
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

#: Seconds one input may take before it counts as a hang.
HANG_SECONDS = 10
#: Modules atheris instruments for coverage (the parsers and tool layers under test).
INSTRUMENTED = ("mnemo.retrieve", "mnemo.ingest", "mnemo.hooks", "mnemo.mcp")
_TOKENS = (b'"', b"\\", b"{", b"}", b"[", b"]", b"\n", b"\x00", b"+", b"-", b"\xff", b"\xe2\x80\x9c", b"null", b"1e999")


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang()


def mutate(rng: random.Random, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    """One random edit of ``data``: flip, delete, insert a token, duplicate a slice or splice a seed."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        pos = rng.randint(0, len(buf))
        if op == 0 and buf:
            buf[min(pos, len(buf) - 1)] = rng.randrange(256)
        elif op == 1 and buf:
            del buf[pos : pos + rng.randint(1, 16)]
        elif op == 2:
            buf[pos:pos] = rng.choice(_TOKENS)
        elif op == 3 and buf:
            start = rng.randint(0, len(buf) - 1)
            buf[pos:pos] = buf[start : start + rng.randint(1, 64)] * rng.randint(1, 8)
        elif op == 4:
            other = rng.choice(seeds)
            buf = buf[:pos] + other[rng.randint(0, len(other)) :]
        else:
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(buf[:65536])


def random_loop(target: Any, runs: int, seconds: float) -> dict[str, Any]:
    rng = random.Random(0)
    corpus = list(target.seeds)
    result: dict[str, Any] = {"engine": "random", "inputs": 0, "crashes": 0, "hangs": 0, "first_failure": None}
    signal.signal(signal.SIGALRM, _alarm)
    deadline = time.monotonic() + seconds
    while result["inputs"] < runs and time.monotonic() < deadline:
        data = mutate(rng, rng.choice(corpus), target.seeds)
        result["inputs"] += 1
        signal.alarm(HANG_SECONDS)
        try:
            target(data)
        except _Hang:
            result["hangs"] += 1
            result["first_failure"] = result["first_failure"] or f"hang on {data[:200]!r}"
        except Exception:
            result["crashes"] += 1
            result["first_failure"] = result["first_failure"] or f"{data[:200]!r}\n{traceback.format_exc()[-1500:]}"
        finally:
            signal.alarm(0)
        if len(corpus) < 500 and rng.random() < 0.05:
            corpus.append(data)  # keep some mutants: deeper edits build on earlier ones
    return result


def atheris_run(name: str, runs: int, seconds: float, workdir: Path) -> None:
    """Hands the process to libFuzzer (which exits it); the harness reads libFuzzer's own summary."""
    import atheris

    with atheris.instrument_imports(include=list(INSTRUMENTED)):
        from benchmarks.soak.fuzz_targets import TARGETS

        target = TARGETS[name](workdir)
    corpus = workdir / f"corpus-{name}"
    corpus.mkdir(parents=True, exist_ok=True)
    for number, seed in enumerate(target.seeds):
        (corpus / f"seed{number}").write_bytes(seed)
    args = [sys.argv[0], str(corpus), f"-runs={runs}", f"-max_total_time={max(1, int(seconds))}"]
    args += [f"-timeout={HANG_SECONDS}", "-rss_limit_mb=4096", "-max_len=65536", "-print_final_stats=1"]
    atheris.Setup(args, target)
    atheris.Fuzz()


def main() -> None:
    name, runs, seconds, workdir = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), Path(sys.argv[4])
    engine = sys.argv[5] if len(sys.argv) > 5 else "auto"
    workdir.mkdir(parents=True, exist_ok=True)
    if engine in ("auto", "atheris"):
        try:
            import atheris  # noqa: F401
        except ImportError:
            if engine == "atheris":
                raise
        else:
            atheris_run(name, runs, seconds, workdir)
            return
    from benchmarks.soak.fuzz_targets import TARGETS

    target = TARGETS[name](workdir)
    try:
        result = random_loop(target, runs, seconds)
    finally:
        target.close()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
