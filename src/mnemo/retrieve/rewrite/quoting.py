"""Quoting the chat after a reference: "at the start (For your size I'd start with Zustand)".

The quote is cut to a length a query can carry, and a cut never ends on a word that needs another
after it ("... down for", "by the end of the"): those are dropped back to the last word that can
end a phrase. Pure functions.
"""

from __future__ import annotations

#: Words a phrase cannot end on: determiners, prepositions, conjunctions, auxiliaries.
_DANGLING = frozenset(
    """a an the of for to in on at by with from into onto and or but so than that which who while
    was were is are be been being had has have my our your his her their its this these those as because
    like if when until than such not""".split()
)


def _dangles(word: str) -> bool:
    return word.lower().strip(",;:") in _DANGLING or word.endswith((",", ";", ":"))


def quoted(reference: str, said: str, max_words: int) -> str:
    """ "<reference> (<said, cut>)": at most ``max_words`` words of ``said``, without the sentence's
    own closing mark and, where the cut fell, without a dangling word at the end."""
    whole = said.strip().rstrip(".!?").split()
    words = whole[:max_words]
    while (
        len(words) < len(whole)
        and len(words) > 3
        and (words[-1].lower().strip(",;:") in _DANGLING or words[-1].endswith((",", ";", ":")))
    ):
        words.pop()
    return f"{reference} ({' '.join(words).rstrip(',;:')})"
