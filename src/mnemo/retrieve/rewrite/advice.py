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

from mnemo.retrieve.rewrite.recommended import recommended
from mnemo.retrieve.rewrite.reference import Reference

#: An instruction's verb opening a sentence, and its object up to a clause break.
_INSTRUCTION = re.compile(
    r"(?:^|(?<=[.!?:]\s))(?:Just\s+|First,?\s+)?(Run|Try|Use|Set|Add|Raise|Lower|Install|Enable|Disable|Switch\s+to|Apply"
    r"|Take|Do|Put|Increase|Bump|Call)\s+((?:the\s+|a\s+|an\s+)?(?:[^.!?;:,]|\.\b){2,60}?)(?=\s*(?:[!?;:,]|\.\B|\s+(?:and|but|so|"
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


#: An advice sentence that leads its verb with a connective or a frame: "Then lazy-load the route",
#: "A common fallback is to return the most popular items", "you could batch the writes".
_FRAMED = re.compile(
    r"(?:^|(?<=[.!?:]\s))(?:(?:Then|So|Instead|Otherwise|Alternatively),?\s+(?:just\s+)?(?:you\s+can\s+)?"
    r"|(?:[^.!?]|\.\b){0,60}?\b(?:is|would\s+be)\s+to\s+|(?:[^.!?]|\.\b){0,40}?\byou\s+(?:can|could|should)\s+(?:also\s+)?)"
    r"(?!(?:be|have|get|see|check|ask|wait|do|it|that|this|the|a|an|you|we|i)\b)"
    r"([a-z][a-z-]{2,}\s+(?:the|a|an|your|it|them|its|each|every|all|some|one|to|[a-z][\w.-]*)\b"
    r"(?:[^.!?;:,]|\.(?=\w)){0,70}?)"
    r"(?=\s*(?:[!?;:,]|\.(?!\w)|\s+(?:so|which|because|until|but|and\s+(?:it|that|this))\b|$))",
)
#: A "that" that stands for a course of action: "do that first", "suggesting that", "try doing that".
_ACTION_THAT = re.compile(
    r"\b(?:do|doing|try|trying|suggest|suggesting|recommend|recommending|propose|proposing|consider\s+doing)\s+that"
    r"(?=\s*(?:[!?,]|\.\B|$|\s+(?:first|instead|too|now|for|on|in|with|before|after|and|or)\b))",
    re.IGNORECASE,
)


def advised_action(query: str, start: int, context: Sequence[Mapping[str, str]]) -> str | None:
    """The course of action the latest reply advised, when the "that" at ``start`` stands for one."""
    if not any(m.start() <= start < m.end() for m in _ACTION_THAT.finditer(query)):
        return None
    if not context or str(context[-1].get("role") or "").lower() == "user":
        return None
    reply = str(context[-1].get("content") or "")
    found = _INSTRUCTION.search(reply)
    if found is not None:
        return f"{found.group(1).lower()} {found.group(2).strip()}"
    framed = _FRAMED.search(reply)
    return framed.group(1).strip() if framed else None


def acted_on(query: str, start: int) -> bool:
    """Whether the reference at ``start`` is asked about as a thing to do ("should i do that")."""
    return any(m.start() <= start < m.end() for m in ACTED_ON.finditer(query))


def advice_for(query: str, ref: Reference, context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    """What a pronoun about the latest reply's advice stands for: its instruction, its course of
    action or its remedy."""
    low = ref.text.lower()
    if low in ("that", "this", "it") and acted_on(query, ref.start) and (told := advised(context)):
        return told, 0.75  # "does that still work": what the reply told the user to run or try
    if low == "that" and (action := advised_action(query, ref.start, context)):
        return f"that ({action})", 0.7  # "suggesting that": the course the reply advised, kept a noun
    if low in ("that", "this") and (remedy := recommended(context, query)):
        return remedy, 0.7
    return None
