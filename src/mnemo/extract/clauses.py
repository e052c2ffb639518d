"""Split a sentence into clauses at coordinators, commas and subordinators; find subjects in them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mnemo.extract.arcs import coordinated_other, parsed, subtree_end
from mnemo.extract.coref import GROUP, PERSON, Mentions
from mnemo.extract.lexicon import Lexicon
from mnemo.extract.tokens import Tok

_BREAKS = frozenset(",;()—–")
PLURAL_FAMILY = frozenset(
    "parents kids children siblings padres hijos hermanos parents enfants eltern kinder geschwister genitori figli "
    "fratelli sons daughters hijas fils filles söhne töchter figlie".split()
)


@dataclass(slots=True)
class Segment:
    toks: list[Tok]
    sep: str  # "start", "coord", "comma", "sub", "skip"


@dataclass(slots=True)
class Subject:
    """Who a clause is about; ``relation`` is set when the subject phrase itself names it ("my name")."""

    names: list[str] = field(default_factory=list)
    relation: str | None = None
    derived: list[tuple[str, str, str]] = field(default_factory=list)
    end: int = 0  # index just past the subject phrase
    second_person: bool = False


def segments(toks: Sequence[Tok], lex: Lexicon) -> list[Segment]:
    result: list[Segment] = []
    current: list[Tok] = []
    sep = "start"
    ends = _clause_ends(toks, lex)
    for k, tok in enumerate(toks):
        kind = None
        if k in ends and sep == "skip" and current:
            # the parse says the subordinate clause ended here: a main clause starts with this token
            result.append(Segment(current, sep))
            current, sep = [], "comma"
        if lex.code == "de" and tok.low == "als" and k + 1 < len(toks) and toks[k + 1].low in lex.first_person | lex.he:
            kind = "skip"  # "als ich in Paris wohnte": when, not "as"
        if kind is not None:
            pass
        elif tok.text == ":":
            kind = "colon"
        elif tok.low in lex.relatives:
            kind = "skip"  # "a brother who lives in Austin": about the brother, left out
        elif tok.text in _BREAKS:
            kind = "comma"
        elif tok.low in lex.coordinators:
            kind = "coord"
        elif tok.low in lex.subordinators:
            kind = "sub"
        elif kind is None and tok.low in lex.skip_clause and (current or tok.first):
            kind = "skip"
        if kind is None:
            if tok.pos != "PUNCT" or tok.text not in ".!?¿¡…":
                current.append(tok)
            continue
        if current:
            result.append(Segment(current, sep))
        current, sep = [], kind if not (kind == "comma" and sep == "skip" and not current) else "comma"
    if current:
        result.append(Segment(current, sep))
    return result


def _clause_ends(toks: Sequence[Tok], lex: Lexicon) -> set[int]:
    """Where "when/cuando/quand ..." clauses end, from the arcs ("When I was a kid I lived in Ohio")."""
    if not parsed(toks):
        return set()
    ends = (subtree_end(toks, k) for k, t in enumerate(toks) if t.low in lex.skip_clause and t.dep == "mark")
    return {end for end in ends if end is not None}


def subject(region: Sequence[Tok], lex: Lexicon, mentions: Mentions) -> Subject:
    """The subject(s) in the tokens before the verb, with names resolved and pronouns looked up."""
    found = Subject()
    groups: list[list[Tok]] = [[]]
    for tok in region:
        if tok.low in lex.coordinators or tok.text == ",":
            groups.append([])
        else:
            groups[-1].append(tok)
    for group in groups:
        name = _group_subject(group, lex, mentions, found)
        if name:
            found.names.append(name)
    return found


def _group_subject(group: list[Tok], lex: Lexicon, mentions: Mentions, found: Subject) -> str | None:
    lows = [t.low for t in group]
    owner: str | None = None
    for tok in group:
        if tok.low in lex.second_person:
            found.second_person = True
            return None
        if tok.low in lex.first_person or tok.low in lex.first_object:
            owner = "you"
    for k, tok in enumerate(group):
        if tok.low in lex.possessive or (tok.low in lex.determiners and k == 0 and _possessive_follows(group, lex)):
            owner = _possessed(group, k, lex, found, mentions) or owner
            break
    if owner is None and (other := coordinated_other(group, lex)):
        mentions.add(other, PERSON)
        return other
    if owner is None:
        if any(w in lex.name_nouns for w in lows):
            return None  # "her name is Luna": whose name, the pronoun alone cannot tell
        owner = _named(group, lex) or _pronoun(lows, lex, mentions)
        if owner and owner != "you" and owner not in {m for m, _ in mentions.turn}:
            mentions.add(owner, PERSON)
    return owner


def _possessive_follows(group: list[Tok], lex: Lexicon) -> bool:
    return len(group) > 1 and group[1].low in lex.possessive  # Italian "la mia sorella"


def _possessed(group: list[Tok], k: int, lex: Lexicon, found: Subject, mentions: Mentions) -> str | None:
    """'my sister Anna' → anna; 'my brother' → 'my brother'; 'my name' → relation name of you."""
    words = group[k:]
    start = 1 if words[0].low in lex.possessive else 2
    owner_word = words[start - 1].low
    nouns: list[Tok] = []
    for tok in words[start:]:
        if tok.low in ("'s", "s") or tok.low in lex.function:
            break
        nouns.append(tok)
    relation = _relation_noun(nouns, lex)
    if relation:
        found.relation = relation
        return "you"
    if not nouns:
        return "you"
    head: list[Tok] = []
    names: list[Tok] = []
    for tok in nouns:  # "my sister Anna": a capitalised word after the relative is a name
        if head and (is_name(tok, lex) or (tok.cap and not tok.first and head[-1].low in lex.family)):
            names.append(tok)
        elif not names:
            head.append(tok)
    surface = " ".join([owner_word, *(t.low for t in head)])
    if any(t.low in lex.name_nouns for t in group):  # "my sister's name is Anna"
        found.relation = "name"
        return surface
    if names:
        name = " ".join(t.low for t in names)
        if any(t.low in lex.friend_words for t in head):
            found.derived.append(("you", "friend_of", name))
        mentions.add(name, PERSON)
        return name
    mentions.add(surface, GROUP if any(t.low in PLURAL_FAMILY for t in head) else PERSON)
    return surface


def _relation_noun(nouns: list[Tok], lex: Lexicon) -> str | None:
    lows = [t.low for t in nouns]
    if any(w in lex.name_nouns for w in lows) and len(lows) <= 2:
        return "name"
    fav = any(w in lex.favorite for w in lows)
    for w in lows:
        if lex.favorite_prefix and w.startswith(lex.favorite_prefix):
            topic = lex.topics.get(w[len(lex.favorite_prefix) :])
            return f"favorite_{topic}" if topic else None
        if fav and w in lex.topics:
            return f"favorite_{lex.topics[w]}"
    return None


def is_name(tok: Tok, lex: Lexicon) -> bool:
    if tok.low in lex.family or tok.low in lex.function or tok.low in lex.determiners:
        return False
    if tok.pos:
        return tok.pos == "PROPN" or (tok.cap and tok.pos in ("NOUN", "X") and not tok.first)
    return tok.cap


def _named(group: list[Tok], lex: Lexicon) -> str | None:
    names: list[str] = []
    for k, tok in enumerate(group):
        if is_name(tok, lex) and not (k > 0 and group[k - 1].low in lex.determiners):
            names.append(tok.low)
        elif names:
            break
    return " ".join(names) or None


def _pronoun(lows: list[str], lex: Lexicon, mentions: Mentions) -> str | None:
    for word in lows:
        for kind, words in (("he", lex.he), ("she", lex.she), ("they", lex.they), ("it", lex.it)):
            if word in words:
                return mentions.resolve(kind)
    return None
