"""How the CLI prints: JSON for programs, short readable lines for people, errors without tracebacks."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from mnemo.errors import ConfigError, InputError, MissingExtra, MnemoError
from mnemo.records import Hit

F = TypeVar("F", bound=Callable[..., Any])


def emit_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=None, default=str))


def fail(message: str, code: int = 1) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def handle_errors(command: F) -> F:
    """Turn mnemo's own errors into one line on stderr and an exit code: 2 bad input, 3 setup, 1 other."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except InputError as exc:
            fail(str(exc), 2)
        except (ConfigError, MissingExtra) as exc:
            fail(str(exc), 3)
        except MnemoError as exc:
            fail(str(exc), 1)

    return wrapper  # type: ignore[return-value]


def format_hit(rank: int, hit: Hit, explain: bool = False) -> str:
    when = hit.timestamp.strftime("%Y-%m-%d %H:%M") if hit.timestamp else "-"
    who = hit.role or hit.kind
    text = " ".join(hit.content.split())
    if len(text) > 240:
        text = text[:239] + "…"
    lines = [f"{rank:>2}. [{hit.id}] {when} {who}: {text}"]
    if explain:
        parts = [f"{name} #{hit.ranks[name]} ({hit.signals.get(name, 0.0):.4g})" for name in hit.ranks]
        # the fusion may be RRF (single pass) or weighted min-max (fused round): name neither
        lines.append(f"    score {hit.score:.5f} = fused from " + ", ".join(parts))
    return "\n".join(lines)
