"""The rule resolver: replace each reference with the most salient fitting candidate.

No LLM. People resolve by number, gender and recency (speakers count: a role that is a name is a
person); things by recency and frequency; "that migration" by the candidate whose head noun is
"migration"; "there" by the latest place; "the bug" by the latest problem phrase; "that" alone
by the matter under discussion; "then" and "that day" by the anchor date and event (temporal.py);
a named role ("the plumber") by its name. Implicit pointers with no slot of their own (ellipsis,
"earlier", "the same") get the conversation's main topic attached (implicit.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.detect import Reference
from mnemo.retrieve.rewrite.implicit import LIGHT, is_role
from mnemo.retrieve.rewrite.implicit import topic as main_topic
from mnemo.retrieve.rewrite.lists import GENERIC_ITEM_NOUNS, ORDINAL_REF, find_list, named_pair, pick
from mnemo.retrieve.rewrite.names import (
    COLLECTIVES,
    PERSON_NOUNS,
    PLACE_NOUNS,
    PLURAL_GROUPS,
    PROBLEM_WORDS,
    TIME_HEADS,
)
from mnemo.retrieve.rewrite.nouns import specific_mention
from mnemo.retrieve.rewrite.temporal import TIME, find_anchor, temporal_text, without_preposition
from mnemo.store.sql import STOPWORDS

POSSESSIVES = {"his", "its", "their", "theirs", "hers"}
#: After "her" these words mean "her" is an object ("ask her about"), not a possessive ("her plan").
_OBJECT_FOLLOWERS = set("about to for with from on in at . ? ! , and or again yesterday today said".split())


@dataclass(frozen=True, slots=True)
class Resolution:
    reference: str
    replacement: str
    kind: str
    confidence: float

    def as_dict(self) -> dict[str, object]:
        return {
            "reference": self.reference,
            "replacement": self.replacement,
            "kind": self.kind,
            "confidence": round(self.confidence, 3),
        }


def resolve(
    query: str,
    references: Sequence[Reference],
    candidates: Sequence[Candidate],
    context: Sequence[Mapping[str, str]] = (),
) -> tuple[str, list[Resolution]]:
    """The rewritten query and what each resolved reference became (unresolved ones are left as is).

    ``context`` (the messages) lets "that bug" find its specific mention, "the second one" its
    list and "then" its date or event. Temporal pointers go last, so their anchor can skip what the
    other references already became; a candidate used for one reference is not used for another
    ("what did she say about that": she and that are different things).
    """
    chosen: dict[int, Resolution] = {}
    used: set[str] = set()
    pending: list[Reference] = []
    same_person: dict[str, str] = {}  # "did she pay her share": one "she" and "her" are one person
    for index in sorted(range(len(references)), key=lambda i: references[i].kind == "temporal"):
        ref = references[index]
        pool = [c for c in candidates if c.text.lower() not in used]
        gender = _PRONOUN_GENDER.get(ref.text.lower()) if ref.kind == "person" else None
        if gender in same_person:
            text = same_person[gender]
            chosen[index] = Resolution(ref.text, _shape(query, ref, text), ref.kind, 0.8)
            continue
        if ref.anchored:
            choice = _temporal(query, ref, context, used)
        else:
            choice = _from_context(ref, context) or _choose(query, ref, pool, context)
        if choice is None:
            if ref.kind in ("temporal", "implicit"):
                pending.append(ref)
            continue
        text, confidence = choice
        used.add(text.lower())
        if gender:
            same_person[gender] = text
        chosen[index] = Resolution(ref.text, _shape(query, ref, text), ref.kind, confidence)
    pieces: list[str] = []
    cursor = 0
    for index in sorted(chosen):
        pieces += [query[cursor : references[index].start], chosen[index].replacement]
        cursor = references[index].end
    rewritten = "".join(pieces) + query[cursor:]
    done = [chosen[i] for i in sorted(chosen)]
    rewritten, named = _name_roles(rewritten, context)
    done.extend(named)
    if pending:
        rewritten, extra = _attach_topic(rewritten, pending, candidates, done, context)
        done.extend(extra)
    return rewritten, done


def _temporal(
    query: str, ref: Reference, context: Sequence[Mapping[str, str]], used: set[str]
) -> tuple[str, float] | None:
    """ "then" -> "during the Lisbon offsite on March 3rd"; parts the query already has are left out."""
    unit = re.search(r"\b(day|night|morning|evening|afternoon|weekend|week|month|year)s?\b", ref.text, re.IGNORECASE)
    anchor = find_anchor(context, wants_date=unit is not None, unit=unit.group(1) if unit else "")
    if anchor is None:
        return None
    said = {w for w in re.findall(r"\w+", query.lower()) if w not in STOPWORDS} | {
        w for text in used for w in re.findall(r"\w+", text) if w not in STOPWORDS
    }
    if anchor.event and {w for w in re.findall(r"\w+", anchor.event.lower()) if w not in STOPWORDS} & said:
        anchor = replace(anchor, event=None)
    if anchor.time and without_preposition(anchor.time).lower() in query.lower():
        anchor = replace(anchor, time=None)
    if not anchor.time and not anchor.event:
        return None
    return temporal_text(ref.text, anchor), anchor.confidence


def _from_context(ref: Reference, context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    if ref.kind == "ordinal":
        found = ORDINAL_REF.match(ref.text)
        items = find_list(context) if found else []
        if (
            found
            and found.group(1).lower() in ("former", "latter")
            and not all(re.search(r"[A-Z0-9]", i) for i in items)
        ):
            items = named_pair(context) or items  # "Fatima and Gregor" inside prose the list finder misread
        item = pick(items, found.group(1)) if found and items else None
        return (item, 0.85) if item else None
    if ref.kind == "implicit" and ref.text.lower().startswith("the ") and ref.text.split()[-1].lower() in PROBLEM_WORDS:
        return specific_mention(ref.text.split()[-1], context)  # "the crash": "the React Native app crashes"
    if ref.kind == "implicit" and ref.noun and is_role(ref.noun.lower()):
        name = named_role(ref.noun, context)  # "the plumber": "Gareth the plumber"
        return (f"{ref.text} {name}", 0.8) if name else None
    if ref.kind == "demonstrative" and not ref.noun and ref.text.lower() in ("these", "those"):
        items = find_list(context, named=True)  # "which of those" -> "the ThinkPad X1 and the MacBook Air"
        return (", ".join(items[:-1]) + f" and {items[-1]}", 0.75) if items else None
    if ref.kind == "demonstrative" and ref.noun and ref.noun.lower() not in TIME_HEADS:
        if _class_noun(ref.noun):
            return None  # "that guy": a name of the class, not a modified mention (see _through_noun)
        if ref.noun.lower() in GENERIC_ITEM_NOUNS and ref.text.lower().startswith(("these", "those")):
            items = find_list(context)  # "those options" -> "Qdrant, Milvus and pgvector"
            if items:
                return ", ".join(items[:-1]) + f" and {items[-1]}", 0.8
        return specific_mention(ref.noun, context)
    return None


def _choose(
    query: str, ref: Reference, candidates: Sequence[Candidate], context: Sequence[Mapping[str, str]] = ()
) -> tuple[str, float] | None:
    low = ref.text.lower()
    if ref.kind == "person":
        gender = "m" if low in ("he", "him", "his", "himself") else "f"
        owned = _next_word(query, ref.end) if low in POSSESSIVES | {"her"} else ""
        people = [
            c
            for c in candidates
            if c.kind == "person" and not c.plural and c.gender in (gender, None) and c.head != owned
        ]  # "her sister" is not the sister herself
        named = [c for c in people if c.text[:1].isupper()]  # "Mrs Abernathy" over "the landlord"
        chosen = _by_agreement(named or people, gender)
        return _best(chosen, high=0.9 if any(c.gender == gender for c in chosen) else 0.7)
    if ref.kind == "plural":
        teams = [c for c in candidates if c.kind != "place" and c.head in PLURAL_GROUPS | COLLECTIVES]
        # "they" acts: a determiner-led group ("the kids"), not a bare plural noun ("numbers")
        groups = [c for c in candidates if c.kind != "place" and c.plural and c.text.split()[0] in _OWNERS]
        people = [c for c in candidates if c.kind == "person" and not c.plural and c.text[:1].isupper()]
        recent = [c for c in people if c.last_seen == min(p.last_seen for p in people)] if people else []
        if len(recent) >= 2:  # "Gwen and Oskar are planning ...": "they" are the two people
            first, second = sorted(recent[:2], key=lambda c: c.order)
            return f"{first.text} and {second.text}", 0.75
        named = [c for c in candidates if c.kind == "thing" and c.text[:1].isupper() and not c.plural]
        return (
            _best(teams, high=0.8)
            or _best(groups, high=0.7)
            or _pair(candidates)
            or _best(named, high=0.6)  # "Stripe changed their fees": an organisation
            or _best([c for c in candidates if c.kind == "person" and c.text[:1].isupper()], high=0.5)
        )
    if ref.kind == "place":
        return _best([c for c in candidates if c.kind == "place"], high=0.85)
    if ref.kind == "demonstrative" and ref.noun and ref.noun.lower() in TIME_HEADS:
        return _when(candidates, "in" if ref.noun.lower() in ("year", "month", "week") else "on")
    if ref.kind == "demonstrative" and ref.noun:
        return _through_noun(ref.noun, candidates)
    if ref.kind in ("thing", "demonstrative"):
        plural = low in ("these", "those")
        # number agreement: "it" is one thing, "those" are several (or a pair)
        things = [c for c in candidates if c.kind == "thing" and c.plural == plural]
        # "the Tuesday sync" is when, rather than what, something was said
        things = [replace(c, salience=c.salience * 0.8) if TIME.search(c.text) else c for c in things]
        if low in ("that", "this") and ref.kind == "demonstrative" and context:
            # "how urgent is that": a demonstrative points at the matter under discussion
            found = main_topic(context, [c for c in candidates if c.kind == "thing"], query)
            if found is not None:
                return found.text, 0.75
        return _best(things, high=0.85) or (_pair(candidates) if plural else None)
    if ref.kind == "temporal" and low in ("since then", "back then", "at that time"):
        times = _best([c for c in candidates if c.kind == "time"], high=0.8)
        if times is not None:
            word = "since" if low == "since then" else "in" if low == "back then" else "at"
            bare = times[0].split(maxsplit=1)[-1] if times[0].split()[0].lower() in ("on", "in", "since") else times[0]
            return f"{word} {bare}", times[1]
    if ref.kind == "implicit" and low.startswith("the ") and low.split()[-1] in PROBLEM_WORDS:
        problems = [c for c in candidates if c.kind == "thing" and _is_problem(c)]
        return _best(problems, high=0.9)
    return None


def _when(candidates: Sequence[Candidate], preposition: str) -> tuple[str, float] | None:
    """ "that day" -> "on 14 March": the latest time the conversation named."""
    times = [c for c in candidates if c.kind == "time"]
    if not times:
        return None
    latest = min(times, key=lambda c: (c.last_seen, -c.salience))
    bare = latest.text.split(maxsplit=1)[-1] if latest.text.split()[0].lower() in ("on", "in", "since") else latest.text
    return f"{preposition} {bare}", 0.8


def _next_word(query: str, end: int) -> str:
    rest = query[end:].split()
    return rest[0].lower().strip(".,?!") if rest else ""


def _by_agreement(people: Sequence[Candidate], gender: str) -> list[Candidate]:
    """People reweighted by how well they fit the pronoun: a known gender beats a guess from the
    name's shape, which beats nothing, and a guess against the pronoun counts against."""
    fit = []
    for c in people:
        factor = 2.0 if c.gender == gender else 1.7 if c.hint == gender else 0.4 if c.hint else 1.0
        fit.append(replace(c, salience=c.salience * factor))
    return fit


def _class_noun(noun: str) -> bool:
    stem = noun.lower().removesuffix("'s").rstrip("s")
    return stem in PERSON_NOUNS | _PERSON_WORDS or stem in PLACE_NOUNS | _PLACE_WORDS


def _through_noun(noun: str, candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    stem = noun.lower().removesuffix("'s").rstrip("s")
    if _class_noun(noun):
        # "that guy", "that place": a class noun stands for the latest name of its class
        people = stem in PERSON_NOUNS | _PERSON_WORDS
        persons = {c.text.lower() for c in candidates if c.kind == "person"}
        named = [c for c in candidates if c.text[:1].isupper() and c.kind == ("person" if people else "place")]
        if not people and (not named or stem in ("place", "spot")):  # "that place": a named restaurant too
            named = [
                c for c in candidates if c.text[:1].isupper() and c.kind == "thing" and c.text.lower() not in persons
            ]
        if named:
            latest = min(named, key=lambda c: (c.last_seen, -c.salience))
            return latest.text, 0.75
    named = [c for c in candidates if c.kind != "place" and stem in c.text.lower() and c.text.lower() != stem]
    found = _best(named, high=0.9)
    if found is None:  # "that config" with only "Terraform" in the context: "the Terraform config"
        top = _best([c for c in candidates if c.kind == "thing"], high=0.6)
        if top is None:
            return None
        bare = top[0][4:] if top[0].lower().startswith("the ") else top[0]
        return f"the {bare} {noun}", top[1]
    text, confidence = found
    if not text.lower().rstrip("s").endswith(stem):  # "that error" -> "the TimeoutError error"
        text = f"{text} {noun}"
    return text, confidence


_NAME = r"((?:Dr\.?\s+|Mrs?\.?\s+|Ms\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"


def named_role(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The name the conversation gave a role: "Gareth the plumber", "my physio Nadia", "Dr Mbeki"
    for "the doctor"; the latest one wins. None when the role was never named."""
    role = re.escape(noun.lower())
    patterns = [
        rf"{_NAME},?\s+(?:the|my|our)\s+(?i:{role})\b",
        rf"\b(?i:{role}),?\s+{_NAME}",
    ]
    if noun.lower() in ("doctor", "dentist", "gp", "vet", "surgeon", "dermatologist"):
        patterns.append(r"\b((?:Dr|Doctor)\.?\s+[A-Z][\w'-]+)")
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        for pattern in patterns:
            found = re.search(pattern, text)
            if found and found.group(1).split()[0].lower() not in ("the", "my", "our", "a"):
                return found.group(1)
    return None


_OWNERS = frozenset({"the", "my", "your"})
_PRONOUN_GENDER = {p: "m" for p in ("he", "him", "his", "himself")} | {
    p: "f" for p in ("she", "her", "hers", "herself")
}
_ROLE_PHRASE = re.compile(r"\bthe\s+([a-z]+)\b")


def _name_roles(query: str, context: Sequence[Mapping[str, str]]) -> tuple[str, list[Resolution]]:
    """ "the doctor" -> "the doctor Dr Okonkwo" when the conversation named that role."""
    for match in _ROLE_PHRASE.finditer(query):
        noun = match.group(1)
        if not is_role(noun):
            continue
        name = named_role(noun, context)
        if name and name.lower() not in query.lower():
            replacement = f"{match.group(0)} {name}"
            rewritten = query[: match.start()] + replacement + query[match.end() :]
            return rewritten, [Resolution(match.group(0), replacement, "implicit", 0.8)]
    return query, []


_PERSON_WORDS = frozenset("guy person woman man lady bloke chap girl boy".split())
_PLACE_WORDS = frozenset("place spot restaurant bar pub cafe shop store hotel clinic venue taverna".split())


def _pair(candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    """Two named things of the latest message stand for "they"/"those" ("Qdrant and Milvus")."""
    named = [
        c for c in candidates if c.kind == "thing" and c.last_seen == 0 and c.text[:1].isupper() and " " not in c.text
    ]
    return (f"{named[0].text} and {named[1].text}", 0.7) if len(named) >= 2 else None


def _is_problem(candidate: Candidate) -> bool:
    low = candidate.text.lower()
    return any(word in low for word in PROBLEM_WORDS)


def _best(options: Sequence[Candidate], high: float) -> tuple[str, float] | None:
    if not options:
        return None
    ranked = sorted(options, key=lambda c: -c.salience)
    top = ranked[0]
    clear_winner = len(ranked) == 1 or top.salience >= 1.4 * ranked[1].salience
    return top.text, high if clear_winner else high - 0.15


def _shape(query: str, ref: Reference, text: str) -> str:
    """Fit the replacement to the grammar of the word it replaces (possessive, place, capital)."""
    low = ref.text.lower()
    if low in POSSESSIVES or (low == "her" and _is_possessive_her(query, ref.end)) or low.endswith("'s"):
        text = text if text.endswith("'s") else f"{text}'s"
    elif ref.kind == "place":
        text = f"in {text}"
    if ref.start == 0 and text[:1].islower():
        text = text[0].upper() + text[1:]
    elif ref.start > 0 and text.startswith(("The ", "My ", "Your ")):
        text = text[0].lower() + text[1:]
    return text


def _is_possessive_her(query: str, end: int) -> bool:
    rest = query[end:].strip().lower()
    return bool(rest) and rest.split()[0].strip(".?!,") not in _OBJECT_FOLLOWERS and rest[0].isalpha()


#: Time words relative to the speaker's now: they point at the conversation only when the query
#: has no subject of its own ("what did we discuss yesterday?").
DEICTIC = frozenset({"yesterday", "recently", "just now", "today", "earlier", "previously"})


def _has_own_topic(query: str) -> bool:
    words = [w.lower() for w in re.findall(r"[A-Za-z][\w'-]*", query)]
    ignored = STOPWORDS | LIGHT | DEICTIC | _WH
    return any(w not in ignored and len(w) > 2 for w in words)


_WH = frozenset("what who whom whose which when where why how".split())


def _attach_topic(
    query: str,
    pending: Sequence[Reference],
    candidates: Sequence[Candidate],
    done: Sequence[Resolution],
    context: Sequence[Mapping[str, str]] = (),
) -> tuple[str, list[Resolution]]:
    """Temporal/implicit pointers ("earlier", "the same", "what about the price?") get the
    conversation's main topic unless a thing was resolved already."""
    if any(r.kind in ("thing", "demonstrative") for r in done):
        return query, []
    if _has_own_topic(query):  # "what happened to the deploy yesterday?": "yesterday" needs no topic
        pending = [p for p in pending if p.text.lower() not in DEICTIC]
        if not pending:
            return query, []
    found = main_topic(context, candidates, query, {r.replacement.lower() for r in done})
    if found is None:
        return query, []
    stripped = query.rstrip(" ?.!")
    tail = query[len(stripped) :]
    alike = any(p.text.lower() in ("the same", "similar", "like before", "another one") for p in pending)
    # "the price of the X-T5" reads right after a bare definite noun; "about" everywhere else
    link = "like" if alike else "of" if re.search(r"\b(?:the|our)\s+\w+$", stripped, re.IGNORECASE) else "about"
    rewritten = f"{stripped} {link} {found.text}{tail}"
    confidence = 0.75 if found.salience > 0 else 0.5
    return rewritten, [Resolution(p.text, f"{link} {found.text}", p.kind, confidence) for p in pending]
