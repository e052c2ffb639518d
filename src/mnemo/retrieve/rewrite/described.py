"""People described by what they do: "the projector person", "the demo guy", "whoever handles
repairs", "the in-person tutor", "Leo's teacher", "the boss".

A description names no one, but the conversation tied its words to a person. The ties read here:

- the stretch of a sentence a name owns ("Mr Achebe, £35/hr in person, or Ms Varga, online only":
  "in person" is Mr Achebe's; text between two names splits at the last comma or "and"/"or");
- a named speaker's own first-person message ("Bram: I'll handle the demo");
- the answer to a question ("Noor: who's bringing the projector?" - "Felix: me"; "when is Kofi's
  parent-teacher conference?" - "at 4:30 with Mr Bianchi"): the person who answers "me", or the one
  person the answer's first part names, takes the question's words.

The description's own words must meet a person's ties (its role word may meet the person's
sentence, at half weight); "Leo's teacher" must also share a clause with Leo. The one person with
the best score is the referent; a tie leaves the description alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mnemo.retrieve.rewrite.implicit import LIGHT, is_role
from mnemo.retrieve.rewrite.names import NOT_NAMES
from mnemo.retrieve.rewrite.roles import named_role, stated_role
from mnemo.store.sql import STOPWORDS

#: Heads that say only "a person": the words before them must say which ("the demo guy").
GENERIC_HEADS = frozenset("person guy girl lady man woman bloke chap fella dude".split())
#: Roles that go by other names: "the boss" of "our team lead Adaeze".
ROLE_ALIASES = {"boss": ("manager", "lead", "supervisor", "head")}
#: Roles too close to the chat itself to describe a third person.
_NOT_DESCRIBED = frozenset("user assistant friend friends partner".split())

_DETERMINER = re.compile(r"\b(the|my|our|your|([A-Za-z][\w-]*)'s)(?=\s)", re.IGNORECASE)
#: One word after a determiner, and whatever ends it (a comma or a dash breaks the phrase).
_WORD_AFTER = re.compile(r"\s+([A-Za-z][\w-]*)(?:'s)?\b([,;:.!?]?)")
_WHOEVER = re.compile(
    r"\b(?:whoever|the\s+(?:person|one|guy|woman|man)\s+(?:who|that))\s+((?:[\w'-]+\s*?){1,6}?)"
    r"(?=\s*(?:[,.;?!]|$|\s(?:and|to|about|so|if|when|then|before|after)\b))",
    re.IGNORECASE,
)
#: Words after which "whoever ..." is a clause's subject, which means anyone, not someone known.
_CLAUSE_OPENERS = frozenset("and but so or because if when then that as while".split())
_NOT_CONTENT = STOPWORDS | LIGHT | frozenset("thanks thank please cheers sorry".split())
_STEM_WORD = re.compile(r"[a-z][a-z']{2,}")
_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;\n]*")
#: Where the text between two names changes owner: "Mr Achebe, in person, or Ms Varga".
_OWNER_BREAK = re.compile(r",|\b(?:and|or|but|while|whereas)\b")
_COORDINATED = re.compile(r"\s*(?:,|&|and|or|,\s*and)?\s*", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"(?<![\w'])(?:I|I'll|I'm|I've|I'd|me|my|mine)(?![\w'])")
_ANSWER_ME = re.compile(r"^\W*(?:me|i|i will|i can|i do|i did|i am|i'll|i've|i'm|mine|yes,? me)\b", re.IGNORECASE)
_GENERIC_SPEAKERS = frozenset("user assistant system tool human ai bot model function".split())


@dataclass(frozen=True, slots=True)
class Description:
    """A description of a person in the query: its span, head word, the words that say which
    person, and the person it belongs to ("Leo" of "Leo's teacher")."""

    start: int
    end: int
    head: str
    words: frozenset[str]
    owner: str | None = None

    @property
    def role(self) -> str | None:
        return None if self.head in GENERIC_HEADS or self.head == "whoever" else self.head


def stems(text: str) -> set[str]:
    """Content-word stems (first five letters); hyphenated words count word by word."""
    words = _STEM_WORD.findall(text.lower().replace("-", " "))
    return {w[:5] for w in words if w not in _NOT_CONTENT and len(w) > 3 and "'" not in w}


def descriptions(query: str) -> list[Description]:
    """The person descriptions of a query, left to right (overlapping ones dropped)."""
    found: list[Description] = []
    for match in _WHOEVER.finditer(query):
        clause = match.group(1).split()
        # "whoever handles repairs": the verb says little, its object which person
        words = frozenset(stems(" ".join(clause[1:] if len(clause) > 1 else clause)))
        before = re.findall(r"[\w']+", query[: match.start()].lower())[-1:]
        if words and before and before[0] not in _CLAUSE_OPENERS:  # "whoever wins gets a prize": anyone
            found.append(Description(match.start(), match.end(1), "whoever", words))
    for match in _DETERMINER.finditer(query):
        described = _determined(query, match)
        if described and not any(d.start < described.end and described.start < d.end for d in found):
            found.append(described)
    return sorted(found, key=lambda d: d.start)


def _nouns(text: str) -> set[str]:
    """The words of a text whole, plurals read as singular ("tutors" -> "tutor"), so that a role
    noun meets its noun and not its verb ("teaching")."""
    words = _STEM_WORD.findall(text.lower().replace("-", " "))
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in words}


def _determined(query: str, match: re.Match[str]) -> Description | None:
    """The description a determiner opens: up to two modifiers, then a person head."""
    owner = match.group(2)
    if owner and owner.lower() in STOPWORDS:
        return None
    words: list[re.Match[str]] = []
    while len(words) < 3:
        word = _WORD_AFTER.match(query, words[-1].end() if words else match.end())
        if word is None:
            break
        words.append(word)
    for index, word in enumerate(words):
        head = word.group(1).lower()
        modifiers = [w.group(1) for w in words[:index]]
        if any(m.lower() in STOPWORDS for m in modifiers) or (index and words[index - 1].group(2)):
            return None  # "the one with the new guy": no modifier run; "the van, a guy": a break
        generic = head in GENERIC_HEADS
        if head in _NOT_DESCRIBED or not (generic or is_role(head) or head in ROLE_ALIASES):
            continue
        described = frozenset(stems(" ".join(modifiers)))
        if generic and not described:
            return None  # "the guy", "that woman": no words to tell which
        return Description(match.start(), word.end(1), head, described, owner)
    return None


def mentioned(description: Description, context_words: set[str]) -> bool:
    """Whether the conversation has the words to tie the description to someone (cheap, for detection)."""
    wanted = set(description.words) | ({description.role[:5]} if description.role else set())
    wanted |= {a[:5] for a in ROLE_ALIASES.get(description.head, ())}
    return bool(wanted & {w[:5] for w in context_words})


@dataclass(slots=True)
class _Ties:
    own: set[str] = field(default_factory=set)  # stems of what the person said or had said of them
    own_nouns: set[str] = field(default_factory=set)  # the same words whole, in the singular
    near_nouns: set[str] = field(default_factory=set)  # the words of the sentences they were named in
    clauses: list[str] = field(default_factory=list)  # the clauses that name them (lower case)


def described_person(
    description: Description, people: Iterable[str], context: Sequence[Mapping[str, str]]
) -> str | None:
    """The one person of ``people`` (names from the conversation) the description points at, or None."""
    if description.role:
        for role in (description.role, *ROLE_ALIASES.get(description.role, ())):
            name = named_role(role, context)  # "my manager Catherine": the conversation named the role
            if name:
                return name
    # "my accountant" is the description itself, "my son Mateo" a son: neither is "the coach"
    names = [p for p in dict.fromkeys(people) if not (description.role and _other_role(p, description.role))]
    if description.owner:
        names = [n for n in names if n.split()[-1].lower() != description.owner.lower()]
    ties = _ties(names, context)
    scored = sorted(((_score(description, ties[n]), n) for n in names), reverse=True)
    if not scored or scored[0][0] < 1.0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    best = scored[0][1]
    if best.split()[-1][:1].isupper():
        return best
    # "who handles repairs?" - "the agent": a role, named elsewhere ("the letting agent is Sophie")
    return stated_role(best.split()[-1], context)


def _score(description: Description, ties: _Ties) -> float:
    strong = len(description.words & ties.own)
    if description.words and not strong:
        return 0.0  # "the projector person": someone must have been tied to the projector
    score = float(strong)
    role = description.role
    if role and role not in ties.own_nouns and role not in ties.near_nouns:
        return 0.0  # "the football coach": a footballer is no coach unless the noun is said of them
    if role:
        score += 1.0 if role in ties.own_nouns else 0.5
    if description.owner:
        owner = description.owner.lower()
        if not any(re.search(rf"\b{re.escape(owner)}\b", clause) for clause in ties.clauses):
            return 0.0  # "Leo's teacher": named beside Leo
        score += 1.0
    return score


def _other_role(person: str, head: str) -> bool:
    """Whether a person's own words give them a role: another one than ``head``, or ``head`` as
    the description itself ("my accountant")."""
    words = [w for w in person.split() if w.islower()]  # "Mr Lindqvist" is no "-ist"
    return words[-1:] == [head] or any(is_role(w) and w != head for w in words)


def _ties(names: Sequence[str], context: Sequence[Mapping[str, str]]) -> dict[str, _Ties]:
    ties = {name: _Ties() for name in names}
    previous = ""
    for message in context:
        speaker, text = _speaker_and_text(message)
        text = _TITLE_DOT.sub(r"\1", text)  # "Mr. Bianchi": the title's full stop ends no sentence
        for sentence in _SENTENCE.findall(text):
            _sentence_ties(sentence, names, ties)
        if speaker in ties and _FIRST_PERSON.search(text):
            ties[speaker].own |= stems(text)  # "Bram: I'll handle the demo"
            ties[speaker].own_nouns |= _nouns(text)
        if "?" in previous:
            answerer = _answerer(speaker, text, names)
            if answerer:
                ties[answerer].own |= stems(previous)  # "who's bringing the projector?" - "Felix: me"
                ties[answerer].own_nouns |= _nouns(previous)
        previous = text
    return ties


def _sentence_ties(sentence: str, names: Sequence[str], ties: dict[str, _Ties]) -> None:
    """Give each name of a sentence the words of its own stretch of it."""
    spots = sorted((m.start(), m.end(), name) for name in names for m in _name_pattern(name).finditer(sentence))
    if not spots:
        return
    near = _nouns(sentence)
    owned: list[tuple[str, str]] = []
    for index, (start, end, name) in enumerate(spots):
        lead = 0 if index == 0 else _split(sentence, spots[index - 1][1], start)
        tail = len(sentence) if index + 1 == len(spots) else _split(sentence, end, spots[index + 1][0])
        before, after = sentence[lead:start], sentence[end:tail]
        if after.startswith("'s"):  # "Kofi's parent-teacher conference": Kofi owns it, is not it
            after = re.sub(r"^'s\s+[\w-]+", "", after)
        owned.append((name, before + " " + after))
        ties[name].near_nouns |= near
        ties[name].clauses += [c.lower() for c in re.split(r"[,;:]", sentence) if name.split()[-1] in c]
    for index, (name, text) in enumerate(owned):
        group = [text]  # "Rhys and Tomasz are bringing it": a coordinated name shares the predicate
        for step in (-1, 1):
            at = index + step
            while 0 <= at < len(spots) and _COORDINATED.fullmatch(_between(sentence, spots, min(at, at - step))):
                group.append(owned[at][1])
                at += step
        ties[name].own |= stems(" ".join(group))
        ties[name].own_nouns |= _nouns(" ".join(group))


def _between(sentence: str, spots: Sequence[tuple[int, int, str]], index: int) -> str:
    """The text between the name at ``index`` and the next one."""
    return sentence[spots[index][1] : spots[index + 1][0]]


def _split(sentence: str, left: int, right: int) -> int:
    """Where the text between two names passes from the first to the second: at its last comma or
    conjunction, else at its end (all of it is the first name's)."""
    breaks = list(_OWNER_BREAK.finditer(sentence, left, right))
    return breaks[-1].start() if breaks else right


def _answerer(speaker: str, text: str, names: Sequence[str]) -> str | None:
    """Who an answer says it is: the speaker of "me"/"I will", or the one name its first part has."""
    if speaker in names and _ANSWER_ME.match(text):
        return speaker
    first = re.split(r"[,;.!?\u2014]", text, maxsplit=1)[0]
    named = [n for n in names if _name_pattern(n).search(first)]
    return named[0] if len(named) == 1 else None


def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(name.split()[-1])}(?![\w])")


_TITLE_DOT = re.compile(r"\b(Mr|Mrs|Ms|Dr|Prof|St)\.")
_LABEL = re.compile(r"^\s*\[?([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)\]?\s*:\s+")


def _speaker_and_text(message: Mapping[str, str]) -> tuple[str, str]:
    """The speaker (a name label in the text, or the message's name) and what they said."""
    text = str(message.get("content") or "")
    label = _LABEL.match(text)
    if label and label.group(1).split()[0].lower() not in NOT_NAMES:
        return label.group(1), text[label.end() :]
    speaker = str(message.get("name") or message.get("role") or "")
    return ("" if speaker.lower() in _GENERIC_SPEAKERS else speaker), text
