"""The regular-expression calls the rewriter makes, over one compiled-pattern cache of its own.

The resolver reads a query with well over a thousand distinct patterns, many of them built from the
chat's own words ("the plumber" becomes a pattern for "plumber(s)"). The standard library keeps only
512 compiled patterns, so a single rewrite evicted patterns the next one needed and compiling them
again was a fifth of the rewriter's time. These functions take the same arguments as their namesakes
in :mod:`re` and differ only in keeping every pattern they compile, up to a bound a long-running
server cannot outgrow.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

_Replacement = str | Callable[[re.Match[str]], str]


@lru_cache(maxsize=16384)
def compile(pattern: str | re.Pattern[str], flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - re's own name
    """The compiled form of ``pattern``, compiled once per process."""
    return re.compile(pattern, flags)


def search(pattern: str | re.Pattern[str], text: str, flags: int = 0) -> re.Match[str] | None:
    return compile(pattern, flags).search(text)


def match(pattern: str | re.Pattern[str], text: str, flags: int = 0) -> re.Match[str] | None:
    return compile(pattern, flags).match(text)


def fullmatch(pattern: str | re.Pattern[str], text: str, flags: int = 0) -> re.Match[str] | None:
    return compile(pattern, flags).fullmatch(text)


def finditer(pattern: str | re.Pattern[str], text: str, flags: int = 0) -> Iterator[re.Match[str]]:
    return compile(pattern, flags).finditer(text)


def findall(pattern: str | re.Pattern[str], text: str, flags: int = 0) -> list:
    return compile(pattern, flags).findall(text)


def sub(pattern: str | re.Pattern[str], repl: _Replacement, text: str, count: int = 0, flags: int = 0) -> str:
    return compile(pattern, flags).sub(repl, text, count)


def split(pattern: str | re.Pattern[str], text: str, maxsplit: int = 0, flags: int = 0) -> list[str]:
    return compile(pattern, flags).split(text, maxsplit)
