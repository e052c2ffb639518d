"""What goes back is what was lent: "return it to her" after "my friend Aiko lent me her sewing
machine" is the sewing machine, though "a tote bag" was named after it.

Giving back presupposes a loan, and the chat states the loan with a verb of lending; of the things
the chat named, those in the latest sentence with such a verb are the ones a returning verb means.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.wordfind import sentences

#: Giving back: "return it", "give it back", "bring that back", "send them back".
_RETURNED = re.compile(
    r"\breturn(?:ing)?\s+(?:it|that|this|them)\b|\b(?:give|bring|send|hand|take|drop)\s+(?:it|that|this|them)\s+back\b",
    re.IGNORECASE,
)
_SHOP_RETURN = re.compile(r"\b(?:receipt|refund|shop|store|amazon|online|exchange|warranty)\b", re.IGNORECASE)
_LENT = re.compile(r"\b(?:lent|lend|lends|loaned|borrowed|borrow|borrowing|lending)\b", re.IGNORECASE)


def lent_sentence(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest sentence of the chat that states a loan, when the query gives something back."""
    if not _RETURNED.search(query) or _SHOP_RETURN.search(query):
        return None  # "return it with the receipt": a purchase goes back to a shop, no loan
    for message in reversed(list(context)):
        for sentence in reversed(sentences(str(message.get("content") or ""))):
            if _LENT.search(sentence):
                return sentence
    return None
