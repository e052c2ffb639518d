"""The rule resolver: replace each reference with the most salient fitting candidate.

No LLM. People resolve by number, gender and recency (speakers count: a role that is a name is a
person); things by recency and frequency; "that migration" by the candidate whose head noun is
"migration"; "there" by the latest place; "the bug" by the latest problem phrase. Temporal and
implicit pointers with no slot of their own get the conversation's main topic attached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.detect import Reference
from mnemo.retrieve.rewrite.lists import GENERIC_ITEM_NOUNS, ORDINAL_REF, find_list, pick
from mnemo.retrieve.rewrite.names import COLLECTIVES, PLURAL_GROUPS, PROBLEM_WORDS, TIME_HEADS
from mnemo.retrieve.rewrite.nouns import specific_mention

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

    ``context`` (the messages) lets "that bug" find its specific mention and "the second one" its list.
    """
    pieces: list[str] = []
    done: list[Resolution] = []
    cursor = 0
    pending: list[Reference] = []
    for ref in references:
        choice = _from_context(ref, context) or _choose(query, ref, candidates)
        if choice is None:
            if ref.kind in ("temporal", "implicit"):
                pending.append(ref)
            continue
        text, confidence = choice
        pieces.append(query[cursor : ref.start])
        replacement = _shape(query, ref, text)
        pieces.append(replacement)
        cursor = ref.end
        done.append(Resolution(ref.text, replacement, ref.kind, confidence))
    pieces.append(query[cursor:])
    rewritten = "".join(pieces)
    if pending:
        rewritten, extra = _attach_topic(rewritten, pending, candidates, done)
        done.extend(extra)
    return rewritten, done


def _from_context(ref: Reference, context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    if ref.kind == "ordinal":
        found = ORDINAL_REF.match(ref.text)
        items = find_list(context) if found else []
        item = pick(items, found.group(1)) if found and items else None
        return (item, 0.85) if item else None
    if ref.kind == "implicit" and ref.text.lower().startswith("the ") and ref.text.split()[-1].lower() in PROBLEM_WORDS:
        return specific_mention(ref.text.split()[-1], context)  # "the crash": "the React Native app crashes"
    if ref.kind == "demonstrative" and not ref.noun and ref.text.lower() in ("these", "those"):
        items = find_list(context, named=True)  # "which of those" -> "the ThinkPad X1 and the MacBook Air"
        return (", ".join(items[:-1]) + f" and {items[-1]}", 0.75) if items else None
    if ref.kind == "demonstrative" and ref.noun and ref.noun.lower() not in TIME_HEADS:
        if ref.noun.lower() in GENERIC_ITEM_NOUNS and ref.text.lower().startswith(("these", "those")):
            items = find_list(context)  # "those options" -> "Qdrant, Milvus and pgvector"
            if items:
                return ", ".join(items[:-1]) + f" and {items[-1]}", 0.8
        return specific_mention(ref.noun, context)
    return None


def _choose(query: str, ref: Reference, candidates: Sequence[Candidate]) -> tuple[str, float] | None:
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
        groups = [c for c in candidates if c.kind != "place" and c.plural]
        people = [c for c in candidates if c.kind == "person" and not c.plural and c.text[:1].isupper()]
        recent = [c for c in people if c.last_seen == min(p.last_seen for p in people)] if people else []
        if len(recent) >= 2:  # "Gwen and Oskar are planning ...": "they" are the two people
            return f"{recent[0].text} and {recent[1].text}", 0.75
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


def _through_noun(noun: str, candidates: Sequence[Candidate]) -> tuple[str, float] | None:
    stem = noun.lower().rstrip("s")
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
    if low in POSSESSIVES or (low == "her" and _is_possessive_her(query, ref.end)):
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


def _attach_topic(
    query: str, pending: Sequence[Reference], candidates: Sequence[Candidate], done: Sequence[Resolution]
) -> tuple[str, list[Resolution]]:
    """Temporal/implicit pointers ("earlier", "the same") get the main topic unless one was resolved."""
    resolved_things = {r.replacement.lower() for r in done}
    topic = next((c for c in candidates if c.kind == "thing" and c.text.lower() not in resolved_things), None)
    if topic is None or topic.text.lower() in query.lower() or any(r.kind in ("thing", "demonstrative") for r in done):
        return query, []
    stripped = query.rstrip(" ?.!")
    tail = query[len(stripped) :]
    alike = any(p.text.lower() in ("the same", "similar", "like before", "another one") for p in pending)
    link = "like" if alike else "about"
    rewritten = f"{stripped} {link} {topic.text}{tail}"
    confidence = 0.75 if topic.salience > 0 else 0.5
    return rewritten, [Resolution(p.text, f"{link} {topic.text}", p.kind, confidence) for p in pending]
