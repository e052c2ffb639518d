"""Options told in order rather than listed: "two concerts, first at the cathedral on the 6th and
then at the care home on the 13th" - the first one is at the cathedral.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_FIRST_THEN = re.compile(
    r"\bfirst\s+(?:(?:at|in|on|to|with|the)\s+)?([^,;.!?]+?)(?:,\s*|\s+)(?:and\s+)?(?:then|after\s+that|next)\s+"
    r"(?:(?:at|in|on|to|with|the)\s+)?([^,;.!?]+)",
    re.IGNORECASE,
)


def first_then(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two options of the latest "first X ... then Y", or []."""
    for message in reversed(list(context)):
        found = list(_FIRST_THEN.finditer(str(message.get("content") or "")))
        if found:
            return [found[-1].group(1).strip(), found[-1].group(2).strip()]
    return []
