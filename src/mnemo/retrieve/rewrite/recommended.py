"""What the latest reply recommends: "will that handle rows without an offset" after "Parse with
`pd.to_datetime(...)`", "is it safe to use that flag" after "you can run npm install --legacy-peer-deps".

In a help conversation the user's bare "that" after an answer is usually the answer's remedy, not
the problem the user pasted: the error text is what they want gone, the remedy is what they now ask
about. The remedy is read from the first sentence of the latest reply that gives advice, and is its
first code span, or else the object of its advising verb.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: A sentence that advises: an imperative opening, or "you can / I'd / should" with a verb of use.
_ADVICE = re.compile(
    r"^(?:(?:then|so|instead|either|first|just|at\s+minimum|better|otherwise|alternatively)[,:]?\s+)*"
    r"(?P<verb>parse|use|run|try|set|add|raise|lower|install|enable|disable|switch|apply|push|catch|wrap|call|pass|open|convert|cast"
    r"|replace|swap|move|change|cache|shard|split|pin|mount|drop|filter|rewrite|return|store)\b"
    r"|\b(?:you\s+can|you\s+could|i'?d|you\s+should|you'?ll\s+want\s+to)\s+(?P<verb2>use|run|try|set|add|switch|"
    r"install|enable|pass|call|change|wrap|replace|pin)\b",
    re.IGNORECASE,
)
_CODE = re.compile(r"`([^`\n]{2,60})`")
_FLAG = re.compile(r"(?<![\w-])--[a-z][\w-]{2,40}")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")


def recommended(context: Sequence[Mapping[str, str]]) -> str | None:
    """The remedy the latest reply gives, when the latest message is a reply that advises."""
    if not context or str(context[-1].get("role") or "").lower() == "user":
        return None
    reply = str(context[-1].get("content") or "")
    for sentence in _SENTENCE.split(reply):
        found = _ADVICE.search(sentence.strip())
        if found is None:
            continue
        rest = sentence[found.end() :]
        code = _CODE.search(rest) or _FLAG.search(rest)
        if code is not None:
            return code.group(1) if code.re is _CODE else code.group(0)
        return None
    return None
