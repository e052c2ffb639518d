"""The part to replace: "how do I order the part?" after a diagnosis.

A repair conversation names a component as the fault ("the pickup roller is probably worn", "it
needs a new timing belt", "occasionally a failed drain pump") and the follow-up asks for "the part",
"the replacement part" or "a replacement" without naming it again. No candidate ranking finds it:
the fault is often not the newest or the most mentioned noun (the printer, the car, the dishwasher
are). The frames that mark a component as the one to replace do, so they are read directly.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.said import modifies_next

from . import cached_re

#: "the part", "the replacement part", "a replacement", "a new part", "the spare": a part not named.
PART_REF = re.compile(
    r"\b(?:the|a)\s+(?:(?:new|replacement|spare)\s+)?(?:part|replacement|spare)\b"
    r"(?!\s+(?:of|for|from|number|where|that|which|about|when|in|is|was|at\s+the)\b)(?!-)",
    re.IGNORECASE,
)

#: A component: up to three lower-case words, the last its head ("drain pump", "ceramic cartridge").
_PART = r"([a-z][a-z-]+(?:[ ]+[a-z][a-z-]+){0,2})"  # spaces only: a part never spans two lines
_DETERMINER = r"(?:the|your|its|a|an|my|our|their|his|her)\s+"
_BROKEN = (
    r"(?:worn(?:\s+out)?|broken|faulty|failed|failing|dead|cracked|blown|shot|seized|split|bust|knackered"
    r"|damaged|burnt|burned|perished|clogged|leaking)"
)
_HEDGE = r"(?:(?:probably|likely|most\s+likely|usually|definitely|just|completely)\s+)?"

#: The frames that mark a component as the fault; each captures the component.
_FAULT_FRAMES = (
    cached_re.compile(rf"\bneeds?\s+(?:a\s+|an\s+)?new\s+{_PART}", re.IGNORECASE),
    # "they quoted me for a new MAF sensor", "order a new filter": the part a repair replaces
    cached_re.compile(
        rf"\b(?:quoted\s+(?:me|us)\s+for|quote\s+for|fit|order|install)\s+(?:a|an)\s+new\s+{_PART}", re.I
    ),
    cached_re.compile(rf"\breplac(?:e|ing)\s+{_DETERMINER}{_PART}", re.IGNORECASE),
    cached_re.compile(
        rf"\b{_DETERMINER}{_PART}\s+(?:is|are|'s|has|have)\s+{_HEDGE}(?:been\s+)?{_BROKEN}\b", re.IGNORECASE
    ),
    cached_re.compile(rf"\b(?:a|an|the|your|its)\s+(?:{_BROKEN}|replaceable)\s+{_PART}", re.IGNORECASE),
    cached_re.compile(
        rf"\bit'?s\s+(?:probably|likely|most\s+likely|almost\s+certainly)\s+{_DETERMINER}{_PART}", re.IGNORECASE
    ),
    cached_re.compile(
        rf"\b{_DETERMINER}{_PART}\s+needs?\s+(?:replacing|replacement|to\s+be\s+replaced)", re.IGNORECASE
    ),
    # "my Skoda's battery died", "the fan stopped working": a part that gave out
    cached_re.compile(
        rf"(?:\b{_DETERMINER}|'s\s+){_PART}\s+(?:just\s+|has\s+|keeps\s+)?(?:died|dies|dying|broke|failed|stopped\s+working"
        r"|packed\s+(?:up|in)|gave\s+up|conked\s+out|went\s+(?:dead|flat))\b",
        re.IGNORECASE,
    ),
)

#: Words that end a component phrase: the words of the frame around it, not the part's own.
_STOP = frozenset(
    """is are was were has have had and or but so then because which that who if on in at to for with of
    by from about after before when while it its this probably likely usually just also too though""".split()
)
#: What a fault frame can name that is no part: the thing as a whole, or nothing at all.
_NOT_PARTS = frozenset("one thing things bit something everything it model version car machine unit".split())


def faulty_part(context_text: str) -> str | None:
    """The component the conversation last named as the fault, or None."""
    best: tuple[int, str] | None = None
    for frame in _FAULT_FRAMES:
        for match in frame.finditer(context_text):
            part = _trimmed(match.group(1))
            if part and (best is None or match.start() > best[0]):
                best = (match.start(), part)
    return best[1] if best else None


def _trimmed(phrase: str) -> str:
    words: list[str] = []
    for word in phrase.split():
        if word.lower() in _STOP:
            break
        words.append(word if word.isupper() else word.lower())  # "MAF sensor" keeps its acronym
    return " ".join(words) if words and words[-1].lower() not in _NOT_PARTS else ""


#: Words after "a replacement" that describe it rather than name it: "is a replacement expensive".
_DESCRIBING = frozenset(
    """expensive cheap pricey available worth ok okay hard easy difficult covered included necessary itself online
    onlne anywhere somewhere locally here there cost costs take takes need needs come comes last lasts fit fits
    arrive arrives""".split()
)


def part_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, noun) for each unnamed part of the query when the conversation names a fault."""
    found = [
        (m.start(), m.end(), "part")
        for m in PART_REF.finditer(query)
        if not modifies_next(query[m.end() :], _DESCRIBING, any_case=True)  # "the part time job"
    ]
    return found if found and faulty_part(context_text) else []


def part_text(reference: str, context_text: str) -> str | None:
    """What "the part" becomes: "the pickup roller", "the replacement drain pump", "a replacement
    timing belt"."""
    part = faulty_part(context_text)
    if part is None:
        return None
    words = reference.split()
    kept = [w for w in words[1:] if w.lower() not in ("part", "spare")] if words[-1].lower() == "part" else words[1:]
    if kept and kept[-1].lower() == "spare":
        kept = kept[:-1]
    return " ".join([words[0], *kept, part])
