"""People described by what they do: "the projector person", "the demo guy", "whoever handles
repairs", "the in-person tutor", "Leo's teacher", "the boss".

A description names no one, but the conversation may have named the role outright ("my manager
Catherine", "the letting agent is Sophie") or tied the description's words to one person
(ties.py: a name's stretch of a sentence, a speaker's first-person clauses, the answer to a
question). The description's own words must meet a person's ties, its verb too for "whoever ...";
its role noun must be said of the person or in a sentence that names them (half weight); "Leo's
teacher" must share a clause with Leo. The one person with the best score is the referent; a tie
leaves the description alone.

Generic uses describe nobody in particular and are not read: "whoever wins gets a prize", "how do
I become the next team lead", "the manager of Arsenal", "who was the person who invented the
telephone".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from mnemo.retrieve.rewrite.implicit import LIGHT, is_role
from mnemo.retrieve.rewrite.names import AUXILIARIES
from mnemo.retrieve.rewrite.roles import latest_name, named_role, stated_role
from mnemo.retrieve.rewrite.said import conversation_text
from mnemo.retrieve.rewrite.ties import Ties, person_ties, stems
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: Heads that say only "a person": the words before them must say which ("the demo guy").
GENERIC_HEADS = frozenset("person guy girl lady man woman bloke chap fella dude".split())
#: Roles that go by other names: "the boss" of "our team lead Adaeze".
ROLE_ALIASES = {"boss": ("manager", "lead", "supervisor")}
#: Roles too close to the chat itself to describe a third person.
_NOT_DESCRIBED = frozenset("user assistant friend friends partner".split())
#: Modifiers that make a description hypothetical or general ("the next team lead", "the average plumber").
_GENERAL_MODIFIERS = frozenset(
    "next average typical final future ideal good best usual other same perfect right wrong ordinary any every".split()
)
#: Words before a description that make it a role to take, not a person ("become the lead", "as the lead").
_ROLE_TAKING = frozenset("become becoming became as be being any every".split())
_AUXILIARIES = AUXILIARIES | {"do", "be", "been"}
#: A finite verb after "whoever ...": the clause is the subject, and means anyone ("whoever wins gets a prize").
_SUBJECT_OF = frozenset(
    "will would should must can could may might has have had is was gets get got needs pays takes wins buys owes"
    " goes wins decides".split()
)

_DETERMINER = re.compile(r"\b(the|my|our|your|his|her|their|([A-Za-z][\w-]*)'s)(?=\s)", re.IGNORECASE)
#: One word after a determiner, and whatever ends it (a comma or a dash breaks the phrase).
_WORD_AFTER = re.compile(r"\s+([A-Za-z][\w-]*)(?:'s)?\b([,;:.!?]?)")
#: "whoever handles repairs", "the guy who fixed the boiler": up to four words of clause.
_WHOEVER = re.compile(
    r"\b(?:whoever|the\s+(?:person|guy|woman|man|lady|people)\s+(?:who|that))\s+((?:[\w'-]+\s+){0,3}?[\w'-]+)"
    r"(?=\s*(?:[,;?!]|\.\B|$)|\s+(?:and|to|about|so|if|when|then|before|after)\b)",
    re.IGNORECASE,
)
#: Irregular past tenses: "the woman who ran the stall" is someone past, like "who fixed".
_PAST = frozenset("did ran made took gave sold sent brought taught built drove wrote found lent paid put cut".split())
#: Words after which "whoever ..." is a clause's subject, which means anyone, not someone known.
_CLAUSE_OPENERS = frozenset("and but so or because if when then that as while".split())
#: A "who is the person who ..." question asks who in the world did it.
_WORLD_QUESTION = re.compile(r"\bwho(?:\s+(?:is|was|were|are)|'s)\s*$", re.IGNORECASE)
_OF_A_NAME = re.compile(r"^\s+(?:of|in|at|for|from)\s+(?:the\s+)?[A-Z]")
#: Names that are places or firms, which a person description never means.
_NOT_A_PERSON = re.compile(r"(?:\b(?:St|Street|Rd|Road|Lane|Ave|Avenue|Co|Ltd|Inc|Plc|LLC)\.?$|&)")


@dataclass(frozen=True, slots=True)
class Description:
    """A description of a person in the query: its span, head word, the stems that say which
    person, the verb of a "whoever" clause, and the person it belongs to ("Leo" of "Leo's teacher")."""

    start: int
    end: int
    head: str
    words: frozenset[str]
    owner: str | None = None
    verb: str | None = None

    @property
    def role(self) -> str | None:
        return None if self.head in GENERIC_HEADS or self.head == "whoever" else self.head


@lru_cache(maxsize=256)
def descriptions(query: str) -> tuple[Description, ...]:
    """The person descriptions of a query, left to right (overlapping ones dropped); cached, as
    detection and each reference's resolution ask again."""
    found = [d for m in _WHOEVER.finditer(query) if (d := _clause_description(query, m))]
    for match in _DETERMINER.finditer(query):
        described = _determined(query, match)
        if described and not any(d.start < described.end and described.start < d.end for d in found):
            found.append(described)
    return tuple(sorted(found, key=lambda d: d.start))


_PHRASE = re.compile(r"\b(?:the|our|my|your)\s+(?:([a-z][\w-]*)\s+)?([a-z][\w-]*)\b")


def stated_descriptions(query: str, context: Sequence[Mapping[str, str]]) -> tuple[Description, ...]:
    """Other phrases the conversation made a person's title by a copula: "the code owner" after
    "Bongani is the code owner for the middleware folder". The whole phrase must be stated."""
    found = []
    text = conversation_text(context)
    lowered = text.lower()
    for match in _PHRASE.finditer(query):
        modifier, head = match.group(1), match.group(2).lower()
        if head in STOPWORDS or is_role(head) or head in GENERIC_HEADS or (modifier and modifier in STOPWORDS):
            continue
        if head not in lowered:
            continue  # cheap first: most phrases of a query are not in the conversation at all
        phrase = re.escape(f"{modifier} {head}" if modifier else head)
        stated = (
            rf"(?!(?:This|That|It|He|She|They|There|What|Who|Which|Here)\b)[A-Z][\w'-]+\s+(?:is|was)\s+"
            rf"(?:the|our|my|your)\s+(?i:{phrase})\b"
            rf"|(?i:\bthe\s+{phrase})\s+(?:is|was)\s+[A-Z]"
        )
        if cached_re.search(stated, text):
            found.append(Description(match.start(), match.end(), head, frozenset()))
    return tuple(found)


def _clause_description(query: str, match: re.Match[str]) -> Description | None:
    """ "whoever handles repairs": the clause's verb and the words of its object."""
    clause = match.group(1).split()
    cut = next((i for i, w in enumerate(clause) if i >= 2 and w.lower().endswith("ing")), len(clause))
    clause = clause[:cut]  # "whoever is picking up Grandma leaving": the clause ends at the next verb
    before = cached_re.findall(r"[\w']+", query[: match.start()].lower())[-1:]
    after = cached_re.findall(r"[\w']+", query[match.start(1) + len(" ".join(clause)) :].lower())[:1]
    if not before or before[0] in _CLAUSE_OPENERS or (after and after[0] in _SUBJECT_OF):
        return None  # "whoever wins gets a prize", "decide whoever is on call gets paged": anyone
    if _WORLD_QUESTION.search(query[: match.start()]):
        return None  # "who was the person who invented the telephone"
    lowered = [w.lower() for w in clause]
    verb_at = 1 if lowered[0] in _AUXILIARIES and len(lowered) > 1 and lowered[1].endswith(("ing", "ed")) else 0
    verb = lowered[verb_at] if lowered[verb_at] not in _AUXILIARIES | STOPWORDS | LIGHT else None
    if verb and (verb.endswith("ed") or verb in _PAST):
        verb = None  # "the guy who fixed the boiler": someone past, known by the object alone
    past = verb is None and (lowered[verb_at].endswith("ed") or lowered[verb_at] in _PAST)
    words = frozenset(stems(" ".join(clause[verb_at + 1 :] if verb or past else clause)))
    if not words and not verb:
        return None  # "whoever asks first": no words say which person
    end = match.start(1) + len(" ".join(match.group(1).split()[: len(clause)]))
    return Description(match.start(), end, "whoever", words, verb=verb[:4] if verb else None)


def _determined(query: str, match: re.Match[str]) -> Description | None:
    """The description a determiner opens: up to two modifiers, then a person head."""
    owner = match.group(2)
    before = cached_re.findall(r"[\w']+", query[: match.start()].lower())[-1:]
    if (owner and owner.lower() in STOPWORDS) or (before and before[0] in _ROLE_TAKING):
        return None  # "as the team lead", "become the boss": a role to take
    words: list[re.Match[str]] = []
    while len(words) < 3:
        word = _WORD_AFTER.match(query, words[-1].end() if words else match.end())
        if word is None:
            break
        words.append(word)
    for index, word in enumerate(words):
        head = word.group(1).lower()
        modifiers = [w.group(1).lower() for w in words[:index]]
        if any(m in STOPWORDS or m in _GENERAL_MODIFIERS for m in modifiers) or (index and words[index - 1].group(2)):
            return None  # "the one with the new guy", "the next team lead", "the van, a guy"
        generic = head in GENERIC_HEADS
        if head in _NOT_DESCRIBED or not (generic or is_role(head) or head in ROLE_ALIASES):
            continue
        if _OF_A_NAME.match(query[word.end(1) :]):
            return None  # "the manager of Arsenal", "the final boss in Elden Ring": says whose itself
        described = frozenset(stems(" ".join(modifiers)))
        if generic and not described:
            return None  # "the guy", "that woman": no words to tell which
        return Description(match.start(), word.end(1), head, described, owner)
    return None


def mentioned(description: Description, context_words: set[str]) -> bool:
    """Whether the conversation has the words to tie the description to someone (cheap, for
    detection): a whole word of the description, its role or an alias of the role."""
    said = {w.removesuffix("s") for w in context_words}
    wanted = {w for w in said if w[:5] in description.words}
    if description.role:
        wanted |= {description.role, *ROLE_ALIASES.get(description.role, ())} & said
    return bool(wanted)


def described_person(
    description: Description, people: Iterable[str], context: Sequence[Mapping[str, str]]
) -> str | None:
    """The one person of ``people`` (names from the conversation) the description points at, or None."""
    named = _named_outright(description, context)
    if named:
        return named
    text = " ".join(str(m.get("content") or "") for m in context)
    names = [p for p in dict.fromkeys(people) if _may_be(p, description, text)]
    ties = person_ties(names, context)
    scored = sorted(((_score(description, ties[n]), n) for n in names), reverse=True)
    if not scored or scored[0][0] < 1.0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    best = scored[0][1]
    if best.split()[-1][:1].isupper():
        return best
    # a role the conversation described and named elsewhere: "the boiler engineer last winter was
    # Kamil", "the electrician who rewired the kitchen, Abdi, left a quote", "the letting agent is Sophie"
    return _named_by(best, context) or stated_role(best.split()[-1], context)


_NAME = r"((?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?[A-Z][\w'-]+)"


def _named_by(phrase: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The name a described person is given in the same sentence: by a copula a few words on, or
    in apposition after the phrase's clause."""
    body = re.escape(phrase)
    patterns = (
        rf"(?i:{body})(?:\s+[a-z]+){{0,3}}\s+(?:is|was)\s+{_NAME}",
        rf"(?i:{body})(?:[^.,;!?]|\.\b){{0,60}},\s+{_NAME}\s*,",
    )
    return latest_name(patterns, context)


def _named_outright(description: Description, context: Sequence[Mapping[str, str]]) -> str | None:
    """The name the conversation gave the role itself: "my manager Catherine", "Leo's teacher is
    Mr Fitzgerald", "our team lead Adaeze" for "the boss". Only for a bare role: "the online tutor"
    asks which of the tutors."""
    role = description.role
    if not role or description.words:
        return None
    text = conversation_text(context)
    if description.owner:  # "Sam's coach": only a coach given to Sam, not Mia's coach
        owned = cached_re.search(
            rf"(?i:\b{re.escape(description.owner)}'s\s+(?:[a-z]+\s+)?{re.escape(role)})(?:,|\s+is|\s+was)?\s+"
            r"((?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?[A-Z][\w'-]+)",
            text,
        )
        return owned.group(1) if owned else _owners_own(description.owner, role, context)
    found = stated_role(role, context) or named_role(role, context)
    for alias in ROLE_ALIASES.get(role, ()):  # "our team lead Adaeze", not "I'll lead Kevin"
        if found is None and cached_re.search(rf"\b(?:my|our|the|their|team)\s+{alias}\b", text, re.IGNORECASE):
            found = stated_role(alias, context) or named_role(alias, context)
    return found if found and not _NOT_A_PERSON.search(found) else None


def _owners_own(owner: str, role: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "Maite's cousin" when Maite said "my cousin Leon": the role the owner named in her own words."""
    label = cached_re.compile(rf"^\s*{re.escape(owner)}\s*:\s", re.IGNORECASE)
    mine = cached_re.compile(
        rf"\bmy\s+(?:[a-z]+\s+)?(?i:{re.escape(role)})\s*,?\s+((?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?[A-Z][\w'-]+)"
    )
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        speaker = str(message.get("name") or "")
        if label.match(text) or speaker.lower() == owner.lower():
            found = mine.search(text)
            if found:
                return found.group(1)
    return None


def _may_be(person: str, description: Description, text: str) -> bool:
    """Whether a person could be the one described: not a place or firm, not the description
    itself ("my accountant"), not someone with another role ("my son Mateo" for "the coach"), not
    the owner ("Leo" of "Leo's teacher"), not the owner of that very role ("Mia's coach")."""
    if _NOT_A_PERSON.search(person):
        return False
    role = description.role
    words = [w for w in person.split() if w.islower()]  # "Mr Lindqvist" is no "-ist"
    if role and (words[-1:] == [role] or any(is_role(w) and w != role for w in words)):
        return False
    last = person.split()[-1].lower()
    if description.owner and last == description.owner.lower():
        return False
    if role:  # ``text``: the whole conversation, joined once for every person
        return not cached_re.search(rf"(?i:\b{re.escape(last)}'s\s+(?:[a-z]+\s+)?{re.escape(role)}s?\b)", text)
    return True


def _score(description: Description, ties: Ties) -> float:
    strong = len(description.words & ties.own)
    verb = description.verb or ""
    did = bool(verb) and any(s.startswith(verb) or (len(s) >= 3 and verb.startswith(s)) for s in ties.own)
    if description.verb and not did:
        return 0.0  # "whoever wins the raffle": not whoever runs it
    if description.words and not strong and not did:
        return 0.0  # "the projector person": someone must have been tied to the projector
    score = float(strong) + did
    role = description.role
    if role and role not in ties.own_nouns and role not in ties.near_nouns:
        return 0.0  # "the football coach": a footballer is no coach unless the noun is said of them
    if role:
        score += 1.0 if role in ties.own_nouns else 0.5
    if description.owner:
        owner = description.owner.lower()
        if not any(cached_re.search(rf"\b{re.escape(owner)}\b", clause) for clause in ties.clauses):
            return 0.0  # "Leo's teacher": named beside Leo
        score += 1.0
    return score
