"""A definite noun made from a verb the conversation used: "the migration" after "we migrated the
billing service to Kubernetes", "the renovation" after "we renovated the kitchen", "the move"
after "we moved to Bristol".

English forms such nouns by regular suffixes (-ation, -ion, -ment, -al, -ure, -ery, -ance/-ence,
or none at all: "move", "launch"). Undoing the suffix gives the verb's stem, and its past tense in
the conversation (a deed someone reported) is what "the <noun>" names. The rewrite keeps the noun
and adds the deed: "the migration (migrated the billing service to Kubernetes)". No lemmatiser is
needed (the core install has none); the spelling rules are those of anchoring.forms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from mnemo.store.sql import STOPWORDS

from . import cached_re

#: (suffix, letters to cut): "migration" -> "migr" (+ "ated"), "deletion" -> "delet" (+ "ed").
_SUFFIXES = (("ation", 5), ("ition", 5), ("ion", 3), ("ment", 4), ("ance", 4), ("ence", 4), ("ure", 3), ("al", 2))
#: The end of a deed's clause: punctuation or a conjunction that starts another clause.
_CLAUSE = r"(?:\s+(?!and\b|but\b|so\b|because\b|then\b|which\b|who\b)[\w'-]+(?:\.\d+)*){0,8}"


#: Nouns whose verb is irregular: "the birth" after "she was born 30 August".
_IRREGULAR = {
    "birth": "born",
    "death": "died",
    "sale": "sold",
    "loss": "lost",
    "choice": "chose",
    "theft": "stole stolen",
    "flight": "flew",
    "growth": "grew",
    "win": "won",
    "sight": "saw",
}


def past_forms(noun: str) -> list[str]:
    """The past-tense forms of the verb a noun was made from (none for a short or plain noun)."""
    low = noun.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low].split()
    stems: set[str] = set()
    for suffix, cut in _SUFFIXES:
        if low.endswith(suffix) and len(low) - cut >= 3:
            stem = low[:-cut]
            stems |= {stem, stem + "e"}
            if suffix == "ation":
                stems.add(stem + "ate")
            break
    else:
        if low.endswith("ery") and len(low) > 6:  # "delivery" -> "deliver"
            stems.add(low[:-1])
        elif len(low) >= 4:  # zero derivation: "the move", "the launch", "the upgrade"
            stems.add(low)
    out: set[str] = set()
    for stem in stems:
        if stem.endswith("e"):
            out.add(stem + "d")
        elif stem.endswith("y") and stem[-2:-1] not in tuple("aeou"):
            out.add(stem[:-1] + "ied")
        else:
            out.add(stem + "ed")
            if len(stem) <= 4 and cached_re.search(r"[^aeiou][aeiou][bdgmnprt]$", stem):  # plan -> planned
                out.add(stem + stem[-1] + "ed")
    return sorted(out, key=len, reverse=True)


def deed_forms(noun: str) -> list[str]:
    """The past forms, and the "-ing" form of an arrangement told ahead ("we're moving house on the
    30th" is what "the move" names as much as "we moved" would)."""
    forms = past_forms(noun)
    low = noun.lower()
    if low in _IRREGULAR or not forms or any(low.endswith(suffix) for suffix, _ in _SUFFIXES) or low.endswith("ery"):
        return forms  # "the migration" is told done; "migrating" is work under way, not an event
    stem = low[:-1] if low.endswith("e") and not low.endswith("ee") else low
    # "we move to leeds at the end of the month": a plan in the present tense names the deed too
    present = {low, low + ("es" if low.endswith(("ch", "sh", "s", "x")) else "s")}
    return sorted({*forms, stem + "ing", *present}, key=len, reverse=True)


@lru_cache(maxsize=512)
def _deed_pattern(noun: str) -> re.Pattern[str] | None:
    forms = deed_forms(noun)
    if not forms:
        return None
    alternation = "|".join(map(re.escape, forms))
    # a subject before the verb makes it a deed; "a cafe called Koya" is a participle, not a deed.
    # Chat drops the "I" at a message's start ("bumped django to 5.0 yesterday"): a deed too.
    return cached_re.compile(rf"(?:{_SUBJECT}\s+|^\s*)((?i:{alternation})\b{_CLAUSE})")


_SUBJECT = (
    r"\b(?:[Ii]|[Ww]e|[Yy]ou|[Hh]e|[Ss]he|[Tt]hey|[A-Z][a-z]+|[Hh]ad|[Hh]ave|[Hh]as|[Gg]ot|[Jj]ust|[Ff]inally"
    r"|[Aa]lready|[Aa]lso|[Rr]ecently|was|were|been|got"
    # an identifier does deeds too ("v3 launched on 12 feb"); "we're moving": an arrangement
    r"|[a-z]{0,3}\d[\w.]*|'re|'m|are|am)"
)


#: Nouns of a change that any verb of changing may have told: "the migration" after "we moved it
#: from pandas to Polars", "the switch" after "we moved our logs from Elasticsearch to Loki".
_CHANGE_NOUNS = ("move", "switch", "migration", "upgrade", "swap", "replacement", "conversion", "transition")


def deed_of(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest deed a nominal noun names ("migrated the billing service to Kubernetes"), or None;
    for a noun of change, a deed of any verb of changing when its own verb told none."""
    deed = _deed_of(noun, context)
    if deed is None and noun.lower() in _CHANGE_NOUNS:
        deed = next((d for other in _CHANGE_NOUNS if other != noun.lower() and (d := _deed_of(other, context))), None)
    return deed


def _deed_of(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest deed a nominal noun's own verb names. The deed must carry an object or complement
    of its own, else it says no more than the noun."""
    forms = deed_forms(noun)
    texts = [str(m.get("content") or "") for m in context]
    if not forms or not any(f in t.lower() for t in texts for f in forms):
        return None  # no past form in the conversation: no pattern to build
    pattern = _deed_pattern(noun)
    if pattern is None:
        return None
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        for match in reversed(list(pattern.finditer(text))):
            verb = match.group(1).split()[0].lower()
            if verb.removesuffix("s").removesuffix("e") in (noun.lower(), noun.lower()[:-1]) and not _PLANNER.search(
                text[: match.start(1)]
            ):
                continue  # "kitchen tap is dripping": the noun itself, unless a person plans it ("we move to leeds")
            deed = _trimmed(match.group(1))
            # "the flight to Lima got cancelled": a passive's deed is done to its subject, which says which
            deed = _passive_subject(text[: match.start(1)]) + deed
            named = _NAMED_SUBJECT.search(text[: match.start(1)])
            if named and named.group(1).lower() not in STOPWORDS and named.group(1).lower() not in _ADVERBS:
                deed = f"{named.group(1)} {deed}"  # "the launch (v3 launched on 12 feb)": what did the deed
            if len(deed.split()) >= 2:
                return deed
    return None


#: A person before a verb in the present tense: "we move", "i launch", "they release".
_PLANNER = re.compile(r"\b(?:we|i|they|you)\s+$", re.IGNORECASE)
#: A name or an identifier right before the verb: the deed's doer, which says which deed.
_NAMED_SUBJECT = re.compile(r"(?:^|[\s(])((?-i:[A-Z][\w-]*)|[a-z]{0,3}\d[\w.]*)\s+$")
_ADVERBS = frozenset("just finally already also recently".split())
#: The subject of a passive: the clause's words before "got/was/were/been" ("the flight to Lima got").
_PASSIVE = re.compile(r"(?:^|[.!?,;:]\s*)((?:[\w'-]+\s+){1,6}?(?:got|was|were|been|is|are|gets)\s+)$", re.IGNORECASE)


def _passive_subject(before: str) -> str:
    found = _PASSIVE.search(before)
    return found.group(1) if found else ""


def _trimmed(deed: str) -> str:
    """The deed without function words left dangling where the clause was cut ("... Kubernetes last")."""
    words = deed.split()
    while len(words) > 1 and (words[-1].lower() in STOPWORDS or words[-1].lower() in _DANGLING):
        words.pop()
    return " ".join(words).strip(" ,;:")


_DANGLING = frozenset("last next this every each some".split())
