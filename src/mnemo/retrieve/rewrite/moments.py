"""References to a moment of the conversation itself, told by when it was said.

"which model did you suggest at the beginning of our chat", "your original pick", "the plan from the
top of the chat" point at the opening turns; "the index you gave me a few messages back" at a recent
one; "what we agreed on", "the one we settled on" at the choice the chat settled. No noun phrase of
the chat stands for these: the turn does, so the rewrite quotes it. Pure functions over the query
and the messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.quoting import quoted
from mnemo.retrieve.rewrite.wordfind import sentences, stems

#: The opening of the chat, said as a time: "at the start", "at the beginning of our chat",
#: "when we first started talking", "at first", "originally".
_OPENING = (
    r"(?:at|from|in)\s+the\s+(?:very\s+)?(?:start|beginning|top)(?:\s+of\s+(?:our|the|this)\s+"
    r"(?:chat|conversation|thread|discussion))?(?!\s+of\b)"
    r"|(?:when|as)\s+we\s+(?:first\s+)?(?:started|began)(?:\s+(?:talking|chatting|this))?"
    r"|at\s+first|originally|initially"
)
#: What the assistant does in a turn: "you suggested", "did you recommend", "you had me change".
_SAID = (
    r"(?:said|say|suggest(?:ed)?|recommend(?:ed)?|mention(?:ed)?|gave(?:\s+me)?|give(?:\s+me)?|told\s+me"
    r"|tell\s+me|propos(?:ed|e)|offer(?:ed)?|advis(?:ed|e)|pick(?:ed)?|list(?:ed)?|show(?:ed)?|sen[dt]"
    r"|share[d]?|wr[io]te|name[d]?|had\s+me\s+[a-z]+|have\s+me\s+[a-z]+|point(?:ed)?\s+me\s+to|like[d]?)"
)
#: "the backend I mentioned when we first started talking": the user's opening turn.
_I_THEN = re.compile(
    rf"\b(?:i|we)\s+(?:first\s+)?(?:mentioned|said|asked\s+about|asked|brought\s+up|told\s+you)\b(?:[^.?!]|\.\b){{0,30}}?"
    rf"\s+({_OPENING})\b",
    re.IGNORECASE,
)
_YOU_THEN = re.compile(rf"\byou\s+(?:first\s+)?{_SAID}\b(?:[^.?!]|\.\b){{0,40}}?\s+({_OPENING})\b", re.IGNORECASE)
#: "your original suggestion", "your first answer", "the first thing you said".
_YOUR_FIRST = re.compile(
    r"\b(?:your\s+(?:first|original|initial|opening|earliest)\s+(?:answer|suggestion|pick|recommendation|reply"
    r"|response|idea|option|advice|choice|proposal|message|solution|fix|plan)"
    rf"|the\s+first\s+(?:thing|option|suggestion|idea|answer|fix|tool)\s+you\s+{_SAID})\b",
    re.IGNORECASE,
)
#: "the plan from the top of the chat": a thing of the chat's opening, by no speaker.
_CHAT_OPENING = re.compile(
    r"\b(?:from|at)\s+the\s+(?:very\s+)?(?:start|beginning|top)\s+of\s+(?:our|the|this)\s+"
    r"(?:chat|conversation|thread|discussion)\b",
    re.IGNORECASE,
)
#: "you gave me a few messages back", "you told me a minute ago".
_YOU_RECENTLY = re.compile(
    rf"\byou\s+{_SAID}\b(?:[^.?!]|\.\b){{0,30}}?\s+((?:a\s+few|a\s+couple\s+of|two|three|some)\s+messages?\s+(?:back|ago|up)"
    r"|a\s+(?:minute|moment|sec|second|few\s+minutes)\s+ago)\b",
    re.IGNORECASE,
)
#: "what we agreed on", "the one we settled on", "the naming convention we decided on".
_SETTLED_BY_US = re.compile(
    r"\b(?:what|the\s+(?:(?!(?:about|what|for|to|of|on|with|in|if|when|because|unless)\s)[a-z]+\s+){0,2}?"
    r"(?!if\b|when\b|because\b|unless\b)[a-z]+)\s+(?:that\s+)?we\s+(?:(?:just|finally)\s+)?"
    r"(?:agreed(?:\s+on)?|settled\s+on|decided\s+on|landed\s+on|went\s+with|ended\s+up\s+with)\b",
    re.IGNORECASE,
)
#: How a reply recommends one thing: "then aqua aerobics is the better fit", "the velvet is the safer
#: pick", "the anytime plan makes more sense", "I'd go with the Brooks".
_RECOMMENDING = (
    r"\b(?:is|are)\s+(?:the|a|your)\s+(?:better|best|safer|safest|right|obvious|smarter)\s+"
    r"(?:fit|pick|choice|option|bet"
    r"|call|way\s+to\s+go)|\bmakes?\s+(?:more\s+|the\s+most\s+)?sense\b"
    r"|\bi'?d\s+(?:go\s+with|pick|choose|recommend|suggest|start\s+with|get)\b|\bi\s+(?:recommend|suggest)\b"
)
_RECOMMENDS = re.compile(_RECOMMENDING, re.IGNORECASE)
#: "the one you recommended", "the repair you suggested", "the one you said to send": no time word.
_YOU_PICKED = re.compile(
    r"\b(?:the\s+one|the\s+[a-z]+|what)\s+(?:that\s+)?you\s+(?:recommended|suggested|picked|chose|preferred"
    r"|advised|went\s+for|said\s+to\s+[a-z]+|told\s+me\s+to\s+[a-z]+)\b"
    rf"(?!\s+(?:earlier|before|previously|just\s+now|recently|{_OPENING}))",
    re.IGNORECASE,
)
#: How a chat settles a choice: "let's go with the URL then", "the ticket one is better for us",
#: "then the Morello is your best bet".
_SETTLING = re.compile(
    r"\b(?:let'?s\s+(?:go\s+with|use|do|pick|stick\s+with|take)|(?:we|i)'?ll\s+(?:go\s+with|use|take|stick\s+with)"
    r"|(?:is|are|sounds?)\s+(?:better|best)\s+for\s+(?:us|me)|your\s+best\s+(?:bet|option|choice)"
    r"|(?:we|i)\s+(?:agreed|decided|settled)\b|going\s+with|sounds\s+good)"
    r"|" + _RECOMMENDING,
    re.IGNORECASE,
)
_MAX_WORDS = 24
#: Stems of the words about the conversation itself, which say nothing of what was said.
_META_STEMS = frozenset(
    stems("said say suggested recommended mentioned gave give told tell answer start beginning first chat original")
)


#: The assistant's past turn, not a generic "you": "did you say", "you suggested" (not "should you say").
_PAST_SAID = re.compile(
    r"\bdid\s+you\b|\byou\s+(?:first\s+)?(?:[a-z]+ed|said|gave|told|sent|wrote|showed|shared|liked|had\s+me)\b",
    re.IGNORECASE,
)
#: "how long should your first answer be": the generic "your" of advice.
_GENERIC_YOUR = re.compile(r"\b(?:should|would|could|must|can|do|does|will)\s+your\b", re.IGNORECASE)


def moment_spans(query: str) -> list[tuple[int, int, str]]:
    """The query's references to a moment of the chat, as (start, end, "moment:<which>"): which is
    "you-first", "i-first", "chat-first", "you-recent", "settled" or "you-picked"."""
    generic = bool(_GENERIC_YOUR.search(query))
    found = [
        (m.start(), m.end(), "moment:you-first")
        for m in _YOUR_FIRST.finditer(query)
        if not generic and (m.group(0).lower().startswith("your") or _PAST_SAID.search(query, m.start(), m.end()))
    ]  # "the first thing you said", not "the first thing you say in a eulogy"
    found += [
        (m.start(1), m.end(1), "moment:you-first")
        for m in _YOU_THEN.finditer(query)
        if _PAST_SAID.search(query, max(0, m.start() - 4), m.start(1))
    ]
    found += [(m.start(1), m.end(1), "moment:i-first") for m in _I_THEN.finditer(query)]
    found += [(m.start(1), m.end(1), "moment:you-recent") for m in _YOU_RECENTLY.finditer(query)]
    found += [(m.start(), m.end(), "moment:settled") for m in _SETTLED_BY_US.finditer(query)]
    found += [(m.start(), m.end(), "moment:you-picked") for m in _YOU_PICKED.finditer(query)]
    if not found:
        found = [(m.start(), m.end(), "moment:chat-first") for m in _CHAT_OPENING.finditer(query)]
    return found


def moment_text(reference: str, which: str, context: Sequence[Mapping[str, str]], query: str) -> str | None:
    """ "at the start (For your size I'd start with Zustand ...)": the reference with the turn it
    points at quoted after it, or None when the chat has no such turn."""
    said = _moment(which, context, query)
    if not said:
        return None
    return quoted(reference, said, _MAX_WORDS)


def _moment(which: str, context: Sequence[Mapping[str, str]], query: str) -> str | None:
    turns = [(str(m.get("role") or "").lower(), str(m.get("content") or "").strip()) for m in context]
    turns = [(role, text) for role, text in turns if text]
    replies = [text for role, text in turns if role == "assistant"]
    if which == "you-first":
        return _from_shared(replies[0], query) if replies else None
    if which == "i-first":
        users = [text for role, text in turns if role == "user"]
        return _from_shared(users[0], query) if users else None
    if which == "chat-first":
        return _from_shared(turns[0][1], query) if turns else None
    if which == "you-recent":  # "the index you gave me a few messages back": the latest reply with its word
        own = _own_words(query)
        return next((_from_shared(text, query) for text in reversed(replies) if own & stems(text)), None)
    if which == "you-picked":  # "the one you recommended": the reply's sentence that says so
        return _recommendation(replies, query)
    settled = [s for _, text in turns for s in sentences(text) if _SETTLING.search(s) and len(stems(s)) >= 3]
    return settled[-1] if settled else None


def _recommendation(replies: Sequence[str], query: str) -> str | None:
    """The latest reply sentence that bids the deed the query names ("the one you said to send":
    "Send the short formal one to HR"), else the latest that recommends; None for a chat that
    recommended nothing ("the candidate you picked" is the user's pick)."""
    told = [s for text in replies for s in sentences(text) if len(stems(s)) >= 2]
    bidden = _BIDDEN.search(query)  # "the one you said to send": the reply that bids that deed
    if bidden is not None:
        found = [s for s in told if stems(bidden.group(1)) & stems(s)]
    else:
        found = [s for s in told if _RECOMMENDS.search(s)]
    return found[-1] if found else None


#: "you said to send", "you told me to buy": the deed the reply bid.
_BIDDEN = re.compile(r"\byou\s+(?:said|told\s+me)\s+to\s+([a-z]+)", re.IGNORECASE)


def _own_words(query: str) -> set[str]:
    """The query's words of four letters or more that are not about the conversation itself."""
    return {w for w in stems(query) - _META_STEMS if len(w) == 4}


def _from_shared(turn: str, query: str) -> str:
    """The turn from its start, or, when the first sentence sharing a word with the query lies past
    the quoted length, from that sentence; the caller cuts it to length."""
    parts = sentences(turn)
    own = _own_words(query)
    first = next((i for i, s in enumerate(parts) if own & stems(s)), 0)
    before = sum(len(s.split()) for s in parts[:first])
    return " ".join(parts[first:] if before + len(parts[first].split()) > _MAX_WORDS else parts)
