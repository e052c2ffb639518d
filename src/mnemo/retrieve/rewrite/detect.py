"""Ambiguity detection: which words of a query point at something only the conversation knows.

Pure functions over the query text. A reference is a pronoun ("he", "it"), a demonstrative
("that", "there"), a temporal pointer ("earlier", "last time") or an implicit one ("the bug",
"the same"). Function-word uses that point at nothing ("the bug that crashed", "is there a way",
"this week") are left out, so clear queries take the fast path.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.aspect import aspect_span
from mnemo.retrieve.rewrite.clause import (
    QUANTIFIERS,
    REPORTING_VERBS,
    clause_follows,
    looks_verbal,
)
from mnemo.retrieve.rewrite.comparing import comparisons
from mnemo.retrieve.rewrite.comparison import comparison_span
from mnemo.retrieve.rewrite.daytime import daytime_spans
from mnemo.retrieve.rewrite.deeds import event_spans, own_intent_before
from mnemo.retrieve.rewrite.definites import definite_references
from mnemo.retrieve.rewrite.degree import REPORTED, graded, predicative
from mnemo.retrieve.rewrite.detect_late import A_THING_TO_DO, kept_references, with_context_spans
from mnemo.retrieve.rewrite.determiner import (
    ADVERBS,
    POINTER_CONTEXT,
    SUBJECT_AUX,
    demonstrative_use,
    judged_predicate,
    stem,
)
from mnemo.retrieve.rewrite.expletive import CLOCK_QUESTION, expletive_spans, generic_they_starts, own_clause_that
from mnemo.retrieve.rewrite.fragments import fragment_opener
from mnemo.retrieve.rewrite.health import TAKES_EFFECT
from mnemo.retrieve.rewrite.implicit import elliptical, leaning_definites
from mnemo.retrieve.rewrite.internal import (
    named_before,
    plural_then_clause,
)
from mnemo.retrieve.rewrite.listed import listed_phrases
from mnemo.retrieve.rewrite.lists import GENERIC_ITEM_NOUNS, ORDINAL_REF, ORDINALS
from mnemo.retrieve.rewrite.namekind import CALENDAR_WORD
from mnemo.retrieve.rewrite.names import AUXILIARIES as _AUX
from mnemo.retrieve.rewrite.names import PREPOSITIONS
from mnemo.retrieve.rewrite.names import PUNCTUATION as PUNCT
from mnemo.retrieve.rewrite.nominal import past_forms
from mnemo.retrieve.rewrite.own_antecedent import antecedent_in_query
from mnemo.retrieve.rewrite.own_frame import own_pair
from mnemo.retrieve.rewrite.pointer_spans import temporal_pointer_spans, tokens
from mnemo.retrieve.rewrite.properties import (
    PRICE_ALONE,
    PRICE_REF,
    number_spans,
    one_with_spans,
    property_spans,
)
from mnemo.retrieve.rewrite.reference import Reference, in_place_of
from mnemo.retrieve.rewrite.swap import FOLLOW_UP, follow_up_opener
from mnemo.retrieve.rewrite.timeref import TEMPORAL_POINTER, UNIT_MODIFIED, simultaneous_spans
from mnemo.store.sql import STOPWORDS

from . import cached_re

PERSON_PRONOUNS = {"he", "him", "his", "himself", "she", "her", "hers", "herself"}
PLURAL_PRONOUNS = {"they", "them", "their", "theirs", "themselves"}
THING_PRONOUNS = {"it", "its", "itself"}
DEMONSTRATIVES = {"this", "that", "these", "those", "here", "there"}
#: After "this/that" these make a time expression that needs no context ("this week").
TIME_NOUNS = set("morning afternoon evening night week weekend month year quarter sprint season time".split())
#: After "there/here" these make an existential ("is there a way", "here is").
EXISTENTIAL = set("is are was were be been 's any a an no".split())
SUBJECT_WORDS = set("i we you he she they it the a an my our your his their this that there".split())
#: "such a refund", "such tickets": a kind the conversation described.
_SUCH = re.compile(r"\bsuch\s+(?!as\b)(?:an?\s+)?([a-z][\w-]*)", re.IGNORECASE)


def detect(query: str, context_text: str = "") -> list[Reference]:
    """Every reference in the query, in order of position.

    ``context_text`` (the conversation, any case) tells "that job" (a job the conversation
    mentioned) from "the tests that fail" (a relative clause).
    """
    known = set(cached_re.findall(r"\w+", context_text.lower()))
    # names the chat wrote with a capital mid-sentence: "give biscuit her metacam" names Biscuit itself
    written = frozenset(m.group(1).lower() for m in _MID_SENTENCE_NAME.finditer(context_text))
    found = _word_level(query, context_text, known, written)
    found = _implied_or_leaning(query, context_text, known, found)
    found = with_context_spans(query, context_text, known, found)
    return kept_references(query, context_text, known, found)


def _word_level(query: str, context_text: str, known: set[str], written: frozenset[str]) -> list[Reference]:
    """The references single words and short phrases make: pronouns, demonstratives, ordinals,
    choices, time pointers, events the chat told, the listed phrases and definite descriptions."""
    found = _word_references(query, known, written)
    found.extend(_ordinals(query, known, found))
    found = _choices(query, found, known, context_text)
    found.extend(Reference(m.group(0), "demonstrative", m.start(), m.end(), m.group(1)) for m in _SUCH.finditer(query))
    found = _with_temporal_pointers(query, _without_expletives(query, found, context_text), context_text)
    if context_text.strip():  # "had they already signed?", "how long did that take?" (aspect.py, deeds.py)
        timed = any(r.kind == "temporal" for r in found)
        tense = None if timed else aspect_span(query, [(r.start, r.end) for r in found], context_text)
        if tense is not None:
            found.append(Reference(query[tense[0] : tense[1]], "temporal", *tense, anchored=True, appended=True))
        for s, e in event_spans(query, context_text):  # the event reading replaces the word-level one
            found = in_place_of(found, Reference(query[s:e], "event", s, e))
    covered = [(r.start, r.end) for r in found]
    covered += simultaneous_spans(query)
    found += listed_phrases(query, covered)
    found += definite_references(query, context_text, found, covered)
    return found


def _implied_or_leaning(query: str, context_text: str, known: set[str], found: list[Reference]) -> list[Reference]:
    """With no reference yet, the one the query's shape implies ("which has the better ORM?", "what
    about the price?", "and to Vis?"); with some, the definites that lean on the chat beside them."""
    compared = comparison_span(query) if not found else None
    if compared is not None:  # "which has the better ORM?": the pair just compared, named or not
        found.append(Reference(query[compared[0] : compared[1]], "implicit", *compared))
    if not found and not CLOCK_QUESTION.search(query):  # "what time is it?" asks the clock, not the conversation
        span = elliptical(query, known)  # "what about the price?", "why not?": the topic is implied
        opener = fragment_opener(query, context_text) if span is None else None  # "and to Vis?"
        follow_up = follow_up_opener(query) if span is None and opener is None and context_text.strip() else None
        if span is not None:
            found.append(Reference(span[0], "implicit", span[1], span[2], noun=span[3]))
        elif opener is not None:
            found.append(Reference(opener[0], "implicit", opener[1], opener[2]))
        elif follow_up is not None:  # "what about cambodia", "and a 6 year old?": swapped in, or nothing
            found.append(Reference(follow_up[0], "implicit", follow_up[1], follow_up[2], noun=FOLLOW_UP))
    elif found:  # mixed: "forward the numbers to the board and cc him" has two references
        taken = [(r.start, r.end) for r in found]
        for text, start, end, noun in leaning_definites(query, known):
            if not any(s < end and start < e for s, e in taken):
                found.append(Reference(text, "implicit", start, end, noun=noun))
    return found


_MID_SENTENCE_NAME = re.compile(r"(?<=[a-z,] )([A-Z][a-z]{2,})\b")


def _word_references(query: str, known: set[str], written: frozenset[str] = frozenset()) -> list[Reference]:
    """Pronouns and demonstratives, one word each (a demonstrative determiner with its noun)."""
    words = tokens(query)
    lowered = [w.lower() for w, _, _ in words]
    found: list[Reference] = []
    for i, (word, start, end) in enumerate(words):
        low = lowered[i]
        prev = lowered[i - 1] if i else ""
        nxt = lowered[i + 1] if i + 1 < len(words) else ""
        after = lowered[i + 2] if i + 2 < len(words) else ""
        if _CLITIC.fullmatch(low):  # "it's broken", "he's late", "that's weird": the pronoun, then a verb
            found.extend(_clitic(query, words, i, prev, written))
            continue
        if low in ("that", "this") and (not nxt or nxt in PUNCT) and REPORTED.search(query[:start]):
            continue  # "i read that fasting lowers blood sugar, is there evidence for that?": the claim itself
        if low in ("that", "this") and prev not in PREPOSITIONS and graded(lowered[:i], nxt, after):
            continue  # "is it really that bad", "were my periods this heavy before": how much, not which
        if low in ("that", "this") and (nxt in ORDINALS or nxt == "other") and _countable(after, known):
            continue  # "that first option", "that other one": an ordinal reference, read by _ordinals
        if low == "that" and i + 1 < len(words) and TEMPORAL_POINTER.match(query, words[i + 1][1]):
            found.append(Reference(word, "demonstrative", start, end))  # "practise that the day before"
            continue
        if low in ("itself", "themselves") and i >= 2 and set(lowered[max(0, i - 3) : i - 1]) & _DETERMINERS:
            continue  # "does the part itself cost much": an intensifier of the noun before, no reference
        if low in ("that", "this") and TAKES_EFFECT.match(query, end):
            found.append(Reference(word, "demonstrative", start, end))  # "how long before that kicks in"
            continue
        if start and query[start - 1] == "-":
            continue  # "the -it flag", "--this": part of an option, no pronoun
        kind = _word_kind(low, prev, nxt)
        if word == "IT" and not query.isupper():
            continue  # "ask the IT guy": the department, in a query that is not all capitals
        if kind is None or antecedent_in_query(query, words, lowered, i, kind, written):
            continue  # "Where has Melanie camped with her family?": the query names its own antecedent
        noun = None
        if kind == "demonstrative" and nxt and nxt not in PUNCT and nxt not in SUBJECT_WORDS:
            capital = words[i + 1][0][:1].isupper()
            if low == "that" and capital and (after in _AUX or looks_verbal(after) or nxt not in known):
                continue  # "said that Qdrant is fast", "avoid that Chrome autofills": a conjunction
            if low == "that" and prev in REPORTING_VERBS and (nxt in QUANTIFIERS or clause_follows(lowered, i + 1)):
                continue  # "does the manual say that error E24 means ...": a conjunction before a clause
            if low == "that" and i >= 2 and _relative_after_plural(lowered[i - 2], prev, nxt, known):
                continue  # "links in texts that claim to be from your bank": a relative clause
            opener = prev if i != 1 or prev in SUBJECT_AUX else ""  # "will that ...": the question's own verb
            if prev in ("much", "many", "long", "often") and i >= 2 and lowered[i - 2] == "how":
                opener = ""  # "ask her how much that place charges": an embedded question, no relative clause
            use = demonstrative_use(low, opener, nxt, after, known)  # "move that to ..."
            if use == "determiner" and (
                _predicate_after(lowered, i) or (low != "those" and judged_predicate(prev, nxt, after))
            ):
                use = "pronoun"  # "..., is that risky?": the last word is what "that" is said to be
            if use is None:
                continue
            if use == "determiner":
                head = _determined_head(i, capital, after, known, nxt in TIME_NOUNS, nxt in _COUNTS)
                noun, end = words[head][0], words[head][2]
                word = query[start:end]
        found.append(Reference(word, kind, start, end, noun))
    return found


#: Words that may come before a yes/no question's copula: "so is that ok", "and was this expected".
_YES_NO_OPENERS = frozenset("so and but ok okay yes no then also hmm well".split())


def _predicate_after(lowered: list[str], i: int) -> bool:
    """Whether the demonstrative at ``i`` is the subject of a yes/no question whose last word is
    the predicate ("is that risky?", "ok, was this expected"), unlike a wh-question's subject
    ("how long is that flight", whose last word is the noun the demonstrative determines)."""
    if i < 1 or lowered[i - 1] not in ("is", "was", "isn't", "wasn't", "isnt", "wasnt"):
        return False
    before = lowered[i - 2] if i >= 2 else ""
    final = i + 2 >= len(lowered) or lowered[i + 2] in PUNCT
    return final and (not before or before in PUNCT or before in _YES_NO_OPENERS) and lowered[i + 1].isalpha()


def _determined_head(
    i: int, capital: bool, after: str, known: set[str], unit: bool = False, counted: bool = False
) -> int:
    """The noun a demonstrative determiner at ``i`` points through: the next word, or the one
    after it when that is the head ("that Poetry lockfile", "that dino set" after "the T. rex set")."""
    plain = after.isalpha() and after not in STOPWORDS and after not in ADVERBS and not _adverbial(after)
    plain = plain and not predicative(after)  # "is that place good for ...": the adjective is the predicate
    if capital and plain and after.islower() and not looks_verbal(after):
        return i + 2
    if after in known and plain:
        return i + 2
    if unit and after in UNIT_MODIFIED.split("|"):
        return i + 2  # "that weekend thing", "that morning class": the time word modifies the head
    if counted and plain and after.endswith("s"):
        return i + 2  # "those two days": a count, then the noun counted
    return i + 1


def _clitic(
    query: str, words: list[tuple[str, int, int]], i: int, prev: str, written: frozenset[str] = frozenset()
) -> list[Reference]:
    """The pronoun of "it's", "they're", "that's" as a reference of its own (none for a relative
    "that's" or a pronoun the query names itself)."""
    word, start, _ = words[i]
    match = _CLITIC.fullmatch(word.lower())
    assert match is not None
    low = match.group(1)
    if low == "that" and not _pronoun_slot(prev):
        return []  # "the app that's crashing": a relative pronoun
    kind = _word_kind(low, prev, "is")
    if kind is None or (kind in ("person", "plural") and named_before(words[:i], 1)):
        return []
    if low == "they" and plural_then_clause([w.lower() for w, _, _ in words[:i]]):
        return []  # "old blades ... when they're replaced": the query's own blades
    # the pronoun alone, a verb after it: "my tap leaks, it's ..." asks the same as "it is"
    lowered = [w.lower() for w, _, _ in words[:i]] + [low, "is"]
    if antecedent_in_query(query, words, lowered, i, kind, written):
        return []  # "how can I tell if they've gone bad" after "how long do eggs last": the eggs
    return [Reference(word[: len(low)], kind, start, start + len(low))]


def _choices(query: str, found: list[Reference], known: set[str], context_text: str = "") -> list[Reference]:
    """A choice between listed items ("which of those two", "that calmer one") is one reference,
    and it replaces the word-level demonstrative inside it."""
    # the chat's messages are needed only to price "the cheaper car quote"; most queries have none
    messages = (
        [{"content": line} for line in context_text.split("\n")]
        if context_text and (PRICE_REF.search(query) or PRICE_ALONE.search(query))
        else []
    )
    spans = [(s, e, None) for s, e in comparisons(query)] + property_spans(query, known, messages)
    spans += one_with_spans(query, known)
    spans += number_spans(query, context_text)  # "that 1850 one": the listed item with that number
    spans += daytime_spans(query, context_text)  # "the morning one": the option timed in the morning
    for s, e, word in spans:
        found = [r for r in found if not (r.start < e and s < r.end and r.kind in ("demonstrative", "plural"))]
        if not any(r.start < e and s < r.end for r in found):
            found.append(Reference(query[s:e], "ordinal", s, e, noun=word))
    return found


#: A group of people the chat names by their trade: "the movers", "our accountants", "the builders" -
#: whose work a "how do they ..." asks about. Family ("my parents", "the kids") leaves the question general.
_PEOPLE_NAMED = re.compile(r"\b(?:my|our|the|his|her|their)\s+(?:[\w-]+\s+)?[a-z-]+(?:ers|ors|ants|ists|ians)\b")


def _without_expletives(query: str, found: list[Reference], context_text: str = "") -> list[Reference]:
    spans = expletive_spans(query)
    judged = own_clause_that(query)  # "..., is that a good idea": the query's own clause
    # "how do they decaffeinate coffee": nobody of the chat - unless the chat names a group of people
    generic = generic_they_starts(query)
    if generic and _PEOPLE_NAMED.search(context_text.lower()):
        generic = set()
    return [
        r
        for r in found
        if not (r.text.lower() in ("it", "its") and any(s <= r.start < e for s, e in spans))
        and not (judged and r.start == judged.start("that"))
        # "my landlord wants to raise the rent; can he do that?": "that" is the deed the query states
        and not (r.kind in ("demonstrative", "thing") and own_intent_before(query, r.start))
        and r.start not in generic
    ]


def _with_temporal_pointers(query: str, found: list[Reference], context_text: str) -> list[Reference]:
    """Temporal pointers replace the word-level references inside them ("that" in "after that")."""
    spans = temporal_pointer_spans(query, context_text)
    if not spans:
        return found
    kept = [r for r in found if not any(s < r.end and r.start < e for s, e in spans)]
    return kept + [Reference(query[s:e], "temporal", s, e, anchored=True) for s, e in spans]


def _ordinals(query: str, known: set[str], found: list[Reference]) -> list[Reference]:
    """ "the second one", "the other option", "the latter", "the first approach" (a noun the context has)."""
    out: list[Reference] = []
    for match in ORDINAL_REF.finditer(query):
        which, noun = match.group(1).lower(), (match.group(2) or "").lower()
        end = match.end()
        if (noun in STOPWORDS and noun not in GENERIC_ITEM_NOUNS) or _verb_after_auxiliary(query, match):
            noun, end = "", match.end(1)  # "leave the other for now", "does the former need ...": no noun follows
        if noun in TIME_NOUNS or noun in ("day", "days", "hand"):
            continue  # "the first time", "the other day", "on the other hand"
        own_of = _OWN_OF.match(query, match.end()) if noun else None
        if own_of is not None and (own_of.group(1).lower() not in known or _TO_DO.match(query, own_of.end())):
            continue  # "the first version of java (to include lambdas)": the query's own, not the chat's list
        if A_THING_TO_DO.match(query, match.end(1)):
            continue  # "what's the first thing I should pack": the first of what to do, no list of the chat's
        if which == "other" and own_pair(query, match.start()):
            continue  # "stop one monitor mirroring the other": the pair is the query's own
        if noun in ("person", "people") and match.group(0).split()[0].lower() == "the":
            continue  # "the first person on the moon": only "that first person" counts a list of people
        if which == "other" and noun in _COUNTS:
            pass  # "the other two": the rest of a list
        elif (
            noun and noun not in GENERIC_ITEM_NOUNS and not {noun, stem(noun), f"{noun}s"} & known | _deeds(noun, known)
        ):
            if which not in ("former", "latter"):
                continue  # "the first step of the tutorial": nothing in the conversation to count
            end = match.start(2) - 1
        elif which == "other" and noun.endswith("s"):
            continue  # "the other options": the rest of a list, not one item
        elif not noun and which not in ("former", "latter", "other"):
            continue
        if any(r.start < end and match.start() < r.end for r in found):
            continue
        out.append(Reference(query[match.start() : end].rstrip(), "ordinal", match.start(), end, noun or None))
    return out


_COUNTS = frozenset("two three four five".split())
#: "of java", "of windows": a bare noun the ordinal's own thing belongs to.
_OWN_OF = re.compile(
    r"\s+of\s+(?!(?:them|those|these|it|us|you|which|what|all|both|each|the|a|an|my|our|your|his|her|their)\b)"
    r"([a-z][\w-]*)\b",
    re.IGNORECASE,
)
#: "... to include lambdas": the first of all that do it, a superlative of the query's own.
_TO_DO = re.compile(r"\s+to\s+(?!(?:me|us|you|him|her|them|it|the|a|an|my)\b)[a-z]+", re.IGNORECASE)
#: Words before a plural noun that show it is a noun ("in texts", "the files", "all emails").
_NOUN_LEADS = frozenset(
    "in on at of for with from to by about the my your our their these those all some many any".split()
)


def _relative_after_plural(before: str, prev: str, nxt: str, known: set[str]) -> bool:
    """ "that" after a plural noun (itself after a preposition or determiner) and before a word the
    chat never used opens a relative clause: "texts that claim ...", "for files that fail ..."."""
    plural = len(prev) > 3 and prev.isalpha() and prev.endswith("s") and not prev.endswith("ss")
    return plural and before in _NOUN_LEADS and nxt.isalpha() and nxt not in known


_DO_AUXILIARIES = frozenset("do does did can could will would should might must".split())


def _verb_after_auxiliary(query: str, match: re.Match[str]) -> bool:
    """ "how much ram does the former need for 2k pods": after "does" the word after "the former" is
    the verb when a preposition, a determiner or the end follows it ("does the first option need"
    has its verb after the noun)."""
    noun = (match.group(2) or "").lower()
    if not noun or noun.endswith("s") or noun in GENERIC_ITEM_NOUNS:
        return False  # "do the second one": "do" is the main verb, "one" the noun
    before = query[: match.start()].split()
    after = query[match.end() :].split()
    following = after[0].lower().strip("?,.!") if after else ""
    closes = not following or following in PREPOSITIONS or following in _DETERMINERS
    main_verb = len(before) > 1 and before[-2].lower() in _SUBJECTS  # "how do I do the second item"
    return bool(before) and before[-1].lower() in _DO_AUXILIARIES and closes and not main_verb


_SUBJECTS = frozenset("i we you they he she it".split())


_DETERMINERS = frozenset("the this that these those my your our his her their a an".split())


def _adverbial(word: str) -> bool:
    return looks_verbal(word) or (word.endswith("ly") and len(word) > 4)


#: What follows "from there" when it is the next step of a route or a plan, not a place left.
_SEQUENCE_AFTER_FROM = frozenset({",", "on", "onwards", "you", "it", "it's", "we", "i", "just", "take", "go", "walk"})


def _word_kind(low: str, prev: str, nxt: str) -> str | None:
    if low in PERSON_PRONOUNS:
        return "person"
    if low in PLURAL_PRONOUNS:
        return "plural" if not (low == "them" and prev == "of" and nxt == "all") else None
    if low in THING_PRONOUNS:
        return "thing"
    if low in ("there", "here"):
        if nxt in EXISTENTIAL or prev in ("is", "are", "was", "were"):
            return None
        if prev == "from" and nxt in _SEQUENCE_AFTER_FROM:
            return None  # "from there, take the bus", "from there on": a next step, no place
        return "place"
    if low in ("this", "that", "these", "those"):
        if low in ("that", "those") and nxt in TIME_NOUNS | {"day", "days"}:
            return "demonstrative"  # "that day", "that week": a time the conversation named
        if low == "that" and prev in _AUX and nxt in SUBJECT_WORDS - {"i", "we", "you", "he", "she", "they"}:
            return "demonstrative"  # "was that my best time": an inverted question's subject, not a conjunction
        if nxt in TIME_NOUNS or (low == "that" and nxt in SUBJECT_WORDS):
            return None  # "this week"; "said that we ...": a conjunction
        if low == "this" and CALENDAR_WORD.fullmatch(nxt):
            return None  # "this saturday", "this june": the coming one, counted from today
        return "demonstrative"
    return None


#: A pronoun with a clitic verb: "it's", "they're", "she'd", "that's", "he'll".
_CLITIC = re.compile(r"(it|he|she|they|that|this|these|those)'(?:s|re|ve|ll|d)")
#: Words after which "that's" opens a clause of its own ("I think that's fine", "whether that's safe").
_CLAUSE_OPENERS = frozenset("whether if because since think guess hope maybe and but so ok okay yes no is".split())


def _pronoun_slot(prev: str) -> bool:
    return not prev or prev in PUNCT or prev in STOPWORDS or prev in _CLAUSE_OPENERS or prev in POINTER_CONTEXT


def _deeds(noun: str, known: set[str]) -> set[str]:
    """The noun itself when the conversation used the verb it was made from ("deployed" for "deploy")."""
    return {noun} if set(past_forms(noun)) & known else set()


def _countable(noun: str, known: set[str]) -> bool:
    """Whether "that first <noun>" counts a list: a list noun, one the conversation used, or the
    noun of a verb it used ("the first deploy" after "we deployed v3.2.0")."""
    if not noun or noun in PUNCT or noun in GENERIC_ITEM_NOUNS or {noun, stem(noun), f"{noun}s"} & known:
        return True
    return bool(_deeds(noun, known))
