"""Ambiguity detection: which words of a query point at something only the conversation knows.

Pure functions over the query text. A reference is a pronoun ("he", "it"), a demonstrative
("that", "there"), a temporal pointer ("earlier", "last time") or an implicit one ("the bug",
"the same"). Function-word uses that point at nothing ("the bug that crashed", "is there a way",
"this week") are left out, so clear queries take the fast path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mnemo.retrieve.rewrite.anchoring import descriptions
from mnemo.retrieve.rewrite.implicit import elliptical
from mnemo.retrieve.rewrite.lists import GENERIC_ITEM_NOUNS, ORDINAL_REF, comparisons
from mnemo.retrieve.rewrite.names import COMMON_VERBS, PARTICLES
from mnemo.retrieve.rewrite.timeref import SIMULTANEOUS
from mnemo.retrieve.rewrite.timeref import pointers as time_pointers
from mnemo.store.sql import STOPWORDS

TOKEN = re.compile(r"[A-Za-z0-9_][\w.\-']*[\w]|[A-Za-z0-9_]|[^\w\s]")

PERSON_PRONOUNS = {"he", "him", "his", "himself", "she", "her", "hers", "herself"}
PLURAL_PRONOUNS = {"they", "them", "their", "theirs", "themselves"}
THING_PRONOUNS = {"it", "its", "itself"}
DEMONSTRATIVES = {"this", "that", "these", "those", "here", "there"}
TEMPORAL_PHRASES = (
    "since then",
    "back then",
    "at that time",
    "last time",
    "just now",
    "the other day",
    "earlier",
    "previously",
    "yesterday",
    "recently",
    "before",
    "again",
)
IMPLICIT_PHRASES = (
    "the same",
    "similar",
    "like before",
    "as usual",
    "another one",
    "the other one",
    "the issue",
    "the problem",
    "the error",
    "the bug",
    "the feature",
    "the fix",
    "the change",
    "the idea",
    "the plan",
    "the thing",
    "the crash",
    "the outage",
    "the failure",
    "the leak",
    "the regression",
)

#: Words after which "that/this" is a pointer, not a relative pronoun: prepositions and the verbs
#: people use when they talk about a topic ("fix that", "about this bug").
POINTER_CONTEXT = set(
    """about of with on for from to in into at by like than is was are were be been do did does done
    fix fixed try tried use used see saw say said mention mentioned discuss discussed change changed
    explain explained mean meant remember recall find found show tell told decide decided about
    regarding re what why how where when would could should will can might must stop prevent avoid handle
    solve debug reproduce revert undo""".split()
)
_AUX = frozenset("is was are were has had have will would can could should does did may might must".split())
#: After "this/that" these make a time expression that needs no context ("this week").
TIME_NOUNS = set("morning afternoon evening night week weekend month year quarter sprint season time".split())
#: After "there/here" these make an existential ("is there a way", "here is").
EXISTENTIAL = set("is are was were be been 's any a an no".split())
SUBJECT_WORDS = set("i we you he she they it the a an my our your his their this that there".split())
PUNCT = set(".?!,;:")
ADVERBS = frozenset("also too outside inside again now first later anyway already still either instead".split())
PREPOSITIONS = frozenset("on in at for to with from by into onto about over under before after through".split())
#: "such a refund", "such tickets": a kind the conversation described.
_SUCH = re.compile(r"\bsuch\s+(?!as\b)(?:an?\s+)?([a-z][\w-]*)", re.IGNORECASE)
_UNITS = (
    r"(?:days?|nights?|mornings?|evenings?|afternoons?|weekends?|weeks?|months?|years?"
    r"|period|summer|winter|spring|autumn)\b"
)
_CLAUSE_END = r"(?=\s*(?:[?.!,;]|$|then\b))"
#: Pointers at a time the conversation fixed. A relation ("the day before") counts only at the end
#: of a clause: "the day before the launch" names its own anchor.
TEMPORAL_POINTER = re.compile(
    rf"\b(?:the\s+{_UNITS}\s+(?:before|after){_CLAUSE_END}"
    rf"|(?:right\s+|just\s+|shortly\s+|soon\s+)?(?:after|before)\s+(?:that|this|it){_CLAUSE_END}"
    rf"|(?:earlier|later)\s+that\s+{_UNITS}"
    rf"|(?:(?:on|in|at|during)\s+)?the\s+same\s+(?:{_UNITS}|time)"
    rf"|(?:before|after|until|by)\s+then{_CLAUSE_END}"
    rf"|(?:at|around|about|during)\s+(?:that|the\s+same|the)\s+(?:time|point|moment){_CLAUSE_END}"
    rf"|(?:during\s+)?(?:that|those)\s+{_UNITS}"
    rf"|when\s+(?:that|it|this)\s+happened|in\s+the\s+meantime|meanwhile|since\s+then|back\s+then"
    rf"|(?<!\band\s)(?<!\bbut\s)(?<!\bso\s)(?<=\w\s)then{_CLAUSE_END})",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reference:
    """One ambiguous span of the query: its text, what kind of pointer it is, and where it is."""

    text: str
    kind: str  # person, plural, thing, demonstrative, place, temporal, implicit, ordinal
    start: int
    end: int
    #: For a demonstrative determiner ("that migration"): the noun it points through.
    noun: str | None = None
    #: A temporal pointer at a time the conversation fixed ("then", "that day"): resolved by its anchor.
    anchored: bool = False
    #: A definite description the conversation tied to a name ("the interview" -> "at Stripe").
    described: bool = False


def tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def detect(query: str, context_text: str = "") -> list[Reference]:
    """Every reference in the query, in order of position.

    ``context_text`` (the conversation, any case) tells "that job" (a job the conversation
    mentioned) from "the tests that fail" (a relative clause).
    """
    words = tokens(query)
    lowered = [w.lower() for w, _, _ in words]
    known = set(re.findall(r"\w+", context_text.lower()))
    found: list[Reference] = []
    for i, (word, start, end) in enumerate(words):
        low = lowered[i]
        prev = lowered[i - 1] if i else ""
        nxt = lowered[i + 1] if i + 1 < len(words) else ""
        after = lowered[i + 2] if i + 2 < len(words) else ""
        kind = _word_kind(low, prev, nxt)
        if kind is None or (kind in ("person", "plural") and _named_before(words[:i], 2 if kind == "plural" else 1)):
            continue  # "Where has Melanie camped with her family?": the query names its own antecedent
        noun = None
        if kind == "demonstrative" and nxt and nxt not in PUNCT and nxt not in SUBJECT_WORDS:
            capital = words[i + 1][0][:1].isupper()
            if low == "that" and capital and (after in _AUX or looks_verbal(after) or nxt not in known):
                continue  # "said that Qdrant is fast", "avoid that Chrome autofills": a conjunction
            use = _demonstrative_use(low, prev if i != 1 else "", nxt, after, known)  # "move that to ..."
            if use is None:
                continue
            if use == "determiner":
                head = i + 1
                if (
                    capital
                    and after.isalpha()
                    and after.islower()
                    and after not in STOPWORDS
                    and not looks_verbal(after)
                ):
                    head = i + 2  # "that Poetry lockfile": the noun is "lockfile", "Poetry" its modifier
                noun, end = words[head][0], words[head][2]
                word = query[start:end]
        found.append(Reference(word, kind, start, end, noun))
    found.extend(_ordinals(query, known, found))
    for s, e in comparisons(query):  # "which of the two", "the cheaper one": a choice between listed items
        if not any(r.start < e and s < r.end for r in found):
            found.append(Reference(query[s:e], "ordinal", s, e))
    found.extend(Reference(m.group(0), "demonstrative", m.start(), m.end(), m.group(1)) for m in _SUCH.finditer(query))
    found = _with_temporal_pointers(query, _without_expletives(query, found))
    covered = [(r.start, r.end) for r in found]
    covered += [(m.end() - len("at the same time"), m.end()) for m in SIMULTANEOUS.finditer(query)]
    found += _listed_phrases(query, covered)
    for start, end, noun in descriptions(query, context_text):  # "the interview": the one at Stripe
        if not any(s < end and start < e for s, e in covered):
            found.append(Reference(query[start:end], "implicit", start, end, noun=noun, described=True))
    if not found and not _CLOCK.search(query):  # "what time is it?" asks the clock, not the conversation
        span = elliptical(query, known)  # "what about the price?", "why not?": the topic is implied
        if span is not None:
            found.append(Reference(span[0], "implicit", span[1], span[2], noun=span[3]))
    return sorted(found, key=lambda r: r.start)


def _listed_phrases(query: str, covered: list[tuple[int, int]]) -> list[Reference]:
    """The fixed temporal and implicit phrases ("earlier", "the bug") outside the spans already
    taken; ``covered`` grows with each one found."""
    found: list[Reference] = []
    for phrase, kind in [*((p, "temporal") for p in TEMPORAL_PHRASES), *((p, "implicit") for p in IMPLICIT_PHRASES)]:
        for match in re.finditer(rf"\b{re.escape(phrase)}\b", query, flags=re.IGNORECASE):
            if any(s < match.end() and match.start() < e for s, e in covered):
                continue
            if phrase == "before" and not _ends_clause(query, match.end()):
                continue  # "before the move" names its own anchor
            found.append(Reference(match.group(0), kind, match.start(), match.end()))
            covered.append((match.start(), match.end()))
    return found


#: "it" that points at nothing: "is it possible to ...", "it's raining", "what time is it".
_EXPLETIVE_ADJ = (
    r"(?:possible|impossible|worth|ok|okay|safe|safer|better|best|easy|easier|hard|harder|difficult|necessary|"
    r"normal|legal|allowed|wise|smart|common|true|likely|fine|cheaper|faster|quicker|important|reasonable|"
    r"advisable|feasible|realistic|time|too\s+late|too\s+early|a\s+good\s+idea|a\s+bad\s+idea)"
)
#: "it" that points at nothing: "is it possible to ...", "it's raining", "what time is it".
EXPLETIVE_IT = re.compile(
    rf"\b(?:(?:is|was|would|will|isn't|wasn't)\s+it\s+(?:be\s+|still\s+|really\s+)?{_EXPLETIVE_ADJ}\s+(?:to|that|if|for)\b"
    r"|\bit(?:'s|\s+is|\s+was)?\s+worth\s+\w+ing\b|\bis\s+it\s+worth\s+\w+ing\b"
    rf"|it(?:'s|\s+is|\s+was|\s+will\s+be|\s+would\s+be)\s+(?:still\s+|really\s+)?{_EXPLETIVE_ADJ}\s+(?:to|that|if|for)\b"
    r"|it(?:'s|\s+is|\s+was)?\s+(?:raining|snowing|pouring|rains|snows|sunny|cold|hot|warm|windy|late|early|dark)\b"
    r"|\bit\s+(?:is\s+|was\s+)?going\s+to\s+(?:rain|snow|be\s+(?:sunny|cold|hot|warm|windy))\b"
    r"|\bit\s+(?:looks|looked|seems|seemed|appears|appeared|sounds|turns\s+out|turned\s+out)\s+(?:like|that|as\s+if|to)\b"
    r"|\bhow\s+\w+\s+(?:is|was|would\s+it\s+be)\s+it\s+(?:for|to)\b|\bhow\s+\w+\s+is\s+it\s+for\b"
    r"|\bit(?:'s|\s+has)\s+been\s+(?:ages|years|months|weeks|days|a\s+while|too\s+long)\b"
    r"|\bit's\s+(?:my|your|our|his|her|their)\s+turn\b"
    r"|\b(?:does|did|will|would|should)\s+it\s+take\s+(?:\w+\s+)?to\b|\bit\s+takes\s+(?:\w+\s+){0,2}to\b"
    r"|what\s+(?:time|day|date)\s+is\s+it\b)",
    re.IGNORECASE,
)


_CLOCK = re.compile(
    r"^\s*what(?:'s|\s+is)?\s+(?:the\s+)?(?:time|day|date)(?:\s+is\s+it)?\s*(?:now|today)?\s*\??\s*$", re.IGNORECASE
)


def _without_expletives(query: str, found: list[Reference]) -> list[Reference]:
    spans = [(m.start(), m.end()) for m in EXPLETIVE_IT.finditer(query)]
    return [r for r in found if not (r.text.lower() == "it" and any(s <= r.start < e for s, e in spans))]


def _with_temporal_pointers(query: str, found: list[Reference]) -> list[Reference]:
    """Temporal pointers replace the word-level references inside them ("that" in "after that")."""
    manner = [(m.end() - len("at the same time"), m.end()) for m in SIMULTANEOUS.finditer(query)]
    spans = _merged([(m.start(), m.end()) for m in TEMPORAL_POINTER.finditer(query)] + time_pointers(query))
    spans = [(s, e) for s, e in spans if not any(s < me and ms < e for ms, me in manner)]
    if not spans:
        return found
    kept = [r for r in found if not any(s < r.end and r.start < e for s, e in spans)]
    return kept + [Reference(query[s:e], "temporal", s, e, anchored=True) for s, e in spans]


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping pointer spans (from the phrase and the grammar rules) as one span each."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


def _ordinals(query: str, known: set[str], found: list[Reference]) -> list[Reference]:
    """ "the second one", "the other option", "the latter", "the first approach" (a noun the context has)."""
    out: list[Reference] = []
    for match in ORDINAL_REF.finditer(query):
        which, noun = match.group(1).lower(), (match.group(2) or "").lower()
        end = match.end()
        if noun in TIME_NOUNS or noun in ("day", "days", "hand"):
            continue  # "the first time", "the other day", "on the other hand"
        if noun and noun not in GENERIC_ITEM_NOUNS and not {noun, _stem(noun), f"{noun}s"} & known:
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


def _demonstrative_use(low: str, prev: str, nxt: str, after: str, known: set[str]) -> str | None:
    """ "determiner" ("that job"), "pronoun" ("does this happen") or None (a relative "that")."""
    pointer = not prev or prev in POINTER_CONTEXT or prev in PUNCT
    if nxt in PARTICLES and prev not in STOPWORDS:  # "turn that off", "set this up"
        return "pronoun"
    if nxt in ADVERBS or (nxt.endswith("ly") and len(nxt) > 4) or (nxt in PREPOSITIONS and prev not in STOPWORDS):
        return "pronoun"  # "plant those outside", "claim that on the insurance": no noun follows
    if nxt in STOPWORDS:
        return "pronoun" if pointer or low != "that" else None
    if not after or after in PUNCT or _stem(nxt) in known or nxt in known:
        return "determiner"
    if looks_verbal(nxt) or nxt in STOPWORDS:
        return "pronoun" if pointer or low != "that" else None
    return "determiner" if pointer else None


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def looks_verbal(word: str) -> bool:
    return (
        word in COMMON_VERBS
        or (len(word) > 4 and word.endswith(("ed", "ing")))
        or (len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word[:-1] in COMMON_VERBS)
    )


def _word_kind(low: str, prev: str, nxt: str) -> str | None:
    if low in PERSON_PRONOUNS:
        return "person"
    if low in PLURAL_PRONOUNS:
        return "plural" if not (low == "them" and prev == "of" and nxt == "all") else None
    if low in THING_PRONOUNS:
        return "thing"
    if low in ("there", "here"):
        if nxt in EXISTENTIAL or prev in ("is", "are", "was", "were", "from"):
            return None
        return "place"
    if low in ("this", "that", "these", "those"):
        if low in ("that", "those") and nxt in TIME_NOUNS | {"day", "days"}:
            return "demonstrative"  # "that day", "that week": a time the conversation named
        if nxt in TIME_NOUNS or (low == "that" and nxt in SUBJECT_WORDS):
            return None  # "this week"; "said that we ...": a conjunction
        return "demonstrative"
    return None


def _named_before(words: list[tuple[str, int, int]], needed: int) -> bool:
    names = [w for n, (w, _, _) in enumerate(words) if n and w[:1].isupper() and w.lower() not in _NOT_ANTECEDENT]
    return len(names) >= needed


_NOT_ANTECEDENT = frozenset("i what when where why how who which did does do is are was were can could".split())


def _ends_clause(text: str, position: int) -> bool:
    rest = text[position:].strip()
    return not rest or rest[0] in PUNCT
