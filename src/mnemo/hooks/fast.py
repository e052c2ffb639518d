"""The hook run as a file: ``python /path/to/mnemo/hooks/fast.py`` (same as `mnemo hook claude-code`).

Kept for settings written before the console script had its fast lane: `mnemo hook claude-code`
now starts just as fast (``import mnemo`` loads nothing heavy until used). Through a running
`mnemo serve` the call needs only the standard library and the hook modules; without one it opens
the store in-process, lexical only. The store comes from MNEMO_DB / MNEMO_HOME. Always exits 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, sys.path[0] is this folder: drop it so sibling files never shadow anything.
    if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
        sys.path.pop(0)

from mnemo.hooks.command import HookArgs, render, run_claude_code  # after the path fix, on purpose


def main() -> None:
    text = render(run_claude_code(sys.stdin.read(), HookArgs()), as_json=False)
    if text is not None:
        sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
