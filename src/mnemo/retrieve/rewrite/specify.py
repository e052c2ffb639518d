"""Specifications: a message that says which one a thing just mentioned is.

"Greta lent me her brother's tent" - "It's a 3-person MSR"; "My grandfather's watch stopped" -
"Mechanical, an old Omega"; "I liked the Lenovo monitor" - "The 27-inch 4K one?". The second
message names the same thing more specifically, so a later "it" means both at once: "the
3-person MSR tent", "the old Omega watch", "the 27-inch 4K Lenovo monitor". Each reading alone
loses half of what the conversation said (a search for "MSR" misses the turns about the tent).

Three shapes count, each a whole message: "it's a/an X" (the copula names what "it" is), a
fragment answer "<adjective>, a/an X", and a short echo question "the X?" or "the X one?"; X
must hold a name or a model code, which is what says *which* one. The thing specified is the
first thing named in the nearest of the two messages before it. An answer to a request for a
suggestion that opens with a name ("any ideas for a day trip?" - "Sintra is the classic one")
instantiates the request the same way ("the Sintra day trip").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.names import FIRST_PERSON
from mnemo.retrieve.rewrite.tidy import without_determiner
from mnemo.store.sql import STOPWORDS

from . import cached_re

_COPULA = re.compile(r"^\s*(?:it'?s|it\s+is|that'?s)\s+(?:a|an)\s+([\w .'&-]{2,40}?)\s*[.!]*\s*$", re.IGNORECASE)
_FRAGMENT = re.compile(r"^\s*[a-z][\w-]*,\s+(?:a|an)\s+([\w .'&-]{2,40}?)\s*[.!]*\s*$", re.IGNORECASE)
_ECHO = re.compile(r"^\s*(?:the\s+)?([\w .'&-]{2,30}?)\?\s*$", re.IGNORECASE)
#: Question, filler and function words that open an echo question which asks rather than
#: specifies ("Shall I book it?", "From Domino's?", "Since March?").
_NOT_SPECIFIC = frozenset(
    """any how what which who when where why did do does are is was were can could will would should shall so
    and or to from at since for on in by with i i'm ok okay yes no""".split()
)
_WORD = re.compile(r"[A-Za-z0-9][\w'-]*")
#: A model code: letters and digits in one token ("201K", "V15", "X100"), not a measure ("2-hour").
_MODEL_CODE = re.compile(r"^(?:[A-Za-z]+\d[\w]*|\d+[A-Za-z]+)$")


def specifications(messages: Sequence[Mapping[str, str]], things: Sequence[Candidate]) -> list[tuple[str, str]]:
    """(specific phrase, merged phrase) for each message that specifies a thing of a message
    before it; ``things`` are the thing candidates found so far, to find what was named before."""
    out: list[tuple[str, str]] = []
    for at in range(1, len(messages)):
        found = (
            _recommended(messages, at, things) or _confirmed(messages, at, things) or _specified(messages, at, things)
        )
        if found is not None:
            out.append(found)
    return out


def _specified(messages: Sequence[Mapping[str, str]], at: int, things: Sequence[Candidate]) -> tuple[str, str] | None:
    """(specific, merged) when message ``at`` is a copula, fragment or echo naming which thing."""
    text = str(messages[at].get("content") or "").strip()
    found = _COPULA.match(text) or _FRAGMENT.match(text) or _ECHO.match(text)
    if found is None:
        return None
    specific = found.group(1).strip()
    words = _WORD.findall(specific)
    if not words or len(words) > 5 or words[0].lower() in _NOT_SPECIFIC:
        return None  # "it's a ___!", "Shall I book it?": nothing that says which one
    names = words if found.re is not _ECHO else words[1:]  # an echo's first word is capitalised anyway
    sized = words[-1].lower() in ("one", "ones") and any(ch.isdigit() for ch in specific)  # "the 32-inch one"
    if not sized and not any((w[:1].isupper() and w not in FIRST_PERSON) or _MODEL_CODE.match(w) for w in names):
        return None  # "it's a long story", "It's a 2-hour paper": no name, model code or size of "one"
    general = None
    for back in range(at - 1, max(-1, at - 3), -1):  # "tent" - "Nice of her." - "It's a 3-person MSR."
        general = _first_thing(str(messages[back].get("content") or ""), things)
        if general is not None:
            break
    if general is None or general.split()[-1].lower() in specific.lower():
        return None
    if words[-1].lower() in ("one", "ones"):  # "the 27-inch 4K one": the pro-noun stands for it
        return specific, f"the {' '.join(words[:-1])} {without_determiner(general)}"
    return specific, f"the {specific} {general.split()[-1]}"


#: A request for a suggestion: what the answer's first name instantiates.
_REQUEST = re.compile(
    r"\b(?:any\s+(?:ideas|suggestions|recommendations|tips)|recommend|suggest|looking\s+for|need\s+a|good\s+\w+\s+for"
    r"|i\s+want\s+(?:a|an|to)|i'd\s+like\s+(?:a|an|to)|find\s+me|what'?s\s+a\s+good|what\s+is\s+a\s+good)\b",
    re.IGNORECASE,
)
#: The words of a request that are not the thing requested ("any ideas for a day trip").
_REQUEST_WORDS = frozenset(
    "idea ideas suggestion suggestions recommendation recommendations tip tips option options".split()
)
#: An answer that opens by naming its suggestion: "Sintra is the classic one", "The Zirbenweg is a
#: good fit", "The Porto 10k on 5 October is flat", "dateparser handles natural-language dates".
_SUGGESTION = re.compile(
    r"^\s*(?:The\s+)?([A-Z][\w'-]+(?:\s+[A-Z0-9][\w'-]*){0,3}|[a-z][a-z0-9_-]{4,})"
    r"(?:\s+(?:on|in|at|from)\s+[\w ]{1,20}?)?"
    r"\s+(?:is|are|'s|has|handles|works|does|fits|suits|covers|supports|runs)\b"
)
#: Openers of an answer that are no name ("maybe", "probably", "there's").
_NOT_SUGGESTIONS = frozenset("maybe probably there here these those which yours that this most every".split())


def _recommended(messages: Sequence[Mapping[str, str]], at: int, things: Sequence[Candidate]) -> tuple[str, str] | None:
    """(name, merged phrase) when message ``at`` answers a request for a suggestion by naming one:
    the name is the thing asked for ("the Sintra day trip"), so a later "it" means it."""
    asked = str(messages[at - 1].get("content") or "")
    role = str(messages[at].get("role") or "").lower()
    if role in ("user", "human") or not _REQUEST.search(asked):
        return None
    named = _SUGGESTION.match(str(messages[at].get("content") or ""))
    name = named.group(1) if named else ""
    low = name.lower()
    if not name or low in _NOT_SUGGESTIONS or low in STOPWORDS or low.endswith(("ing", "ed", "ly")):
        return None  # "Parenting is exhausting": a gerund opens a sentence, it names no suggestion
    requested = [t for t in things if without_determiner(t.text).lower().split()[-1] not in _REQUEST_WORDS]
    general = _first_thing(asked, requested)
    if general is None:
        return None
    own = {w.lower() for w in name.split()}
    rest = [w for w in without_determiner(general).split() if w.lower() not in own]  # no "Bath Half Half"
    return (name, " ".join(["the", name, *rest])) if rest else None


#: A question whether a thing exists: "is there a ticket about ...?", "do we have a runbook for it?".
_EXISTS = re.compile(
    r"\b(?:is\s+there|are\s+there|do\s+(?:we|you|they)\s+have|have\s+(?:we|you)\s+got|any)\s+(?:an?\s+)?([a-z][\w-]+)"
)
#: A yes that names the instance: "Yes, OPS-2291: ...", "Yep - Koya on Frith Street".
_YES_NAMED = re.compile(
    r"^\s*(?i:yes|yeah|yep|yup|there\s+is)\b[,:;.!\s-]*((?:[A-Z][\w'-]*|#?\d[\w-]*)(?:\s+[A-Z0-9][\w'-]*){0,2})(?![\w'-])"
    r"(?=\s*(?:[:,;(\u2014-]|\.\B)|\s+(?:is|was|on|in|at|about|for|covers|has|does|should)\b|$)"
)


def _confirmed(messages: Sequence[Mapping[str, str]], at: int, things: Sequence[Candidate]) -> tuple[str, str] | None:
    """(name, merged phrase) when message ``at`` says yes to "is there a X?" and names it: "the
    ticket OPS-2291", so a later "who filed it?" means that ticket."""
    asked = _EXISTS.search(str(messages[at - 1].get("content") or ""))
    named = _YES_NAMED.match(str(messages[at].get("content") or "")) if asked else None
    if asked is None or named is None:
        return None
    noun, name = asked.group(1), named.group(1).strip()
    if noun.lower() in STOPWORDS or name.split()[0].lower() in _NOT_SPECIFIC:
        return None
    # the phrase the question named it by ("the runbook for the failover"), so the two merge
    asked_about = [t for t in things if noun.lower() in without_determiner(t.text).lower().split()]
    general = _first_thing(str(messages[at - 1].get("content") or ""), asked_about) or f"the {noun}"
    return name, f"{general} {name}"


def _first_thing(text: str, things: Sequence[Candidate]) -> str | None:
    """The thing candidate ``text`` names first (as whole words), or None: a message's first thing
    is what it is about ("lent me her brother's tent for the trip")."""
    best: tuple[int, str] | None = None
    low = text.lower()
    for candidate in things:
        bare = without_determiner(candidate.text).lower()
        if candidate.kind != "thing" or len(bare) <= 2:
            continue
        found = cached_re.search(rf"(?<!\w){re.escape(bare)}(?!\w)", low)
        if found and (best is None or found.start() < best[0]):
            best = (found.start(), candidate.text)
    return best[1] if best else None
