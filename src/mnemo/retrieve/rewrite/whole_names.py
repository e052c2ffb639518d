"""Names written with symbols and numbers, kept whole: "B&H", "AT&T", "C++", "Disney+", "iOS 17.4",
"iPhone 15 Pro Max", "RTX 4070 Ti", "ASP.NET", "7-Eleven", "at O'Neill's".

The other extractors read a name as letters, so they cut such a name at its first symbol or number
("the B", "Disney", "iOS" beside a loose "17.4", "the iPhone 15" beside "Pro Max", "ASP"). What the
resolver puts in a query must be the whole name: "does iOS 17.4 drain the battery" is a different
search from "does iOS drain the battery". This pass runs over one message's mentions: it adds the
names made of symbols that nothing reads, grows a name to the token it was cut from and over the
version, model code, suffix, "+" or place-naming possessive written after it, and drops the pieces a
whole name now covers. A number that is an amount, a time, a rating, a size or an age is no version.
"""

from __future__ import annotations

import re
from dataclasses import replace

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.lexicon import SOFTWARE, kinds_of
from mnemo.retrieve.rewrite.namekind import CALENDAR_WORD, SHORT_DAYS
from mnemo.retrieve.rewrite.names import FIRST_NAMES, fold

#: Letters joined by "&" or closed by "+"/"++": "B&H", "AT&T", "M&S", "C++", "Notepad++", "N+1".
_SYMBOL_NAME = re.compile(r"(?<![\w&+])([A-Z][A-Za-z]{0,3}&[A-Z][A-Za-z]{0,3}|[A-Z][A-Za-z]*\+\+|[A-Z]\+\d)(?![\w&+])")
#: Abbreviations made with "&" that name no thing one asks about again.
_NOT_THINGS = frozenset({"Q&A", "T&C", "T&Cs", "B&B", "G&T"})
#: A version after a name: "iOS 17.4", "Python 3.12", "Ubuntu 22.04", "v2.4.1" (never "at 10.30").
_VERSION = re.compile(r"\s(?:v)?\d{1,4}(?:\.\d{1,4}){1,2}(?!\w|\.\d)")
#: What a product line writes after its model number: "15 Pro Max", "4070 Ti", "PS5 Slim".
_SUFFIX_WORDS = r"(?:\s(?:Pro|Max|Plus|Ultra|Mini|Lite|Air|Ti|Slim|Super|XL|SE|FE)){1,2}(?![\w-])"
_SUFFIX = re.compile(_SUFFIX_WORDS)
#: A release or model number after a coined name ("Next.js 14", "RTX 4070"), where the clause goes on
#: or ends: not a count ("Python 3 times", "RAM 16 GB").
_MODEL = re.compile(
    rf"\s\d{{1,4}}[a-z]?(?:{_SUFFIX_WORDS})?(?=[,.;:!?)]|\s+(?:and|or|with|is|was|for|on|in|at|but|to)\b|$)"
)
_CAPS_MODEL = re.compile(rf"\s\d{{1,4}}[a-z]?{_SUFFIX_WORDS}")
#: Money or odds told before a name, or a unit after its number: "paid HMRC 300", "Arsenal 2.10 to
#: beat", "Tesco 2.50 a litre" - an amount, no version.
_PRICED = re.compile(
    r"\b(?:paid|pay|pays|paying|cost|costs|priced|charged|charges|owe|owed|odds|bet)\b[^.!?]*$", re.IGNORECASE
)
_AMOUNT_AFTER = re.compile(
    r"\s+(?:a|an|per|each|to\s+(?:beat|win)|kg|g|lb|lbs|ml|l|litres?|liters?|pounds?|quid|euros?|dollars?|pence|off"
    r"|monthly|yearly|degrees|km|miles|points|stars|mmol|mg|%)\b",
    re.IGNORECASE,
)
#: A model code after a product's name: letters and digits in one word ("23H2", "V15", "F-150",
#: "Flip5"), or one capital before such a word ("Z Flip5").
_MODEL_CODE = re.compile(
    r"\s(?:[A-Z]\s(?=[A-Z][a-z]*\d))?(?:[A-Z]{1,3}-?\d+[A-Za-z0-9]*|\d+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+\d+[a-z]?)(?![\w-])"
    # "Lidl B2 level", "Staples A4 paper": a code that labels a place or a size, not a model
    r"(?!\s+(?:level|floor|gate|exit|paper|bay|wing|block|platform|terminal|room|size|car\s+park|parking)\b)"
)
#: Letters and digits joined by hyphens, dots, slashes or colons: one token, one name.
_JOINED_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-./:][A-Za-z0-9]+)+")
_JOINERS = "-./:"
_DETERMINERS = frozenset("the a an my our your his her their this that".split())
#: What a name's version, code, suffix or "+" opens with: a space and a digit or a capital, or a "+".
_MAY_GO_ON = re.compile(r"\s[\dA-Zv]|\+")
#: A subscription's "+": "Disney+", "Apple TV+" (the "+" closes the name, it joins nothing).
_PLUS = re.compile(r"(?:\s[A-Z]{2,3})?\+(?![\w+])")


def whole_names(text: str, found: list[tuple[int, Candidate]]) -> list[tuple[int, Candidate]]:
    """``found`` (position, candidate) with each name widened to the token it was cut from and to
    what is written after it, the names made of symbols added, and the pieces a whole name covers
    dropped."""
    tokens = [m.span() for m in _JOINED_TOKEN.finditer(text) if _name_token(m.group(0))]
    read = [(at, *_widened(text, at, candidate, tokens)) for at, candidate in found]
    for match in _SYMBOL_NAME.finditer(text):
        if match.group(1) in _NOT_THINGS:
            continue
        # "N+1" names a kind of problem more than a thing the query acts on: a weak candidate
        weight = 0.5 if match.group(1)[-1].isdigit() else 1.0
        span = (match.start(1), match.end(1) + len(_firm_word(text, match.end(1))))  # "P&O Ferries"
        read.append((span[0], Candidate(text[span[0] : span[1]], "thing", salience=weight), span, True))
    wholes = [span for _, _, span, widened in read if widened and span]
    spans = [span for _, _, span, _ in read if span]
    kept = []
    for at, candidate, span, widened in read:
        if span and widened and any(_within(span, other) for other in spans):
            continue  # "WH-1000XM5" grown from "WH" when "the Sony WH-1000XM5" is read whole already
        if span and not widened and span not in tokens and any(_cut_by(span, whole) for whole in wholes):
            continue  # "17.4" beside "iOS 17.4", "the B" of "B&H"; never a whole token ("t3.medium")
        kept.append((at, candidate))
    return kept


def _widened(
    text: str, at: int, candidate: Candidate, tokens: list[tuple[int, int]]
) -> tuple[Candidate, tuple[int, int] | None, bool]:
    """The candidate grown to its whole name, where it is written, and whether it grew."""
    # "the iam" read from "an iam:PassRole error": the determiner is the extractor's, the rest is written
    lead, _, rest = candidate.text.partition(" ")
    own = _located(text, at, candidate.text)
    determiner = f"{lead} " if own < 0 and rest and lead.lower() in _DETERMINERS else ""
    start = own if not determiner else _located(text, at, rest)
    if start < 0 or candidate.kind == "time":
        return candidate, None, False  # "March 2023": a date, no name to widen
    end = start + len(candidate.text) - len(determiner)
    whole_start, whole_end = _token_edges(text, start, end, tokens if candidate.kind != "person" else [])
    # no person goes on ("Leo 7.5": an age), and most names end at a lower-case word
    if candidate.kind != "person" and _MAY_GO_ON.match(text, whole_end):
        whole_end += len(_tail(text, whole_end, text[whole_start:whole_end]))
    # "at Nando's on Friday", "at O'Neill's": a place named by a possessive; "at Sarah's" stays Sarah
    possessive = text[whole_end : whole_end + 1] in ("'", "’")  # checked first: most names have none
    if possessive and _venue(text, whole_start, whole_end) and _no_first_name(candidate):
        whole_end += 2
    if (whole_start, whole_end) == (start, end):
        return candidate, (start, end), False
    grown = replace(candidate, text=determiner + text[whole_start:whole_end])
    return grown, (whole_start, whole_end), True


#: Where a shop or a pub named by its owner's possessive is: "at O'Neill's", "from the Sainsbury's near".
#: Only after a preposition: "The Toyota's in the garage", "the Honda's near the back" are "is".
_VENUE_BEFORE = re.compile(r"\b(?:at|from|to|into|near|outside|inside)\s+(?:(?:a|the)\s+)?$", re.IGNORECASE)
_VENUE_AFTER = re.compile(r"['’]s(?=\s*(?:[,.;:!?)]|$)|\s+(?:on|at|near|around|for|by|and|or|before|after|with)\b)")


def _no_first_name(candidate: Candidate) -> bool:
    """A thing, or a person named by no first name ("O'Neill"): "at Sarah's" stays Sarah."""
    return candidate.kind != "person" or not any(fold(w) in FIRST_NAMES for w in candidate.text.split())


def _venue(text: str, start: int, end: int) -> bool:
    """Whether the name ends in a possessive that names a place ("at McDonald's around Rock
    Springs", "at O'Neill's on Friday"), not an owner ("Jack's birthday") or an "is"."""
    before = text[max(0, start - 16) : start]
    if _A_BEFORE.search(before):  # "there's a Sainsbury's near our flat": "a" takes no "is" after a name
        return bool(_PLACE_AFTER.match(text, end))
    return bool(_VENUE_AFTER.match(text, end)) and bool(_VENUE_BEFORE.search(before))


_A_BEFORE = re.compile(r"(?<![\w'])an?\s+$", re.IGNORECASE)
_PLACE_AFTER = re.compile(r"['’]s\s+(?:near|around|opposite|next\s+to|by\s+the|in\s+(?-i:[A-Z]))")


def _within(span: tuple[int, int], other: tuple[int, int]) -> bool:
    return other[0] <= span[0] and span[1] <= other[1] and span != other


def _cut_by(span: tuple[int, int], whole: tuple[int, int]) -> bool:
    """Whether a mention is a piece of a whole name: inside it ("17.4", "Pro Max", "TV") or cut at its
    symbol ("the B" of "the B&H store")."""
    (start, end), (s, e) = span, whole
    return _within(span, whole) or start < s < end < e or s < start < e < end


def _firm_word(text: str, end: int) -> str:
    """The capitalised word a firm's symbol name goes on with: " Ferries" of "P&O Ferries", " Photo"
    of "B&H Photo" (no day or month: "at B&H Monday")."""
    found = _NEXT_CAPITAL.match(text, end)
    return found.group(0) if found and not CALENDAR_WORD.fullmatch(found.group(1)) else ""


_NEXT_CAPITAL = re.compile(r" ((?-i:[A-Z])[a-z]{2,})(?![\w'-])")


def _name_token(token: str) -> bool:
    """A token worth keeping whole: letters with a capital or a digit ("ASP.NET", "7-Eleven",
    "HTTP/2", "iam:PassRole"), not a plain hyphenated word ("follow-up") or a number ("2023/24")."""
    if _ALTERNATIVES.fullmatch(token):
        return False  # "Lisbon/Porto", "Emma/Jake", "Mon-Fri": two names or days, one or the other
    return any(c.isalpha() for c in token) and any(c.isupper() or c.isdigit() for c in token)


_DAY = "|".join((*SHORT_DAYS, "Sun"))
_ALTERNATIVES = re.compile(rf"[A-Z][a-z]+(?:/[A-Z][a-z]+)+|(?:{_DAY})(?:[-/](?:{_DAY}))+")


def _token_edges(text: str, start: int, end: int, tokens: list[tuple[int, int]]) -> tuple[int, int]:
    """The mention's span grown to the joined token its first or last word was cut from: "ASP" of
    "ASP.NET", "Eleven" of "7-Eleven", "1000XM5" of "WH-1000XM5", "Neill" of "O'Neill"."""
    if start >= 2 and text[start - 2 : start] in ("O'", "D'") and not text[start - 3 : start - 2].isalnum():
        start -= 2
    for s, e in tokens:
        if s < start <= e and text[start - 1] in _JOINERS:
            start = s
        if s <= end < e and text[end] in _JOINERS:
            end = e
    return start, end


def _located(text: str, at: int, name: str) -> int:
    """Where ``name`` is written at or just after ``at`` ("the iPhone 15" may open on "the"), or -1."""
    return text.find(name, max(0, at - 2), at + len(name) + 8)


def _tail(text: str, end: int, name: str) -> str:
    """What belongs to the name ending at ``end``: its model codes, version, suffix or "+"."""
    codes = ""
    last = name.split()[-1] if name.split() else ""
    proper = last[:1].isupper() or any(c.isdigit() for c in last)  # "Baxi boilers E119": the code is the fault's
    while proper and (found := _MODEL_CODE.match(text, end + len(codes))) and codes.count(" ") < 2:
        codes += found.group(0)  # "Windows 11" + " 23H2", "Galaxy" + " Z Flip5", "Ford" + " F-150"
    return codes + _closing(text, end + len(codes), name + codes)


def _closing(text: str, end: int, name: str) -> str:
    """The version, the model's suffix or the "+" that closes the name ending at ``end``."""
    rest = text[end:]
    last = name[-1:]
    before = text[max(0, end - len(name) - 24) : end - len(name)]
    priced = _PRICED.search(before)
    # a version only after software or a coined name, or where the chat says it is one: "Python 3.12",
    # "iOS 17.4", "TLS 1.3", "bumped our service to Go 1.22" - never "Tesco 10.30", "Nike 10.5", "rates
    # Oppenheimer 8.3" (a time, a size, a rating)
    versioned = _released(name) or bool(_VERSION_CUE.search(before))
    version = _VERSION.match(rest) if last.isalpha() and _name_like(name) and versioned and not priced else None
    if version and not _AMOUNT_AFTER.match(text, end + len(version.group(0))):
        return version.group(0)  # not "my first" + " 13.1" (miles), "Spotify" + " 11.99 monthly" (a price)
    # a coined name ("Next.js", "iOS") takes a bare number; one in capitals only with a suffix ("RTX 4070
    # Ti"), since "HMRC 300 in penalties" and "IKEA 40 for delivery" are amounts paid; "MacGyver 7" an age
    word = name.split()[-1]
    coined = last.isalpha() and " " not in name and ("." in word or _LOWER_THEN_UPPER.match(word) is not None)
    found = _MODEL.match(rest) if coined and not priced else _CAPS_MODEL.match(rest) if name.isupper() else None
    if found:
        return found.group(0)  # "RTX" + " 4070 Ti", "Next.js" + " 14"
    if last.isdigit() or (last.isalpha() and name[-2:-1].isdigit()):
        found = _SUFFIX.match(rest)  # "iPhone 15" + " Pro Max", "Pixel 8a" + " Pro"
        return found.group(0) if found else ""
    found = _PLUS.match(rest)
    return found.group(0) if found and last.isalpha() and not name[:1].isdigit() else ""  # not "200KB+"


def _released(name: str) -> bool:
    """Whether the name is one that comes in versions: software the lexicon knows ("Python",
    "Ubuntu"), or a coined word (dotted "Next.js", "iOS", "k8s", "TLS", a lower-case "pandas")."""
    word = name.split()[-1]
    coined = "." in word or _LOWER_THEN_UPPER.match(word) or any(c.isdigit() for c in word)
    return bool(coined or word.isupper() or word.islower() or kinds_of(word) & SOFTWARE)


_LOWER_THEN_UPPER = re.compile(r"[a-z]+[A-Z]")
#: Words before a name that say a number after it is a release: "upgraded to", "running", "version".
_VERSION_CUE = re.compile(
    r"\b(?:to|running|runs|run|on|version|release|upgraded|updated|bumped|installed|using)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def _name_like(phrase: str) -> bool:
    """One bare word ("pandas", "k8s"), or words each capitalised or with a digit, perhaps after a
    determiner ("the Galaxy Tab", "Visual Studio Code"): a name a version can follow, not "my first"."""
    words = phrase.split()
    if len(words) == 1:
        return True
    if words[0].lower() in _DETERMINERS:
        words = words[1:]
    return all(w[:1].isupper() or any(ch.isdigit() for ch in w) for w in words)
