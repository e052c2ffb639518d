"""One user turn → facts and intent: clean, detect the language, parse, run the clause rules."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mnemo.extract.clauses import Segment, is_name, segments
from mnemo.extract.coref import PERSON, Mentions
from mnemo.extract.hedging import confidence, irrealis, is_question, opens_question, strip_correction, strip_hedges
from mnemo.extract.intent import QUALIFIERS, Intent, classify
from mnemo.extract.langs import LEXICONS
from mnemo.extract.language import detect
from mnemo.extract.lexicon import Lexicon
from mnemo.extract.phrases import entity, is_time_word
from mnemo.extract.tokens import Tok, sentences
from mnemo.extract.triples import ClauseResult, Triple, clause, is_negated, triggers, verb_forms
from mnemo.records import Fact

#: Characters of a turn that are parsed; a 50k-character paste is not a chat turn about oneself,
#: and parsing all of it would blow the per-turn budget. The beginning is where turns state facts.
MAX_PARSE_CHARS = 2000
_CODE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"https?://\S+|www\.\S+")
_SPACES = re.compile(r"[ \t]+")


@dataclass(frozen=True, slots=True)
class Analysis:
    facts: tuple[Fact, ...]
    intent: Intent
    lang: str | None

    def as_dict(self) -> dict[str, object]:
        return {"lang": self.lang, "intent": self.intent.value, "facts": [f.as_dict() for f in self.facts]}


@dataclass(slots=True)
class _Found:
    triple: Triple
    negated: bool
    hedged: bool
    correction: bool


@dataclass(slots=True)
class Extractor:
    """Extraction with memory of the conversation so far (for he/she/it across turns)."""

    mentions: Mentions = field(default_factory=Mentions)

    def analyse(self, text: str, lang: str | None = None) -> Analysis:
        body = clean(text)
        code = lang.lower()[:2] if lang else detect(body)
        lex = LEXICONS.get(code) if code else None
        if lex is None or not body:
            return Analysis((), Intent.REACTION if "?" not in body else Intent.PURE_QUESTION, code)
        found: list[_Found] = []
        question_seen = False
        for toks in sentences(body, lex.code):
            question, facts = _sentence(toks, lex, self.mentions)
            question_seen = question_seen or question
            found += facts
        self.mentions.end_turn()
        facts = _to_facts(found, lex.code)
        correction = any(f.correction for f in facts)
        intent = classify(body, lex, [f.relation for f in facts], question_seen, correction)
        return Analysis(tuple(facts), intent, code)

    def extract(self, text: str, lang: str | None = None) -> list[Fact]:
        return list(self.analyse(text, lang).facts)

    def observe(self, turns: Iterable[str], lang: str | None = None) -> None:
        """Read earlier turns for their entities only (pronouns in the next turn may point at them)."""
        for turn in turns:
            self.analyse(turn, lang)


def extract(text: str, lang: str | None = None, context: Sequence[str] = ()) -> list[Fact]:
    """Facts stated in one user turn; ``context`` holds earlier turns for pronoun resolution."""
    extractor = Extractor()
    extractor.observe(context, lang)
    return extractor.extract(text, lang)


def clean(text: str) -> str:
    if not isinstance(text, str):
        return ""
    text = _CODE_BLOCK.sub(" ", text[: MAX_PARSE_CHARS * 4])
    text = _URL.sub(" ", _INLINE_CODE.sub(" ", text))
    return _SPACES.sub(" ", text).strip()[:MAX_PARSE_CHARS]


def _sentence(toks: list[Tok], lex: Lexicon, mentions: Mentions) -> tuple[bool, list[_Found]]:
    toks, corrected = strip_correction(toks, lex)
    toks, hedged = strip_hedges(toks, lex)
    question = is_question(toks, lex)
    segs = _merge_subjects(segments(toks, lex), lex)
    if question:
        segs = _statements(segs, lex)
    found: list[_Found] = []
    previous: ClauseResult | None = None
    for index, seg in enumerate(segs):
        if seg.sep == "colon":
            previous = None  # "three cats: Luna, Sol and Nube": names follow, not more objects
        if seg.sep == "skip" or irrealis(seg.toks, lex):
            previous = None
            continue
        seg = _without_greeting(seg, lex)
        if not seg.toks:
            continue
        result = clause(seg, lex, mentions, previous)
        if result is None:
            follows = index + 1 < len(segs) and segs[index + 1].sep == "coord"
            fragment = _fragment(seg, lex, previous, follows)
            if fragment:
                corrected = corrected or (fragment[0].negated and any(not f.negated for f in found))
                found += fragment
            continue
        change = any(t.low in lex.change_markers for t in seg.toks)
        for triple in result.facts:
            negated = result.negated and triple[1] not in QUALIFIERS
            if result.negated and triple[1] in QUALIFIERS:
                continue
            found.append(_Found(triple, negated, hedged, corrected or change))
        previous = result if result.facts else previous
    if corrected:
        for item in found:
            item.correction = True
    found += [_Found(t, False, hedged, False) for t in _friends_named(toks, lex) if t not in {f.triple for f in found}]
    _remember_names(toks, lex, mentions)
    return question, found


def _friends_named(toks: list[Tok], lex: Lexicon) -> list[Triple]:
    """ "... with my friend Carlos": a named friend of the speaker wherever the phrase stands."""
    found: list[Triple] = []
    for k in range(len(toks) - 2):
        if toks[k].low in lex.possessive and toks[k + 1].low in lex.friend_words:
            name = toks[k + 2] if toks[k + 2].low not in lex.function else None
            if name is not None and name.cap and not is_negated(toks[:k], lex):
                found.append(("you", "friend_of", name.low))
    return found


def _remember_names(toks: list[Tok], lex: Lexicon, mentions: Mentions) -> None:
    """Names the rules did not use ("I met John yesterday") still count as mentions for pronouns."""
    known = {name for name, _ in mentions.turn}
    for k, tok in enumerate(toks):
        if k > 0 and toks[k - 1].low in lex.determiners:
            continue
        if is_name(tok, lex) and tok.low not in known and not (tok.first and not tok.pos):
            mentions.add(tok.low, PERSON)


def _merge_subjects(segs: list[Segment], lex: Lexicon) -> list[Segment]:
    """A leading subject fragment joins its clause: 'John and Mary live in Paris' (coordinated
    subjects) and 'Mike, my neighbor, works for the city' (an apposition, left out)."""
    if len(segs) < 2 or len(segs[0].toks) > 4 or triggers(segs[0].toks, lex):
        return segs
    if segs[1].sep == "coord":
        joiner = Tok("and", sorted(lex.coordinators)[0], "", "CCONJ", "", False)
        return [Segment([*segs[0].toks, joiner, *segs[1].toks], segs[0].sep), *segs[2:]]
    for j in range(1, min(len(segs), 4)):
        if segs[j].sep != "comma":
            break
        found = triggers(segs[j].toks, lex)
        if found:
            if min(p for p, _ in found) == 0 and j > 1:  # the verb opens the clause: its subject came before
                return [Segment([*segs[0].toks, *segs[j].toks], segs[0].sep), *segs[j + 1 :]]
            break
    return segs


def _statements(segs: list[Segment], lex: Lexicon) -> list[Segment]:
    """In a question, only the clauses before the asking one state anything."""
    kept: list[Segment] = []
    for seg in segs[:-1]:
        if opens_question(seg.toks, lex):
            break
        kept.append(seg)
    return kept


def _fragment(seg: Segment, lex: Lexicon, previous: ClauseResult | None, list_follows: bool) -> list[_Found]:
    """'... and a cat', '..., not Google': another object for the previous clause's relation."""
    if previous is None or not previous.facts or not previous.relation or seg.sep not in ("coord", "comma"):
        return []
    negated = is_negated(seg.toks, lex)
    if seg.sep == "comma" and not negated and not list_follows:
        return []
    toks = [t for t in seg.toks if t.low not in lex.negations]
    preps = {p for rule in lex.verbs if rule.relation == previous.relation for p in rule.preps}
    while toks and toks[0].low in preps:  # "..., sondern in Potsdam", "..., not at Google"
        toks = toks[1:]
    if not toks or not _nounish(toks[0], lex) or previous.relation in ("age", "is"):
        return []
    obj, _, count = entity(toks, 0, lex, verb_forms(lex))
    if not obj or is_time_word(obj, lex):
        return []
    found = [_Found((s, previous.relation, obj), negated, False, False) for s in previous.subjects]
    if count and not negated:
        found.append(_Found((obj, "quantity", str(count)), False, False, False))
    return found


_GREETINGS = frozenset("hi hello hey hola buenas salut bonjour coucou hallo moin servus ciao salve".split())


def _without_greeting(seg: Segment, lex: Lexicon) -> Segment:
    toks = seg.toks
    while toks and (toks[0].low in _GREETINGS or toks[0].text in "!¡"):
        toks = toks[1:]
    return Segment(toks, seg.sep) if len(toks) != len(seg.toks) else seg


def _nounish(tok: Tok, lex: Lexicon) -> bool:
    """Does a fragment start like a noun phrase ("a cat", "Google", "two dogs"), not a verb phrase?"""
    if tok.low in lex.determiners or tok.low in lex.possessive or tok.low in lex.numbers or tok.low.isdigit():
        return True
    if tok.pos:
        return tok.pos in ("NOUN", "PROPN")
    return tok.cap


def _to_facts(found: list[_Found], lang: str) -> list[Fact]:
    facts: list[Fact] = []
    seen: set[tuple[Triple, bool]] = set()
    for item in found:
        subject, relation, obj = (part.strip(" .,!?;:'\"") for part in item.triple)
        key = ((subject, relation, obj), item.negated)
        if not subject or not obj or subject == obj or key in seen:
            continue
        seen.add(key)
        facts.append(
            Fact(
                subject=subject,
                relation=relation,
                object=obj,
                confidence=confidence(item.hedged, item.negated, item.correction),
                negated=item.negated,
                hedged=item.hedged,
                lang=lang,
                correction=item.correction and not item.negated,
            )
        )
    return facts
