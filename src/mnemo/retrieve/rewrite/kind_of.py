"""'That kind of routine', 'this sort of thing': one demonstrative reference, to the thing itself.

"how long does that kind of routine take to work" after "a consistent routine helps" asks about
the routine the chat described; read word by word, "that kind" would be resolved on its own and
the rewrite would say "the consistent routine kind of routine".
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.reference import Reference
from mnemo.store.sql import STOPWORDS

from . import cached_re

_KIND_OF = re.compile(r"\s+of\s+([a-z][\w-]*)\b", re.IGNORECASE)


def kind_of_thing(query: str, ref: Reference) -> Reference:
    """ "that kind of routine" as one reference to the routine the chat described, not a "kind"."""
    if ref.kind != "demonstrative" or not cached_re.fullmatch(
        r"(?:that|this|those|these)\s+(?:kind|sort|type)s?", ref.text, re.I
    ):
        return ref
    of = _KIND_OF.match(query, ref.end)
    if of is None or of.group(1).lower() in STOPWORDS:
        return ref
    return Reference(query[ref.start : of.end()], "demonstrative", ref.start, of.end(), noun=of.group(1).lower())
