"""A place in a set the query sets up itself, and a part of a whole it calls its own.

"poetry or uv, and does the latter work with pyproject.toml", "two job offers ... before picking
the second one", "how many times has England hosted the World Cup, and when was the last one",
"how do I undo the last commit in git", "my laptop ... does it damage the battery": the set, the
series, the tool or the whole is the query's, so the ordinal or the part points at nothing of the
conversation. Pure functions over the query text; own_situation.py asks them.
"""

from __future__ import annotations

import re

#: Alternatives the query names: "X or Y", "between X and ...", "X vs Y".
ALTERNATIVES = re.compile(r"\S+\s+or\s+\S+|\bbetween\s+\S|\bvs\.?\s|\bversus\b", re.IGNORECASE)
#: "the second one", "the last one", "the first one": a place in a set.
_COUNTED_ONE = re.compile(r"^the\s+(?:first|second|third|last|latest|most\s+recent)\s+one$", re.IGNORECASE)
#: A set the query counts itself: "two job offers", "three quotes" ("two weeks", "three teenagers" are
#: no set of things to pick from).
_COUNTED_SET = re.compile(
    r"\b(?:two|three|four|five|2|3|4|5)\s+(?:[a-z-]+\s+)?"
    r"(?!(?:days|weeks|months|years|hours|minutes|nights|times|kids|children|teenagers|people|friends|adults)\b)"
    r"[a-z-]+s\b",
    re.IGNORECASE,
)
#: "how many times has England hosted the World Cup", "has anyone ever ...": a series of the query's own.
_HOW_MANY_TIMES = re.compile(r"\bhow\s+many\s+times\b|\b(?:has|have|did)\s+(?:\w+\s+){1,3}ever\b", re.IGNORECASE)
#: A question about one member of a series: "when was the last one", "who was the first one".
_MEMBER_ASKED = re.compile(r"\b(?:when|who|what|which|where)\s+(?:was|were|is)\s+$", re.IGNORECASE)
#: "10 or 20 writes", "whether rates go up or down": an "or" of amounts or of outcomes offers no options.
_NO_CHOICE_OR = re.compile(
    r"\b\d+\s+or\s+\d+\b|\bwhether\b[^,?]*\bor\b[^,?]*|\b(?:up|down|more|less|in|out|better|worse)\s+or\s+\w+",
    re.IGNORECASE,
)
#: "more or less", "may or may not", "sooner or later", "or so": an "or" that offers no pair.
_IDIOMATIC_OR = re.compile(
    r"\b(?:more\s+or\s+less|may\s+or\s+may\s+not|sooner\s+or\s+later|or\s+so|or\s+not|one\s+way\s+or\s+another)\b",
    re.IGNORECASE,
)
#: "commute between Leeds and York", "sits between the patio and a flower bed": a place, no pair to choose.
PLACED_BETWEEN = re.compile(
    r"\b(?:commute|commutes|travel|travels|drive|drives|sits|sit|lies|lie|live|lives|located|runs|run)\s+between\b[^,?]*",
    re.IGNORECASE,
)
#: A tool's own history by position: "the last commit", "the last git", "the previous migration".
_TOOL_STATE = re.compile(r"^the\s+(?:last|latest|previous|first)\s+(?:git|commit|tag|migration)\b", re.IGNORECASE)
#: A how-to question in a named tool: "how do I undo the last commit in git", "... migration in django".
_HOW_TO_IN_TOOL = re.compile(
    r"^(?:\w+\s+){0,3}?(?:how\s+(?:do|can|would|should)\s+(?:i|you|we)|how\s+to|difference\s+between)\b"
    r"(?=.*\b(?:git|django|rails|alembic|flyway|liquibase|a\s+git\s+repo\w*)\b)",
    re.IGNORECASE,
)
#: Parts a thing has: "the battery" of the laptop, "the tread" of the tyres the query names.
_PART = re.compile(
    r"^the\s+(?:battery|screen|tread|engine|keyboard|charger|lid|handle|filter|motor|blade|lens|strap|hinge|"
    r"fan|plug|cable|seal|bulb|thermostat|compressor|drum|pump|chain|brakes?|clutch|gearbox|tyres?|wheels?)$",
    re.IGNORECASE,
)
#: The query's own whole: "my laptop", "our car" ("a cheaper place to replace the battery" names no whole).
_OWN_WHOLE = re.compile(r"\b(?:my|our)\s+(?:[\w-]+\s+){0,2}?[a-z][\w-]+", re.IGNORECASE)
#: "my washing machine is fine, but how do I test the thermostat": the part is another thing's, the chat's.
_FINE_BUT = re.compile(r"\b(?:is|are|works|seems)\s+(?:fine|ok|okay|good)\b[^?]*\bbut\b", re.IGNORECASE)


def own_member(query: str, text: str, kind: str, before: str) -> bool:
    """Whether the ordinal or part ``text`` (of reference ``kind``) picks from a set, a series, a tool
    or a whole the query sets up before it (``before``)."""
    low = text.lower()
    if low in ("the latter", "the former"):
        return bool(ALTERNATIVES.search(_NO_CHOICE_OR.sub(" ", _IDIOMATIC_OR.sub(" ", before))))
    if _COUNTED_ONE.match(low):
        return bool(_COUNTED_SET.search(before) or (_HOW_MANY_TIMES.search(before) and _MEMBER_ASKED.search(before)))
    if kind == "implicit" and _PART.match(text):
        return bool(_OWN_WHOLE.search(before)) and not _FINE_BUT.search(before)
    return kind in ("ordinal", "implicit") and bool(_TOOL_STATE.match(text) and _HOW_TO_IN_TOOL.search(query))
