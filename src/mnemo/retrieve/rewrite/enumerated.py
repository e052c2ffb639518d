"""Options told in order rather than listed: "two concerts, first at the cathedral on the 6th and
then at the care home on the 13th" - the first one is at the cathedral.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_FIRST_THEN = re.compile(
    # each option opens with a preposition or a determiner: "first at the cathedral", not "at first we went"
    r"(?<!\bat\s)\bfirst\s+((?:at|in|on|to|with|the|a|an)\s+[^,;.!?]+?)(?:,\s*|\s+)(?:and\s+)?(?:then|after\s+that"
    r"|next)\s+((?:at|in|on|to|with|the|a|an)\s+[^,;.!?]+)",
    re.IGNORECASE,
)


def first_then(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two options of the latest "first X ... then Y", or []."""
    for message in reversed(list(context)):
        found = list(_FIRST_THEN.finditer(str(message.get("content") or "")))
        if found:
            return [_without_preposition(found[-1].group(i).strip()) for i in (1, 2)]
    return []


def _without_preposition(option: str) -> str:
    """ "at the cathedral on the 6th" -> "the cathedral on the 6th": the option, not where it is."""
    return re.sub(r"^(?:at|in|on|to|with)\s+", "", option, flags=re.IGNORECASE)
