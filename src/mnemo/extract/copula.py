"""Clauses built on "be" and "have": ages, names, jobs, friendships and possessions.

"I'm 34", "I'm Marta", "John is my friend", "Soy enfermera", "I have two cats", "J'ai 42 ans".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mnemo.extract.clauses import PLURAL_FAMILY, Subject
from mnemo.extract.coref import THING, Mentions
from mnemo.extract.lexicon import Lexicon
from mnemo.extract.phrases import Triple, age_at, attachments, entity, find_phrase, is_time_word, skip_pronouns
from mnemo.extract.tokens import Tok


def have_facts(
    toks: Sequence[Tok], position: int, subj: Subject, lex: Lexicon, forms: frozenset[str], mentions: Mentions
) -> list[Triple]:
    start = skip_pronouns(toks, position + 1, lex)
    age = age_at(toks, start, lex, need_unit=True)
    if age is not None:
        return [(s, "age", str(age)) for s in subj.names]
    # "j'ai grandi", "tengo hambre": avoir/tener without an article is not possession, but a bare
    # plural is ("tengo hijos", "ho figli")
    bare = lex.code in ("es", "fr", "it") and start < len(toks) and not _has_determiner(toks[start], lex)
    if bare and not toks[start].low.endswith({"es": "s", "it": "i"}.get(lex.code, "\0")):
        return []
    obj, _, count = entity(toks, start, lex, forms)
    if not obj or is_time_word(obj, lex) or find_phrase(toks[start:], lex.time_phrases) == (0, 1):
        return []
    if obj in lex.friend_words:
        return []
    mentions.add(obj, THING)
    facts = [(s, "has", obj) for s in subj.names]
    if count:
        facts.append((obj, "quantity", str(count)))
    return facts + attachments(toks, obj, lex)


def _has_determiner(tok: Tok, lex: Lexicon) -> bool:
    return (
        tok.low in lex.determiners
        or tok.low in lex.possessive
        or tok.low in lex.negations
        or tok.low in lex.numbers
        or tok.low.isdigit()
        or tok.pos == "PROPN"
    )


def copula_facts(
    toks: Sequence[Tok], position: int, subj: Subject, lex: Lexicon, forms: frozenset[str]
) -> list[Triple]:
    position = skip_pronouns(toks, position + 1, lex) - 1
    rest = list(toks[position + 1 :])
    if not rest:
        return []
    age = age_at(toks, position + 1, lex, need_unit=False)
    if age is not None:  # "my kids are 8": whose age is 8 is not said
        return [(s, "age", str(age)) for s in subj.names if s.rsplit(" ", 1)[-1] not in PLURAL_FAMILY]
    lows = [t.low for t in rest]
    friend = next((k for k, w in enumerate(lows) if w in lex.friend_words), None)
    if friend is not None:
        return _friend_facts(rest, friend, subj, lex, forms)
    first = rest[0]
    if first.low in lex.function and first.low not in lex.determiners and first.low not in lex.possessive:
        return []
    if subj.names == ["you"] and _looks_like_name(rest, lex):  # "I'm Marta", "Sono Giorgia"
        obj, _, _ = entity(rest, 0, lex, forms)
        return [("you", "name", obj)] if obj else []
    nounish = (
        first.low in lex.determiners
        or first.low in lex.possessive
        or first.pos in ("NOUN", "PROPN")
        or (lex.code == "de" and first.cap and not first.first)
        # the Spanish model tags many predicate nouns as verbs ("Soy profesora")
        or (lex.code == "es" and first.pos == "VERB" and not first.low.endswith(_ES_VERB_ENDINGS))
        # a job noun without article ("ingénieur", "ingegnere"), whatever the tagger says
        or (bool(lex.profession_endings) and first.low.endswith(lex.profession_endings) and len(first.low) > 4)
    )
    if not nounish:
        return []
    if first.pos in ("VERB", "ADJ"):
        rest[0] = replace(first, pos="NOUN")
    obj, _, _ = entity(rest, 0, lex, forms)
    if not obj or is_time_word(obj, lex):
        return []
    if first.low in lex.possessive:
        obj = f"{first.low} {obj}"
    return [(s, "is", obj) for s in subj.names if s != obj]


_ES_VERB_ENDINGS = ("ar", "er", "ir", "ando", "iendo", "ado", "ido", "ada", "ida")
#: German nouns are capitalised like names; these endings mark a noun ("Lehrerin", "Student").
_DE_NOUN_ENDINGS = ("in", "er", "ent", "ist", "eur", "or", "ant", "arzt", "ling", "ung", "at", "e")


def _looks_like_name(rest: list[Tok], lex: Lexicon) -> bool:
    first = rest[0]
    if not first.cap or first.first or first.low in lex.family or first.low in lex.function:
        return False
    if first.pos:
        return first.pos == "PROPN"
    if lex.code == "de":
        return not first.low.endswith(_DE_NOUN_ENDINGS)
    return True


def _friend_facts(rest: list[Tok], friend: int, subj: Subject, lex: Lexicon, forms: frozenset[str]) -> list[Triple]:
    others = [s for s in subj.names if s != "you"]
    if "you" in subj.names and others:  # "John and I are friends"
        return [("you", "friend_of", o) for o in others]
    if any(t.low in lex.possessive for t in rest[:friend]):  # "John is my (best) friend"
        return [("you", "friend_of", o) for o in others]
    after = friend + 1
    if after < len(rest) and rest[after].low in lex.friend_preps:  # "I'm friends with John"
        obj, _, _ = entity(rest, after + 1, lex, forms)
        if obj:
            return [(s, "friend_of", obj) for s in subj.names]
    return []
