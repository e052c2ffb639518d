"""A choice between the items a conversation listed, made by comparing them: "which of the two",
"the cheaper pair", "the priciest" - the reference keeps its comparison and names the items
("the cheaper of the Sony WH-1000XM5 and the Anker Soundcore Q45"). Split from lists.py, which
finds the items.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.lists import compared_pair, coordinated_pair, distinct, find_list, named_pair, still_weighed

from . import cached_re

#: A choice between the items the conversation listed: "which of the two", "the cheaper pair",
#: "the more expensive one", "both of those". The comparative (-er/-est, more/less X) or the count
#: is the grammar; the item noun is generic ("one", "pair", "option").
COMPARISON_REF = re.compile(
    r"\b(?:(?:which|either|both|neither)\s+(?:one\s+)?of\s+(?:the|those|these)\s+(?:two|three|options|choices)\b"
    r"|(?:which|either|neither)\s+(?:one\s+)?of\s+(?:them|those|these)"
    r"(?=\s*(?:[?!,]|\.\B|$|(?:is|are|was|were|has|have|should|would|will|can|could|do|does|did)\b))"
    r"|(?:those|these)\s+two(?=\s*(?:[?!,;]|\.\B|$)|\s+(?:in|at|for|with|from|on|to|into|and|by|up|off|as)\b)"
    r"|(?:the|that)\s+((?:more|less)\s+[a-z]+|[a-z]{3,}(?:er|est)|better|best|worse|worst)\s+"
    r"(?:one|ones|pair|option|choice|model|version|deal|offer|plan)\b"
    # "which one has better parental leave?": a bare "which one" asking a question of the listed items
    r"|which\s+one(?=\s+(?:is|was|has|had|pays|offers|gives|costs|works|seems|sounds|looks)\b)"
    # a superlative with no noun ("cancel the priciest"): its head is elided, so the set is the
    # conversation's; only unmistakable superlatives (-iest, a doubled consonant, most/least X)
    r"|the\s+([a-z]{2,}iest|[a-z]*([bdgmnpt])\3est|best|worst|(?:most|least)\s+[a-z]{3,})(?=\s*(?:[?!,;]|\.\B|$)))",
    re.IGNORECASE,
)
#: Words in -er/-est that compare nothing: ordinals, places and materials ("that leather one").
_NOT_COMPARATIVE = frozenset(
    """other former latter first last second third upper inner outer corner leather paper silver rubber copper
    timber water winter summer number member letter feather sweater poster sticker charger speaker
    forest interest""".split()
)


#: "of the planets": a set the query names itself (not "of the two", "of those options").
_OWN_SET = re.compile(
    r"\b(?:which(?:\s+one)?|one|the\s+[a-z]+est|the\s+most\s+[a-z]+)\s+of\s+(?:the|all\s+the)\s+"
    r"(?!(?:two|three|four|both|options|choices|ones|items|alternatives|places|ones)\b)[a-z]{3,}s\b",
    re.IGNORECASE,
)


def comparisons(query: str) -> list[tuple[int, int]]:
    """Spans of the query that choose between listed items; none when the query lists or names its
    own set ("the cheaper one, Sony or Anker?", "which one of the planets is the biggest")."""
    if _OWN_SET.search(query):
        return []  # the query names its own set: "which one of the planets is the biggest"
    joints = [m.start() for m in cached_re.finditer(r"\s(?:or|vs\.?|versus)\s", query)]
    out = []
    for match in COMPARISON_REF.finditer(query):
        if match.group(1) and match.group(1).lower() in _NOT_COMPARATIVE:
            continue
        # "the cheaper one, Sony or Anker?", "which is older, Rust or Go": its own set after a comma;
        # "is the cheaper one seated or standing": an "or" of the predicate
        own = cached_re.search(r",[^,]*\s(?:or|vs\.?|versus)\s", query[match.end() :])
        if any(j < match.start() for j in joints) or own:
            continue
        out.append((match.start(), match.end()))
    return out


def compared(reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the cheaper pair" -> "the cheaper of the Sony WH-1000XM5 and the Anker Soundcore Q45"."""
    if cached_re.fullmatch(r"which\s+one", reference.strip(), re.IGNORECASE):
        pair = distinct(named_pair(context) or find_list(context, named=True))
        pair = still_weighed(context, pair) if len(pair) == 2 else pair
        # "Which one has better leave?" -> "Which of Spotify and Lumen has better leave?"
        return f"{reference.strip()[:5]} of {pair[0]} and {pair[1]}" if len(pair) == 2 else None
    match = COMPARISON_REF.fullmatch(reference.strip())
    if match is None or (match.group(1) or "").lower() in _NOT_COMPARATIVE:
        return None  # "that leather one" names a material, not a comparison
    items = _code_pair(context) or distinct(find_list(context, named=True) or named_pair(context))
    if len(items) < 2:  # "the difference between `git reset` and `git restore`": a pair, not a list
        items = [i.strip("`'\"") for i in coordinated_pair(context)]
    if len(items) < 2 or not all(cached_re.search(r"[A-Z]", i) for i in items):  # "21.99 and also open 24/7"
        items = compared_pair(context) or items
    if len(items) < 2:
        return None
    plural = (
        cached_re.search(r"\b(?:those|these|them)\b", reference, re.IGNORECASE) is not None
    )  # "which of those": all
    count = 3 if "three" in reference.lower() else len(items) if match.group(2) or plural else 2
    joined = " and ".join(items[:count]) if count == 2 else ", ".join(items[: count - 1]) + f" and {items[count - 1]}"
    if match.group(1) or match.group(2):
        return f"the {match.group(1) or match.group(2)} of {joined}"
    return cached_re.sub(
        r"\b(?:(?:the|those|these)\s+\w+|them|those|these)$", joined, reference.strip(), flags=re.IGNORECASE
    )


def _code_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two code spans of the latest message, when it has exactly two: "`select_related('customer')`
    for foreign keys and `prefetch_related('line_items')`" compares select_related and prefetch_related."""
    text = str(list(context)[-1].get("content") or "") if context else ""
    spans = distinct([cached_re.sub(r"\(.*\)$", "", span) for span in cached_re.findall(r"`([^`\n]{2,60})`", text)])
    return spans if len(spans) == 2 else []


#: A question that weighs two options: "which is better for a small kitchen, the ninja or the cosori".
_WEIGHING = re.compile(
    r"^\s*(?:which|what's\s+better|what\s+is\s+better|should\s+i\s+(?:get|buy|go\s+with|pick))\b", re.I
)


def weighed_pair(context: Sequence[Mapping[str, str]]) -> list[str]:
    """The two options of the latest question that weighs them ("..., the ninja or the cosori air
    fryer"), or []."""
    for message in reversed(list(context)):
        text = str(message.get("content") or "").strip().rstrip("?.! ")
        if not _WEIGHING.match(text) or " or " not in text:
            continue
        segment = cached_re.split(r",\s*|\bbetween\s+", text)[-1]
        parts = [p.strip() for p in cached_re.split(r"\s+or\s+", segment) if p.strip()]
        if len(parts) == 2 and all(len(p.split()) <= 5 for p in parts):
            return parts
        return []
    return []
