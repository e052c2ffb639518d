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
    r"(?!to\b|it\b|them\b|that\b|this\b|the\s+idea\b)(.+?)(?=[,.;:!?]|\s+(?:and|but|so|because|which|though)\s+|$)",
    re.IGNORECASE,
)
_MAX_WORDS = 10


def liked_thing(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest thing the user said they like or use, or None."""
    for message in reversed(list(context)):
        if str(message.get("role") or "") not in ("user", "human"):
            continue
        found = _LIKED.findall(str(message.get("content") or ""))
        if found and len(found[-1].split()) <= _MAX_WORDS:
            return found[-1].strip()
    return None
