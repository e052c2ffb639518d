"""The last word of a candidate phrase that cannot end a noun phrase.

The phrase rules read noun phrases by their words' shapes, without a tagger, so a phrase sometimes
runs on past its noun into the clause's verb ("the API returns", "my nephew Lukas turns", "the
headache diary helps") or into an adverb ("the pool size also", "the MSA first", "Melanie
yesterday"). Such a tail is never part of what a pronoun points at, and it makes the rewrite read
badly, so it is cut; what is left is the phrase the conversation named.
"""

from __future__ import annotations

import re

#: Adverbs and discourse words that end a clause, never a noun phrase ("the MSA first").
_ADVERB_TAIL = frozenset(
    """first usually also still yesterday today tomorrow tonight right near too though tho again now then
    just already lol pls plz really maybe anyway later soon here there instead either""".split()
)
#: Third-person verbs that are seldom plural nouns: after a noun they are its verb ("Carlos thinks").
_VERB_TAIL = frozenset(
    """thinks says wants needs seems helps knows tells asks goes does has likes loves hates adds complains
    suggests reckons recommends prefers agrees turns gets makes gives feels uses keeps died""".split()
)
#: Third-person verbs that are also plural nouns ("tax returns", "dual writes"): a verb only after
#: a name or an identifier ("Postgres returns", "parse_amount returns").
_NAMED_VERB_TAIL = frozenset("returns runs works plays pays costs scales writes reads".split())
_NAMED = re.compile(r"^(?:[A-Z]|.*[_.()/]|.*[a-z][A-Z])")


def tidy(phrase: str) -> str:
    """``phrase`` without a trailing verb or adverb; "" when nothing of it is left."""
    words = phrase.split()
    while len(words) > 1:
        last = words[-1].lower()
        before = words[-2]
        if last in _ADVERB_TAIL and not (len(words) == 2 and before.lower() in _DETERMINERS):
            words.pop()  # "the pool size also"; "the first" keeps its only word
        elif last in _VERB_TAIL or (last in _NAMED_VERB_TAIL and _NAMED.match(before)):
            words.pop()
        else:
            break
    text = " ".join(words)
    return "" if text.lower() in _DETERMINERS else text


_DETERMINERS = frozenset("the a an my our your his her their this that".split())
