"""Specifications: a message that says which one a thing just mentioned is.

"Greta lent me her brother's tent" - "It's a 3-person MSR"; "My grandfather's watch stopped" -
"Mechanical, an old Omega"; "I liked the Lenovo monitor" - "The 27-inch 4K one?". The second
message names the same thing more specifically, so a later "it" means both at once: "the
3-person MSR tent", "the old Omega watch", "the 27-inch 4K Lenovo monitor". Each reading alone
loses half of what the conversation said (a search for "MSR" misses the turns about the tent).

Three shapes count, each a whole message: "it's a/an X" (the copula names what "it" is), a
fragment answer "<adjective>, a/an X", and a short echo question "the X?" or "the X one?". The
thing specified is the last noun phrase of the message before, by the other speaker or the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.store.sql import STOPWORDS

_COPULA = re.compile(r"^\s*(?:it'?s|it\s+is|that'?s)\s+(?:a|an)\s+([\w .'&-]{2,40}?)\s*[.!]*\s*$", re.IGNORECASE)
_FRAGMENT = re.compile(r"^\s*[a-z][\w-]*,\s+(?:a|an)\s+([\w .'&-]{2,40}?)\s*[.!]*\s*$", re.IGNORECASE)
_ECHO = re.compile(r"^\s*(?:the\s+)?([\w .'&-]{2,30}?)\?\s*$", re.IGNORECASE)
#: Question and filler words that open an echo question which asks rather than specifies.
_NOT_SPECIFIC = frozenset(
    "any how what which who when where why did do does are is was were can could will would should so and".split()
)
_WORD = re.compile(r"[A-Za-z0-9][\w'-]*")


def specifications(messages: Sequence[Mapping[str, str]], things: Sequence[Candidate]) -> list[tuple[str, str]]:
    """(specific phrase, merged phrase) for each message that specifies a thing of the message
    before it; ``things`` are the thing candidates found so far, to find what the message before
    named."""
    out: list[tuple[str, str]] = []
    for at in range(1, len(messages)):
        text = str(messages[at].get("content") or "").strip()
        answer = _recommended(messages, at, things)
        if answer is not None:  # "any ideas for a day trip?" - "Sintra is the classic one: ..."
            out.append(answer)
            continue
        found = _COPULA.match(text) or _FRAGMENT.match(text) or _ECHO.match(text)
        if found is None:
            continue
        specific = found.group(1).strip()
        words = _WORD.findall(specific)
        named = any(w[:1].isupper() for w in words[1:]) or any(c.isdigit() for w in words for c in w)
        named = named or (found.re is not _ECHO and words[0][:1].isupper())
        if not words or len(words) > 5 or not named or words[0].lower() in _NOT_SPECIFIC:
            continue  # "it's a long story", "Any side effects so far?": no name or model says which one
        general = None
        for back in range(at - 1, max(-1, at - 3), -1):  # "tent" - "Nice of her." - "It's a 3-person MSR."
            general = _first_thing(str(messages[back].get("content") or "").lower(), things)
            if general is not None:
                break
        if general is None:
            continue
        head = general.split()[-1]
        if head.lower() in specific.lower():
            continue
        if words[-1].lower() in ("one", "ones"):  # "the 27-inch 4K one": the pro-noun stands for it
            bare = re.sub(r"^(?:the|my|your|a|an)\s+", "", general, flags=re.IGNORECASE)
            merged = f"the {' '.join(words[:-1])} {bare}"
        else:
            merged = f"the {specific} {head}"
        out.append((specific, merged))
    return out


#: A request for a suggestion: what the answer's first name instantiates.
_REQUEST = re.compile(
    r"\b(?:any\s+(?:ideas|suggestions|recommendations|tips)|recommend|suggest|looking\s+for|need\s+a|good\s+\w+\s+for"
    r"|i\s+want\s+(?:a|an|to)|i'd\s+like\s+(?:a|an|to)|find\s+me|what'?s\s+a\s+good|what\s+is\s+a\s+good)\b",
    re.IGNORECASE,
)
#: An answer that opens by naming its suggestion: "Sintra is the classic one", "The Zirbenweg is a
#: good fit", "The Porto 10k on 5 October is flat", "dateparser handles natural-language dates".
_SUGGESTION = re.compile(
    r"^\s*(?:The\s+)?([A-Z][\w'-]+(?:\s+[A-Z0-9][\w'-]*){0,3}|[a-z][a-z0-9_-]{4,})"
    r"(?:\s+(?:on|in|at|from)\s+[\w ]{1,20}?)?"
    r"\s+(?:is|are|'s|has|handles|works|does|fits|suits|covers|supports|runs)\b"
)
#: Lower-case openers of an answer that are no name ("maybe", "probably", "there's").
_NOT_SUGGESTIONS = frozenset("maybe probably there here these those which yours that this most every".split())


def _recommended(messages: Sequence[Mapping[str, str]], at: int, things: Sequence[Candidate]) -> tuple[str, str] | None:
    """(name, merged phrase) when message ``at`` answers a request for a suggestion by naming one:
    the name is the thing asked for ("the Sintra day trip"), so a later "it" means it."""
    asked = str(messages[at - 1].get("content") or "")
    role = str(messages[at].get("role") or "").lower()
    if role in ("user", "human") or not _REQUEST.search(asked):
        return None
    named = _SUGGESTION.match(str(messages[at].get("content") or ""))
    if named is not None and (named.group(1).lower() in _NOT_SUGGESTIONS or named.group(1).lower() in STOPWORDS):
        named = None
    general = _first_thing(asked.lower(), things) if named else None
    if named is None or general is None:
        return None
    bare = re.sub(r"^(?:the|my|your|a|an)\s+", "", general, flags=re.IGNORECASE)
    name = named.group(1)
    return (name, f"the {name} {bare}") if bare.split()[-1].lower() not in name.lower() else None


def _first_thing(text: str, things: Sequence[Candidate]) -> str | None:
    """The thing candidate ``text`` (lower-case) names first, or None: a message's first thing
    is what it is about ("lent me her brother's tent for the trip")."""
    best: tuple[int, str] | None = None
    for candidate in things:
        if candidate.kind != "thing":
            continue
        bare = re.sub(r"^(?:the|my|your|a|an)\s+", "", candidate.text.lower())
        at = text.find(bare)
        if at >= 0 and len(bare) > 2 and (best is None or at < best[0]):
            best = (at, candidate.text)
    return best[1] if best else None
