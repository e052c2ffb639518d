"""Temporal pointers found by grammar rather than by a list of phrases.

A time the conversation fixed is pointed at in two ways:

* a *time noun* governed by a deictic or relative determiner: "that moment", "those summers",
  "the same weekend", "the following week", "the next morning", "the previous year";
* a *relative time phrase*: an offset with a relation ("a few days later", "two weeks before",
  "the week after"), or "then"/"that" as the object of a relation ("by then", "until then",
  "from then on", "prior to that", "following that", "at that point"), or "afterwards".

"this week", "next week" and "this morning" are deictic to the speaker's now and need no
conversation, so "this" and a bare "next" are not determiners here. A relation followed by its
own object ("two days before the launch") names its anchor and is no pointer: the before/after
forms count only at the end of a clause.
"""

from __future__ import annotations

import re

from . import cached_re

#: Nouns that denote a stretch of time (singular and plural).
TIME_NOUN = (
    r"(?:moments?|times?|days?|nights?|mornings?|afternoons?|evenings?|weeks?|weekends?|months?|years?"
    r"|seasons?|summers?|winters?|springs?|autumns?|holidays?|period|periods|era|eras|hours?|occasions?)"
)
#: Heads a time word can modify: "that weekend thing" is a thing planned, no time.
UNIT_MODIFIED = "thing|stuff|trip|plan|plans|getaway|party|class|session|meeting|shift|slot|deal|job|flight|booking"
#: Occasions that recur, so one can follow another: "the following match", "the previous round".
EVENT_NOUN = (
    r"(?:match|game|session|meeting|round|race|class|lesson|appointment|visit|episode|stage|leg|show|concert"
    r"|gig|fixture|practice|rehearsal|sprint|release)(?:es|s)?"
)
_OFFSET = (
    r"(?:a\s+few|a\s+couple(?:\s+of)?|several|some|a|an|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|\d+|a\s+day\s+or\s+two)"
)
#: ... or a clause of purpose or reason opens: "the two days after so i can recover"
_END = (
    r"(?=\s*(?:[?!,;]|\.\B|$|then\b|and\b|or\b|so\s|because\s|while\s|when\s|if\s"
    r"|to\s+(?!the\b|a\b|an\b|my\b)|for\s+(?!the\b|a\b|an\b)))"
)
#: A deictic or relative determiner with a time noun: "that same day", "the following week".
_GOVERNED = (
    rf"(?:that(?:\s+(?:same|very|particular))?|those(?:\s+same)?"
    rf"|the\s+(?:very\s+)?(?:same|following|next|previous|prior|preceding|subsequent))\s+{TIME_NOUN}\b"
    rf"(?!\s+(?:{UNIT_MODIFIED})\b)"  # "that weekend thing": the time word modifies a noun
    r"(?:\s+of\s+(?:the\s+)?(?:year|day|month|week)\b)?"  # "that time of year": the season of the event
    # an occasion counted from one the conversation named: "the following match", "the previous
    # session" ("the next match" is the speaker's next one, deictic, so "next" is left out)
    rf"|the\s+(?:following|previous|preceding|subsequent)\s+{EVENT_NOUN}\b"
)
#: An offset and a relation: "a few days later", "two weeks before", "the week after".
_RELATIVE = (
    rf"{_OFFSET}\s+{TIME_NOUN}\s+(?:later|earlier|afterwards?)\b"
    rf"|{_OFFSET}\s+{TIME_NOUN}\s+(?:before|after|prior){_END}"
    rf"|the\s+(?:(?:two|three|four|five|few|couple\s+of|\d+)\s+)?{TIME_NOUN}\s+(?:before|after|prior){_END}"
    # "by the Friday before": a weekday counted from the event
    rf"|the\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:before|after|prior){_END}"
)
#: "then"/"that" as the object of a relation.
_OBJECT = (
    r"(?:by|until|till|up\s+(?:un)?til|around|before|after)\s+then\b"
    r"|from\s+then\s+on\b|ever\s+since\b(?!\s+\w)|prior\s+to\s+(?:that|this|then)\b|following\s+that\b(?!\s+\w+\s+\w)"
    r"|(?:at|by|from|up\s+to)\s+that\s+(?:point|moment|stage)\b(?:\s+on\b)?"
    rf"|afterwards?\b|beforehand\b|(?:soon|shortly|right|just)\s+(?:after|before){_END}|(?:later|earlier)\s+on{_END}"
    rf"|in\s+between{_END}|(?:at|by)\s+the\s+time{_END}|the\s+(?:whole|entire)\s+(?:time|day|night|week|weekend|trip){_END}"
    rf"|(?<=\w\s)since{_END}|once\s+(?:it|that|this|all\s+that)\s+(?:was|is|had\s+been)\s+(?:over|done|finished)\b"
    rf"|when\s+(?:that|it|this|all\s+that)\s+(?:all\s+)?(?:started|began|ended|kicked\s+off|went\s+down"
    rf"|happened|occurred|was\s+going\s+on){_END}"
)
POINTER = re.compile(
    rf"\b(?:(?:on|in|at|during)\s+)?(?:{_GOVERNED})"
    rf"|\b(?:{_RELATIVE})|\b(?:{_OBJECT})",
    re.IGNORECASE,
)
#: "the next time my laptop overheats" is any future occasion, not one the conversation fixed.
_ANY_OCCASION = re.compile(r"^the\s+(?:next|following)\s+times?$", re.IGNORECASE)


def pointers(query: str) -> list[tuple[int, int]]:
    """The spans of the query that point at a time only the conversation knows."""
    return [(m.start(), m.end()) for m in POINTER.finditer(query) if not _ANY_OCCASION.match(m.group(0))]


#: "run two jobs at the same time": with several things in the clause, "the same time" is a manner
#: (simultaneously), not the time the conversation fixed; "at the same time every night" is a habit.
SIMULTANEOUS = re.compile(
    r"\b(?:two|three|four|both|several|multiple|many|all|these|those|twice|\d+)\b(?:[^?.!,;]|\.\b)*?"
    r"\b(?P<shared>(?:at|in|on|during)\s+the\s+same\s+(?:time|day|night|week|month|year|season))\b"
    r"|\b(?P<habit>at\s+the\s+same\s+time)(?=\s+(?:every|each)\b)",
    re.IGNORECASE,
)


def simultaneous_spans(query: str) -> list[tuple[int, int]]:
    """The spans of "at the same time" (or "in the same season", ...) that the query shares among
    the things it counts or repeats: "catch the flu twice in the same season"."""
    return [m.span("shared") if m.group("shared") else m.span("habit") for m in SIMULTANEOUS.finditer(query)]


_AFTER = re.compile(r"\b(?:later|afterwards?|after|following|next|subsequent)\b", re.IGNORECASE)
_BEFORE = re.compile(r"\b(?:earlier|before(?:hand)?|prior|previous|preceding)\b", re.IGNORECASE)
_UNIT = re.compile(TIME_NOUN, re.IGNORECASE)
_EVENT = re.compile(rf"\b{EVENT_NOUN}\b", re.IGNORECASE)


def relative_text(reference: str, anchor_bare: str, anchor_phrase: str) -> str | None:
    """What a grammatical pointer becomes, or None when it is no relative form (the caller then
    uses the anchor's own phrase). The relation is kept and the anchor becomes its object:
    "a few days later" -> "a few days after the wedding", "the following week" -> "the week
    after the wedding", "until then" -> "until the wedding", "from then on" -> "since the wedding"."""
    low = reference.lower().strip()
    weekday = cached_re.match(r"^the\s+((?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+(before|after|prior)$", low)
    if weekday:  # "the Friday before" -> "the Friday before the board meeting": the weekday stays
        relation = "before" if weekday.group(2) == "prior" else weekday.group(2)
        return f"the {weekday.group(1).capitalize()} {relation} {anchor_bare}"
    if cached_re.match(r"^(?:from\s+then\s+on|ever\s+since)$", low):
        return f"since {anchor_bare}"
    if low == "since":  # "any news since?" -> "any news since the wedding?"
        return f"since {anchor_bare}"
    found = cached_re.match(r"^(by|until|till|up\s+(?:un)?til|around)\s+then$", low)
    if found:
        return f"{found.group(1)} {anchor_bare}"
    if cached_re.search(r"\bsame\b", low) or cached_re.match(r"^(?:\w+\s+)?(?:that|those)\b", low):
        return None  # "that same day", "at that point": the anchor itself
    relation = "after" if _AFTER.search(low) else "before" if _BEFORE.search(low) else None
    if relation is None:
        return None
    unit = _UNIT.search(low) or _EVENT.search(low)  # "the following match" -> "the match after the derby"
    offset = cached_re.match(rf"^{_OFFSET}\s+{TIME_NOUN}", reference, re.IGNORECASE)
    if offset:
        return f"{offset.group(0)} {relation} {anchor_bare}"  # "two days before the wedding"
    governed = cached_re.match(
        r"^(?:(on|in|at|during)\s+)?the\s+((?:two|three|four|five|few|couple\s+of|\d+)\s+)?", low
    )
    if unit and governed:  # "the next day" -> "the day after X", "in the following match" -> "in the match after X"
        lead = f"{governed.group(1)} " if governed.group(1) else ""
        count = governed.group(2) or ""  # "the two days before" keeps its count
        return f"{lead}the {count}{unit.group(0)} {relation} {anchor_bare}"
    return f"{relation} {anchor_bare}"  # "afterwards", "prior to that", "soon after"


UNITS_ = (
    r"(?:days?|nights?|mornings?|evenings?|afternoons?|weekends?|weeks?|months?|years?"
    r"|quarters?|period|summer|winter|spring|autumn|age)\b"
)
#: A clause ends at punctuation, "then", or an inverted auxiliary ("how long after that *did* she ...").
CLAUSE_END = (
    r"(?=\s*(?:[?!,;]|\.\B|$|then\b|too\b|as\s+well\b|(?:did|does|do|was|were|is|are|will|would|can|could|should|has|have|had)\s"
    # another clause or a purpose opens: "after that before dry food is ok", "the day after to recover"
    # a preposition is never the relation's object: "the day before in my calendar"
    r"|(?:before|after|until|when|which|who|and|but|or|so|to|in|on|at|for|with|from)\s|(?:right|correct|yeah)\s*\?))"
)
#: Pointers at a time the conversation fixed. A relation ("the day before") counts only at the end
#: of a clause: "the day before the launch" names its own anchor.
TEMPORAL_POINTER = re.compile(
    rf"\b(?:the\s+{UNITS_}\s+(?:before|after){CLAUSE_END}"
    rf"|(?:right\s+|just\s+|shortly\s+|soon\s+)?(?:after|before)\s+(?:that|this|it){CLAUSE_END}"
    rf"|(?:earlier|later)\s+that\s+{UNITS_}"
    rf"|(?:(?:on|in|at|during)\s+)?the\s+same\s+(?:{UNITS_}|time)"
    rf"|(?:before|after|until|by|from)\s+then{CLAUSE_END}"
    # ("at the moment" is now, an idiom, no time of the chat)
    rf"|(?:at|around|about|during)\s+(?:(?:that|the\s+same)\s+(?:time|point|moment)|the\s+(?:time|point)){CLAUSE_END}"
    # "that weekend", but not "that weekend thing" or "that morning class": a unit modifying a noun
    rf"|(?:during\s+)?(?:that|those)\s+{UNITS_}(?!\s+(?:{UNIT_MODIFIED})\b)"
    rf"|when\s+(?:that|it|this)\s+happened|in\s+the\s+meantime|meanwhile|since\s+then|back\s+then"
    rf"|(?<!\band\s)(?<!\bbut\s)(?<!\bso\s)(?<=\w\s)then{CLAUSE_END}"
    # a bare relation ending the question has lost its object: "what changed after?", "any news since?"
    r"|(?<=\w\s)(?:since|after)(?=\s*[?.!]?\s*$))",
    re.IGNORECASE,
)
