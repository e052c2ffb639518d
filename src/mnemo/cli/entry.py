"""The `mnemo` console script: a fast lane for `mnemo hook claude-code`, else the full command line.

Claude Code runs the hook on every prompt, so its start-up is part of the user's wait. Building the
full command line imports every command module and through them the engine (about 0.4 s); the
hook through a running server needs none of it. So this entry recognises the hook's argument
shape and runs it directly; any other arguments (and --help) go to the click app in cli/main.py.
"""

from __future__ import annotations

import sys


def main() -> None:
    from mnemo.hooks.command import parse_argv

    args = parse_argv(sys.argv[1:])
    if args is None:
        from mnemo.cli.main import main as full

        full()
        return
    from mnemo.hooks.command import render, run_claude_code

    text = render(run_claude_code(sys.stdin.read(), args), args.as_json)
    if text is not None:
        sys.stdout.write(text + "\n")
