"""Noun phrases, numbers, times and durations inside a clause: the entity end of a triple."""

from __future__ import annotations

from collections.abc import Sequence

from mnemo.extract.arcs import name_part
from mnemo.extract.lexicon import Lexicon
from mnemo.extract.tokens import Tok

Triple = tuple[str, str, str]

#: Entities longer than this are a parse gone wrong more often than a real name.
MAX_ENTITY_TOKENS = 4
_SINCE = frozenset({"since", "desde", "depuis", "seit", "dal", "dai", "dalla"})
_STOP_POS = frozenset({"VERB", "AUX", "ADP", "ADV", "SCONJ", "CCONJ", "PRON", "PUNCT", "PART", "INTJ", "SYM"})


def number_value(tok: Tok, lex: Lexicon) -> int | None:
    if tok.low.isdigit():
        return int(tok.low)
    return lex.numbers.get(tok.low)


def match_phrase(toks: Sequence[Tok], start: int, options: tuple[tuple[str, ...], ...]) -> int:
    """Length of the first (longest) phrase of ``options`` starting at ``start``, or 0."""
    for phrase in options:
        end = start + len(phrase)
        if end <= len(toks) and all(toks[start + k].low == word for k, word in enumerate(phrase)):
            return len(phrase)
    return 0


def find_phrase(toks: Sequence[Tok], options: tuple[tuple[str, ...], ...]) -> tuple[int, int] | None:
    for start in range(len(toks)):
        length = match_phrase(toks, start, options)
        if length:
            return start, length
    return None


def is_stop(tok: Tok, lex: Lexicon, verb_forms: frozenset[str]) -> bool:
    if tok.pos in _STOP_POS and tok.pos != "PRON" and not (tok.pos == "ADV" and tok.cap):
        return True  # (the French model tags some place names as adverbs: "au Portugal")
    if tok.pos == "PRON" and not tok.cap:
        return True
    if not any(ch.isalnum() for ch in tok.text):
        return True
    return tok.low in lex.function or tok.low in lex.coordinators or tok.low in verb_forms


def entity(toks: Sequence[Tok], start: int, lex: Lexicon, verb_forms: frozenset[str]) -> tuple[str, int, int | None]:
    """The entity starting at ``start`` (determiners and a count skipped): (text, end, count).

    Text is lowercased surface; an empty text means there was none. A count (digits or a number
    word other than one) before the noun is returned apart, so "two cats" gives ("cats", 2).
    """
    i = start
    count: int | None = None
    while i < len(toks) and (
        toks[i].low in lex.determiners or toks[i].low in lex.possessive or toks[i].low in lex.negations
    ):
        i += 1  # "a", "my", and "no"/"keine" (the clause is negated already)
    while (
        i + 1 < len(toks)
        and toks[i].low in lex.fillers
        and not is_stop(toks[i + 1], lex, verb_forms)
        and not name_part(toks[i])  # "New York" is a name, not a new York
    ):
        i += 1  # "a new bike", "une petite maison": the thing, not its description
    if i < len(toks) and (value := number_value(toks[i], lex)) is not None and i + 1 < len(toks):
        nxt = toks[i + 1]
        if not is_stop(nxt, lex, verb_forms):  # "two cats" → cats, 2; "one sister" → sister
            count, i = (value if value != 1 else None), i + 1
    words: list[str] = []
    while i < len(toks) and len(words) < MAX_ENTITY_TOKENS:
        tok = toks[i]
        if tok.text == "-" and words and tok.pos == "PROPN" and i + 1 < len(toks) and toks[i + 1].pos == "PROPN":
            words[-1] += "-" + toks[i + 1].low  # "Clermont-Ferrand", split into three name tokens by spaCy
            i += 2
            continue
        if tok.low in lex.name_links and words and _links(toks, i, lex, verb_forms):
            words.append(tok.low)
            i += 1
            continue
        if words and (tok.low in lex.determiners or tok.low in lex.possessive or number_value(tok, lex) is not None):
            break  # a new phrase begins ("Zara el próximo verano", "Italy three times")
        if is_stop(tok, lex, verb_forms) or tok.low in lex.negations or match_phrase(toks, i, lex.time_phrases):
            break
        words.append(tok.low)
        i += 1
    return join(words), i, count


def _links(toks: Sequence[Tok], i: int, lex: Lexicon, verb_forms: frozenset[str]) -> bool:
    """ "University of Washington", "maratón de Madrid", "profesora de matemáticas": "of" inside a name.

    German "von" only joins capitalised names ("Nähe von Berlin" is not one entity)."""
    if i + 1 >= len(toks):
        return False
    nxt = toks[i + 1]
    if nxt.low in lex.determiners or is_stop(nxt, lex, verb_forms) or nxt.low in lex.time_phrases_first:
        return False
    return nxt.cap or lex.code != "de"


def age_at(toks: Sequence[Tok], start: int, lex: Lexicon, need_unit: bool) -> int | None:
    """An age at ``start``: "30", "30 years old", "30 años", "30 Jahre alt"."""
    if start >= len(toks):
        return None
    value = number_value(toks[start], lex)
    if value is None or not 0 < value < 130:
        return None
    after = toks[start + 1] if start + 1 < len(toks) else None
    if after is not None and after.low in lex.coordinators:
        return None  # "my kids are 8 and 11": several people
    has_unit = after is not None and after.low in lex.year_words
    if need_unit and not has_unit:
        return None
    # "I'm 5 minutes away", "I am 2 kids' dad": a number followed by something else
    followed = after is not None and any(ch.isalnum() for ch in after.text) and after.low not in lex.age_markers
    return None if followed and not has_unit else value


def duration_in(toks: Sequence[Tok], lex: Lexicon) -> str | None:
    """ "for five years" → "5 years" (the number as digits, the unit as written)."""
    for start in range(len(toks)):
        length = match_phrase(toks, start, lex.duration_preps)
        if not length:
            continue
        i = start + length
        if i + 1 < len(toks) and toks[i].low in ("the", "ben", "los", "las"):
            i += 1
        if i + 1 < len(toks):
            value = number_value(toks[i], lex)
            if value is not None and toks[i + 1].low in lex.duration_units:
                return f"{value} {toks[i + 1].low}"
        # German "fünf Jahre lang": the marker after the span
    for i in range(len(toks) - 2):
        value = number_value(toks[i], lex)
        if value is not None and toks[i + 1].low in lex.duration_units and toks[i + 2].low == "lang":
            return f"{value} {toks[i + 1].low}"
    return None


def join(words: Sequence[str]) -> str:
    """Words as one entity; an elided article stays attached ("l'année", not "l' année")."""
    text = ""
    for word in words:
        text += word if not text or text.endswith("'") else " " + word
    return text


def digits(words: Sequence[Tok], lex: Lexicon) -> list[str]:
    """Number words as digits ("two years ago" → "2 years ago")."""
    out = []
    for tok in words:
        value = number_value(tok, lex)
        out.append(str(value) if value is not None and value > 1 else tok.low)
    return out


def time_in(toks: Sequence[Tok], lex: Lexicon) -> str | None:
    """ "yesterday", "last summer", "in 2019", "in May"."""
    found = find_phrase(toks, lex.time_phrases)
    if found:
        start, length = found
        return join(digits(toks[start : start + length], lex))
    for i, tok in enumerate(toks[:-1]):
        if tok.low in lex.time_preps:
            nxt = toks[i + 1]
            if (nxt.low.isdigit() and len(nxt.low) == 4) or nxt.low in lex.months:
                return nxt.low
    for i, tok in enumerate(toks):  # a bare year: "Ich bin 1990 in Dortmund geboren"
        after = toks[i + 1] if i + 1 < len(toks) else None
        since = i > 0 and toks[i - 1].low in _SINCE  # "since 2015" starts a duration, it is not a time
        alone = after is None or is_stop(after, lex, frozenset())
        if tok.low.isdigit() and 1900 <= int(tok.low) <= 2100 and not since and alone:
            return tok.low
    return None


def is_time_word(text: str, lex: Lexicon) -> bool:
    first = text.split(" ", 1)[0] if text else ""
    return (first.isdigit() and len(first) == 4) or first in lex.months or first in lex.duration_units


def skip_pronouns(toks: Sequence[Tok], start: int, lex: Lexicon) -> int:
    while start < len(toks) and (toks[start].low in lex.first_object or toks[start].low in lex.first_person):
        start += 1
    return start


def skip_aux(toks: Sequence[Tok], start: int, lex: Lexicon) -> int:
    while start < len(toks) and (toks[start].low in lex.have or toks[start].low in lex.copulas):
        start += 1
    return start


def attachments(toks: Sequence[Tok], obj: str, lex: Lexicon) -> list[Triple]:
    extra: list[Triple] = []
    duration = duration_in(toks, lex)
    if duration:
        extra.append((obj, "duration", duration))
    when = time_in(toks, lex)
    if when and when != obj and not (duration and duration in when):  # "hace 2 años" is the duration
        extra.append((obj, "time", when))
    return extra
