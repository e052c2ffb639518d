"""The opening of a conversation: what it is about (centering keeps the first topic).

The opening is the first user message that says something: phatic openers ("morning", "you
there?", "quick question", "thanks for yesterday btw") carry no topic and are skipped. When the
opening asks a question, its answer's first sentence belongs to it: the question opens a topic
that the answer names ("any day trips from Lisbon?" - "Sintra is the classic one").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Words of greetings, check-ins and conversation management: no topic in them.
PHATIC = frozenset(
    """hi hey hello morning evening afternoon good there you ok okay thanks thank btw yesterday quick question
    random ask something anything can could may long day ugh next thing sorry still here help go ahead""".split()
)
_SENTENCE = re.compile(r"(?<=[.!?])\s")


def phatic(text: str) -> bool:
    """A message with no word outside greetings and function words."""
    words = [w for w in cached_re.findall(r"[a-z][a-z']*", text.lower()) if w not in STOPWORDS]
    return all(w in PHATIC for w in words)


def opening(context: Sequence[Mapping[str, str]], with_answer: bool = True) -> str:
    """The opening sentence (lower-case), with its answer's first sentence when it is a question
    and ``with_answer``."""
    messages = list(context)
    users = [n for n, m in enumerate(messages) if str(m.get("role") or "").lower() in ("user", "human")]
    at = next((n for n in users if not phatic(str(messages[n].get("content") or ""))), None)
    if at is None:
        return ""
    text = _SENTENCE.split(str(messages[at].get("content") or ""), maxsplit=1)[0].lower()
    if with_answer and text.rstrip().endswith("?") and at + 1 < len(messages):
        text += " " + _SENTENCE.split(str(messages[at + 1].get("content") or ""), maxsplit=1)[0].lower()
    return text
