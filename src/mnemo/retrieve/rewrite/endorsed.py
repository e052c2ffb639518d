"""What the assistant endorsed: "Then Unleash fits well", "Metabase is a good fit", "Renovate is the
go-to", "I'd go with Postgres".

A recommendation settles what the conversation is about: the user's next "can it ..." asks about the
thing recommended, though other names (another team's tool, a later aside) came after it. The
endorsed name gains salience among the candidates of a thing pronoun.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.store.sql import STOPWORDS

from . import cached_re

_NAME = r"([A-Z][\w.+-]*(?:\s+[A-Z0-9][\w.+-]*){0,2})"  # "Kobo Clara 2E", "Pixel 8 Pro"
_ENDORSED = re.compile(
    rf"(?:^|(?<=[.!?;:,]\s)|(?<=[.!?;:,]\sthe\s)|(?<=\b[Tt]hen\s)|(?<=\b[Ss]o\s)|(?<=\bbut\s)|(?<=\bbut\sthe\s))"
    rf"{_NAME}\s+(?:is|are|'s)\s+(?:probably\s+|definitely\s+|still\s+)?"
    r"(?:a\s+|an\s+|the\s+)?(?:(?:good|great|better|best|right|solid|safe|obvious|natural|strong|clear)\s+"
    r"(?:fit|choice|option|pick|bet|default|winner)|go-to)\b"
    # a verdict on it: "GoodJob is attractive", "Squarespace is perfectly fine", "cobra is the usual choice"
    # (a bare "X is fine, but ..." concedes rather than recommends)
    rf"|{_NAME}\s+(?:is|are)\s+(?:probably\s+|really\s+|perfectly\s+|very\s+|usually\s+)?(?:the\s+|an?\s+)?"
    r"(?:attractive|excellent|ideal|perfect|(?<=perfectly\s)fine|usual\s+choice|best\s+value"
    r"|(?:good|great|better)\s+(?:use|idea|way|value|start))\b"
    rf"|{_NAME}\s+fits\s+(?:well|best|better|nicely|the\s+bill)\b"
    rf"|\b(?:go\s+with|I'd\s+(?:use|pick|choose|go\s+with|recommend)|I\s+recommend|I'd\s+suggest)\s+{_NAME}"
    # an alternative offered: "you could try insoles, or a stability shoe like the Hoka Arahi"
    rf"|\b(?:try|consider|switch\s+to|look\s+at)\b(?:[^.!?]|\.\b){{0,60}}?\b(?:like|such\s+as)\s+(?:the\s+)?{_NAME}"
)
#: Words a sentence opens with that are no name: "That is a good fit", "Both are good".
_NOT_NAMES = frozenset("that this it both either neither which there they then so yes no".split())


def endorsed(context: Sequence[Mapping[str, str]]) -> str | None:
    """The name the latest endorsing reply recommends, or None."""
    for message in reversed(list(context)):
        if str(message.get("role") or "").lower() in ("user", "human"):
            continue
        found = list(_ENDORSED.finditer(str(message.get("content") or "")))
        names = [cached_re.sub(r"^(?:Then|So)\s+", "", next(g for g in m.groups() if g)).rstrip(".") for m in found]
        names = [n for n in names if n.split()[0].lower() not in _NOT_NAMES]
        if names:
            return names[-1]
    return None


def closing_verdict(context: Sequence[Mapping[str, str]]) -> str | None:
    """The name the last message gives a verdict on, when nothing new comes after it: "Squarespace is
    perfectly fine" ends on it; "Stripe is the usual choice. You'll also need a separate business bank
    account" has moved on to the account."""
    last = list(context)[-1:]
    name = endorsed(last)
    reply = str(last[0].get("content") or "") if last else ""
    return None if name is None or _NEW_THING.search(reply[reply.rfind(name) + len(name) :]) else name


#: A new thing a later sentence brings in: "You'll also need a separate business bank account".
_NEW_THING = re.compile(r"[.!?;]\s(?:[^.!?]|\.\b)*\b(?:a|an|another)\s+[a-z]", re.IGNORECASE)


#: A suggestion that opens a reply's sentence with a plain noun: "Try shakshuka: eggs poached in ...",
#: "How about overnight oats?". What is suggested is a thing, though no capital marks it as a name.
_OFFERED = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:Try|I'd\s+(?:try|suggest|recommend)|How\s+about|What\s+about|Maybe)\s+"
    r"(?:(?:a|an|some)\s+)?([a-z][a-z-]{2,}(?:\s+[a-z][a-z-]{2,})?)\s*(?=[:,!?\u2014\u2013]|\.|\s-\s)"
)


def offered(text: str) -> list[tuple[int, Candidate]]:
    """The plain nouns a reply's sentence offers, as things at their position."""
    if not any(word in text for word in ("Try", "I'd", "about", "Maybe")):
        return []
    return [
        (m.start(1), Candidate(m.group(1), "thing", salience=1.5))
        for m in _OFFERED.finditer(text)
        if not set(m.group(1).split()) & STOPWORDS
    ]


#: The user settling on something: "I'm thinking of the office move I managed", "I'm doing a speech",
#: "I went with the blue one", "I've decided on the later flight".
_SETTLED = re.compile(
    r"^(?:(?:ok|okay|so|yeah|yes|well|right|hmm)[,.!]?\s+)?I(?:'m|\s+am)\s+(?:thinking\s+of|doing|going\s+with|leaning"
    r"\s+towards)\s+((?:the|a|an|my|our)\s+[\w-]+(?:\s+[\w-]+)?)"
    r"|^(?:(?:ok|okay|so|yeah|yes)[,.!]?\s+)?I(?:'ve|\s+have)?\s+(?:went\s+with|decided\s+on|chose|picked)\s+"
    r"((?:the|a|an|my|our)\s+[\w-]+(?:\s+[\w-]+)?)"
    # "I think I'll go for the leisure centre"
    r"|^(?:(?:ok|okay|so|yeah|yes|right)[,.!]?\s+)?(?:I\s+think\s+|I\s+guess\s+)?I(?:'ll|\s+will)\s+"
    r"(?:go\s+(?:for|with)|pick|choose)\s+((?:the|a|an|my|our)\s+[\w-]+(?:\s+[\w-]+)?)"
    # the choice ends its clause: "I'll go with a friend to the concert" is company, not a choice
    r"(?=\s*(?:[,;!?]|\.\B|$|\s+(?:then|instead|because|since|as|I)\b))",
    re.IGNORECASE,
)


def settled_on(context: Sequence[Mapping[str, str]]) -> str | None:
    """What the user's last message, the chat's last or next to last, says they settled on, or None."""
    recent = list(context)[-2:]
    said = [m for m in recent if str(m.get("role") or "").lower() in ("user", "human")]
    found = _SETTLED.match(str(said[-1].get("content") or "")) if said else None
    if found is None:
        return None
    # "I'm doing a speech" introduced it; pointed back at, it is "the speech"
    return cached_re.sub(r"^(?:a|an)\s+", "the ", next(g for g in found.groups() if g), flags=re.IGNORECASE)
