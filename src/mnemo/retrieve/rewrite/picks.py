"""Picking from a list by what the conversation did with its items since: "the other two" are
the items nobody took up, "the other one" of a pair the one the last question left out, "the sso
one" the item that has that word."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.lists import find_list, list_items
from mnemo.store.sql import STOPWORDS

from . import cached_re


def remaining(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The items of the latest list that no later message takes up ("pinning feels fragile" takes
    "pin the dependency"): what "the other two" / "the other thing" leave. Empty unless at least
    one item was taken up and at least one is left."""
    messages = list(context)
    for at in range(len(messages) - 1, -1, -1):
        # two items are enough here: "the other" needs one of them taken up, which prose is not
        items = list_items(str(messages[at].get("content") or ""), inline_min=2)
        if len(items) < 2:
            continue
        later = " ".join(str(m.get("content") or "") for m in messages[at + 1 :]).lower()
        later += " " + _after_list(str(messages[at].get("content") or ""), items[-1]).lower()
        left = [i for i in items if not _taken_up(i, later) and i.lower() not in ("me", "myself")]
        return left if 0 < len(left) < len(items) else []
    return []


def _after_list(text: str, last: str) -> str:
    """What the message says after its list ("... The timing belt is the urgent one")."""
    at = text.find(last)
    return text[at + len(last) :] if at >= 0 else ""


def _taken_up(item: str, later: str) -> bool:
    """Whether a later text mentions the item by one of its content words' first four letters
    ("caching" takes up "cache the fixtures", "pinning" takes up "pin the dependency")."""
    # an identifier is taken up by one of its parts: "the sso one" takes up "login_sso_redirect"
    words = [w.lower() for w in cached_re.findall(r"[A-Za-z][A-Za-z0-9-]{2,}", item) if w.lower() not in _NOT_TAKING]
    return any(cached_re.search(rf"\b{re.escape(w[:4])}", later) for w in words)


#: "a used one" is taken up by its modifier; "the remanufactured one" says "one" too, which takes up nothing.
_NOT_TAKING = STOPWORDS | {"one", "ones"}


def other_of_pair(context: Sequence[Mapping[str, str]]) -> str | None:
    """Of two things the conversation set side by side, the one the last user message did not
    ask about ("deciding between the Kindle Paperwhite and the Kobo Clara" ... "does the paperwhite
    do epub?": the other one is the Kobo Clara), or None."""
    pair = find_list(context)
    last = next((m for m in reversed(list(context)) if str(m.get("role") or "").lower() in ("user", "human")), None)
    if len(pair) != 2 or last is None:
        return None
    said = str(last.get("content") or "").lower()
    asked = [_taken_up(item, said) for item in pair]
    return pair[asked.index(False)] if asked.count(True) == 1 else None


def item_by_word(word: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The one listed item that has ``word`` as a word or as a part of an identifier ("sso" in
    "login_sso_redirect"), or None: "the sso one" names an item by a word of it."""
    low = word.lower()
    if len(low) < 2 or low in STOPWORDS:
        return None
    items = [i for i in find_list(context) if i.lower() != low]
    hits = [i for i in items if low in cached_re.split(r"[\s_\-./]+", i.lower())]
    return hits[0] if len(hits) == 1 else None


def other_than_used(context: Sequence[Mapping[str, str]], used: set[str], query: str = "") -> str | None:
    """Of a pair the conversation named, the one the query has not already taken, by a reference
    read before or by name: "an offer for him and a polite no for the other one", with "him" read
    as Per-Erik, is Ngozi."""
    pair = find_list(context)
    if len(pair) != 2:
        return None
    low = f" {query.lower()} "
    taken = [any(_same_item(item, text) for text in used) or f" {item.lower()} " in low for item in pair]
    if not any(taken) and context:  # "Usually the LEFT JOIN version": the reply took one up, the other is left
        last = str(list(context)[-1].get("content") or "").lower()
        at = [_first_at(last, _distinct_words(item, pair)) for item in pair]
        first = min((n for n in at if n >= 0), default=-1)  # "... instead of the subquery": named first wins
        taken = [n == first and n >= 0 for n in at]
    return pair[taken.index(False)] if taken.count(True) == 1 else None


def _distinct_words(item: str, pair: Sequence[str]) -> list[str]:
    """The words of an item that the other item lacks ("correlated", "subquery"; "left", "join")."""
    others = {w.lower() for other in pair if other != item for w in other.split()}
    return [w.lower() for w in item.split() if w.lower() not in others and w.lower() not in STOPWORDS and len(w) > 2]


def _first_at(text: str, words: Sequence[str]) -> int:
    """Where the first of the words stands in the text, as a whole word, or -1."""
    found = [m.start() for w in words if (m := cached_re.search(rf"\b{re.escape(w)}\b", text))]
    return min(found) if found else -1


def _same_item(item: str, text: str) -> bool:
    """Whether a resolved text names the item: one holds the other's first word ("Per-Erik Dahl", "Per-Erik")."""
    a, b = item.lower(), text.lower()
    return bool(a and b) and (a.split()[0] in b.split() or b.split()[0] in a.split())


#: Where a pair of options starts: after a colon or a verb that presents them ("options are ...").
_PRESENTED = re.compile(r"(?::|\b(?:are|is|between|have|has|got|either|choose|choosing|deciding))\s+", re.IGNORECASE)
_PAIRED = re.compile(r"^(.{3,80}?)\s+(?:or|and)\s+(?:maybe\s+|just\s+)?((?:[^,;.!?]|\.\b){3,80})")


def other_of_two(context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the other option" after "options are add caching ... or ask the vendor for a higher rate
    limit" and a reply about caching: the option nobody has taken up since, whole, or None."""
    messages = [str(m.get("content") or "") for m in context]
    for at in range(len(messages) - 1, -1, -1):
        text = messages[at]
        for lead in reversed(list(_PRESENTED.finditer(text))):
            pair = _PAIRED.match(text[lead.end() :])
            if pair is None:
                continue
            later = " ".join([text[lead.end() + pair.end() :], *messages[at + 1 :]]).lower()
            taken = [_taken_up(option, later) for option in pair.groups()]
            if taken.count(True) == 1:
                other = pair.group(taken.index(False) + 1).strip()
                return cached_re.sub(r"^(?:a|an)\s+", "the ", other, flags=re.IGNORECASE)
            return None
    return None
