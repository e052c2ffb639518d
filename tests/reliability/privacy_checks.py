"""Helpers for the privacy checks (tests/reliability/test_privacy.py, benchmarks/soak/privacy.py).

``guarded_env`` runs a child Python with the socket guard of ``netguard/sitecustomize.py``;
``read_report`` sums what every guarded process (and its children) tried to send off the machine.
``raw_bytes`` reads a store's files byte for byte, so a forgotten marker is searched for where no
SQL query could hide it (free pages, FTS5 segments, the WAL).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GUARD_DIR = Path(__file__).resolve().parent / "netguard"

#: Runs each argument list of argv[1] (JSON) through the real click app; prints the exit codes.
RUN_COMMANDS = """
import json, sys
from mnemo.cli.main import cli
codes = []
for args in json.loads(sys.argv[1]):
    try:
        cli.main(args=args, prog_name="mnemo", standalone_mode=False)
        codes.append(0)
    except SystemExit as exc:
        codes.append(exc.code or 0)
    except Exception as exc:
        print(args, repr(exc), file=sys.stderr)
        codes.append(1)
print(json.dumps(codes))
"""


def guarded_env(report: Path, **extra: str) -> dict[str, str]:
    """The environment of a guarded child: default config (no MNEMO_* settings but HOME/report)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMO_")}
    path = os.pathsep.join([str(GUARD_DIR), str(ROOT / "src"), str(ROOT)])
    return {**env, "PYTHONPATH": path, "MNEMO_NETGUARD_REPORT": str(report), **extra}


def read_report(report: Path) -> dict[str, Any]:
    """Totals over every guarded process that exited: processes, attempts, bytes_sent, targets."""
    totals: dict[str, Any] = {"processes": 0, "attempts": 0, "bytes_sent": 0, "loopback": 0, "targets": []}
    if not report.exists():
        return totals
    for line in report.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        totals["processes"] += 1
        for key in ("attempts", "bytes_sent", "loopback"):
            totals[key] += int(entry[key])
        totals["targets"] += entry["targets"]
    return totals


def raw_bytes(db: str | Path) -> bytes:
    """The database file with its -wal and -shm files and any saved vector index beside it."""
    base = Path(db)
    found = b""
    for path in sorted(base.parent.iterdir()):
        if path.name.startswith(base.name):
            found += path.read_bytes()
    return found
