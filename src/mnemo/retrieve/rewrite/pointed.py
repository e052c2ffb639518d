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


def pointed_noun(ref: Reference, context: Sequence[Mapping[str, str]], query: str) -> str | None:
    """What "that <noun>" becomes when its noun alone decides, or None."""
    noun = (ref.noun or "").lower()
    said = conversation_text(context)
    if noun == "part" and (part := faulty_part(said)):
        return f"the {part}"
    changed = amount_change(noun, context)  # "that increase": of what the chat said was raised
    if changed:
        return changed
    if re.search(rf"\b{re.escape(noun)}\b", said, re.IGNORECASE):
        return None  # "that language" after "harsh language": that language, not a member of the class
    member = class_member(noun, context, query)  # "that city": "Tallinn"
    return member_text(ref.text, noun, member) if member else None
