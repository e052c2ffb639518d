"""What the latest reply recommends: "will that handle rows without an offset" after "Parse with
`pd.to_datetime(...)`", "is it safe to use that flag" after "you can run npm install --legacy-peer-deps".

In a help conversation the user's bare "that" after an answer is usually the answer's remedy, not
the problem the user pasted: the error text is what they want gone, the remedy is what they now ask
about. The remedy is read from the first sentence of the latest reply that gives advice: its first
code span or command-line flag (plain words are too often the explanation around the advice). A
query that judges a state ("is that normal") or repeats a later sentence of the reply ("how do I
upgrade that" after "... so plan an upgrade") asks about something else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.plain_names import FLAG

from . import cached_re

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
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")


#: A query that judges or dates a state, not a remedy: "is that normal", "why did that start happening".
_STATE = re.compile(
    r"\b(?:is|was|isn'?t)\s+(?:that|this)\s+(?:\w+\s+)?(?:normal|common|usual|expected|serious|dangerous|a\s+problem|a\s+bug)\b"
    r"|\b(?:that|this)\s+(?:(?:start|keep|begin)\w*\s+)?happen\w*",
    re.IGNORECASE,
)


def _stems(text: str) -> set[str]:
    return {w[:5] for w in cached_re.findall(r"[a-z]{4,}", text.lower())}


def recommended(context: Sequence[Mapping[str, str]], query: str = "") -> str | None:
    """The remedy the latest reply gives, when the latest message is a reply that advises."""
    if not context or str(context[-1].get("role") or "").lower() == "user" or _STATE.search(query):
        return None
    sentences = _SENTENCE.split(str(context[-1].get("content") or ""))
    asked = _stems(query)
    for n, sentence in enumerate(sentences):
        if asked and not asked & _stems(sentence) and any(asked & _stems(later) for later in sentences[n + 1 :]):
            return None  # the query repeats a later sentence of the reply: its matter, not this advice
        found = _ADVICE.search(sentence.strip())
        if found is None:
            continue
        rest = sentence[found.end() :]
        code = _CODE.search(rest) or FLAG.search(rest)
        return (code.group(1) if code.re is _CODE else code.group(0)) if code else None
    return None
