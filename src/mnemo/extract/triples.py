"""Clause → triples: find the verb, map verb + preposition to the taxonomy, read the object.

One rule engine for all five languages over tokens (``tokens.Tok``). Where spaCy is used, its
lemmas, tags and morphology sharpen the same rules; without it they run on surface forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mnemo.extract.arcs import stranger_subject
from mnemo.extract.clauses import Segment, Subject, subject
from mnemo.extract.copula import copula_facts, have_facts
from mnemo.extract.coref import PERSON, THING, Mentions
from mnemo.extract.lexicon import Lexicon, VerbRule
from mnemo.extract.phrases import Triple, attachments, entity, find_phrase, is_time_word, skip_aux, skip_pronouns
from mnemo.extract.tokens import Tok

#: Relations whose object is a place, an organisation or an event (pronoun "it" can point at them).
_PLACE_RELATIONS = frozenset({"lives_in", "works_at", "born_in", "moved_from", "went_to", "participated_in"})
#: Relations that take time/duration attachments ("I've worked at Shopify for five years").
_ATTACHING = _PLACE_RELATIONS | {"has", "owns"}


@dataclass(slots=True)
class ClauseResult:
    facts: list[Triple] = field(default_factory=list)
    negated: bool = False
    subjects: list[str] = field(default_factory=list)
    relation: str | None = None


def verb_forms(lex: Lexicon) -> frozenset[str]:
    """Exact verb forms (no prefixes) that end an entity."""
    forms = {f for rule in lex.verbs for f in rule.forms if not f.endswith("*")}
    return frozenset(forms | set(lex.copulas) | set(lex.have) | set(lex.called))


def is_negated(toks: Sequence[Tok], lex: Lexicon) -> bool:
    return any(t.low in lex.negations for t in toks) or find_phrase(toks, lex.negation_phrases) is not None


def clause(seg: Segment, lex: Lexicon, mentions: Mentions, previous: ClauseResult | None) -> ClauseResult | None:
    """Facts of one clause, or None when it has no verb this engine knows (a fragment)."""
    toks = seg.toks
    forms = verb_forms(lex)
    candidates = triggers(toks, lex)
    if not candidates:
        return None
    negated = is_negated(toks, lex)
    facts: list[Triple] = []
    derived: list[Triple] = []
    subjects: list[str] = []
    for position, rules in candidates:
        if _future(toks[position], lex):
            return ClauseResult([], negated, [], None)  # "viviré en Roma": a plan
        if facts and not rules:
            break  # a specific verb said it; have/be would only repeat or misread it
        if not rules and _before_specific(candidates, position):
            continue  # an auxiliary ("I have worked", "ich habe gearbeitet"), not possession
        if rules and stranger_subject(toks, position, lex):
            continue  # the parse names a subject the speaker does not track ("the company ... is based in")
        subj = _subject_for(toks, position, lex, mentions, previous)
        derived += [t for t in subj.derived if t not in derived]
        if subj.second_person or not subj.names:
            continue
        found = [t for t in _facts_for(toks, position, rules, subj, lex, forms, mentions) if t not in facts]
        if facts:  # a second verb in the clause: its own facts, but the time/duration were the first's
            found = [t for t in found if t[1] not in ("time", "duration")]
        if found:
            subjects = subjects or subj.names
            facts += found
    facts += [t for t in derived if t not in facts]
    if facts:
        return ClauseResult(facts, negated, subjects or [facts[0][0]], facts[0][1])
    return ClauseResult([], negated, previous.subjects if previous else [], None)


def _infinitive(tok: Tok, obj: str, lex: Lexicon) -> bool:
    """ "voy a vivir": a verb where an entity should be (Spanish/Italian/French infinitives)."""
    if tok.pos or tok.cap:  # tagged, the tag decides ("un bar" is a noun)
        return tok.pos == "VERB"
    endings = {"es": ("ar", "er", "ir"), "it": ("are", "ere", "ire"), "fr": ("er", "ir", "re")}.get(lex.code)
    return bool(endings) and " " not in obj and obj.endswith(endings)


def _future(tok: Tok, lex: Lexicon) -> bool:
    return len(tok.low) > 5 and tok.low.endswith(lex.future_endings) if lex.future_endings else False


def _before_specific(candidates: list[tuple[int, list[VerbRule]]], position: int) -> bool:
    return any(rules and pos > position for pos, rules in candidates)


def triggers(toks: Sequence[Tok], lex: Lexicon) -> list[tuple[int, list[VerbRule]]]:
    """Verb positions in order: (index, matching verb rules); [] marks a have/be verb."""
    found: list[tuple[int, list[VerbRule]]] = []
    for i, tok in enumerate(toks):
        after_determiner = i > 0 and toks[i - 1].low in lex.determiners and tok.pos in ("NOUN", "PROPN", "")
        rules = [
            rule
            for rule in lex.verbs
            if rule.matches(tok.low, tok.lemma) and (rule.noun or not after_determiner) and _usable(toks, i, rule, lex)
        ]
        if rules and tok.pos not in ("ADP", "DET", "PRON"):
            found.append((i, rules))
        if _is_copula_or_have(tok, lex) and not after_determiner:
            found.append((i, []))
    # specific verbs first, in order; then have/be
    return [c for c in found if c[1]] + [c for c in found if not c[1]]


def _is_copula_or_have(tok: Tok, lex: Lexicon) -> bool:
    if tok.pos == "PART":  # English possessive 's
        return False
    return tok.low in lex.copulas or tok.low in lex.have or tok.lemma in (lex.copulas[0], lex.have[0])


def _usable(toks: Sequence[Tok], i: int, rule: VerbRule, lex: Lexicon) -> bool:
    """English "a dog named Max": the participle names the noun before it, not the speaker."""
    if rule.relation != "name" or toks[i].low not in ("named", "called") or i == 0:
        return True
    prev = toks[i - 1]
    return prev.low in lex.copulas or prev.low in lex.first_object or prev.pos in ("AUX", "PRON")


def _subject_for(
    toks: Sequence[Tok], position: int, lex: Lexicon, mentions: Mentions, previous: ClauseResult | None
) -> Subject:
    region = _subject_region(toks[:position], lex, mentions)
    subj = subject(region, lex, mentions)
    subj.end = len(region)
    pronoun = len(region) == 1 and region[0].low in (lex.he | lex.she)
    if pronoun and previous is not None and previous.subjects and previous.subjects[0] != "you":
        subj.names = list(previous.subjects)  # "My wife is Sophie and she works at ...": the wife
        return subj
    if subj.names or subj.second_person:
        return subj
    after = toks[position + 1] if position + 1 < len(toks) else None
    if after is not None and (after.low in lex.first_person):  # "Seit 2019 wohne ich in Berlin"
        subj.names = ["you"]
        return subj
    if any(_names_someone(t, lex) for t in region):
        return subj  # a subject was said but cannot be resolved ("her name is Luna"): no guessing
    person = _person(toks, position, lex)
    if person == "1":
        subj.names = ["you"]
    elif previous is not None and previous.subjects and (person != "3" or previous.subjects != ["you"]):
        subj.names = list(previous.subjects)
    elif person == "3":
        name = mentions.resolve("he")
        subj.names = [name] if name else []
    return subj


def _starts_subject(tok: Tok, lex: Lexicon) -> bool:
    """A token that opens a new subject after a verb ("said he ...", "told me my sister ...")."""
    words = lex.first_person | lex.he | lex.she | lex.they | lex.possessive
    return tok.low in words or tok.pos == "PROPN"


def _names_someone(tok: Tok, lex: Lexicon) -> bool:
    words = lex.possessive | lex.he | lex.she | lex.they | lex.it | lex.name_nouns
    return tok.low in words or tok.pos == "PROPN"


def _subject_region(before: Sequence[Tok], lex: Lexicon, mentions: Mentions) -> list[Tok]:
    region: list[Tok] = []
    for k, tok in enumerate(before):
        clause_verb = tok.pos == "VERB" and k + 1 < len(before) and _starts_subject(before[k + 1], lex)
        if tok.pos == "SCONJ" or clause_verb or tok.low in ("que", "that", "dass", "che"):
            # "Hace dos años que vivo ...", "My boss said he lives ...": the subject follows
            if region and tok.pos == "VERB":
                subject(region, lex, mentions)  # still a mention a pronoun may point at
            region = []
            continue
        if tok.pos == "PART" and tok.low == "'s":  # possessive: "my wife's name"
            region.append(tok)
            continue
        if tok.low in lex.copulas or tok.low in lex.have or tok.low in lex.negations or tok.pos == "AUX":
            break
        if tok.pos == "ADP" or (not tok.pos and tok.low in lex.function and tok.low not in _SUBJECT_WORDS(lex)):
            if region:
                break
            continue
        region.append(tok)
    return region


def _SUBJECT_WORDS(lex: Lexicon) -> frozenset[str]:
    return lex.first_person | lex.first_object | lex.he | lex.she | lex.they | lex.it | lex.coordinators


def _person(toks: Sequence[Tok], position: int, lex: Lexicon) -> str:
    """Grammatical person of the clause's verb: morphology, else Spanish/Italian endings."""
    if toks[position].person:
        return toks[position].person
    for tok in toks[:position]:
        if tok.person and tok.pos == "AUX":  # "he trabajado", "j'ai travaillé"
            return tok.person
    if lex.code not in ("es", "it"):
        return ""
    verb = toks[position].low
    aux = next((t.low for t in toks[:position] if t.low in ("he", "ho", "sono", "soy", "estoy")), None)
    if aux:
        return "1"
    if verb.endswith(("mos", "iamo", "é", "í", "oy")):
        return "1"
    if verb.endswith("o") and not verb.endswith(("ó", "ado", "ido")):
        return "1"  # "abito", "lavoro" (a participle "trasferito" comes with its auxiliary, seen above)
    return "3"


def _facts_for(
    toks: Sequence[Tok],
    position: int,
    rules: list[VerbRule],
    subj: Subject,
    lex: Lexicon,
    forms: frozenset[str],
    mentions: Mentions,
) -> list[Triple]:
    if subj.relation and not rules:
        obj, _, _ = entity(toks, skip_pronouns(toks, position + 1, lex), lex, forms)
        return [(s, subj.relation, obj) for s in subj.names] if obj else []
    if rules:
        return _verb_facts(toks, position, rules, subj, lex, forms, mentions)
    if toks[position].low in lex.have or toks[position].lemma == lex.have[0]:
        return have_facts(toks, position, subj, lex, forms, mentions)
    return copula_facts(toks, position, subj, lex, forms)


def _verb_facts(
    toks: Sequence[Tok],
    position: int,
    rules: list[VerbRule],
    subj: Subject,
    lex: Lexicon,
    forms: frozenset[str],
    mentions: Mentions,
) -> list[Triple]:
    facts: list[Triple] = []
    for rule in rules:
        obj, count = _object(toks, position, rule, subj.end, lex, forms)
        if not obj or (rule.relation != "name" and obj in lex.family):
            continue
        facts += [(s, rule.relation, obj) for s in subj.names]
        mentions.add(obj, PERSON if rule.relation == "name" else THING)
        if count:
            facts.append((obj, "quantity", str(count)))
    if facts and facts[0][1] in _ATTACHING:
        facts += attachments(toks, facts[0][2], lex)
    return facts


def _object(
    toks: Sequence[Tok], position: int, rule: VerbRule, subject_end: int, lex: Lexicon, forms: frozenset[str]
) -> tuple[str, int | None]:
    if not rule.preps:
        obj, _, count = entity(toks, skip_pronouns(toks, position + 1, lex), lex, forms)
        if not obj and position == len(toks) - 1:  # verb-final: "Ich habe Berlin besucht"
            start = skip_aux(toks, subject_end, lex)
            obj, _, count = entity(toks, start, lex, forms)
        return obj, count
    after = toks[position + 1] if position + 1 < len(toks) else None
    noun_object = after is not None and after.pos == "NOUN" and rule.relation in ("lives_in", "moved_from", "works_at")
    own_object = noun_object or (after is not None and (after.low in lex.determiners or after.low in lex.possessive))
    if own_object and not rule.noun:
        return "", None  # the verb has its own object: "moving my stuff into the flat" is not moving house
    year: tuple[str, int | None] = ("", None)
    for k in range(subject_end, len(toks)):
        if k == position or toks[k].low not in rule.preps:
            continue
        obj, _, count = entity(toks, k + 1, lex, forms)
        if not obj or (k + 1 < len(toks) and _infinitive(toks[k + 1], obj, lex)):
            continue  # "voy a vivir": a plan, not a place
        if rule.relation == "born_in" and is_time_word(obj, lex):
            year = year if year[0] else (obj, count)  # "born in 1990 in Córdoba": the place wins
            continue
        if not is_time_word(obj, lex) and obj not in lex.first_person:
            return obj, count
    return year
