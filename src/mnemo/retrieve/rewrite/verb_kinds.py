"""What kind of thing a verb takes: one waters a plant, services a car, renews a passport. When the
query's verb next to "it" is one of these and the chat named a thing of the kind, "it" is that thing.
A small closed list of everyday verbs and the heads of their kinds; no lexicon of the language, so
only the common cases."""

from __future__ import annotations

import re

_PLANTS = (
    "plant plants tree trees fig fern ferns herbs basil tomatoes seedlings lawn roses cactus succulent orchid"
    " monstera hedge shrub"
)
_VEHICLES = "car van bike motorbike scooter truck vehicle motorcycle campervan"
_VALID_FOR_A_TIME = (
    "voucher card passport licence license warranty subscription coupon certificate cert token offer membership"
    " visa ticket lease contract policy insurance domain trial plan permit prescription"
)
#: A verb next to the pronoun, and the heads of the things it takes.
_KINDS: dict[str, frozenset[str]] = {
    verb: frozenset(heads.split())
    for verbs, heads in (
        ("water watering watered repot repotting prune pruning", _PLANTS),
        ("drive driving serviced service servicing mot", _VEHICLES),
        ("expire expires expired expiring lapse lapses renew renewing renewed", _VALID_FOR_A_TIME),
    )
    for verb in verbs.split()
}
#: "water it", "get it serviced", "does it expire", "renew it": the verb on either side of the pronoun.
_AROUND = re.compile(r"\b([a-z]+)\s+$")
_AFTER = re.compile(r"^\s+(?:(?:still|ever|usually|actually)\s+)?([a-z]+)\b")


def kind_heads(before: str, after: str) -> frozenset[str]:
    """The heads of the kind of thing the verb around the pronoun takes, or an empty set."""
    verbs = [found.group(1) for found in (_AROUND.search(before.lower()), _AFTER.match(after.lower())) if found]
    return frozenset().union(*(_KINDS.get(verb, frozenset()) for verb in verbs))


_PREPOSITION = re.compile(r"\s(?:for|in|on|from|with|of|at|to|by|near|under)\s")


def kind_head(phrase: str) -> str:
    """The head of a phrase, before any prepositional tail: "car seat for the baby" -> "seat"."""
    return _PREPOSITION.split(f" {phrase.lower()} ", maxsplit=1)[0].split()[-1] if phrase.strip() else ""
