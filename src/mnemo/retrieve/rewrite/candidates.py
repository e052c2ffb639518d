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
from mnemo.retrieve.rewrite.capitalised import named
from mnemo.retrieve.rewrite.compounds import compound_names
from mnemo.retrieve.rewrite.endorsed import offered
from mnemo.retrieve.rewrite.gender import chain_gender, gender_hint, gender_of, learn_gender
from mnemo.retrieve.rewrite.health import drug_names
from mnemo.retrieve.rewrite.lowercase import common_words, lower_case_chat, truecase, written_names
from mnemo.retrieve.rewrite.namekind import WORD
from mnemo.retrieve.rewrite.names import (
    FEMALE_NOUNS,
    MALE_NOUNS,
    NOT_NAMES,
    PERSON_NOUNS,
    VAGUE,
)
from mnemo.retrieve.rewrite.noun_phrases import named_last, person_phrase, phrases
from mnemo.retrieve.rewrite.opening import opening as opening_text
from mnemo.retrieve.rewrite.plain_names import code_names, dosed, headline, labelled, lower_answer, quoted
from mnemo.retrieve.rewrite.possessed import aged_children, kin_names, person_owned, possessed
from mnemo.retrieve.rewrite.possessive_titles import possessive_titles, title_tails
from mnemo.retrieve.rewrite.specify import specifications
from mnemo.retrieve.rewrite.tidy import tidy
from mnemo.retrieve.rewrite.whole_names import whole_names

from . import cached_re

GENERIC_ROLES = frozenset({"user", "assistant", "system", "tool", "human", "ai", "bot", "model", "function"})
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
        weight = (USER_WEIGHT if role.lower() in ("user", "human") else 1.0) / (1.0 + RECENCY_DECAY * distance)
        if role and role.lower() not in GENERIC_ROLES:
            talking = role in participants
            speaker = Candidate(role, "person", gender=gender_of(role), hint=gender_hint(role), speaker=talking)
            _note(found, speaker, weight * SPEAKER_WEIGHT, distance)
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
                weight * framed * candidate.salience * (1.0 + ORDER_SPREAD * (0.5 - order / max(1, len(mentions)))),
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
    r"(?:^|(?<=[.!?])\s+)((?:for|at|in|on|after|before|during|since|over|by)\s+(?:[^,.!?]|\.\b){2,60}?)"
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
_ASKS_WHAT = re.compile(
    r"(?i)(?:^|[.!?\u2014-]\s*)(what|which|who)\b(?:[^.!?]|\.\b)*\?\s*$"
    r"|^\s*(who)\b(?:[^.!?]|\.\b)*$"
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


#: How much the user's own words count over the assistant's: what they asked about is the topic.
USER_WEIGHT = 1.5
#: How fast a message's weight falls with its distance from the query (1 / (1 + decay * distance)).
RECENCY_DECAY = 0.35
#: A participant's name as a referent, against the things their message names.
SPEAKER_WEIGHT = 0.8
#: How far a message's first mention outweighs its last (the first gets 1 + spread / 2).
ORDER_SPREAD = 0.5
#: What each further mention adds, decayed like the message it is in.
REPEAT_BONUS = 0.3

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
    known.salience = max(known.salience, weight) + REPEAT_BONUS / (1.0 + RECENCY_DECAY * distance)
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
    found, names = named(text, inside, written, answer, common)
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
    found = whole_names(text, found)  # "iOS 17.4", "B&H", "Disney+": no name cut at its symbol or number
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


def inside_text(phrases: list[tuple[int, Candidate]]) -> str:
    return " ".join(c.text.lower() for _, c in phrases)


def _held(phrase: str, inside: set[str]) -> bool:
    """Whether a bare plural belongs to another phrase: its last word does, and so does its head, or
    the head is a vague request word ("ideas for a weekend trip from Madrid"). "two kittens from a
    shelter" holds the kittens, whatever holds the shelter."""
    head = cached_re.split(r"\s+(?:of|for|from|to|with|in|on|at)\s+", phrase.lower(), maxsplit=1)[0].split()[-1]
    return phrase.lower().split()[-1] in inside and (head in inside or head.removesuffix("s") in VAGUE)
