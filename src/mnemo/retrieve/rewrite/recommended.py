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


#: A query that judges or dates a state, not a remedy: "is that normal", "why did that start happening".
_STATE = re.compile(
    r"\b(?:is|was|isn'?t)\s+(?:that|this)\s+(?:\w+\s+)?(?:normal|common|usual|expected|serious|dangerous|a\s+problem|a\s+bug)\b"
    r"|\b(?:that|this)\s+(?:(?:start|keep|begin)\w*\s+)?happen\w*",
    re.IGNORECASE,
)


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())}


def recommended(context: Sequence[Mapping[str, str]], query: str = "") -> str | None:
    """The remedy the latest reply gives, when the latest message is a reply that advises."""
    if not context or str(context[-1].get("role") or "").lower() == "user" or _STATE.search(query):
        return None
    reply = str(context[-1].get("content") or "")
    sentences = _SENTENCE.split(reply)
    for n, sentence in enumerate(sentences):
        if (
            query
            and any(_stems(query) & _stems(later) for later in sentences[n + 1 :])
            and not _stems(query) & _stems(sentence)
        ):
            return (
                None  # "how do I upgrade that" after "... Node 16 is end-of-life, so plan an upgrade": not the remedy
            )
        found = _ADVICE.search(sentence.strip())
        if found is None:
            continue
        rest = sentence[found.end() :]
        code = _CODE.search(rest) or _FLAG.search(rest)
        if code is not None:
            return code.group(1) if code.re is _CODE else code.group(0)
        return None
    return None
