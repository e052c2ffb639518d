"""What the conversation talks about: people, places and things, each with a salience score.

Heuristic and dependency-free on purpose (the core install has no parser, and the rewrite budget
is a few milliseconds): capitalised names, speaker roles, technical tokens and determiner-led
noun phrases, weighted by how recently and how often they were mentioned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from mnemo.retrieve.rewrite.bare import (
    bare_plurals,
    bare_subjects,
    counted_plurals,
    looks_plural,
)
from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.compounds import compound_names
from mnemo.retrieve.rewrite.endorsed import offered
from mnemo.retrieve.rewrite.gender import TITLES, chain_gender, gender_hint, gender_of, learn_gender, noun_gender
from mnemo.retrieve.rewrite.health import drug_names
from mnemo.retrieve.rewrite.lowercase import common_words, lower_case_chat, truecase, written_names
from mnemo.retrieve.rewrite.namekind import CALENDAR_WORD, WORD, name_kind, title_opener
from mnemo.retrieve.rewrite.names import (
    FEMALE_NOUNS,
    FIRST_NAMES,
    KIN_ABROAD,
    MALE_NOUNS,
    NOT_NAMES,
    PERSON_NOUNS,
    VAGUE,
    fold,
)
from mnemo.retrieve.rewrite.noun_phrases import PLURAL_VERB, named_last, person_phrase, phrases
from mnemo.retrieve.rewrite.opening import opening as opening_text
from mnemo.retrieve.rewrite.plain_names import code_names, dosed, headline, labelled, lower_answer, quoted
from mnemo.retrieve.rewrite.possessed import aged_children, kin_names, person_owned, possessed
from mnemo.retrieve.rewrite.possessive_titles import possessive_titles, title_tails
from mnemo.retrieve.rewrite.specify import specifications
from mnemo.retrieve.rewrite.tidy import tidy
from mnemo.store.sql import STOPWORDS

from . import cached_re

GENERIC_ROLES = frozenset({"user", "assistant", "system", "tool", "human", "ai", "bot", "model", "function"})
#: A name: up to three capitalised words in the letters of the Latin scripts ("Siobhán", "Björn",
#: "Nguyễn"), each perhaps with a lower-case hyphenated part ("Hyun-woo"); titles and institutions
#: join their words with "of (the)": "The Remains of the Day", "Bank of Ireland"; names of other
#: languages with their particles: "Tasca do Chico", "Rio de Janeiro", "Ludwig van Beethoven".
_JOINER = r"\s+(?:of\s+(?:the\s+)?|&\s+|(?:d[aeiou]s?|del|della|van|von|de\s+la|van\s+der|van\s+den)\s+)"
_NAME = re.compile(
    # an acronym may open a firm's name: "JD Sports", "BT Sport", "HSBC Bank"
    rf"(?<![\w])((?:(?-i:[A-Z]{{2,4}})\s(?={WORD}))?{WORD}(?:-[a-z]+)?(?:(?:[- ]|{_JOINER}){WORD}(?:-[a-z]+)?){{0,3}}"
    # a model number keeps its product: "Raspberry Pi 5", "Pixel 8a", "Galaxy S24" (not "March 2023")
    rf"(?:(?<=[a-z])\s\d{{1,3}}[a-z]?(?![\w:,/-])(?!\.\d))?"
    # a firm's legal form is part of its name: "Hartmann GmbH", "Nordwind AG", "Acme Inc"
    r"(?:\s(?:GmbH|AG|KG|LLC|LLP|PLC|plc|Inc|SA|BV|NV|AB|Oy|SpA|SRL|Pty)(?![\w-]))?)('s)?(?![\w-])"
)
_NUMBERED = re.compile(r"\s\d{1,3}[a-z]?$")
#: The first word of each sentence.
_SENTENCE_OPENER = re.compile(r"(?:^|[.!?]\s+)([A-Za-z][a-z'-]+)")
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_TIME = re.compile(
    rf"\b(?:(?:on|in|since|last|next)\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|"
    r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    rf"{_MONTH}|the\s+\d{{1,2}}(?:st|nd|rd|th)|(?:19|20)\d{{2}}(?!-)|"
    r"(?:last|next|this)\s+(?:week|month|year|sprint|quarter)|\d{4}-\d{2}-\d{2})\b"
)
#: "[Maya]: the deploy is stuck", "Anna: I booked it": a chat transcript pasted as one message.
_SPEAKER_LABEL = re.compile(rf"^\s*\[?({WORD}(?: {WORD})?)\]?\s*:\s+")
_NP_BEFORE_PLACE = re.compile(
    r"\b(?:the|a|an|my|our|your|their)\s+(?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*\s+(?:in|at|near|to|from)\s+$"
)
#: A person and the firm they come from: "an engineer from HeatRight", "a guy from Acme".
_FROM_FIRM = re.compile(r"\b([a-z]+)\s+from\s+$")


def _affiliated(text: str, found: list[tuple[int, Candidate]]) -> list[tuple[int, Candidate]]:
    """A firm named only as where a person comes from weighs half: the talk is about the person's
    work ("the boiler ... an engineer from HeatRight fixed it": "it" is the boiler)."""
    out = []
    for at, candidate in found:
        before = _FROM_FIRM.search(text[max(0, at - 30) : at])
        if before and before.group(1) in PERSON_NOUNS:
            candidate = replace(candidate, salience=candidate.salience * 0.5)
        out.append((at, candidate))
    return out


_TITLE_BEFORE = re.compile(r"\b(Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+$")


def extract(context: Sequence[Mapping[str, str]], max_messages: int = 10) -> list[Candidate]:
    """Candidates from the last ``max_messages`` messages, most salient first."""
    found: dict[tuple[str, str], Candidate] = {}
    recent = list(context)[-max_messages:]
    written = written_names(str(m.get("content") or "") for m in recent)
    common = common_words(str(m.get("content") or "") for m in recent)
    participants = _participants(recent)
    for distance, message in enumerate(reversed(recent)):
        role, text = _speaker_and_text(message)
        if lower_case_chat(text):
            text = truecase(text, written)
        # Soft recency, and the user's own words count more: what they asked about is the topic.
        weight = (1.5 if role.lower() in ("user", "human") else 1.0) / (1.0 + 0.35 * distance)
        if role and role.lower() not in GENERIC_ROLES:
            talking = role in participants
            speaker = Candidate(role, "person", gender=gender_of(role), hint=gender_hint(role), speaker=talking)
            _note(found, speaker, weight * 0.8, distance)
        at = len(recent) - 1 - distance
        mentions = _mentions(text, written, answer=_asks(recent[at - 1]) if at > 0 else "", common=common)
        named_speaker = bool(role) and role.lower() not in GENERIC_ROLES
        framing = fronted_adjuncts(text)
        for order, candidate in enumerate(mentions):
            # earlier in a message ~ the subject or topic of it; later mentions are often asides
            candidate.order = order
            if named_speaker and candidate.kind != "person" and candidate.text.lower().startswith("my "):
                # "Bea: my new bike" is Bea's bike; a person keeps "my aunt Dolores", whose name says who
                candidate.text = f"{role}'s {candidate.text[3:]}"
            # "For the dinner party I'm making a tagine": a fronted adjunct frames the sentence, it is not its topic
            framed = FRAMED if any(_within(candidate.text, adjunct) for adjunct in framing) else 1.0
            _note(
                found,
                candidate,
                weight * framed * candidate.salience * (1.25 - 0.5 * order / max(1, len(mentions))),
                distance,
            )
        for match in _TIME.finditer(text):
            _note(found, Candidate(match.group(0), "time"), weight, distance)
        learn_gender(found, text)
    if recent:
        _topic_bonus(found, recent)
        chain_gender(found, recent)
        _merge_specifications(found, recent)
    merged = _with_definites_merged(_with_short_names_merged(_without_thing_twins(found.values())))
    return sorted(merged, key=lambda c: -c.salience)


#: How much a noun in a fronted adjunct counts against the sentence's own subject and object.
FRAMED = 0.6
#: A sentence opened by a prepositional phrase that ends at a comma or at the subject pronoun.
_FRONTED = re.compile(
    r"(?:^|(?<=[.!?])\s+)((?:for|at|in|on|after|before|during|since|over|by)\s+[^,.!?]{2,60}?)"
    r"(?:,|\s+(?=(?:i|we|you|he|she|they|i'm|we're|i've|we've|i'll|we'll)\s))",
    re.IGNORECASE,
)


def fronted_adjuncts(text: str) -> list[str]:
    """The fronted adjuncts of a message, lower-case: "for the dinner party" in "For the dinner
    party I'm thinking of making a lamb tagine"."""
    return [m.group(1).lower() for m in _FRONTED.finditer(text)]


def _within(mention: str, adjunct: str) -> bool:
    bare = cached_re.sub(r"^(?:the|a|an|my|our|your)\s+", "", mention.lower())
    return bool(bare) and f" {bare} " in f" {adjunct} "


def _merge_specifications(found: dict[tuple[str, str], Candidate], recent: Sequence[Mapping[str, str]]) -> None:
    """ "tent" + "It's a 3-person MSR": one thing, named both ways, at the salience of the more
    salient reading (specify.py); the two readings alone rank below it."""
    things = [c for c in found.values() if c.kind == "thing"]
    for _specific, merged in specifications(recent, things):
        parts = [c for c in things if c.text.lower().removeprefix("the ") in merged.lower()]
        if not parts:
            continue
        top = max(parts, key=lambda c: c.salience)
        found[(merged.lower(), "thing")] = replace(top, text=merged, salience=top.salience * 1.1)


def _speaker_and_text(message: Mapping[str, str]) -> tuple[str, str]:
    """Who speaks and what they say: the message's name or role, unless its text opens with a
    speaker label ("Anna: I booked it"), which names the speaker and is no part of the text."""
    role = str(message.get("name") or message.get("role") or "").strip()
    text = str(message.get("content") or "")
    label = _SPEAKER_LABEL.match(text)
    if label and label.group(1).split()[0].lower() not in NOT_NAMES:
        return label.group(1), text[label.end() :]
    return role, text


def _participants(recent: Sequence[Mapping[str, str]]) -> set[str]:
    """The two people of the latest exchange (the last speaker and the one before who differs):
    the query's "I" and "you". In a chat of three, the third is someone they can call "she"."""
    found: list[str] = []
    for message in reversed(recent):
        role = _speaker_and_text(message)[0]
        if role and role.lower() not in GENERIC_ROLES and role not in found:
            found.append(role)
        if len(found) == 2:
            break
    return set(found)


def _without_thing_twins(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Drop the thing reading of a name that a role noun or a title marks as a person ("my
    neighbour Derya lent me her sewing machine", "dr Okafor"): "it" never points at Derya. A name
    made a person only by a pronoun chain keeps both readings ("Bruno" the dog is "he" and "it")."""
    candidates = list(candidates)
    roles = [c.text.split() for c in candidates if c.kind == "person" and len(c.text.split()) > 1]
    people = {words[-1].lower() for words in roles if words[0].lower() in _ROLE_LEADS and words[-1][:1].isupper()}
    return [c for c in candidates if c.kind != "thing" or c.text.lower() not in people]


def _with_short_names_merged(candidates: list[Candidate]) -> list[Candidate]:
    """ "the Fit" after "my 2015 Honda Fit": a model named again by its last word is the same thing;
    its mentions go to the full name, which a search needs ("Honda")."""
    full = [c for c in candidates if c.kind == "thing" and len(c.text.split()) > 1 and c.text.split()[-1][:1].isupper()]
    out: list[Candidate] = []
    for c in candidates:
        words = c.text.split()
        bare = words[-1] if len(words) <= 2 and (len(words) == 1 or words[0].lower() in ("the", "a", "an")) else ""
        longer = [f for f in full if bare and bare[:1].isupper() and f.text.split()[-1] == bare and f is not c]
        if c.kind == "thing" and len(longer) == 1 and not longer[0].text.lower().startswith(("the ", "a ", "an ")):
            _merge_into(longer[0], c)
            continue
        out.append(c)
    return out


def _with_definites_merged(candidates: list[Candidate]) -> list[Candidate]:
    """ "How old is the machine?" after "the washing machine is grinding": a definite of one noun
    that repeats the head of exactly one earlier, longer thing is that thing, named again; its
    mentions go to the longer phrase, which says which one."""
    out: list[Candidate] = []
    for c in candidates:
        words = c.text.lower().split()
        head = words[-1] if len(words) == 2 and words[0] == "the" and c.kind == "thing" else ""
        longer = [
            f
            for f in candidates
            if head
            and f is not c
            and f.kind == "thing"
            and f.plural == c.plural
            and len(f.text.split()) > 2
            and f.text.lower().split()[-1] == head
            and f.last_seen >= c.last_seen
        ]
        if len(longer) == 1:
            _merge_into(longer[0], c)
            continue
        out.append(c)
    return out


def _merge_into(target: Candidate, reading: Candidate) -> None:
    """One thing named two ways: the fuller reading takes the other's salience, recency, mentions
    and number (a plural verb after the short name says the things are several)."""
    target.plural = target.plural or (reading.plural and reading.kind == "thing" and target.kind == "thing")
    target.salience = max(target.salience, reading.salience)
    target.last_seen = min(target.last_seen, reading.last_seen)
    target.mentions += reading.mentions


_ROLE_LEADS = frozenset("my our your his her their the mr mrs ms miss dr prof".split())


#: A message that ends by asking which thing or who ("Lovely - which one?", "Who's the contact there?").
#: (a "who" typed without a question mark asks too when the whole message is the question: its
#: answer's first capital is a name; a "what" answer's first word is too often a verb, "Stir ...")
_ASKS_WHAT = re.compile(r"(?i)(?:^|[.!?\u2014-]\s*)(what|which|who)\b[^.!?]*\?\s*$|^\s*(who)\b[^.!?]*$")


#: What follows a name that is the whole answer: a comma, a dash, a bracket or the message's end.
_FRAGMENT_END = re.compile(r"\s*(?:[,;(\u2014-]|$)")
#: ... or a judgement of the one named: "Who should I captain?" - "Haaland looks best, ...".
_JUDGED_ANSWER = re.compile(
    r"\s+(?:looks|seems|is|would\s+be|'s|has\s+been)\s+(?:the\s+)?"
    r"(?:best|better|safest|strongest|good|great|ideal|your)\b"
)


def _asks(message: Mapping[str, str]) -> str:
    """What a message ends by asking ("what", "which" or "who"; "" for anything else): the next
    message's answer names it first ("Who's the contact there?" - "Katrin Vogel, she's ...")."""
    asked = _ASKS_WHAT.search(str(message.get("content") or "").strip())
    return (asked.group(1) or asked.group(2)).lower() if asked else ""


def _topic_bonus(found: dict[tuple[str, str], Candidate], recent: Sequence[Mapping[str, str]]) -> None:
    """What the conversation opened with stays its topic (centering): the things the first user
    message of the window names get a boost that outlasts the recency decay."""
    opening = opening_text(recent, with_answer=False)  # the answer's names compete on their own
    if not opening:
        return
    for candidate in found.values():
        if candidate.kind == "thing" and candidate.text.lower().removeprefix("the ").removeprefix("my ") in opening:
            candidate.salience *= TOPIC_BONUS


#: How much the opening topic counts against recency (measured on the rewrite dev sets).
TOPIC_BONUS = 1.3


def _note(found: dict[tuple[str, str], Candidate], new: Candidate, weight: float, distance: int) -> None:
    key = (new.text.lower(), new.kind)
    known = found.get(key)
    if known is None:
        new.salience, new.last_seen, new.mentions = weight, distance, 1
        new.salience = weight
        found[key] = new
        return
    # every further mention counts, however it was phrased ("Postgres won" opens a sentence)
    known.salience = max(known.salience, weight) + 0.3 / (1.0 + 0.35 * distance)
    known.mentions += 1
    known.last_seen = min(known.last_seen, distance)
    known.gender = known.gender or new.gender
    known.hint = known.hint or new.hint
    known.speaker = known.speaker or new.speaker


def _mentions(
    text: str, written: frozenset[str] = frozenset(), answer: str = "", common: frozenset[str] = frozenset()
) -> list[Candidate]:
    """People, places and things of one message in order of position (each salience = its weight);
    fresh copies, since extraction updates them (the chains re-read the same messages)."""
    # only the common words this message opens a sentence with matter: a smaller key caches better
    openers = frozenset(m.group(1).lower() for m in _SENTENCE_OPENER.finditer(text)) & common
    return [replace(c) for c in _cached_mentions(text, written, answer, openers)]


@lru_cache(maxsize=1024)
def _cached_mentions(text: str, written: frozenset[str], answer: str, common: frozenset[str]) -> tuple[Candidate, ...]:
    return tuple(_read_mentions(text, written, answer, common))


#: An office a department names: "the VP of Sales", "our Head of Marketing", "Director of Engineering".
_OFFICE_OF = re.compile(
    r"\b(?:VP|SVP|EVP|Vice\s+President|[Hh]ead|Director|Chief|[Mm]anager|[Ll]ead|Dean|Minister|Secretary)\s+of\s+$"
)


def _read_mentions(
    text: str, written: frozenset[str], answer: str = "", common: frozenset[str] = frozenset()
) -> list[Candidate]:
    noun_phrases = phrases(text)
    compounds = [c for c in compound_names(text) if c[1].text.lower() not in inside_text(noun_phrases)]
    # a name inside a phrase or compound ("the Postgres replica", "Docker images") stands for it
    titles = possessive_titles(text)  # "Schindler's List": one title, no "List" alone
    inside = {w.lower().removesuffix("'s") for _, c in noun_phrases + compounds for w in c.text.split()}
    inside |= title_tails(titles)
    # "her youngest Ollie", "our dog Rex": a name closing a phrase of common words is its own referent
    inside -= {c.text.split()[-1].lower() for _, c in noun_phrases if named_last(c.text)}
    found, names = _named(text, inside, written, answer, common)
    found.extend(lower_answer(text, answer, names | inside))
    found.extend(dosed(text))  # "put me on amlodipine 5mg": a medicine, whatever its case
    found.extend(drug_names(text))  # "just been put on simvastatin": a drug by its generic name
    quotes, quoted_words = quoted(text)  # a quoted error message or title; no quoted example
    found.extend(quotes)
    inside.update(quoted_words)
    found.extend(possessed(text))
    found.extend(person_owned(text))
    children = aged_children(text)  # "my 4 year old": a person, and no phrase of its words is a thing
    found.extend(children)
    found.extend(kin_names(text))  # "grandad's 90th": a kin word used as a name
    words_of_names = {w for name in names for w in name.split()}  # "GmbH" of "Hartmann GmbH" is no identifier
    found.extend(_affiliated(text, code_names(text, names | inside | words_of_names)))  # identifiers, calls
    found.extend(p for p in labelled(text) if p[1].text.lower() not in inside)  # "episode 48", "invoice #2217"
    found.extend(headline(text))  # "onboarding checklist: accounts, laptop, ...": what the message lists
    found.extend(offered(text))  # "Try shakshuka: eggs poached in ...": the dish suggested
    found.extend(noun_phrases)
    found.extend(compounds)
    found.extend(titles)
    # "St John's Hall": the owner of a place's name is no place of its own
    owners = {c.text.split("'s ")[0] for _, c in titles if c.kind == "place"}
    found = [(at, c) for at, c in found if not (c.kind == "place" and c.text in owners)]
    # a plural inside a phrase is that phrase's ("the Docker images"); its own attachment is not
    # ("two kittens from a shelter": the shelter's phrase does not hold the kittens)
    found.extend(p for p in bare_plurals(text) if not _held(p[1].text, inside))
    found.extend(p for p in counted_plurals(text) if p[1].text.lower() not in inside)  # "too many zucchini"
    taken = {c.text.lower() for _, c in found} | inside
    found.extend((at, Candidate(word, "thing", salience=0.9)) for at, word in bare_subjects(text) if word not in taken)
    spans = [(at, at + len(c.text)) for at, c in children]  # "year old refuses" is the child's, no thing
    found = [(at, c) for at, c in found if c.kind != "thing" or not any(s <= at < e for s, e in spans)]
    tidied = [(at, _tidied(c)) for at, c in found]
    return [c for _, c in sorted(tidied, key=lambda pair: pair[0]) if c.text]


def _tidied(candidate: Candidate) -> Candidate:
    """The candidate under its tidied text (tidy.py), its number read again from its new last word."""
    text = tidy(candidate.text)
    if text == candidate.text:
        return candidate
    last = text.split()[-1] if text else ""
    tidied = replace(candidate, text=text, plural=candidate.plural and looks_plural(last))
    if candidate.kind == "thing" and text and " " in text and person_phrase(text.split()):
        # "my grandma keeps getting" cut to "my grandma": the head left is a person's
        gender = "f" if last.lower() in FEMALE_NOUNS else "m" if last.lower() in MALE_NOUNS else None
        return replace(tidied, kind="person", gender=gender)
    return tidied


_SEASONS = frozenset("spring summer autumn winter".split())

_LEGAL_FORM = re.compile(
    r"\s(?:GmbH|AG|KG|LLC|LLP|PLC|plc|Inc|Ltd|Limited|Corp|Corporation|SA|BV|NV|AB|Oy|SpA|SRL|Pty)$"
)


def _named(
    text: str,
    inside: set[str],
    written: frozenset[str] = frozenset(),
    answer: str = "",
    common: frozenset[str] = frozenset(),
) -> tuple[list[tuple[int, Candidate]], set[str]]:
    """The capitalised names of a message as people, places or things, and every name seen."""
    found: list[tuple[int, Candidate]] = []
    names: set[str] = set()
    for match in _NAME.finditer(text):
        name, start = match.group(1), match.start()
        if _NUMBERED.search(name) and (
            CALENDAR_WORD.fullmatch(name.split()[-2]) or fold(name.split()[-2]) in FIRST_NAMES
        ):
            name = name.rsplit(" ", 1)[0]  # "May 12": a date; "Leo 7": an age; no model number
        title = TITLES.get(name.split()[0].lower()) if " " in name else None
        lead = name.split()[0].lower()
        kin = _KIN_BEFORE.search(text[max(0, start - 18) : start])
        if " " in name and lead in KIN_TITLES:
            found.append((start, Candidate(name, "person", gender=_kin_gender(lead))))  # "Aunt Rosa" is how
            names.add(name.lower())  # the family names her, and "Grandma June" is no month
            continue
        whole_title = " " in name and title_opener(lead, name, text[:start])
        if whole_title:
            pass  # "finished The Remains of the Day", "the Do Not Call registry": the title's own word
        elif " " in name and (lead in NOT_NAMES or title is not None or lead in PERSON_NOUNS - KIN_ABROAD):
            name, start = name.split(" ", 1)[1], start + len(name.split(" ", 1)[0]) + 1
        elif kin and " " not in name:  # "put aunt Rosa at table 4": the kin word written lower-case
            found.append(
                (
                    start - len(kin.group(0)),
                    Candidate(f"{kin.group(1)} {name}", "person", gender=_kin_gender(kin.group(1))),
                )
            )
            names.add(f"{kin.group(1)} {name}".lower())
            continue
        first = name.split()[0].lower()
        function_word = first in NOT_NAMES or first in TITLES or name.lower() in STOPWORDS
        if not whole_title and (function_word or name.lower() in _SEASONS):
            continue  # "Spring (late March) for cherry blossoms": a season opening a sentence is a time
        before, after = text[:start], text[match.end() :]
        if _OFFICE_OF.search(before[-24:]):
            continue  # "the VP of Sales, Ricardo": the department names the office, no referent of its own
        titled = _TITLE_BEFORE.search(before[-8:])
        if titled:  # "Dr. Nguyen", "Mr Lindqvist": a person, and the title may say the gender
            title = TITLES[titled.group(1).lower()]
            name = f"{titled.group(1)} {name}"
            found.append((start, Candidate(name, "person", gender=title or None)))
            names.add(name.lower())
            continue
        kind, weight = _kind_of(name, before, after, bool(match.group(2)))
        if _LEGAL_FORM.search(name):
            kind, weight = "thing", max(weight, 1.5)  # "Hartmann GmbH": a firm, whatever cue reads a person
        names.add(name.lower())
        opener = not before.strip() or before.rstrip()[-1:] in ".!?:\n"
        if opener and weight < 1.5 and kind in ("thing", "agent") and name.lower() in written:
            weight = 1.5  # "Redis is now used ...": a sentence opener the conversation writes as a name
        elif opener and kind == "agent" and name.lower() in common:
            kind = "thing"  # "Cranberry can increase ..." after "cranberry juice": a common noun, no one
        if (
            answer == "who"
            and start == 0
            and kind in ("thing", "agent")
            and (_FRAGMENT_END.match(after) or _JUDGED_ANSWER.match(after))
        ):
            kind, weight = "person", max(weight, 1.0)  # "Who's the contact?" - "Katrin Vogel, ...": a person
        if weight == 0.0 and answer and start == 0 and kind == "thing":
            weight = 1.5  # "what did the doctor prescribe?" - "Sertraline, 50mg ...": the answer's first word
        if weight == 0.0 or (kind == "thing" and name.lower() in inside):
            continue  # "the Berlin marathon" stands for Berlin here
        if kind == "agent":  # both readings, the person a little less likely than the thing
            found.append((start, Candidate(name, "person", salience=0.6 * weight, hint=gender_hint(name))))
            found.append((start, Candidate(name, "thing", salience=weight)))
            continue
        gender = gender_of(name) or noun_gender(before) if kind == "person" else None
        hint = gender_hint(name) if kind == "person" and gender is None else None
        # "the ryokan in Kyoto", "the billing service to Kubernetes": a name in a phrase attached
        # to a noun phrase says where that thing is or goes; the noun phrase is what is talked about
        attached = kind != "person" and " & " not in name and bool(_NP_BEFORE_PLACE.search(before[-40:]))
        agreeing = kind == "thing" and bool(PLURAL_VERB.match(after))  # "The Pegasus are half a size too small"
        found.append(
            (
                start,
                Candidate(
                    name, kind, salience=weight * (0.5 if attached else 1.0), gender=gender, hint=hint, plural=agreeing
                ),
            )
        )
        if kind == "place":  # "in Rust", "to Redis": places and things share the cue words
            found.append((start, Candidate(name, "thing", salience=0.5 if attached else 1.2)))
    return found, names


#: Kin words a family puts before a name: "Aunt Rosa", "grandma rose", "Uncle Dev".
KIN_TITLES = frozenset("aunt auntie uncle grandma grandpa granny grandad granddad nana nan gran cousin".split())
#: ...but "my aunt Fatima" is the role and the name, which the role-noun pass reads already.
_KIN_BEFORE = re.compile(
    r"(?<!\bmy )(?<!\bour )(?<!\bhis )(?<!\bher )(?<!\byour )(?<!\btheir )"
    r"\b(aunt|auntie|uncle|grandma|grandpa|granny|grandad|granddad|nana|nan|gran|cousin)\s+$"
)


def _kin_gender(kin: str) -> str | None:
    low = kin.lower()
    return "f" if low in FEMALE_NOUNS else "m" if low in MALE_NOUNS else None


def _kind_of(name: str, before: str, after: str, possessive: bool) -> tuple[str, float]:
    """name_kind, except that an ampersand joins a firm or its product, never a place ("Farrow & Ball")."""
    kind, weight = name_kind(name, before, after, possessive)
    return ("thing" if " & " in name and kind == "place" else kind), weight


def inside_text(phrases: list[tuple[int, Candidate]]) -> str:
    return " ".join(c.text.lower() for _, c in phrases)


def _held(phrase: str, inside: set[str]) -> bool:
    """Whether a bare plural belongs to another phrase: its last word does, and so does its head, or
    the head is a vague request word ("ideas for a weekend trip from Madrid"). "two kittens from a
    shelter" holds the kittens, whatever holds the shelter."""
    head = cached_re.split(r"\s+(?:of|for|from|to|with|in|on|at)\s+", phrase.lower(), maxsplit=1)[0].split()[-1]
    return phrase.lower().split()[-1] in inside and (head in inside or head.removesuffix("s") in VAGUE)
