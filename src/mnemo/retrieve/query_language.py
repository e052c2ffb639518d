"""The session-search query language, parsed into plain records (no I/O, no store).

Syntax (case-insensitive):

- ``flaky fixture``       plain words are OR'ed: a session matching either is a candidate;
- ``+pytest``             a required term: every listed session mentions it (also ``--require``);
- ``-docker``             an excluded term: no listed session mentions it (also ``--exclude``);
- ``"connection pool"``   a phrase: the words next to each other, in order (``+"..."`` and
                          ``-"..."`` work too); a hyphenated word (``pre-commit``) is a phrase too.

Stemming, typo tolerance and synonyms are not the parser's job: they expand the parsed terms later
(``session_terms.py``), so the parser stays a pure function that can be tested on any text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from mnemo.errors import InputError
from mnemo.store.sql import STOPWORDS

#: Words as the full-text tokenizer (unicode61) splits them: "_" and "-" separate words.
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: Straight and typographic double quotes both open and close a phrase.
_QUOTES = frozenset('"“”„')
#: More OR terms than this add cost and nothing else; a pasted paragraph keeps its first ones.
MAX_TERMS = 32
#: A longer query is almost certainly a paste of some text, not a query; refuse it plainly.
MAX_QUERY_CHARS = 4_000


@dataclass(frozen=True, slots=True)
class Term:
    """One word, or a phrase of several words that must appear next to each other in order."""

    words: tuple[str, ...]

    @property
    def is_phrase(self) -> bool:
        return len(self.words) > 1

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """OR terms, required terms and excluded terms, each lower-cased and de-duplicated."""

    any_of: tuple[Term, ...] = ()
    required: tuple[Term, ...] = ()
    excluded: tuple[Term, ...] = ()

    @property
    def positive(self) -> tuple[Term, ...]:
        """The terms a session is ranked by: the OR terms and the required ones."""
        return self.any_of + tuple(t for t in self.required if t not in self.any_of)

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "any_of": [t.text for t in self.any_of],
            "required": [t.text for t in self.required],
            "excluded": [t.text for t in self.excluded],
        }


@dataclass(frozen=True, slots=True)
class _Token:
    sign: str  # "", "+" or "-"
    text: str
    quoted: bool


def parse_query(query: str, require: Iterable[str] = (), exclude: Iterable[str] = ()) -> ParsedQuery:
    """Parse ``query`` plus the ``--require``/``--exclude`` values; raises InputError that says why."""
    if not isinstance(query, str):
        raise InputError(f"query must be text, got {type(query).__name__}")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(f"query has {len(query):,} characters; the limit is {MAX_QUERY_CHARS:,}")
    tokens = _tokens(query)
    tokens += [_option_token("+", value, "--require") for value in require]
    tokens += [_option_token("-", value, "--exclude") for value in exclude]
    buckets: dict[str, list[Term]] = {"": [], "+": [], "-": []}
    for token in tokens:
        term = _term(token)
        if term is not None and term not in buckets[token.sign]:
            buckets[token.sign].append(term)
    any_of, required, excluded = buckets[""], buckets["+"], buckets["-"]
    any_of = _without_stopwords(any_of, keep_all=not required and all(_is_stopword(t) for t in any_of))
    clash = [t.text for t in excluded if t in required or t in any_of]
    if clash:
        raise InputError(f"'{clash[0]}' is both searched for and excluded; drop one of them")
    if not any_of and not required:
        if excluded:
            raise InputError(
                "the query only excludes terms; add at least one word to search for, e.g. 'fixture -docker'"
            )
        raise InputError("the query is empty; give some words to search for")
    return ParsedQuery(tuple(any_of[:MAX_TERMS]), tuple(required), tuple(excluded))


def _tokens(query: str) -> list[_Token]:
    tokens: list[_Token] = []
    position, size = 0, len(query)
    while position < size:
        char = query[position]
        if char.isspace():
            position += 1
            continue
        sign = ""
        if char in "+-":
            sign, position = char, position + 1
            if position >= size or query[position].isspace():
                raise InputError(f"'{char}' at position {position} must be followed by a term, e.g. {char}postgres")
            char = query[position]
        if char in _QUOTES:
            end = _closing_quote(query, position + 1)
            if end < 0:
                raise InputError(
                    f"unclosed quote at position {position + 1}: {query[position : position + 30]!r}; "
                    'close the phrase with another "'
                )
            tokens.append(_Token(sign, query[position + 1 : end], quoted=True))
            position = end + 1
            continue
        end = position
        while end < size and not query[end].isspace() and query[end] not in _QUOTES:
            end += 1
        tokens.append(_Token(sign, query[position:end], quoted=False))
        position = end
    return tokens


def _closing_quote(query: str, start: int) -> int:
    for index in range(start, len(query)):
        if query[index] in _QUOTES:
            return index
    return -1


def _option_token(sign: str, value: str, option: str) -> _Token:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{option} needs a term, got {value!r}")
    text = value.strip()
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1]
    return _Token(sign, text, quoted=True)


def _term(token: _Token) -> Term | None:
    words = tuple(w.lower() for w in _WORD.findall(token.text))
    if not words:
        if token.quoted and token.sign:
            raise InputError(f"'{token.sign}\"{token.text}\"' holds no searchable words")
        return None  # punctuation on its own: nothing to search for
    return Term(words)


def _is_stopword(term: Term) -> bool:
    return not term.is_phrase and term.words[0] in STOPWORDS


def _without_stopwords(terms: list[Term], keep_all: bool) -> list[Term]:
    """Plain function words match nearly every message; keep them only when nothing else is left."""
    return terms if keep_all else [t for t in terms if not _is_stopword(t)]


def fts_phrase(term: Term) -> str:
    """The term as an FTS5 string (a phrase when it has several words); never parsed as syntax."""
    return '"' + " ".join(term.words).replace('"', '""') + '"'


def fts_any(terms: Iterable[Term]) -> str | None:
    """An FTS5 expression matching any of ``terms``."""
    parts = list(dict.fromkeys(fts_phrase(t) for t in terms))
    return " OR ".join(parts) or None
