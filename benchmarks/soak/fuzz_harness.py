"""Runs one fuzz target in a child process for a time budget and reads back its figures.

libFuzzer (atheris) prints ``Done N runs in S second(s)`` or ``stat::number_of_executed_units: N``
and stops at the first crash (``Uncaught Python exception``) or stuck input (``Timeout``/``ALARM``);
the random engine prints one JSON line. Both become {inputs, crashes, hangs, errors, engine}.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: Inputs a full soak tries per target (the issue's floor); the budget may stop a run earlier.
FULL_RUNS = 100_000
_UNITS = re.compile(r"stat::number_of_executed_units:\s*(\d+)|Done (\d+) runs|^#(\d+)\s", re.MULTILINE)


def run_fuzz(target: str, budget_seconds: float, workdir: Path, runs: int = FULL_RUNS) -> dict[str, Any]:
    engine = os.environ.get("MNEMO_FUZZ_ENGINE", "auto")
    where = workdir / f"fuzz-{target}"
    command = [sys.executable, "-m", "benchmarks.soak.fuzz_child", target, str(runs), str(budget_seconds), str(where)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]), "MNEMO_HOME": str(where)}
    try:
        done = subprocess.run(
            [*command, engine], env=env, capture_output=True, text=True, timeout=budget_seconds + 120, cwd=where.parent
        )
    except subprocess.TimeoutExpired:
        return {"inputs": 0, "crashes": 0, "hangs": 1, "errors": 1, "engine": engine}
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if last.startswith("{"):
        result = json.loads(last)
        result["errors"] = int(done.returncode != 0)
        return result
    return _libfuzzer_result(done)


def _libfuzzer_result(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    text = done.stderr + done.stdout
    counts = [int(a or b or c) for a, b, c in _UNITS.findall(text)]
    crashed = "Uncaught Python exception" in text or "ERROR: libFuzzer: deadly signal" in text
    hung = "ERROR: libFuzzer: timeout" in text or "ALARM: working on the last Unit" in text
    result: dict[str, Any] = {
        "engine": "atheris",
        "inputs": max(counts) if counts else 0,
        "crashes": int(crashed),
        "hangs": int(hung),
        "errors": int(done.returncode != 0 and not (crashed or hung)),
    }
    if crashed or hung or result["errors"]:
        result["first_failure"] = text[-3000:]
    return result
