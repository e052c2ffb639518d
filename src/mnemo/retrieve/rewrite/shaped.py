"""A definite whose noun has a written shape: "the quote" after "they quoted £240 for pads and
discs" is the £240 quote, "the endpoint" after "GET /users/me" is /users/me, "the broken release"
after "we released v2.4.0" is 2.4.0, "that error" after "fails with ECONNRESET" is ECONNRESET.

Such nouns name a kind of token, not a word of the conversation: the chat writes the amount, the
path or the version, seldom the noun. The latest token of the noun's shape that the query does not
write itself is the one meant; within a message, the one nearest a form of the noun ("quoted").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.dates import MONTH_NAME
from mnemo.retrieve.rewrite.health import DRUG_NAME
from mnemo.retrieve.rewrite.said import conversation_text, modifies_next
from mnemo.store.sql import STOPWORDS

from . import cached_re

_MONEY = re.compile(
    r"[£$€]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?"
    r"|\b\d[\d,]*(?:\.\d+)?\s?(?:euros?|pounds?|dollars?|quid|EUR|USD|GBP)\b"
)
_PATH = re.compile(r"(?<![\w/.])/[a-z][\w-]*(?:/[\w{}:-]+)*")
_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?(?![\w.]*\w)")
_TEST = re.compile(r"\btest_\w+|\b\w+_test\b|\b[A-Z]\w+Test\b|\b[\w-]+\.(?:test|spec)\.[jt]sx?\b")
#: ... or an HTTP status the chat gives as a number: "fails ... with a 403".
_ERROR = re.compile(
    r"\b[A-Z][A-Za-z]+(?:Error|Exception)\b|\bE[A-Z]{4,}\b|(?<=\ba\s)[45]\d\d\b|(?<=\bwith\s)[45]\d\d\b"
    r"|\b[45]\d\d(?=\s+(?:error|status|response)\b)"
)
_COMMIT = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
_TICKET = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d+\b|(?<![\w&])#\d{2,6}\b")
_PULL = re.compile(r"(?<![\w&])#\d{2,6}\b|\bPR\s?\d{2,6}\b")
_BRANCH = re.compile(r"\b(?:feature|feat|fix|bugfix|hotfix|release|chore|refactor)/[\w.-]+")
_FILE = re.compile(
    r"(?<![\w/.-])[\w./-]*\w\.(?:py|js|ts|tsx|jsx|go|rs|java|rb|php|yml|yaml|json|toml|cfg|ini|sql|sh|md|csv|tf)\b"
)
_FUNCTION = re.compile(r"\b[A-Za-z_][\w.]*\(\)")
_FLIGHT = re.compile(r"\b(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{2,4}\b")
_PERCENT = re.compile(r"\b\d+(?:\.\d+)?\s?%")
_RATE = re.compile(
    r"\b\d[\d,.]*k?\s?(?:[a-z]+/(?:s|sec|second|min|minute|h|hr|hour|day)\b"
    r"|(?:[a-z]+\s)?(?:per|a|an)\s(?:second|sec|minute|hour|day)\b)",
    re.IGNORECASE,
)
_DATE = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_NAME}\b|\b{MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
    r"|\bthe\s+\d{1,2}(?:st|nd|rd|th)\b|\b\d{4}-\d{2}-\d{2}\b",
    re.IGNORECASE,
)
#: A deadline is a date, or a weekday something closes or is due on: "it closes friday".
_DEADLINE = re.compile(
    rf"{_DATE.pattern}|(?<=\bcloses\s)(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|(?<=\bdue\s)(?:on\s+|by\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|(?<=\bby\s)(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.IGNORECASE,
)
_DOSE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu|IU)\b")
_TEMPERATURE = re.compile(r"-?\b\d+(?:\.\d+)?\s?°\s?[CF]?|\b\d+(?:\.\d+)?\s?(?:degrees|deg)\b")
_SCORE = re.compile(r"\b\d{1,3}\s?[-–]\s?\d{1,3}\b(?!\s?(?:am|pm|%))")
_READING = re.compile(r"\b\d{2,3}/\d{2,3}\b")
_WEIGHT = re.compile(r"\b\d+(?:\.\d+)?\s?(?:kg|kgs|lbs?|pounds|stone|g)\b")
_DISTANCE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:km|kms|miles?|mi|metres|meters|m)\b")
_SPOT = re.compile(r"\b(?:gate|platform|seat|room|bay|stand|pitch|terminal)\s+([A-Z]?\d{1,4}[A-Z]?)\b", re.IGNORECASE)
_DOMAIN = re.compile(r"\b(?:https?://)?(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|co|uk|de|fr|ai)(?:/[\w/.-]*)?\b")

#: The query's noun -> the shape of the token it names.
#: A pace or a split: "6:15–6:45 per km", "5:30/km", "8 min/mile".
_PACE = re.compile(
    r"\b\d{1,2}:\d{2}(?:\s*[–-]\s*\d{1,2}:\d{2})?\s*(?:/\s?(?:km|mi|mile)|per\s+(?:km|mile|kilometre|kilometer))"
    r"|\b\d{1,2}(?:\.\d)?\s*min(?:ute)?s?\s*(?:/|per\s+)(?:km|mi|mile)\b"
)
#: A count of two digits or more: "You have 112 confirmed so far" (no day, time or share).
_COUNT = re.compile(r"(?<![\w£$€.:-])(?<!\d\s)\d{2,}(?:,\d{3})*(?![\w%:.,]|\s\d|\s*(?:am|pm|%|st|nd|rd|th)\b)")
_SPEED = re.compile(r"\b\d[\d.]*\s?(?:mph|km/h|kph|kmh|mbps|gbps|Mbps|Gbps)\b")
_TEMPERATURE = re.compile(r"-?\b\d[\d.]*\s?°\s?[CF]?|\b\d[\d.]*\s?(?:degrees|celsius|fahrenheit)\b", re.IGNORECASE)
#: Two amounts with "to" or a dash between: "70 to 80k", "£40-55k", "3–5 days".
_RANGE = re.compile(
    r"(?<![\w.])[£$€]?\d[\d,.]*\s?[kKmM]?\s?(?:to|-|–)\s?[£$€]?\d[\d,.]*\s?(?:[kKmM]\b|%|(?:days|weeks|months|years|hours)\b)?"
)
SHAPES: dict[str, re.Pattern[str]] = {
    **dict.fromkeys("range band bracket".split(), _RANGE),
    "pace": _PACE,
    "number": _COUNT,
    **dict.fromkeys("peak spike".split(), _RATE),
    "speed": _SPEED,
    **dict.fromkeys("temperature temp fever".split(), _TEMPERATURE),
    **dict.fromkeys("price quote cost deposit fee bill estimate rent fine refund budget salary offer".split(), _MONEY),
    **dict.fromkeys("ticket issue".split(), _TICKET),
    "pr": _PULL,
    "branch": _BRANCH,
    "file": _FILE,
    **dict.fromkeys("function method".split(), _FUNCTION),
    "flight": _FLIGHT,
    "rate": _PERCENT,
    **dict.fromkeys("deadline cutoff".split(), _DEADLINE),
    **dict.fromkeys("volume load traffic throughput".split(), _RATE),
    **dict.fromkeys("pill tablet meds medication capsule".split(), DRUG_NAME),
    **dict.fromkeys("amount total balance payment loan".split(), _MONEY),
    "dose": _DOSE,
    **dict.fromkeys("temperature temp".split(), _TEMPERATURE),
    "score": _SCORE,
    "reading": _READING,
    "weight": _WEIGHT,
    "distance": _DISTANCE,
    **dict.fromkeys("gate platform seat room bay pitch terminal".split(), _SPOT),
    **dict.fromkeys("url link site domain website".split(), _DOMAIN),
    **dict.fromkeys("endpoint route".split(), _PATH),
    **dict.fromkeys("release version".split(), _VERSION),
    "test": _TEST,
    **dict.fromkeys("error exception".split(), _ERROR),
    "commit": _COMMIT,
}
#: "the quote", "the broken release", "the failing test": a determiner, at most one modifier, the noun.
_SHAPED_REF = re.compile(
    rf"\b(?:the|that|this)\s+(?:([a-z]+)\s+)?({'|'.join(SHAPES)})\b(?!\s+(?:of|for|at)\s|\s+from\s+(?!earlier\b|yesterday\b|before\b|last\b|this\b|today\b|the\s+logs?\b))(?![\w-])",
    re.IGNORECASE,
)
#: A query about another time: an amount or a rate then was not the one written ("what was the
#: price a week before i sold" asks for another price than the $240 of the sale).
_OTHER_TIME = re.compile(
    r"\b(?:before|after|since|ago|last|previous|used\s+to|back\s+then|at\s+the\s+time)\b", re.IGNORECASE
)
_VARYING = (_MONEY, _PERCENT)


def _applies(shape: re.Pattern[str], query: str) -> bool:
    return not shape.search(query) and not (shape in _VARYING and _OTHER_TIME.search(query))


#: Words after the noun that are its predicate, not a head it modifies: "is the quote reasonable".
_PREDICATES = frozenset(
    "reasonable fair ok okay fine high low right wrong normal worth include includes cover covers work works fail"
    " fails pass passes run runs go goes take takes return returns change changes look looks mean means".split()
)
#: Modifiers that point rather than describe: "the new endpoint", "the current rate".
_POINTING = frozenset("new old current latest main this that".split())
#: Modifiers that make the noun another thing: "the test suite" is no test, "the error rate" no error.
_NOT_MODIFIERS = frozenset("same other whole next first second last final total monthly annual".split())


#: Amounts of a kind the chat must name itself: "the refund" is no £1,900 of council tax.
_NAMED_KINDS = frozenset("bill refund budget total balance payment loan salary rent deposit fine".split())
#: A complement after the noun that says which one: "the temperature in Tokyo", "the deadline to register".
_COMPLEMENT = re.compile(
    r"\s+(?:in|on|to|between|with|by|per|into|during|under|over|of(?=\s+(?:a|an|my|your|his|her)\s))\s", re.IGNORECASE
)  # "the pace of a cheetah" says whose pace


def shaped_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, noun) for each definite whose noun's shape the conversation wrote and the query did not."""
    found = []
    said = context_text.lower()
    for match in _SHAPED_REF.finditer(query):
        modifier, noun = (match.group(1) or "").lower(), match.group(2).lower()
        if modifier in _NOT_MODIFIERS or modifier in SHAPES or modifies_next(query[match.end() :], _PREDICATES):
            continue  # "the weight limit", "the test suite": the noun modifies the head after it
        if not SHAPES[noun].search(context_text) or _left_alone(match, query[match.end() :], query, said):
            continue
        found.append((match.start(), match.end(), noun))
    return found


def _left_alone(found: re.Match[str], after: str, query: str, said: str) -> bool:
    """Whether a shaped definite says which thing itself, or names no token the chat wrote: the query
    writes a token of the shape, asks about an amount at another time ("the price a week before i
    sold"), has a complement ("the temperature in Tokyo") without a modifier of the chat's ("the
    broken release on npm"), or names an amount of a kind the chat never named ("the refund")."""
    modifier, noun = (found.group(1) or "").lower(), found.group(2).lower()
    if not _applies(SHAPES[noun], query):
        return True
    described = bool(modifier) and modifier not in _POINTING and modifier[:4] in said
    if found.group(0).lower().startswith("the ") and _COMPLEMENT.match(after) and not described:
        return True
    return noun in _NAMED_KINDS and noun[:4] not in said


def shaped_text(reference: str, noun: str, context: Sequence[Mapping[str, str]], query: str = "") -> str | None:
    """ "the quote" -> "the £240 quote": the reference with the latest token of its noun's shape, or
    with a modifier ("the broken release"), the token nearest a form of the modifier ("it broke").
    None when the reference is no such definite or says which thing itself (``_left_alone``)."""
    found = _SHAPED_REF.fullmatch(reference)
    shape = SHAPES.get(noun.lower())
    if found is None or shape is None:
        return None
    said = conversation_text(context).lower()
    at = query.lower().find(reference.lower())
    if _left_alone(found, query[at + len(reference) :] if at >= 0 else "", query, said):
        return None
    modifier = (found.group(1) or "").lower()
    messages = [str(m.get("content") or "") for m in reversed(list(context))]
    due = None
    if shape is _DEADLINE:  # "that deadline": the date of the sentence the query's words repeat
        chosen, sentence = _by_query_words(shape, messages, query, noun) or (None, "")
        due = _DUE.match(sentence)  # "our SOC 2 audit evidence is due ... on 15 November": what is due
    elif modifier and modifier not in _POINTING:
        # "the broken release": the token near a form of "broke"; a modifier the chat never wrote
        # ("the exchange rate") names another thing than any token of the shape
        chosen = _nearest(shape, messages, modifier[:4])
    else:
        chosen = _nearest(shape, messages, noun.lower()[:5])
    if chosen is None:
        return None
    chosen = cached_re.sub(r"^the\s+", "", chosen, flags=re.IGNORECASE)  # "the 30th" -> "the 30th deadline", once
    if noun.lower() in ("version", "release"):
        chosen = _with_product(chosen, messages)  # "that version" -> "the iOS 17.4 version", not "the 17.4 version"
    # "the release branch" -> "the release/4.2 branch"; "that error" -> "the TimeoutError", no "error error"
    kept = [modifier] if modifier and modifier not in chosen.lower() else []
    tail = [] if chosen.lower().endswith(noun.lower()) or chosen.lower().startswith(noun.lower()) else [found.group(2)]
    owner = (
        [f"for {_lowered(due.group(1))}"] if due and due.group(1).split()[0].lower() not in STOPWORDS - _OWNERS else []
    )
    if noun.lower() == "number" and chosen[:1].isdigit():
        return f"the number {chosen}"  # "that number": "the number 112", not "the 112 number"
    return " ".join(["the", *kept, chosen, *tail, *owner])


def _with_product(number: str, messages: Sequence[str]) -> str:
    """A version number with the product name the chat wrote before it ("iOS 17.4", "Python 3.12")."""
    for text in messages:
        found = cached_re.search(rf"(?<![\w.])([A-Za-z][\w.+-]*)\s+{re.escape(number)}(?![\w.])", text)
        if found and (found.group(1)[:1].isupper() or cached_re.search(r"[A-Z.]", found.group(1))):
            return f"{found.group(1)} {number}"
    return number


#: "<subject> is due ...": the thing a deadline is for.
_DUE = re.compile(
    r"^\s*((?:[\w'-]+\s+){0,6}?[\w'-]+)\s+(?:is|are|was|were|has\s+to\s+be|must\s+be)\s+(?:due|submitted|handed\s+in)\b",
    re.IGNORECASE,
)
_OWNERS = frozenset("our my your their his her the".split())


def _lowered(phrase: str) -> str:
    """A sentence's opening determiner in lower case: mid-query "Our SOC 2 audit" is "our SOC 2 audit"."""
    first, _, rest = phrase.partition(" ")
    return f"{first.lower()} {rest}" if first.lower() in _OWNERS and rest else phrase


def _nearest(shape: re.Pattern[str], messages: Sequence[str], root: str) -> str | None:
    """The token of the latest message that has one, nearest a use of ``root``; with a modifier's
    root, only a message that writes a form of it counts."""
    for text in messages:
        tokens = list(shape.finditer(text))
        # a modifier's root may sit inside a word: "the diabetes pill" after "metformin for prediabetes"
        near = [m.start() for m in cached_re.finditer(re.escape(root), text, re.IGNORECASE)] if root else []
        if not tokens or (not near and root and root not in SHAPES_ROOTS):
            continue
        return min(tokens, key=lambda t: min((abs(t.start() - n) for n in near), default=t.start())).group(0).strip()
    return None


def _by_query_words(shape: re.Pattern[str], messages: Sequence[str], query: str, noun: str) -> tuple[str, str] | None:
    """The token of the sentence sharing the most content words with the query, the latest on a
    tie, and that sentence."""
    wanted = _content(query) - _content(noun)
    best: tuple[int, tuple[str, str]] | None = None
    for text in messages:
        for sentence in reversed(cached_re.split(r"(?<=[.!?;])\s+|\n", text)):
            tokens = shape.findall(sentence)
            if not tokens:
                continue
            overlap = len(_content(sentence) & wanted)
            if best is None or overlap > best[0]:
                best = (overlap, (tokens[0].strip(), sentence))
    return best[1] if best else None


def _content(text: str) -> set[str]:
    return {w[:5] for w in cached_re.findall(r"[a-z]{3,}", text.lower()) if w not in STOPWORDS}


#: The nouns' own roots: a message need not write the noun ("quoted £240" is enough, and so is "£240").
SHAPES_ROOTS = frozenset(n[:5] for n in SHAPES)
