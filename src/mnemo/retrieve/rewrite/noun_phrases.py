"""Determiner-led noun phrases of a message ("the ETL job", "my daughter Amira", "a clause banning all
pets"): their extent, what they attach, and whether a person or a place is meant. A part of
candidate extraction (candidates.py), kept apart for its size.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mnemo.retrieve.rewrite.bare import (
    ATTACHED,
    PLURAL_AGREEING,
    looks_plural,
    trim,
    trim_keep_det,
)
from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.compounds import window_before
from mnemo.retrieve.rewrite.names import (
    FEMALE_NOUNS,
    FIRST_NAMES,
    MALE_NOUNS,
    PERSON_NOUNS,
    PLACE_NOUNS,
    fold,
)
from mnemo.retrieve.rewrite.plain_names import TECH, tech_weight
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: The phrase sits in a lookahead so a determiner inside a trimmed-off tail ("a doctor about
#: my back pain") still starts a phrase of its own.
_PHRASE = re.compile(
    r"\b(?:the|a|an|our|my|your|his|her|their|this|that|these|those)\s+"
    # a dot only inside a word ("fly.io", "v2.3"): "a tough situation. Whose" is two sentences
    # a plural's apostrophe keeps its phrase: "the farmers' market"
    # a clock time or a measure may open it: "the 11pm dream feed", "the 7:15 train", "a 2kg beef brisket"
    r"(?=((?:(?:\d{1,2}(?::\d\d)?\s?[ap]m|\d{1,2}:\d\d|\d+(?:\.\d+)?(?:kg|g|lb|ml|l|cm|mm|m|km|inch|ft|oz)|\d{1,2}-(?:year|month|week)-old)\s+)?"
    r"(?:[A-Za-z](?:[\w\-]|\.(?=\w)|(?<=s)'(?=\s))*\s+){0,2}[A-Za-z](?:[\w\-]|\.(?=\w))*))",
    re.IGNORECASE,
)
#: The name given, whole: "called Core Haus", "called Taberna da Rua" (a particle inside a name).
_CALLED = re.compile(
    r"^\s+(?:called|named)\s+([\w.\-]+(?:(?:\s+(?:da|de|del|della|di|do|dos|du|van|von|la|le|el|of|the|and|&))?"
    r"\s+(?-i:[A-Z0-9])[\w.\-]*){0,3})"
)


#: A name and a verb after "that": the conjunction opens a clause ("note that Mark has your drill").
_CLAUSE_AFTER_THAT = re.compile(
    r"(?-i:[A-Z])[\w'-]+\s+(?:has|had|is|was|will|would|can|could|should|did|does|said|says|got|took|lent|owes|wants)\b"
)


#: A model number after a capitalised name ("iPhone 11", "Pixel 8", "Sony 50mm"), not a count or a
#: measure that follows it ("the Golf 2 years ago", "Dad 20 pounds").
_MODEL_NUMBER = re.compile(
    r"\s+(\d{1,4}[a-zA-Z]{0,3})(?![\w'%])(?![.,]\d)(?!\s+(?:years?|months?|weeks?|days?|hours?|minutes?|mins?|seconds?"
    r"|percent|kg|km|miles?|times?|people|euros?|pounds?|dollars?|quid|am|pm|of|x)\b)"
)
#: A further word of a capitalised name: a capital word, a roman numeral or a model number.
_NAME_GOES_ON = re.compile(r"\s+((?:[A-Z][\w-]*|\d+[a-z]?))(?![\w'])")


def _whole_name(phrase: str, text: str, start: int) -> str:
    """A phrase of three capitalised words that goes on as a name keeps its last words, up to five:
    "the Canon R6 Mark II", "the Sony A7 IV" (the phrase rule reads three words after "the")."""
    words = phrase.split()
    if len(words) < 3 or not all(w[:1].isupper() or w[:1].isdigit() for w in words):
        return phrase
    end = start + len(phrase)
    while len(words) < 5 and (more := _NAME_GOES_ON.match(text, end)) and more.group(1) not in ("I", "A"):
        words.append(more.group(1))
        end = more.end()
    return " ".join(words)


#: A plural verb right after a phrase or a name: what it names is several ("The Pegasus are", "AirPods were").
PLURAL_VERB = re.compile(r"\s+(?:are|were|have\s+been|aren't|weren't)\b")
#: "from" and a capitalised name after a person: the firm or place that says which person.
_FROM_NAME = re.compile(r"^(\s*from\s+(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)?)(?![\w'-])")
#: A copula after a name or a pronoun: what follows with "a"/"an" describes it ("The RadCity 5 Plus
#: is a popular commuter model", "it's a great show"); "there is a leak" introduces one.
_DESCRIBED_BY = re.compile(
    r"(?:\b(?!(?:there|here|this|that|what|who|which|where|how)\b)(?-i:[A-Z][\w-]*)|\b(?:it|he|she|they))(?:'s|’s|\s+(?:is|was|are|were|seems\s+like|sounds\s+like))"
    r"(?:\s+(?:also|still|really|actually|quite|such|just|probably|definitely|honestly))*\s+$",
    re.IGNORECASE,
)
#: A verdict that is a whole sentence: "A powerful film.", "Great book!", "A classic choice."
_VERDICT_END = re.compile(r"[^\w\s]*\s*(?:[!]|\.\B|$)")


def describes(text: str, start: int) -> bool:
    """Whether the phrase at ``start`` (after its "a"/"an") is the predicate of a copula whose
    subject is a name or a pronoun: "The RadCity 5 Plus is a popular commuter model"."""
    article = cached_re.search(r"\b(?:a|an)\s+$", text[max(0, start - 70) : start], re.IGNORECASE)
    return article is not None and bool(_DESCRIBED_BY.search(text[max(0, start - 70) : start][: article.start()]))


def _predicate_nominal(match: re.Match[str], text: str) -> bool:
    """An "a"/"an" phrase that only describes something named before it: the predicate of a copula
    whose subject is a name or a pronoun, or a verdict standing as its own sentence."""
    if match.group(0).split()[0].lower() not in ("a", "an"):
        return False
    if describes(text, match.start(1)):
        return True
    before = text[max(0, match.start() - 60) : match.start()]
    opens = not before.strip() or before.rstrip()[-1:] in ".!?"
    end = match.start(1) + len(match.group(1))
    return opens and len(match.group(1).split()) <= 3 and bool(_VERDICT_END.match(text, end))


def phrases(text: str) -> list[tuple[int, Candidate]]:
    out: list[tuple[int, Candidate]] = []
    covered = previous_end = 0
    for match in _PHRASE.finditer(text):
        phrase = trim(match.group(1))
        if not phrase or match.start() < covered:
            continue
        if match.group(0)[:4].lower() in ("that", "this") and _NAMED_ALONE.match(text, match.start(1)):
            continue  # "is that Hugo, the beagle?": an identity question names, it has no "that Hugo"
        if match.group(0)[:4].lower() in ("that", "this") and _VERB_AFTER_PRONOUN.match(text, match.start(1)):
            continue  # "That means a gluten-free diet": a pronoun subject and its verb
        if match.group(0)[:4].lower() == "that" and _CLAUSE_AFTER_THAT.match(text, match.start(1)):
            continue  # "I'll note that Mark has your drill": a clause's subject, no "the Mark"
        if _predicate_nominal(match, text):
            continue  # "X is a popular commuter model", "A powerful film.": said of a referent, never one
        phrase = _whole_name(phrase, text, match.start(1))  # "the Canon R6 Mark II": a name runs on
        model = _MODEL_NUMBER.match(text, match.start(1) + len(phrase))
        if model and any(c.isupper() for c in phrase.split()[-1]):
            phrase = f"{phrase} {model.group(1)}"  # "an old iPhone 11", "my Pixel 8": the model number is the name
        head = phrase.split()[-1].lower()
        rest = text[match.start(1) + len(phrase) : match.start(1) + len(phrase) + 200]  # what follows, a few words
        several = len(phrase.split()) > 1
        before = window_before(text, match.start())
        if several and (_verb_like_end(phrase, rest) or _AUX_BEFORE.search(before)):
            phrase = phrase.rsplit(" ", 1)[0]  # "the ETL job writes Parquet": "writes" is the verb
            rest = text[match.start(1) + len(phrase) : match.start(1) + len(phrase) + 200]
            head = phrase.split()[-1].lower()
        named, attached = _CALLED.match(rest), ATTACHED.match(rest)
        kind = "person" if person_phrase(phrase.split()) else "place" if head in PLACE_NOUNS else "thing"
        # "been going to the support group": the goal of a motion is also a place ("go there")
        goal = kind == "thing" and bool(_MOTION_TO.search(before))
        words = phrase.split()
        if len(words) > 1 and words[-2].lower() in PERSON_NOUNS and words[-1][:1].isupper():
            kind = "person"  # "my daughter Amira" is Amira
            head = words[-2].lower()  # ...and a daughter: the role gives the gender a name may not
        firm = _FROM_NAME.match(rest) if kind == "person" and not named else None
        if named:
            phrase = f"{phrase} {named.group(1)}"
        elif firm:
            phrase = f"{phrase} {firm.group(1)}"  # "an engineer from HeatRight": where the person comes from
        elif (
            attached
            and kind != "person"
            and _attachable(rest.split()[0], attached.group(1), before)
            and trim_keep_det(attached.group(1)).strip()
        ):
            phrase = f"{phrase} {rest.split()[0]} {trim_keep_det(attached.group(1))}"
        elif len(words) > 1 and words[-1].endswith("ing") and (object_ := _PARTICIPLE_OBJECT.match(rest)):
            phrase = f"{phrase} {object_.group(1)}"  # "a clause banning all pets": the participle's object says which
        covered = match.start(1) + len(phrase)
        gender = "f" if head in FEMALE_NOUNS else "m" if head in MALE_NOUNS else None
        det = match.group(0).split()[0].lower()
        owner = "my" if det == "my" else "your" if det == "your" else "the"
        weight = max([tech_weight(w) for w in phrase.split() if TECH.fullmatch(w)] + [1.0])
        if weight == 1.0 and any(w[:1].isupper() for w in phrase.split()):
            weight = 1.15  # "the Kindle Paperwhite": a named thing
        # "the Yaris", "the Prius": a name in -is or -us is one thing ("the Okonkwos" stay a family)
        last = phrase.split()[-1]
        plural = looks_plural(head) and not (last[:1].isupper() and last.endswith(("is", "us")))
        # "The Pegasus are half a size too small": a sentence's subject that takes a plural verb is
        # several ("the leaves on my Monstera are" says nothing of the Monstera's number)
        opens = not before.strip() or before.rstrip()[-1:] in ".!?;:,"
        plural = plural or (opens and bool(PLURAL_VERB.match(text, match.start(1) + len(phrase))))
        if out and text[previous_end : match.start()].strip().lower() in ("for", "during"):
            weight *= 0.85  # "borrow my camera for his trip": the purpose is said of the thing before it
        candidate = Candidate(f"{owner} {phrase}", kind, salience=weight, gender=gender, plural=plural)
        out.append((match.start(), candidate))
        previous_end = covered
        if goal:
            out.append((match.start(), Candidate(candidate.text, "place", salience=0.8 * weight)))
    # "the neighbours' dog": the owners are a group of their own ("ask them")
    for start, candidate in list(out):
        owner = cached_re.match(r"((?:the|my|our|your|his|her|their)\s+[a-z]+s)'\s", candidate.text, re.IGNORECASE)
        if owner:
            out.append((start, Candidate(owner.group(1), "person", salience=candidate.salience * 0.8, plural=True)))
    return out


#: What a participle ending a phrase takes, up to a clause's end: "banning *all pets*".
_PARTICIPLE_OBJECT = re.compile(
    r"\s+((?:all|any|the|a|an|no|my|your|our|their)(?:\s+(?!(?:is|are|was|were|has|have|and|or|but|to|that|which|i|we)\b)"
    r"[a-z][\w-]*){1,3})"
)
_VERB_AFTER_PRONOUN = re.compile(
    r"[a-z]{2,}(?<!s)(?<!u)s\s+(?:a|an|the|that|it|you|to|we|i|not|more|less|so|one-handed|easily|well|flat|up|down)\b"
)
_MOTION_TO = re.compile(r"\b(?:go|goes|going|went|gone|been|get|got|getting)\s+(?:back\s+)?to\s+$", re.IGNORECASE)
_NAMED_ALONE = re.compile(r"[A-Z][a-z][\w'-]*(?:\s*(?:[,?!]|\.\B)|\s*$)")


#: A question's auxiliary right before a noun phrase: the phrase is its subject, and the phrase's
#: last word is the bare verb ("what did the doctor prescribe me", "did your dad cry?"). In "we did
#: the quarterly planning" the verb "did" opens no question, so its object keeps every word.
_AUX_BEFORE = re.compile(
    # "which painkiller did the dentist ...": a wh-word, perhaps with its noun; "what we did the
    # whole weekend" has a subject before "did", so "did" is the main verb there
    r"(?:^|[.?!,:]\s*|\b(?:what|when|where|why|how|who|which)\s+(?:(?!(?:i|we|you|he|she|they|it)\s)[a-z]+\s+){0,2})"
    r"(?:did|does|do|will|would|can|could|should|didn't|doesn't|don't|won't)\s+$",
    re.IGNORECASE,
)


#: A verb of giving before the phrase: its "to X" is the recipient ("I lent my drill to Tomasz").
_GIVING = re.compile(
    r"\b(?:lent|lend|gave|give|sent|send|passed|pass|handed|hand|showed|show|sold|sell|returned|return|forwarded"
    r"|forward|mailed|posted|owe|owed|paid|pay|brought|bring|took|take|lends|gives|sends|sells)\s+$",
    re.IGNORECASE,
)


def _attachable(preposition: str, attachment: str, before: str = "") -> bool:
    """Whether what follows "of"/"for"/"to"/"with" is a noun phrase of its own: "the new flat", a
    firm ("the contract with Halvorsen Logistics"), or one name where it says which ("my flight to
    Bogotá got cancelled"); "of course" or a bare verb is not, nor a person: one name met "with"
    ("the pricing change with Noor"), a listed first name, or one given something "to" ("lent my
    drill to Tomasz") is someone else, not part of the thing. An unlisted full name after "with"
    cannot be told from a firm's and stays attached."""
    first, _, rest = attachment.partition(" ")
    if first.lower() in ("the", "a", "an"):
        return bool(trim(rest))
    with_ = preposition.lower() == "with"
    recipient = preposition.lower() == "to" and _GIVING.search(before)
    if first[:1].isupper() and (recipient or fold(first.lower()) in FIRST_NAMES):
        return False
    return bool(trim(rest)) or (not with_ and first[:1].isupper() and bool(trim(first)))


def named_last(phrase: str) -> bool:
    words = phrase.split()
    return (
        len(words) > 2 and words[-1][:1].isupper() and words[-1][1:].islower() and all(w.islower() for w in words[:-1])
    )


def _verb_like_end(phrase: str, rest: str) -> bool:
    last = phrase.split()[-1].lower()
    following = rest.split()[0].lower().strip(".,;:!?") if rest.split() else ""
    if last in _THIRD_PERSON_VERBS:  # "my passport expires on 2 August"
        return True
    if following in _OBJECT_PRONOUNS and last.endswith("s") and not last.endswith(("ss", "'s")):
        return True  # "half the team loves it": a noun is not followed by an object pronoun
    before = phrase.split()[-2].lower()
    if before.endswith("ing") and len(before) > 4 and last not in _THIRD_PERSON_VERBS:
        return False  # "the blue running shoes", "my hiking boots": a gerund modifies the noun after it
    plural_verb = last.endswith("s") and not last.endswith("ss") and not before.endswith("s")
    if following in PLURAL_AGREEING:  # "the old keys stop working": the verb follows, "keys" is its subject
        return False
    return plural_verb and bool(following) and following not in STOPWORDS and rest.lstrip()[:1] not in ".,;:!?"


_OBJECT_PRONOUNS = frozenset("it them him me us".split())

#: Present-tense verbs that follow a subject noun phrase; a phrase ending in one ends before it.
_THIRD_PERSON_VERBS = frozenset(
    """expires keeps leaks hurts smells returns crashes breaks fails works runs needs takes shows looks seems
    sounds chokes lags hangs stops starts opens closes costs belongs depends happens matters""".split()
)


#: Role nouns that also name things: "the team lead" is a person, "the extension lead" is not;
#: "my client" is a person, "the API client" is software.
_THING_SENSES = frozenset("lead client builder installer agent".split())
#: Words before such a noun that keep the person sense.
_ROLE_MODIFIERS = frozenset(
    """the a an my our your his her their this that new old former previous senior junior main head other
    potential team tech technical project product design engineering sales marketing dev qa ux ops travel
    estate insurance literary real""".split()
)


def person_phrase(words: Sequence[str]) -> bool:
    """Whether a noun phrase names a person by its head ("my dentist"), unless a modifier gives the
    head its thing sense ("the extension lead")."""
    head = words[-1].lower()
    if head not in PERSON_NOUNS:
        return False
    return head not in _THING_SENSES or len(words) < 2 or words[-2].lower() in _ROLE_MODIFIERS
