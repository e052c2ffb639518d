"""Attaching the conversation's topic to pointers that have no slot of their own.

"earlier", "the same", "what about the price?" name nothing to replace; the rewrite appends the
main topic (implicit.py) instead, unless the query already has a subject of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.alike import liked_thing
from mnemo.retrieve.rewrite.alternatives import alternative_pair, joined_pair
from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.comparing import weighed_pair
from mnemo.retrieve.rewrite.implicit import LIGHT
from mnemo.retrieve.rewrite.implicit import topic as main_topic
from mnemo.retrieve.rewrite.lists import find_list
from mnemo.retrieve.rewrite.own_predicate import says_its_own
from mnemo.retrieve.rewrite.proposal import repeated_advice
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.reorder import repeated_order
from mnemo.retrieve.rewrite.repeated import REPEATING, habit, repeated_request
from mnemo.retrieve.rewrite.resolution import Resolution
from mnemo.retrieve.rewrite.tidy import without_determiner
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Time words relative to the speaker's now: they point at the conversation only when the query
#: has no subject of its own ("what did we discuss yesterday?").
DEICTIC = frozenset({"yesterday", "recently", "just now", "today", "earlier", "previously"})


_WH = frozenset("what who whom whose which when where why how".split())
#: Words besides the stop words that name no subject: light verbs, time words relative to now, wh-words.
_NO_SUBJECT = LIGHT | DEICTIC | _WH


def has_own_topic(query: str) -> bool:
    words = [w.lower() for w in cached_re.findall(r"[A-Za-z][\w'-]*", query)]
    ignored = STOPWORDS | _NO_SUBJECT
    return any(w not in ignored and len(w) > 2 for w in words)


#: Whether a bare follow-up ("why?", "who else?") takes the last exchange's topic rather than the
#: opening's. Measured off: on dev3 it loses 2 rows and on dev4 1, gaining none (docs/search.md).
LAST_EXCHANGE = False


def attach_topic(
    query: str,
    pending: Sequence[Reference],
    candidates: Sequence[Candidate],
    done: Sequence[Resolution],
    context: Sequence[Mapping[str, str]] = (),
) -> tuple[str, list[Resolution]]:
    """Temporal/implicit pointers ("earlier", "the same", "what about the price?") get the
    conversation's main topic unless a thing was resolved already."""
    if any(r.kind in ("thing", "demonstrative") for r in done):
        return query, []
    if has_own_topic(query):  # "what happened to the deploy yesterday?": "yesterday" needs no topic
        pending = [p for p in pending if p.text.lower() not in DEICTIC]
        if not pending:
            return query, []
    chat = " ".join(str(m.get("content", "")) for m in context)
    if says_its_own(query, pending, _NO_SUBJECT, chat):  # "our legacy app still stores ...": no "about Google"
        return query, []
    each = _EACH.search(query)
    items = (find_list(context) or alternative_pair(context) or joined_pair(list(context)[-2:])) if each else []
    if each and len(items) >= 2:  # "how many reps of each?" after "clamshells and glute bridges"
        listed = ", ".join(items[:-1]) + f" and {items[-1]}"
        return _appended(query, pending, f"({listed})", 0.7)
    owned = _owner_carried(query, candidates)
    if owned is not None:  # "what about the morning nap" after "Mila's last nap": Mila's morning nap
        return owned[0], [Resolution(p.text, owned[1], p.kind, 0.7) for p in pending]
    repeat = _repeated(query, pending, context)
    if repeat is not None:  # "do the same with the raspberries": "(dig it out and replant it in a pot)"
        return _appended(query, pending, f"({repeat[0]})", repeat[1])
    liked = liked_thing(context) if any(p.text.lower() == "similar" for p in pending) else None
    if liked is not None:  # "recommend me something similar" after "I loved Station Eleven, but ..."
        return _appended(query, pending, f"like {liked}", 0.7)
    bare = len(pending) == 1 and pending[0].start == 0 and pending[0].end >= len(query.rstrip())
    found = main_topic(context, candidates, query, {r.replacement.lower() for r in done}, recent=bare and LAST_EXCHANGE)
    if found is None:
        return query, []
    stripped = query.rstrip(" ?.!")
    alike = any(p.text.lower() in _ALIKE for p in pending)
    # "the price of the X-T5" reads right after a bare definite noun; "about" everywhere else
    link = "like" if alike else "of" if cached_re.search(r"\b(?:the|our)\s+\w+$", stripped, re.IGNORECASE) else "about"
    if cached_re.search(r"\babout$", stripped, re.IGNORECASE):
        return query, []  # "what's the afternoon one about": no "about about"; a topic would not say which
    topic = _weighed_topic(found.text, context)  # "what about the price" after "the ninja or the cosori": both
    return _appended(query, pending, f"{link} {topic}", 0.75 if found.salience > 0 else 0.5)


def _appended(
    query: str, pending: Sequence[Reference], addition: str, confidence: float
) -> tuple[str, list[Resolution]]:
    """The query with ``addition`` before its closing punctuation, as what each pending reference
    became: "how many reps of each (clamshells and glute bridges)?"."""
    stripped = query.rstrip(" ?.!")
    return f"{stripped} {addition}{query[len(stripped) :]}", [
        Resolution(p.text, addition, p.kind, confidence) for p in pending
    ]


_ALIKE = frozenset({"the same", "similar", "like before", "another one"})


def _repeated(
    query: str, pending: Sequence[Reference], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """What a repeat repeats, and how sure: the command the reply gave, the order placed, the habit
    told ("as usual") or the user's own request or deed; None when nothing says."""
    said = {p.text.lower() for p in pending}
    if said & _ALIKE and (advice := repeated_advice(query, context)):
        return advice, 0.7  # "can i do the same with the raspberries": "dig it out and replant it"
    if said & _ALIKE and (order := repeated_order(query, context)):
        return order, 0.75  # "order the same again": "a large pepperoni from Luigi's"
    if "as usual" in said and (usual := habit(query, context)):
        return usual, 0.7  # "saturday as usual": "on Saturday I take my mum grocery shopping"
    if said & REPEATING and (request := repeated_request(context)):
        return request, 0.7  # "like before, but more formal": "write a short birthday message ..."
    return None


#: "of each", "for each", "each one": every item of the chat's list.
_EACH = re.compile(r"\b(?:of|for|in|with)\s+each(?:\s+one)?\s*[?.!]*\s*$", re.IGNORECASE)
#: A follow-up that ends on a definite phrase: "what about the morning nap?", "and the front tyre?".
_ENDS_DEFINITE = re.compile(r"\bthe\s+((?:[a-z]+\s+){1,2}?([a-z]+))\s*[?.!]*\s*$", re.IGNORECASE)


def _owner_carried(query: str, candidates: Sequence[Candidate]) -> tuple[str, str] | None:
    """The follow-up with the owner of the chat's thing of the same noun ("Mila's last nap" makes
    "the morning nap" Mila's), and the owned phrase; None when no owned thing shares the noun."""
    found = _ENDS_DEFINITE.search(query)
    if found is None or not cached_re.match(r"\s*(?:what|how)\s+about\b|\s*and\b", query, re.IGNORECASE):
        return None
    noun = found.group(2).lower()
    for candidate in candidates:
        owner, mark, owned = candidate.text.partition("'s ")
        if mark and owned.lower().split()[-1] == noun and owned.lower() != found.group(1).lower():
            phrase = f"{owner}'s {found.group(1)}"
            return query[: found.start()] + phrase + query[found.end(1) :], phrase
    return None


def _weighed_topic(topic: str, context: Sequence[Mapping[str, str]]) -> str:
    """Both options of a question that weighed two, when the topic is one of them; else the topic."""
    pair = weighed_pair(context)
    bare = without_determiner(topic).lower()
    if len(pair) == 2 and any(bare in option.lower() for option in pair):
        return f"{pair[0]} and {pair[1]}"
    return topic
