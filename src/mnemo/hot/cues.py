"""Words a question uses for a relation without naming it ("which *company* employs Ingrid?").

A fact's own words (subject, relation, object) rarely include how people ask about it, so each
relation carries the common question words for it; they count in the query-coverage part of the
lexical score (see score.py) but not in the fact-side overlap. English only for now: in other
languages a fact still matches on its own words.
"""

from __future__ import annotations

from mnemo.hot.terms import words

_CUES: dict[str, str] = {
    "lives_in": "live living home based reside resides city town stay staying address located there",
    "works_at": "work working job employer employs employed company firm office boss career",
    "born_in": "born birth birthplace native originally from",
    "moved_from": "moved move came originally from",
    "went_to": "went go visited trip travel traveled",
    "participated_in": "took part participated joined attended",
    "friend_of": "friend friends buddy pal",
    "name": "name named called",
    "age": "age old years",
    "has": "have got own pet pets",
    "owns": "have got own pet pets",
    "is": "who kind",
}
#: every favorite_<thing> relation: how one asks about a preference
_FAVORITE = "favorite favourite like best love prefer preferred"
#: spellings a question may use for a favorite's thing
_SPELLINGS = {"color": "colour", "colour": "color"}


def relation_cues(relation: str) -> frozenset[str]:
    """Stemmed question words for ``relation`` (empty for relations without a cue list)."""
    if relation.startswith("favorite_"):
        thing = relation[len("favorite_") :].replace("_", " ")
        extra = " ".join(_SPELLINGS.get(w, "") for w in thing.split())
        return frozenset(words(f"{_FAVORITE} {thing} {extra}"))
    return frozenset(words(_CUES.get(relation, "")))
