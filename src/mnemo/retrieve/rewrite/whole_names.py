"""Names written with symbols and numbers, kept whole: "B&H", "AT&T", "C++", "Disney+", "iOS 17.4",
"iPhone 15 Pro Max", "RTX 4070 Ti".

The other extractors read a name as letters, so they cut such a name at its first symbol or number
("the B", "Disney", "iOS" beside a loose "17.4", "the iPhone 15" beside "Pro Max"). What the resolver
puts in a query must be the whole name: "does iOS 17.4 drain the battery" is a different search from
"does iOS drain the battery". This pass runs over one message's mentions: it adds the names made of
symbols that nothing reads, widens a name over the version or suffix written after it, and drops the
pieces a whole name now covers.
"""

from __future__ import annotations

import re
from dataclasses import replace

from mnemo.retrieve.rewrite.candidate import Candidate

from . import cached_re

#: Letters joined by "&" or closed by "+"/"++": "B&H", "AT&T", "M&S", "C++", "Notepad++", "N+1".
_SYMBOL_NAME = re.compile(r"(?<![\w&+])([A-Z][A-Za-z]{0,3}&[A-Z][A-Za-z]{0,3}|[A-Z][A-Za-z]*\+\+|[A-Z]\+\d)(?![\w&+])")
#: Abbreviations made with "&" that name no thing one asks about again.
_NOT_THINGS = frozenset({"Q&A", "T&C", "T&Cs", "B&B", "G&T"})
#: A version after a name: "iOS 17.4", "Python 3.12", "Ubuntu 22.04", "v2.4.1" (never "at 10.30").
_VERSION = re.compile(r"\s(?:v)?\d{1,4}(?:\.\d{1,4}){1,2}(?!\w|\.\d)")
#: What a product line writes after its model number: "15 Pro Max", "4070 Ti", "PS5 Slim".
_SUFFIX_WORDS = r"(?:\s(?:Pro|Max|Plus|Ultra|Mini|Lite|Air|Ti|Slim|Super|XL|SE|FE)){1,2}(?![\w-])"
_SUFFIX = re.compile(_SUFFIX_WORDS)
#: A release or model number after a coined name ("Next.js 14", "RTX 4070"), where the clause goes on
#: or ends: not a count ("Python 3 times", "RAM 16 GB").
_MODEL = re.compile(
    rf"\s\d{{1,4}}[a-z]?(?:{_SUFFIX_WORDS})?(?=[,.;:!?)]|\s+(?:and|or|with|is|was|for|on|in|at|but|to)\b|$)"
)
#: A subscription's "+": "Disney+", "Apple TV+" (the "+" closes the name, it joins nothing).
_PLUS = re.compile(r"(?:\s[A-Z]{2,3})?\+(?![\w+])")


def whole_names(text: str, found: list[tuple[int, Candidate]]) -> list[tuple[int, Candidate]]:
    """``found`` (position, candidate) with each name widened to what is written after it, the names
    made of symbols added, and the pieces a whole name covers dropped."""
    wholes: list[tuple[int, int]] = []
    kept: list[tuple[int, Candidate]] = []
    for at, candidate in found:
        start = _located(text, at, candidate.text)
        tail = _tail(text, start + len(candidate.text), candidate) if start >= 0 else ""
        if tail:
            candidate = replace(candidate, text=candidate.text + tail)
            wholes.append((start, start + len(candidate.text)))
        kept.append((at, candidate))
    for match in _SYMBOL_NAME.finditer(text):
        if match.group(1) in _NOT_THINGS:
            continue
        # "N+1" names a kind of problem more than a thing the query acts on: a weak candidate
        weight = 0.5 if match.group(1)[-1].isdigit() else 1.0
        kept.append((match.start(1), Candidate(match.group(1), "thing", salience=weight)))
        wholes.append(match.span(1))
    return [(at, c) for at, c in kept if not _piece(text, at, c.text, wholes)]


def _located(text: str, at: int, name: str) -> int:
    """Where ``name`` is written at or just after ``at`` ("the iPhone 15" may open on "the"), or -1."""
    return text.find(name, max(0, at - 2), at + len(name) + 8)


def _tail(text: str, end: int, candidate: Candidate) -> str:
    """What belongs to the name ending at ``end``: its version, its model's suffix or its "+"."""
    if candidate.kind == "person" or candidate.kind == "time":
        return ""  # "Leo 7.5", "March 2023": an age, a date
    rest = text[end:]
    last = candidate.text[-1:]
    if last.isalpha() and _name_like(candidate.text) and (found := _VERSION.match(rest)):
        return found.group(0)  # not "my first" + " 13.1" (miles), "... expects" + " 9.99"
    coined = last.isalpha() and " " not in candidate.text and cached_re.search(r"[A-Z.]", candidate.text[1:])
    if coined and (found := _MODEL.match(rest)):
        return found.group(0)  # "RTX" + " 4070 Ti", "Next.js" + " 14"
    if last.isdigit() or (last.isalpha() and candidate.text[-2:-1].isdigit()):
        found = _SUFFIX.match(rest)  # "iPhone 15" + " Pro Max", "Pixel 8a" + " Pro"
        return found.group(0) if found else ""
    found = _PLUS.match(rest)
    return found.group(0) if found and last.isalpha() and not candidate.text[:1].isdigit() else ""  # not "200KB+"


def _name_like(phrase: str) -> bool:
    """One bare word ("pandas", "k8s"), or words each capitalised or with a digit, perhaps after a
    determiner ("the Galaxy Tab", "Visual Studio Code"): a name a version can follow, not "my first"."""
    words = phrase.split()
    if len(words) == 1:
        return True
    if words[0].lower() in ("the", "my", "our", "your", "his", "her", "their", "a", "an"):
        words = words[1:]
    return all(w[:1].isupper() or any(ch.isdigit() for ch in w) for w in words)


def _piece(text: str, at: int, name: str, wholes: list[tuple[int, int]]) -> bool:
    """Whether the mention is a piece of a whole name: inside it ("17.4", "Pro Max", "TV") or cut at
    its symbol ("the B" of "the B&H store")."""
    start = _located(text, at, name)
    if start < 0:
        return False
    end = start + len(name)
    for s, e in wholes:
        inside = s <= start and end <= e and (s, e) != (start, end)
        if inside or start < s < end < e or s < start < e < end:
            return True
    return False
