"""Pronoun chains: an entity the conversation keeps referring to by pronoun stays its centre.

"booked the ryokan in kyoto" - "The Kyoto ryokan is three nights?" - "yep and it has a private
onsen": the last message's "it" is the ryokan, and "does it include breakfast" continues the same
chain (centering: the entity a speaker pronominalises is the backward-looking centre, the one the
next utterance most likely keeps). Candidate extraction sees only the words written, so the
onsen, the newest noun, would win; here each pronoun of the latest messages is resolved against
the messages before it, and its referent counts as mentioned where the pronoun stands, as the
subject of that message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidates import Candidate, extract
from mnemo.retrieve.rewrite.choose import choose
from mnemo.retrieve.rewrite.detect import detect
from mnemo.retrieve.rewrite.tidy import without_determiner

from . import cached_re

#: How many of the latest messages have their pronouns resolved (older chains matter little and
#: each costs one extraction).
DEPTH = 3
_CHAINED_KINDS = frozenset({"person", "thing", "plural"})
#: A message's pronouns are read in its opening only (as long as a query may be): the chain's
#: centre is set early, and a pasted log or document must not cost a scan of every word.
_READ_CHARS = 2000


def chained(messages: Sequence[Mapping[str, str]], candidates: list[Candidate], max_messages: int) -> list[Candidate]:
    """``candidates`` with the referents of the context's own pronouns counted as mentions there,
    most salient first. Unresolvable pronouns change nothing."""
    recent = list(messages)[-max_messages:]
    by_key = {(c.text.lower(), c.kind): c for c in candidates}
    for distance in range(min(DEPTH, len(recent) - 1)):
        index = len(recent) - 1 - distance
        text = str(recent[index].get("content") or "")[:_READ_CHARS]
        if "?" in text:
            continue  # a question's pronoun asks about a referent; the answer may pick another
        refs = [
            r for r in detect(text) if r.kind in _CHAINED_KINDS and not r.noun and not _IDENTIFYING.match(text, r.end)
        ]
        if not refs:
            continue
        before = recent[:index]
        older = _answered(extract(before, max_messages), before)
        seen: set[str] = set()
        for ref in refs:
            choice = choose(text, ref, older, before)
            if choice is None or choice[0].lower() in seen:
                continue
            seen.add(choice[0].lower())
            target = _target(by_key, choice[0], ref.kind)
            if target is not None:
                _bump(target, recent[index], distance)
    return sorted(by_key.values(), key=lambda c: -c.salience)


#: "it's the batch size": an identification; the predicate names the referent anew, so the
#: pronoun continues no earlier chain.
_IDENTIFYING = re.compile(r"(?:'s|\s+is|\s+was)\s+(?:the|a|an|my|your|our|just|probably|maybe)\b", re.IGNORECASE)


_QUESTION = re.compile(r"(?:[^.!?\n]|\.\b)*\?")
#: A question that asks for a thing: whether it exists, where it is, whether one has it.
_ASKS_FOR = re.compile(
    r"\b(?:is\s+there|are\s+there|was\s+there|were\s+there|do\s+you\s+have\s+the|have\s+you\s+got\s+the"
    r"|did\s+you\s+(?:get|find|bring|keep)|where(?:'s|\s+is|\s+are)|any)\b"
)
_THING_PRONOUN = re.compile(r"\b(?:it|that|this|they|them)\b")
#: How much a reply's pronoun favours what the question before it asked about.
_ASKED_BONUS = 2.0


def _answered(older: list[Candidate], before: Sequence[Mapping[str, str]]) -> list[Candidate]:
    """ "Do you have the policy number?" - "It's in my email": an answer's pronoun is what the
    question just asked about, even when the asker's own earlier words were more salient."""
    said = str(before[-1].get("content") or "") if before else ""
    asked = next((q.lower() for q in reversed(_QUESTION.findall(said))), "")
    if not asked or _THING_PRONOUN.search(asked) or not _ASKS_FOR.search(asked):
        return older  # "is it the amount you agreed?": "it" carries the chain; "have you tried X?" asks no thing
    for candidate in older:
        if candidate.kind == "thing" and without_determiner(candidate.text).lower() in asked:
            candidate.salience *= _ASKED_BONUS
    return sorted(older, key=lambda c: -c.salience)


def _target(by_key: dict[tuple[str, str], Candidate], text: str, kind: str) -> Candidate | None:
    low = text.lower()
    wanted = ("person",) if kind == "person" else ("thing",) if kind == "thing" else ("thing", "person")
    if kind == "thing":  # "the runbook" that a later message named ("the runbook RB-114"): the merged reading
        merged = [
            c
            for (t, k), c in by_key.items()
            if k == "thing" and t.startswith(low + " ") and cached_re.search(r"[A-Z0-9]", c.text[len(low) :])
        ]
        if len(merged) == 1:
            return merged[0]
    return next((by_key[(low, k)] for k in wanted if (low, k) in by_key), None)


def _bump(candidate: Candidate, message: Mapping[str, str], distance: int) -> None:
    """A mention as the message's subject: the weight extraction gives a first mention there."""
    by_user = str(message.get("role") or "").lower() in ("user", "human")
    weight = (1.5 if by_user else 1.0) / (1.0 + 0.35 * distance) * 1.25
    candidate.salience = max(candidate.salience, weight) + 0.3 / (1.0 + 0.35 * distance)
    candidate.mentions += 1
    candidate.last_seen = min(candidate.last_seen, distance)
