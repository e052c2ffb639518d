"""What "something similar" is similar to: the thing the user said they like or use.

"recommend me something similar" after "I loved Station Eleven, but the Dune sequel was a slog"
asks for a book like Station Eleven, not like the latest thing named; "anything similar but for
bandwidth?" after "I really like htop for watching processes" asks for a tool like htop. Pure
functions over the user's messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: "I loved Station Eleven", "we use Sentry for error tracking", "I really like htop": the object, up
#: to a clause break or the next coordinated object.
_LIKED = re.compile(
    r"\b(?:I|we)\s+(?:really\s+|absolutely\s+|still\s+|mostly\s+)?"
    r"(?:love|loved|like|liked|enjoy|enjoyed|use|used|am\s+using|'m\s+using|have\s+been\s+using)\s+"
    r"(?!to\b|it\b|them\b|that\b|this\b|the\s+idea\b)(.+?)(?=[,;:!?]|\.\B|\s+(?:and|but|so|because|which|though)\s+|$)",
    re.IGNORECASE,
)
_MAX_WORDS = 10


def liked_thing(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest thing the user said they like or use, or None."""
    for message in reversed(list(context)):
        if str(message.get("role") or "") not in ("user", "human"):
            continue
        found = [_CUT.split(f, maxsplit=1)[0].strip() for f in _LIKED.findall(str(message.get("content") or ""))]
        found = [f for f in found if _named(f)]
        if found and len(found[-1].split()) <= _MAX_WORDS:
            return found[-1]
    return None


#: Where the liked thing's phrase ends: "Chrome at work", "Duolingo for Spanish for a year", "my phone for
#: reading at night" ("black for formatting Python" keeps what it is for).
_CUT = re.compile(r"\s+(?:at|on|in|during|since|when|every|last|for\s+(?:a|an|the|my|our|\d|reading|work))\b")


def _named(phrase: str) -> bool:
    """A thing of its own, not a kind or an activity: "Station Eleven", "the escape room", "Sentry",
    "black for formatting Python" - not "spicy food" or "cooking"."""
    first = phrase.split()[0]
    if first.lower().endswith("ing"):
        return False
    return any(ch.isupper() or ch.isdigit() for ch in phrase) or first.lower() in ("the", "my", "our", "this")
