"""Synonym groups for session search: the packaged defaults plus the user's own file.

File format (see ``mnemo/data/synonyms.txt``): one group per line, members separated by commas,
each a word or a phrase; ``#`` starts a comment line; in the user's file a line ``!word`` drops
every default group that contains ``word``. Members are compared lower-cased, word by word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path

from mnemo.errors import ConfigError

_WORD = re.compile(r"\w+", re.UNICODE)

Synonyms = Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]]


def parse_synonyms(lines: Iterable[str], base: Iterable[tuple[tuple[str, ...], ...]] = ()) -> list[tuple]:
    """Groups (tuples of word tuples) from ``lines``, added to ``base`` minus the ``!word`` removals."""
    groups = [tuple(g) for g in base]
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            dropped = _words(line[1:])
            groups = [g for g in groups if dropped not in g]
            continue
        members = tuple(dict.fromkeys(w for w in (_words(part) for part in line.split(",")) if w))
        if len(members) > 1:
            groups.append(members)
    return groups


def synonym_index(groups: Iterable[tuple[tuple[str, ...], ...]]) -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Each member mapped to the other members of every group it belongs to."""
    index: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for group in groups:
        for member in group:
            others = index.setdefault(member, [])
            others.extend(m for m in group if m != member and m not in others)
    return {member: tuple(others) for member, others in index.items()}


def load_synonyms(user_file: str | Path | None) -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The packaged defaults, extended (or trimmed) by ``user_file`` when it exists."""
    defaults = resources.files("mnemo.data").joinpath("synonyms.txt").read_text(encoding="utf-8")
    groups = parse_synonyms(defaults.splitlines())
    if user_file is not None:
        path = Path(user_file).expanduser()
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"cannot read the synonyms file {path}: {exc}") from exc
            groups = parse_synonyms(text.splitlines(), groups)
    return synonym_index(groups)


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD.findall(text))
