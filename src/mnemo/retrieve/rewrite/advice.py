"""What the assistant told the user to do: "does that still work if i already pushed" after "Run git
reset --soft HEAD~1", "how often should i do that" after "Try the knee-to-chest stretch".

A question answered with an instruction makes the instruction the matter of the next turn: the
user's "that" is the thing to run, try or set, not the newest noun of the explanation around it
("the commit", "your back"). The instruction is the first imperative sentence of the latest reply,
its object cut at the first clause break.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: An instruction's verb opening a sentence, and its object up to a clause break.
_INSTRUCTION = re.compile(
    r"(?:^|(?<=[.!?:]\s))(?:Just\s+|First,?\s+)?(Run|Try|Use|Set|Add|Raise|Lower|Install|Enable|Disable|Switch\s+to|Apply"
    r"|Take|Do|Put|Increase|Bump|Call)\s+((?:the\s+|a\s+|an\s+)?[^.!?;:,]{2,60}?)(?=\s*(?:[.!?;:,]|\s+(?:and|but|so|"
    r"which|then|to|on|in|for|with|before|after|every|once|if)\b|$))",
)
#: The user's turn that asks for something to do: "how do i ...", "what's a good ...", "any fix".
_ASKED_HOW = re.compile(
    r"\b(?:how\s+(?:do|can|should|would)\s+i|what'?s\s+a\s+good|what\s+(?:should|can)\s+i|any\s+(?:fix|way|tips?)"
    r"|is\s+there\s+a\s+way|how\s+to)\b",
    re.IGNORECASE,
)
#: A "that" asked about as a thing to do: "should i do that", "does that still work", "set that".
ACTED_ON = re.compile(
    r"\b(?:do|doing|did|set|setting|use|using|try|trying|run|running|apply|undo|repeat)\s+(?:that|this|it)\b"
    r"|\b(?:does|will|would|did|can)\s+(?:that|this|it)\s+(?:still\s+)?(?:work|help|fix|apply)\b",
    re.IGNORECASE,
)


def advised(context: Sequence[Mapping[str, str]]) -> str | None:
    """The object of the instruction that answered the user's last how-question, or None."""
    messages = list(context)
    if len(messages) < 2:
        return None
    reply, asked = messages[-1], messages[-2]
    if str(reply.get("role") or "").lower() == "user" or not _ASKED_HOW.search(str(asked.get("content") or "")):
        return None
    found = _INSTRUCTION.search(str(reply.get("content") or ""))
    if found is None:
        return None
    return found.group(2).strip()


def acted_on(query: str, start: int) -> bool:
    """Whether the reference at ``start`` is asked about as a thing to do ("should i do that")."""
    return any(m.start() <= start < m.end() for m in ACTED_ON.finditer(query))
