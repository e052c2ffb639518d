"""A demonstrative whose noun says where to look: "that part" is the part found at fault, "that
increase" the change the conversation described, "that city" the member of the class it named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.changes import amount_change
from mnemo.retrieve.rewrite.classed import class_member, member_text
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.said import conversation_text
from mnemo.retrieve.rewrite.spares import faulty_part

from . import cached_re


def pointed_noun(ref: Reference, context: Sequence[Mapping[str, str]], query: str) -> str | None:
    """What "that <noun>" becomes when its noun alone decides, or None."""
    noun = (ref.noun or "").lower()
    said = conversation_text(context)
    if noun == "part" and (part := faulty_part(said)):
        return f"the {part}"
    chosen = chosen_option(noun, context)  # "that layout" after "... we're going with banquet"
    if chosen:
        return chosen
    answer = answered_which(noun, context)  # "Which image?" - "alpine-base 3.19": that image
    if answer:
        named = answer[:1].isupper() and len(answer.split()) > 1  # "The Barn at Hinton" names itself
        return answer if named or noun in answer.lower() else f"the {answer} {noun}"
    changed = amount_change(noun, context)  # "that increase": of what the chat said was raised
    if changed:
        return changed
    if cached_re.search(rf"\b{re.escape(noun)}\b", said, re.IGNORECASE):
        return None  # "that language" after "harsh language": that language, not a member of the class
    member = class_member(noun, context, query)  # "that city": "Tallinn"
    return member_text(ref.text, noun, member) if member else None


def answered_which(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The short answer to the chat's latest "which <noun>?" (the next message, a name of a few
    words), or None."""
    if not noun:
        return None
    asked = cached_re.compile(rf"\b(?:which|what)\s+(?:one|{re.escape(noun)}s?)\b(?:[^.!?]|\.\b)*\?", re.IGNORECASE)
    messages = [str(m.get("content") or "").strip() for m in context]
    for at in range(len(messages) - 2, -1, -1):
        if asked.search(messages[at]) and noun.lower() in messages[at].lower():
            answer = messages[at + 1].rstrip(".!")
            return answer if 1 <= len(answer.split()) <= 5 and "?" not in answer else None
    return None


#: "we're going with banquet", "let's go with the blue", "we picked the second": the option chosen.
_CHOSEN = re.compile(
    r"\b(?:going|go|went|gone)[ ]+with[ ]+(?:the[ ]+)?([\w-]+(?:[ ]+[\w-]+)?)|\b(?:chose|picked|choosing|picking)[ ]+"
    r"(?:the[ ]+)?([\w-]+(?:[ ]+[\w-]+)?)",
    re.IGNORECASE,
)


def chosen_option(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "that layout" after "two layouts, round tables or long banquet tables. we're going with
    banquet": the option of that noun the chat chose ("the banquet layout"), or None."""
    text = conversation_text(context)
    if not cached_re.search(rf"\b{re.escape(noun)}s\b", text, re.IGNORECASE):
        return None  # the options must be offered as that noun's plural: "two layouts"
    found = list(_CHOSEN.finditer(text))
    if not found:
        return None
    choice = (found[-1].group(1) or found[-1].group(2)).strip()
    choice = cached_re.sub(rf"\s+{re.escape(noun)}s?$", "", choice, flags=re.IGNORECASE)
    return f"the {choice} {noun}" if choice and choice.lower() not in ("it", "that", "this", "one") else None
