"""The fast entry for Claude Code hooks, run as a file: ``python /path/to/mnemo/hooks/fast.py``.

Why a file and not ``python -m mnemo hook claude-code``: ``-m`` first imports the ``mnemo``
package, whose ``__init__`` loads the whole engine (Memory, numpy, the categorizer): about 0.4 s
before the hook does anything. Run as a file, this script registers a bare ``mnemo`` package
object (the real package directory as its path, no ``__init__`` run) and loads only the hook
modules, which need the standard library, ``mnemo.errors`` and ``mnemo.config``: about 60 ms.

When a `mnemo serve` answers, the script does the whole call through it. Otherwise it hands the
payload to ``python -m mnemo hook claude-code`` (in-process, lexical only), which prints and logs
for itself; the store path comes from MNEMO_DB / MNEMO_HOME as usual. Always exits 0.
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

_HOOKS_DIR = Path(__file__).resolve().parent

if __name__ == "__main__" and "mnemo" not in sys.modules:
    # Run as a script, sys.path[0] is this folder: drop it so sibling files never shadow anything.
    if sys.path and Path(sys.path[0] or ".").resolve() == _HOOKS_DIR:
        sys.path.pop(0)
    _package = types.ModuleType("mnemo")
    _package.__path__ = [str(_HOOKS_DIR.parent)]
    sys.modules["mnemo"] = _package

from mnemo.config import load_config  # noqa: E402 - after the package stub, on purpose
from mnemo.hooks.claude_code import HookOutcome, via_server  # noqa: E402
from mnemo.hooks.client import ServerClient, ServerUnavailable, server_address  # noqa: E402
from mnemo.hooks.payload import PROMPT_EVENT, HookEvent  # noqa: E402
from mnemo.hooks.runner import Delegated, run_logged  # noqa: E402

#: The full hook; the child inherits stdout, so what it prints goes straight to Claude Code.
FULL_HOOK = ("-m", "mnemo", "hook", "claude-code")


def work(raw: str) -> HookOutcome | None:
    def through_server(event: HookEvent) -> HookOutcome | None:
        if event.event != PROMPT_EVENT and not Path(event.transcript_path or "").is_file():
            return _delegate(raw)  # the full hook checks the transcript and logs why it is skipped
        try:
            client = ServerClient(server_address()).connect()
        except ServerUnavailable:
            return _delegate(raw)
        try:
            return via_server(client, event, load_config().hook_max_tokens)
        finally:
            client.close()

    return run_logged(raw, through_server)


def _delegate(raw: str) -> None:
    subprocess.run([sys.executable, *FULL_HOOK], input=raw, text=True, check=False)
    return Delegated


def main() -> None:
    outcome = work(sys.stdin.read())
    if outcome is not None and outcome.text:
        sys.stdout.write(outcome.text + "\n")


if __name__ == "__main__":
    main()
