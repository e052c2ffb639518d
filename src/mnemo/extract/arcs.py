"""Dependency arcs where they beat the word rules: clause extent, who the subject is, name phrases.

The rule engine reads flat token lists; on the spaCy path (EN/FR/ES) each ``Tok`` also carries its
arc (``i``, ``head``, ``dep``). The functions here answer the few questions arcs answer better than
word lists, and every one of them answers "don't know" (``None``/``False``) when there is no parse
or the parse fails a sanity check, so the rules stay the fallback and the only path for DE/IT and
the core install. Measured on the dev sets in ``benchmarks.extract`` (see the README "Facts" part).
"""

from __future__ import annotations

from collections.abc import Sequence

from mnemo.extract.lexicon import Lexicon
from mnemo.extract.tokens import Tok

_SUBJECT = frozenset({"nsubj", "nsubjpass", "nsubj:pass"})
#: An auxiliary or copula hangs off its main verb/predicate; the subject is attached there.
_AUXILIARY = frozenset({"aux", "auxpass", "aux:pass", "cop"})
#: Labels that make a token part of a proper name rather than a description of it ("New York").
_NAME_PARTS = frozenset({"compound", "flat", "flat:name"})


def parsed(toks: Sequence[Tok]) -> bool:
    """Do these tokens carry a dependency parse (the spaCy path)?"""
    return any(t.dep for t in toks)


def subtree_end(toks: Sequence[Tok], k: int) -> int | None:
    """Index just past the subordinate clause that the marker ``toks[k]`` opens ("when I was a kid").

    The clause is the subtree of the marker's head. Sanity checks: the subtree must be one
    contiguous run starting at the marker and must stop before the sentence does (a main clause
    follows); otherwise None and the caller keeps its word rules.
    """
    marker = toks[k]
    if not marker.dep or marker.head == marker.i:
        return None
    inside = _subtree(toks, marker.head)
    positions = [p for p, t in enumerate(toks) if t.i in inside]
    if not positions or positions[0] != k or positions[-1] - positions[0] + 1 != len(positions):
        return None
    end = positions[-1] + 1
    rest = [t for t in toks[end:] if t.pos != "PUNCT"]
    return end if rest else None


def _subtree(toks: Sequence[Tok], root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for t in toks:
        if t.head != t.i:
            children.setdefault(t.head, []).append(t.i)
    found = {root}
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def subject_of(toks: Sequence[Tok], position: int) -> Tok | None:
    """The nsubj of the verb at ``position`` (looked up on its main verb when it is an auxiliary)."""
    verb = toks[position]
    if not verb.dep:
        return None
    owners = {verb.i}
    if verb.dep in _AUXILIARY:
        owners.add(verb.head)
    for tok in toks:
        if tok.head in owners and tok.dep in _SUBJECT and tok.i != verb.i:
            return tok
    return None


def stranger_subject(toks: Sequence[Tok], position: int, lex: Lexicon) -> bool:
    """Is the verb's parsed subject a plain noun phrase about someone or something else?

    "The company my brother founded is based in Austin", "El chico que me vendió la moto vive en
    Murcia": the word rules take "my brother founded" or the speaker as the subject; the arcs say
    the subject is "the company"/"el chico", a common noun with an article, which is no one this
    memory tracks (family words and possessed nouns are left to the rules).
    """
    subj = subject_of(toks, position)
    if subj is None or subj.pos != "NOUN":
        return False
    if subj.low in lex.family or subj.low in lex.friend_words or subj.low in lex.name_nouns:
        return False
    modifiers = [t for t in toks if t.head == subj.i and t.i != subj.i]
    if any(t.low in lex.possessive or t.dep == "poss" for t in modifiers):
        return False
    articles = [t for t in modifiers if t.dep == "det" and t.low in lex.determiners]
    return bool(articles) and not any(t.low in lex.possessive for t in articles)


def coordinated_other(group: Sequence[Tok], lex: Lexicon) -> str | None:
    """ "Maria and her husband", "Julie et son mari": a possessed noun coordinated with a subject.

    The word rules read "her"/"son" as a pronoun (pointing back at Maria); the arc ``conj`` says
    it is a second subject, kept in its surface form like any unnamed third party.
    """
    if len(group) != 2 or not group[1].dep:
        return None
    owner, noun = group
    if noun.dep != "conj" or noun.pos != "NOUN" or owner.head != noun.i or owner.dep not in ("poss", "det"):
        return None
    if owner.low in lex.possessive or owner.low in lex.first_person:
        return None  # first person: the rules' "my ..." handling applies
    if owner.pos not in ("PRON", "DET") or owner.low in ("the", "a", "an", "le", "la", "el", "un", "une", "una"):
        return None
    return f"{owner.low} {noun.low}"


def name_part(tok: Tok) -> bool:
    """Is this word part of a proper name ("New" in "New York"), not a description to drop?"""
    return tok.dep in _NAME_PARTS or (bool(tok.dep) and tok.pos == "PROPN")
