"""Whether a person pronoun of the query takes a person the query itself names.

"my brother passed his driving test", "my 4 year old son still naps, is he too old", "our new
product manager wants hour-long standups, how can I tell him": the query's own relative or role,
owned by "my"/"our", is what its "he", "she" or "his" means. Split from internal.py, which holds
the query's own things.
"""

from __future__ import annotations

from mnemo.retrieve.rewrite.internal import REPORTING
from mnemo.retrieve.rewrite.names import FEMALE_NOUNS, MALE_NOUNS, PERSON_NOUNS, PUNCTUATION, is_pet
from mnemo.store.sql import STOPWORDS


def person_named_before(lowered: list[str], pronoun: str, after: str) -> bool:
    """Whether the query names a relative of the pronoun's gender before a subject or possessive
    pronoun: "my brother passed his driving test", "grandma wants her old slides", "my teenage son
    says his phone is broken", "our dog keeps scratching his ear". An object "him"/"her" ("did my
    dad ever call him back?") is someone else, and a job or a friend ("the vet", "my boss") as
    often is; ``after`` is the word after the pronoun (a noun after "her" makes it possessive)."""
    female = pronoun in ("she", "her", "hers", "herself")
    if pronoun == "him" or (pronoun == "her" and (not after or after in STOPWORDS or not after[:1].isalnum())):
        # an object pronoun is someone else in its own clause ("did my dad ever call him back?"), but
        # may be the relative who opened the query, a clause away ("my grandfather keeps forgetting
        # his pills, is there an app that can remind him")
        other = ("she", "her", "hers") if pronoun == "him" else ("he", "him", "his")
        # "our new neighbour ..., could I ask her to have a chat with him": the neighbour is "her" already
        taken = any(word in other for word in lowered)
        return _opening_relative(lowered, FEMALE_NOUNS if pronoun == "her" else MALE_NOUNS, neutral=not taken)
    # "my landlord wants ..., can he": a word for a person that names no gender stands for either
    fits = (FEMALE_NOUNS if female else MALE_NOUNS) | _NEUTRAL_PEOPLE
    # "my vet says he is underweight": who reports is seldom who the report is about
    reported = bool(lowered) and lowered[-1] in REPORTING
    # "my nephew keeps asking whether he'll have to inject": a reported question's subject may be anyone
    reach = 2 if lowered[-1:] in (["if"], ["whether"]) else _OWN_REACH
    for n, word in enumerate(lowered):
        owned = _owned_person(lowered, n, reach)  # "my (teenage) son", "my 4 year old son", "my best friend's wife"
        if reported and word in _NEUTRAL_PEOPLE:
            continue
        if (word in fits or is_pet(word)) and (owned or n == 0):
            return True
    return False


_OWN = frozenset("my our your".split())
#: How far back "my"/"our" may stand before the person it owns: "my 4 year old son", "our new product
#: manager", "my best friend's wife"; and how many words in a query's opening person may come.
_OWN_REACH = 4
_LEAD_REACH = 3
_OPENING_REACH = 6


def _owned_person(lowered: list[str], n: int, reach: int = _OWN_REACH) -> bool:
    """Whether "my"/"our"/"your" owns the word at ``n`` across its modifiers, with no break between."""
    for back in range(n - 1, max(-1, n - 1 - reach), -1):
        word = lowered[back]
        if word in _OWN:
            return True
        if word in PUNCTUATION or word in STOPWORDS:
            return False
    return False


#: Determiners before a person the query opens with: "my grandfather", "a coworker", "the new intern".
_PERSON_LEADS = _OWN | {"a", "an", "the"}
#: Words for people that name no gender ("my landlord", "the new intern", "my toddler").
_NEUTRAL_PEOPLE = (
    PERSON_NOUNS - FEMALE_NOUNS - MALE_NOUNS - {"lady", "woman", "landlady", "waitress", "man", "guy"}
) | {"toddler", "baby", "kid", "child", "teenager", "teen", "newborn", "infant"}


def _opening_relative(lowered: list[str], gendered: frozenset[str], neutral: bool = True) -> bool:
    """A relative of the gender opening the query ("my grandfather ...", "a coworker keeps ..."),
    then a clause break: a word for a person that names no gender stands for either (``neutral``),
    unless a pronoun of the other gender has taken it."""
    fits = gendered | _NEUTRAL_PEOPLE if neutral else gendered
    opening = next(
        (
            n
            for n in range(1, min(_OPENING_REACH, len(lowered)))
            if (lowered[n] in fits or is_pet(lowered[n])) and _PERSON_LEADS & set(lowered[max(0, n - _LEAD_REACH) : n])
        ),
        None,
    )  # "when my dog sees another dog he barks, how can i train him": the pet the query opens with
    return opening is not None and any(w in PUNCTUATION for w in lowered[opening + 1 :])
