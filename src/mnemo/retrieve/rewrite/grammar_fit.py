"""Fitting a replacement to the grammar of the word it replaces, and telling an object "her" from
a possessive one. Split from resolve.py.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.choose import POSSESSIVES
from mnemo.retrieve.rewrite.names import GOING_VERBS
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: A pronoun with its verb ("that's", "we're", "it'll"): a clause opens after an object "her".
_CLAUSE_CLITIC = re.compile(r"(?:that|it|i|we|you|he|she|they|there|what|how|this)'(?:s|re|m|ll|ve|d)")
#: After "her" these words mean "her" is an object ("ask her about"), not a possessive ("her plan").
_OBJECT_FOLLOWERS = set(
    """about to for with from on in at . ? ! , and or again yesterday today tomorrow tonight said if when whether
    because that so but before after back up out now first later instead until till since given though although
    unless while once than as too anyway either here there under over below above around within without by
    into onto through during of forward away home aside down off""".split()
    # A possessive is itself a determiner, so another determiner after "her" makes it an object
    # ("visited her the week after", "sent her a card", "told her my plan").
    + "the a an this these those my your our their his some any no".split()
    # a question word opens the clause she is asked ("ask her how much", "tell her what time")
    + "how what which who where why whom whose".split()
)


_PLACE_PREPOSITION = re.compile(r"\b(?:near|to|from|around|at|in|by|outside|inside|over|past|towards)\s+$", re.I)


#: A preposition that governs the replaced words: a date after it needs no "on" of its own.
_PREPOSITION_BEFORE = re.compile(r"\b(?:for|by|until|till|before|after|since|from|around|about|during|of)\s*$", re.I)


def fitted(query: str, ref: Reference, text: str) -> str:
    """Fit the replacement to the grammar of the word it replaces (possessive, place, capital)."""
    low = ref.text.lower()
    if low in POSSESSIVES or (low == "her" and is_possessive_her(query, ref.end)) or low.endswith("'s"):
        if low == "their" and text.endswith("s") and not text.endswith("'s"):
            text = f"{text}'"  # "their first vaccinations" -> "the kittens' first vaccinations"
        else:
            text = text if text.endswith("'s") else f"{text}'s"
    elif ref.kind == "place" and not _PLACE_PREPOSITION.search(query[: ref.start]):
        # "driving there" goes to London; "live there" is in London; "near there" has its own preposition
        text = f"{'to' if _GOING.search(query[: ref.start]) else 'in'} {text}"
    doubled = cached_re.match(r"(on|in|at|during|by|since|until|till|from|for)\s+", text, re.IGNORECASE)
    before = query[: ref.start]
    if doubled and cached_re.search(rf"\b{doubled.group(1)}\s*$", before, re.IGNORECASE):
        text = text[doubled.end() :]  # "on that date" -> "on March 3rd", not "on on March 3rd"
    elif doubled and doubled.group(1).lower() in ("on", "in", "at") and _PREPOSITION_BEFORE.search(before):
        text = text[doubled.end() :]  # "book one for that date" -> "for July 1", not "for on July 1"
    if ref.start == 0 and ref.text[:1].isupper() and text[:1].islower():
        text = text[0].upper() + text[1:]  # "It broke" -> "The kettle broke"; "it broke" stays lower case
    elif ref.start > 0 and text.startswith(("The ", "My ", "Your ")):
        text = text[0].lower() + text[1:]
    return text


#: Verbs of going, whose "there" is a destination.
_GOING = re.compile(rf"\b(?:{'|'.join(sorted(GOING_VERBS))})\s+$", re.IGNORECASE)

#: Words that open a new clause between two pronouns: past them, binding no longer applies.
_CLAUSE_BREAK = re.compile(r"[,;:]|\b(?:when|while|if|because|that|and|but|before|after|since|until|so|who|which)\b")


def clause_mate(query: str, ref: Reference, earlier_end: int) -> bool:
    """Whether an object pronoun shares its clause with the earlier pronoun of its gender: a plain
    object pronoun cannot then be that person (binding), so "is he taller than him" means two
    people; a possessive or reflexive ("did she pay her share", "he hurt himself") is the same one."""
    low = ref.text.lower()
    if low not in ("him", "her") or (low == "her" and is_possessive_her(query, ref.end)):
        return False
    return not _CLAUSE_BREAK.search(query[earlier_end : ref.start])


#: Words that follow an object "her" as adverbs ("call her first") and a possessive as adjectives.
_ORDINAL_ADJECTIVES = frozenset({"first", "last", "next"})
_TIME_NOUNS = frozenset(
    "thing time day night week weekend month year morning evening afternoon monday tuesday wednesday thursday friday"
    " saturday sunday".split()
)


#: Verbs whose object a bare verb follows: "make her throw up", "let her sleep in", "help her settle".
_CAUSATIVE = re.compile(r"\b(?:make|makes|made|making|let|lets|letting|help|helps|helped|watch|watched|hear|heard)\s*$")


#: Verbs of having something done: "get her spayed", "had her checked", "keep her warmed up".
_HAVE_DONE = re.compile(r"\b(?:get|gets|got|getting|have|has|had|having|want|wants|need|needs)\s*$")


#: A preposition just before "her": what follows is its object, a possessive phrase.
_GOVERNED = re.compile(r"\b(?:on|at|in|during|after|before|until|since|by|for|from|of)\s*$")


#: Verbs of sending word to someone: "email her asking ...", "text her saying ...".
_MESSAGING = re.compile(r"\b(?:email|e-mail|text|message|call|ring|phone|ping|write\s+to|dm|slack)\s*$")


def is_possessive_her(query: str, end: int) -> bool:
    words = [w.strip(".?!,").replace("’", "'") for w in query[end:].lower().split()]
    if not words or not words[0][:1].isalpha():
        return False
    if _CLAUSE_CLITIC.fullmatch(words[0]):
        return False  # "tell her that's fine", "ask her if it's ok": a clause of its own follows
    if _CAUSATIVE.search(query[: max(0, end - 3)].lower()):
        return False  # "make her throw up", "let her sleep": an object, then a bare verb
    if words[0].endswith("ed") and _HAVE_DONE.search(query[: max(0, end - 3)].lower()):
        return False  # "get her vaccinated", "have her checked": an object, then what is done to her
    if words[0].endswith("ing") and _MESSAGING.search(query[: max(0, end - 3)].lower()):
        return False  # "email her asking for an extension": the one written to, then what the message does
    if words[0] in _ORDINAL_ADJECTIVES:
        # "at her first checkup": an ordinal, then a noun; "call her first", "saw her last week": an adverb
        after = words[1] if len(words) > 1 else ""
        if after[:1].isalpha() and _GOVERNED.search(query[: max(0, end - 3)].lower()):
            return True  # "on her first day", "for her last birthday": a preposition takes the whole phrase
        return after[:1].isalpha() and after not in STOPWORDS and after.removesuffix("s") not in _TIME_NOUNS
    return words[0] not in _OBJECT_FOLLOWERS
