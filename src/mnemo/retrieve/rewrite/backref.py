"""Explicit back-references: "the croquetas place you mentioned", "the logs from earlier".

A noun phrase followed by a clause that points back into the conversation ("you mentioned",
"we discussed", "from earlier") is definite by that clause, however many modifiers it has. Its
words say which earlier mention it is ("croquetas" -> "Try Casa Labra near Sol for croquetas"),
and that mention's clause says what it is called: its first name, identifier or number. Without
such a word in the conversation the pointer is left to the temporal resolver.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.anchoring import forms
from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.resolution import Resolution
from mnemo.retrieve.rewrite.wordfind import sentences, stems
from mnemo.store.sql import STOPWORDS

from . import cached_re

_MARKER = (
    # "you mentioned", "you previously mentioned", "you just now suggested", "we recently moved to"
    r"(?:(?:you|we|i|they)\s+(?:just\s+now\s+|just\s+|previously\s+|recently\s+|earlier\s+)?"
    r"(?:mentioned|suggested|recommended|said|talked\s+about|discussed|brought\s+up|named"
    r"|picked|chose|found|sent|shared|showed|booked|reserved|rented|ordered|gave\s+me|described|listed|explained"
    r"|told\s+me\s+(?:to\s+[a-z]+|about)|used|had|switched\s+to|moved\s+to|enabled|got|ran)"
    r"|(?:from|mentioned|discussed)\s+(?:earlier|before|previously|just\s+now)"
    # "the prefix we used previously", "the network I was on before", "the thing we upgraded recently"
    r"|(?:you|we|i)\s+[a-z]+(?:\s+(?:on|to|in|with|from|up|out))?\s+(?:just\s+now|previously|recently"
    # "before" ends its clause: "the house I had before the marriage" dates by its own object
    r"|before(?=\s*(?:[,;:?!]|\.\B|$|(?:is|was|were|are|do|does|did|will|would|could|should|can|and|but|or|so|still"
    r"|really|actually|to|on|in|for|with)\b))))\b"
)
#: "the croquetas place you mentioned": the phrase, then the clause that points back.
BACKREF = re.compile(
    rf"\b(?:the|that|those|these|this)\s+((?:[a-z][\w'-]*\s+){{0,3}}?[a-z][\w'-]*)(?=\s+(?:that\s+)?{_MARKER})",
    re.IGNORECASE,
)
#: Heads that say nothing about which mention is meant.
_GENERIC = frozenset(
    """place thing things one ones option options stuff idea ideas name names link links one bit part way
    spot item items suggestion suggestions""".split()
)
_CLAUSE = re.compile(r"[.;!?]\s+|,\s+(?:or|and|but)\s+|\s+or\s+")


def recall(query: str, context: Sequence[Mapping[str, str]]) -> tuple[str, Resolution] | None:
    """The query with its back-referring phrase named ("the croquetas place Casa Labra"), or None."""
    match = BACKREF.search(query)
    if match is None:
        what = _WHAT_BACK.search(query)  # "what I recently switched to": the sentence that said it
        return _said_then(query, what, context) if what else None
    words = [w for w in match.group(1).lower().split() if w not in STOPWORDS and w not in _GENERIC and len(w) > 2]
    if not words:
        return _booked_back(query, match, context) or _said_then(query, match, context)
    found = _named_in(words, context)
    if found is None or found.lower() in query.lower():
        return _said_then(query, match, context)  # "the tool we recently moved to": the sentence that said so
    phrase = query[match.start() : match.end(1)]
    if words[-1] in found.lower().split():  # "the hotel" + "Hotel Granvia": the name stands for the phrase
        rewritten = query[: match.start(1)] + found + query[match.end(1) :]
        return rewritten, Resolution(phrase, query[match.start() : match.start(1)] + found, "implicit", 0.75)
    rewritten = query[: match.end(1)] + f" {found}" + query[match.end(1) :]
    return rewritten, Resolution(phrase, f"{phrase} {found}", "implicit", 0.75)


#: What a chat booked: "booked a cabin at Loch Tay for our anniversary".
_BOOKED = re.compile(
    r"\b(?:booked|reserved|rented)\s+(?:us\s+|me\s+)?(?:a|an|the|our|my)\s+((?:[^.,;!?]|\.\b){3,50}?)"
    r"(?=\s+(?:for|from|on|this|next|until)\b|[,;!?]|\.\B|$)",
    re.IGNORECASE,
)


def _booked_back(
    query: str, match: re.Match[str], context: Sequence[Mapping[str, str]]
) -> tuple[str, Resolution] | None:
    """ "the place we booked" -> "the place we booked (a cabin at Loch Tay)", or None."""
    clause = cached_re.match(r"\s+(?:that\s+)?(?:we|i|you|they)\s+(?:booked|reserved|rented)\b", query[match.end(1) :])
    if clause is None:
        return None
    for message in reversed(list(context)):
        found = _BOOKED.findall(str(message.get("content") or ""))
        if found:
            end = match.end(1) + clause.end()
            phrase = query[match.start() : end]
            booked = f"{phrase} ({found[-1]})"
            return query[:end] + f" ({found[-1]})" + query[end:], Resolution(phrase, booked, "implicit", 0.7)
    return None


def _named_in(words: list[str], context: Sequence[Mapping[str, str]]) -> str | None:
    """The first name or identifier of the latest clause that has one of ``words``."""
    patterns = [cached_re.compile(rf"\b{forms(w)}\b", re.IGNORECASE) for w in words]
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        for clause in _CLAUSE.split(text):
            if not any(p.search(clause) for p in patterns):
                continue
            beside = _name_beside(words, clause)
            if beside is not None:  # "take the Kintetsu line": the name the noun heads, not the clause's first
                return beside
            for candidate in extract([{"role": "assistant", "content": clause}]):
                low = candidate.text.lower()
                named = candidate.text[:1].isupper() or any(ch.isdigit() for ch in candidate.text)
                if named and candidate.kind != "time" and not any(p.search(low) for p in patterns):
                    return candidate.text
    return None


#: A run of capitalised words, with the small words names carry inside ("Bristol and Bath Railway").
_CAPITAL_RUN = r"(?-i:[A-Z][\w-]*)(?:\s+(?:(?:and|of|de|la|on)\s+)?(?-i:[A-Z][\w-]*))*"


def _name_beside(words: list[str], clause: str) -> str | None:
    """The capitalised name written with the phrase's head noun: the whole name when the chat
    capitalises the noun as part of it ("JR Tower Hotel Nikko"), else the run right before it ("the
    Kintetsu line", "the Bristol and Bath Railway path") or right after it, in ``clause``."""
    head = re.escape(words[-1])
    whole = cached_re.search(rf"(?:\b{_CAPITAL_RUN}\s+)?(?-i:{head.capitalize()})\b(?:\s+{_CAPITAL_RUN})?", clause)
    if whole is not None and whole.group(0).lower() != words[-1].lower() and whole.start() > 0:
        return whole.group(0)  # "Hotel Nikko" written as a name, the head noun in it
    before = cached_re.search(rf"\b({_CAPITAL_RUN})\s+{head}s?\b", clause, re.IGNORECASE)
    if before is not None and before.start(1) > 0 and clause[: before.start(1)].strip()[-1:] not in ".!?":
        return before.group(1)  # a capital opening the sentence is no name
    after = cached_re.search(rf"\b{head}\s+({_CAPITAL_RUN})", clause, re.IGNORECASE)
    return after.group(1) if after is not None else None


#: The pointer's speaker and time word: "we recently moved to", "you previously mentioned".
_TIME_WORD = r"just\s+now|previously|recently|before|earlier"
_SAID_THEN = re.compile(
    rf"\s+(?:that\s+)?(you|we|i)\s+(?:({_TIME_WORD})\s+[a-z]+(?:\s+(?:to|about|me))?"
    rf"|[a-z]+(?:\s+(?:on|to|in|with|from|up|out))?\s+({_TIME_WORD}))\b",
    re.IGNORECASE,
)
#: How the speaker's own sentence says the query's time word: "before" was said "previously" or "used to".
_SAID_AS = {
    "just": r"just\s+now|just\s+(?:[a-z]+ed|got|gave|ran|did|made|said|told|saw|put|set|sent|came|went)",
    "previously": r"previously|before|used\s+to|formerly",
    "before": r"previously|before|used\s+to|formerly",
    "recently": r"recently|lately",
    "earlier": r"earlier",
}
#: "what I recently switched to", "what we added recently": the whole deed, no noun of its own.
_WHAT_BACK = re.compile(rf"\b(what)(?=\s+{_MARKER})", re.IGNORECASE)
_SAID_MAX_WORDS = 16


def _said_then(query: str, match: re.Match[str], context: Sequence[Mapping[str, str]]) -> tuple[str, Resolution] | None:
    """ "the tool we recently moved to (we recently moved our logs from ELK to Loki)": a sentence of
    the same speaker ("you" the assistant, "I"/"we" the user) with the same time word; of several,
    the one with the query's own words ("started" of "the supplement I started recently"), else the
    latest."""
    clause = _SAID_THEN.match(query, match.end(1))
    if clause is None:
        return None
    speaker = "assistant" if clause.group(1).lower() == "you" else "user"
    time_word = (clause.group(2) or clause.group(3)).lower()
    if speaker == "assistant":
        sentence = _replied(query, time_word, context)
    else:
        when = _SAID_AS[time_word.split()[0]]  # "just now" is said as "just"
        own = {
            w
            for w in cached_re.findall(r"[a-z]{3,}", query[match.start() : clause.end()].lower())
            if w not in STOPWORDS and w not in _GENERIC and w not in time_word
        }
        said_then = [
            sentence
            for message in context
            if str(message.get("role") or "").lower() == speaker
            for sentence in sentences(str(message.get("content") or ""))
            if cached_re.search(rf"\b(?:{when})\b", sentence, re.IGNORECASE) and _tells(sentence, speaker)
        ]
        shared = lambda s: len(own & set(cached_re.findall(r"[a-z]{3,}", s.lower())))  # noqa: E731
        sentence = max(reversed(said_then), key=shared) if said_then else None
    if sentence is None:
        return None
    said = " ".join(sentence.strip().rstrip(".!?").split()[:_SAID_MAX_WORDS])
    said = said[0].lower() + said[1:] if said.split()[0] in ("We", "Our", "My", "The") else said
    end = clause.end()
    phrase = query[match.start() : end]
    return query[:end] + f" ({said})" + query[end:], Resolution(phrase, f"{phrase} ({said})", "implicit", 0.7)


def _replied(query: str, time_word: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """What "you said earlier" / "you just now suggested" points at: the assistant's sentence with the
    most of the query's words ("what you said earlier about persistence": "Redis gives you
    persistence ..."); with none shared, "just now" is the latest reply's first sentence."""
    replies = [str(m.get("content") or "") for m in context if str(m.get("role") or "").lower() == "assistant"]
    if not replies:
        return None
    own = stems(query) - stems(f"you {time_word} said mentioned suggested described gave told")
    told = [s for text in replies for s in sentences(text) if _tells(s, "assistant")]
    best = max(reversed(told), key=lambda s: len(own & stems(s)), default=None)
    if best is not None and own & stems(best):
        return best
    latest = [s for s in sentences(replies[-1]) if _tells(s, "assistant")]
    return latest[0] if time_word == "just now" and latest else None


_FIRST_PERSON = re.compile(r"\b(?:I|we|me|us|our)\b", re.IGNORECASE)


def _tells(sentence: str, speaker: str) -> bool:
    """Whether ``sentence`` can say what the query's phrase was: two words of content ("It was fine
    before" names nothing) and, for the user, the user's own deed ("my roommate recently adopted a
    beagle" is the roommate's)."""
    content = [w for w in cached_re.findall(r"[A-Za-z][\w'-]{2,}", sentence) if w.lower() not in STOPWORDS]
    return len(content) >= 3 and (speaker != "user" or bool(_FIRST_PERSON.search(sentence)))
