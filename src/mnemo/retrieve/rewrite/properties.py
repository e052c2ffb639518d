"""Choosing by a property: "the configurable one", "the safer one", "the shared option".

When the conversation compares things, each is described by a property in its own clause
("Linear is faster and simpler; Jira is more configurable"). A query that picks one by that
property ("how much is the configurable one") points at the subject of the clause that states
it. The property word is matched by its stem (faster/fast, safer/safe, shared/share), and the
clause's subject is its copula subject ("Paracetamol is usually the safer choice") or else its
first name or identifier. Pure functions over the messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.lists import name_after, name_before
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: "the shared one", "the more configurable option", "the tax-free kind".
PROPERTY_REF = re.compile(
    r"\b(?:the|that|this|those)\s+(?:(?:more|less|most|least|super|really|very)\s+)?([a-z][a-z-]{2,})\s+"
    r"(?:one|ones|option|options|choice|kind|version|pair)\b",
    re.IGNORECASE,
)
#: "the cheaper car", "the quieter room", "that faster train": a comparative before any singular noun
#: (not a superlative: "the oldest bookshop in the world" is the world's, not one of the chat's).
COMPARED_NOUN_REF = re.compile(
    r"\b(?:the|that|this)\s+((?:more|less)\s+[a-z]{4,}|(?:cheap|fast|slow|big|small|large|long|short|new|old|close"
    r"|near|far|eas|hard|quiet|loud|light|heav|saf|risk|lat|earl|high|low|warm|cool|simpl|clean|nic|strong|weak"
    r"|thick|thin|wid|soft|firm|pric|dear|health|quick|bus|calm|bright|dark|sturd|roomi|spac)i?e?r)"
    r"\s+(?!one\b|ones\b|option|choice|kind|version|pair)([a-z]{3,}(?<!s))\b",
    re.IGNORECASE,
)
#: Ordinals and list words are lists.py's business; these describe no property.
_NOT_PROPERTIES = frozenset(
    """first second third fourth fifth last other former latter same next previous new old only whole right wrong
    big small little good bad""".split()
)
_CLAUSE = re.compile(r"[.;!?]\s+|,\s+(?:or|and|but|while|whereas)\s+|\s+(?:whereas|while)\s+|\n")
_COPULA_SUBJECT = re.compile(
    r"^\s*(?:(?:the|a|an|your|my)\s+)?([\w.+'-]+(?:\s+[\w.+'-]+){0,3}?)\s+(?:is|are|was|were|has|have|costs?|gives?)\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b([A-Z][\w.+'-]*(?:\s+[A-Z0-9][\w.+'-]*)*|[a-z]+_[\w]+|[\w-]+\.[a-z]{1,4})\b")


def stem(word: str) -> str:
    """The stem a property word shares with its other forms: "faster" -> "fast", "easier" -> "eas"."""
    low = word.lower()
    for suffix in ("iest", "ier", "est", "er", "ed", "able", "d"):
        if low.endswith(suffix) and len(low) - len(suffix) >= 3:
            return low[: -len(suffix)]
    return low


#: Heads a price adjective makes no option of: "the cheap seats" are a kind, "the expensive part" a share.
_NOT_PRICED = frozenset("one ones option options part bit side end stuff".split())


_OPTION_HEADS = frozenset("one ones option options choice deal offer plan quote place".split())


def property_spans(
    query: str, known: set[str] | frozenset[str], context: Sequence[Mapping[str, str]] = ()
) -> list[tuple[int, int, str]]:
    """(start, end, property) for each "the <property> one" whose property the conversation states,
    and each "the cheaper car" whose very comparative it uses ("the Yaris is cheaper on fuel")."""
    out = []
    for match in PRICE_REF.finditer(query):  # priced options in the chat: "the cheaper car quote"
        head = match.group(2).split()[-1].lower()
        written = any(
            cached_re.search(rf"\b{re.escape(head[:4])}", str(m.get("content") or ""), re.IGNORECASE) for m in context
        )
        if head not in _NOT_PRICED and (written or head in _OPTION_HEADS) and by_price(match.group(1), context):
            out.append((match.start(), match.end(), match.group(1).lower()))
    for match in PRICE_ALONE.finditer(query):  # "does the cheapest have parking": of the priced options
        if by_price(match.group(1), context):
            out.append((match.start(), match.end(), match.group(1).lower()))
    taken = [(s, e) for s, e, _ in out]
    for match in COMPARED_NOUN_REF.finditer(query):
        if any(s <= match.start() < e for s, e in taken):
            continue
        word = match.group(1).lower()
        if match.group(2).lower() not in STOPWORDS and word.split()[-1] in known:
            out.append((match.start(), match.end(), word.split()[-1]))
    for match in PROPERTY_REF.finditer(query):
        word = match.group(1).lower()
        if word in _NOT_PROPERTIES or word in STOPWORDS:
            continue
        root = stem(word)
        if any(k.startswith(root) for k in known) or ("-" in word and set(word.split("-")) <= set(known)):
            out.append((match.start(), match.end(), word))
    return out


#: "that 1850 one", "the 11 oclock one", "the £169 option": a choice by a number the conversation gave.
NUMBER_REF = re.compile(
    r"\b(?:the|that|this)\s+([£$€]?\d[\d,.:]*(?:\s*(?:o'?clock|am|pm))?)\s+(?:one|option|choice|quote|offer)\b",
    re.IGNORECASE,
)


def number_spans(query: str, context_text: str = "") -> list[tuple[int, int, str]]:
    """(start, end, number) for each "the <number> one" whose number the conversation gave."""
    digits = set(cached_re.findall(r"\d+", context_text.replace(",", "")))
    hours = {str(int(d) - 12) for d in cached_re.findall(r"\b(\d{1,2}):\d{2}", context_text) if int(d) > 12}
    out = []
    for m in NUMBER_REF.finditer(query):
        number = cached_re.sub(r"\D", "", m.group(1).split(":")[0])
        if number in digits | hours:
            out.append((m.start(), m.end(), m.group(1)))
    return out


def by_number(value: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The item of the latest list that carries the number ("FenceRight 1,850" for "that 1850
    one", "11:00 design review with Soo-ah" for "the 11 oclock one"), by its name, or None."""
    wanted = cached_re.sub(
        r"\D", "", value.split(":")[0] if cached_re.search(r"o'?clock|am|pm", value, re.I) else value
    )
    hour = bool(cached_re.search(r"o'?clock|am|pm", value, re.IGNORECASE))
    if not wanted:
        return None
    for message in reversed(list(context)):
        for item in _NUMBERED_ITEM.split(str(message.get("content") or "")):
            numbers = _NUMBER.findall(item)
            if not any(_same_number(n, wanted, hour) for n in numbers):
                continue
            bare = _NUMBER.sub(" ", item)
            bare = _ITEM_NOISE.sub(" ", bare).strip(" ,;:-")
            bare = " ".join(w for w in bare.split() if w.lower() not in _UNITS)
            head = _PART_HEAD.match(bare)
            if head and head.group(1).lower() not in STOPWORDS | _OPENERS:
                return head.group(1)
            words = bare.split()
            if 0 < len(words) <= 6:
                return " ".join(words)
    return None


_NUMBER = re.compile(r"\d[\d,.:]*(?:\s*(?:am|pm))?")
#: List items, where a comma between digits ("1,850") or a point in a decimal splits nothing.
_NUMBERED_ITEM = re.compile(r"(?<!\d)[.;!?]\s+|[.;!?]\s+(?=\D)|,(?!\d)\s*|:\s+|\n")
#: Units left behind when the number is taken out ("256 GB"): no name of the item.
_UNITS = frozenset("gb mb tb kb kg g mg ml l km m cm mm mins min hours hrs h pm am x inch inches".split())
#: Currency signs, brackets and a dangling conjunction left when the number is taken out.
_ITEM_NOISE = re.compile(r"[£$€()]|\b(?:and|or|a|an|at|for)\b(?=\s*$)|^\s*(?:and|or|then)\s+")


def _same_number(found: str, wanted: str, hour: bool) -> bool:
    if hour:  # "11 oclock": "11:00", "11am"; "3 oclock": "15:00" too
        found_hour = cached_re.sub(r"\D", "", found.split(":")[0])
        return found_hour == wanted or (found_hour.isdigit() and str(int(found_hour) - 12) == wanted)
    return cached_re.sub(r"[^\d.]", "", found).rstrip(".").split(".")[0] == wanted


#: "the one due thursday", "that one ending in march": a choice by a modifier after "one".
ONE_WITH = re.compile(
    r"\b(?:the|that|this)\s+one\s+((?:due|from|with|in|on|at|for|ending|starting|near|by|about)\b(?:[^?.,!;]|\.\b){2,40})",
    re.IGNORECASE,
)


def one_with_spans(query: str, known: set[str] | frozenset[str]) -> list[tuple[int, int, str]]:
    """(start, end, modifier) for each "the one <modifier>" whose content words the conversation has."""
    out = []
    for match in ONE_WITH.finditer(query):
        # the modifier runs to its last word the conversation has ("ending in june", not "... renewable")
        last = [m for m in cached_re.finditer(r"[A-Za-z0-9]+", match.group(1)) if m.group(0).lower() in known]
        if last and any(m.group(0).lower() in _content(match.group(1)) for m in last):
            end = match.start(1) + last[-1].end()
            out.append((match.start(), end, query[match.start(1) : end]))
    return out


def _content(text: str) -> list[str]:
    return [w for w in cached_re.findall(r"[a-z0-9]+", text.lower()) if w not in STOPWORDS and w not in _MODIFIER_WORDS]


_MODIFIER_WORDS = frozenset("due ending starting near one".split())


def by_property(word: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """The subject of the latest clause that states the property (a word, or the words of a
    modifier: "due thursday"), or None."""
    modifier = " " in word.strip()
    if not modifier and (kind := _one_of_kind(word, context)):
        return kind  # "the staging one" after "two clusters, ... and a staging one": the staging cluster
    words = _content(word) if modifier else [word]
    patterns = [cached_re.compile(rf"\b{re.escape(w if modifier else stem(w))}\w*", re.IGNORECASE) for w in words]
    # a modifier picks an item of a list ("History on Monday, English on Thursday"): split at commas too
    splitter = _ITEM if modifier else _CLAUSE
    messages = list(context)
    for at in range(len(messages) - 1, -1, -1):
        for clause in splitter.split(str(messages[at].get("content") or "")):
            if not patterns or not all(p.search(clause) for p in patterns):
                continue
            if _ASKS_WHICH.match(clause) and at + 1 < len(messages):  # "which is lightest?" - "The Bosch, at 2.5kg"
                answer = _CLAUSE.split(str(messages[at + 1].get("content") or ""))[0]
                named = _PART_HEAD.match(cached_re.sub(r"^\s*(?:the|a|an)\s+", "", answer, flags=re.IGNORECASE))
                if named and named.group(1).lower() not in STOPWORDS | _OPENERS:
                    return named.group(1)
                continue
            timed = None if modifier else _timed_noun(word).search(clause)
            if timed:  # "the orthodontist one" after "the dentist on the 3rd and the orthodontist on the 17th"
                return f"the {word.lower()} {timed.group(1)}"
            variant = None if modifier else _VARIANT.search(clause)
            if variant and stem(word).lower() in variant.group(1).lower():
                # "There's also a blue colourway": the product told before, in that colour
                product = _told_before(messages, at, clause)
                return f"the {word} {product}" if product else f"the {variant.group(1).strip()} {variant.group(2)}"
            item = _ITEM_HEAD.match(clause) if modifier else None
            if item and item.group(1).lower() not in STOPWORDS:
                return item.group(1)
            # "Cholesterol is a little high and ferritin is low", "PLAT-310 login timeout, PLAT-311
            # avatar upload fails": the part that states the property has a subject of its own
            subject = _part_subject(_PART.split(clause), patterns) or _subject(clause)
            if subject and not cached_re.fullmatch(r"[\d.,]+", subject):  # "2 of those are blocked": a count, no option
                return subject
    return None


#: A counted plural that sets up the kind "one" stands for: "two clusters", "both savings accounts".
_COUNTED_KIND = re.compile(
    r"\b(?:two|three|four|both|2|3|4|a\s+couple\s+of)\s+((?:[a-z][a-z-]*\s+){0,2}?[a-z][a-z-]*[^s\W]s)\b", re.IGNORECASE
)


def _one_of_kind(word: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the staging one" when a message says "we have two clusters, prod-eu on GKE and a staging one"
    or "two lasagne recipes, one with bechamel and one with ricotta": the word with the counted kind."""
    esc = re.escape(word)
    one = cached_re.compile(
        rf"\b{esc}\s+ones?\b|\bones?\s+(?:with|in|on|using|that\s+(?:has|uses))\s+(?:\w+\s+)?{esc}\b", re.IGNORECASE
    )
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        found = one.search(text)
        if found is None:
            continue
        kinds = list(_COUNTED_KIND.finditer(text, 0, found.start()))
        if not kinds:
            # "the grey sofa at £899 and the blue one": the noun of the parallel phrase before it
            parallel = list(_PARALLEL.finditer(cached_re.split(r"[.!?;]\s", text[: found.start()])[-1]))
            if parallel:
                return f"the {word.lower()} {parallel[-1].group(1)}"
            continue  # "The blue one has removable covers": an earlier message may say one of what
        plural = kinds[-1].group(1).lower()
        single = plural[:-3] + "y" if plural.endswith("ies") else plural[:-1]
        return f"the {word.lower()} {single}"
    return None


_PARALLEL = re.compile(
    r"\b(?:the|a|an)\s+[a-z-]+\s+(?!ones?\b)([a-z]{3,})\b(?=[^,;]*(?:,|\band\b|\bor\b)\s+(?:the|a|an)\s*$)"
)
#: A question that asks which one has the property: its answer names it.
_ASKS_WHICH = re.compile(
    r"^\s*(?:and\s+)?(?:which|what|who)(?:'s|\s+(?:one\s+)?(?:is|was|has|had|are))?\b", re.IGNORECASE
)
_PART = re.compile(r",\s*|\s+(?:and|but|while|whereas)\s+")
#: A part that opens with its own name or identifier: "PLAT-311 avatar upload fails", "Bilal".
#: ... a time keeps its minutes: "The 7:40 is direct".
_PART_HEAD = re.compile(r"^\s*((?:[A-Z][\w.+'-]*(?:\s+[A-Z0-9][\w.+'-]*(?::\d\d)?)*)|[\w-]*\d[\w-]*(?::\d\d)?)")
_RELATIVE = re.compile(r"^\s*(?:who|which|that|whose)\b", re.IGNORECASE)


def _timed_noun(word: str) -> re.Pattern[str]:
    """ "the orthodontist on the 17th": the word as a noun, with the time that tells it apart."""
    return cached_re.compile(
        rf"\bthe\s+{re.escape(word)}\s+((?:on|at|in)\s+(?:the\s+)?\w+(?:\s+\w+)?)(?=\s+and\b|\s*(?:[,;]|\.\B)|\s*$)",
        re.IGNORECASE,
    )


#: "there's also a blue colourway": a variant of something told before, not a thing of its own.
_VARIANT = re.compile(
    r"\bthere(?:'s|\s+is|\s+are)\s+(?:also\s+)?(?:an?\s+)?((?:[\w-]+\s+){1,2}?)"
    r"(colou?rways?|colou?rs?|versions?|editions?|variants?|finish|models?)\b",
    re.IGNORECASE,
)


def _told_before(messages: Sequence[Mapping[str, str]], at: int, clause: str) -> str | None:
    """The subject of the latest clause before ``clause`` (in its message or an earlier one)."""
    for back in range(at, -1, -1):
        clauses = _CLAUSE.split(str(messages[back].get("content") or ""))
        if back == at:
            clauses = clauses[: clauses.index(clause)] if clause in clauses else []
        for earlier in reversed(clauses):
            subject = _subject(earlier)
            if subject:
                return subject
    return None


def _part_subject(parts: Sequence[str], patterns: Sequence[re.Pattern[str]]) -> str | None:
    """The subject of the part of a clause that states the property; a relative part ("Bilal, who
    is strong in SQL") has the subject of the part before it."""
    for n, part in enumerate(parts):
        if not all(p.search(part) for p in patterns):
            continue
        if _RELATIVE.match(part):
            part = parts[n - 1] if n else part
        head = _PART_HEAD.match(part)
        word = head.group(1).lower() if head else ""
        # "There's also a blue colourway": a clitic on a function word names nothing
        if head and word not in STOPWORDS and word not in _OPENERS and word.split("'")[0] not in STOPWORDS:
            return head.group(1)
        return _subject(part)
    return None


_ITEM = re.compile(r"[.;!?]\s+|,\s*|\n")
#: "English on Thursday", "the Henderson account ending in March": an item, then its modifier.
_ITEM_HEAD = re.compile(
    r"^\s*((?:the\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:on|in|at|for|by|from|due|ending|starting)\b"
)


def _subject(clause: str) -> str | None:
    copula = _COPULA_SUBJECT.match(clause)
    words = copula.group(1).lower().split() if copula else []
    if words and not any(w in STOPWORDS | {"it", "this", "that", "they", "and", "or"} for w in words):
        return copula.group(1)  # "Paracetamol is usually the safer choice"
    named = _NAME.search(clause.strip())
    if named:
        return named.group(1)
    first = clause.split()[0] if clause.split() else ""  # "Redis survives restarts and is shared"
    low = first.lower()
    return first if first[:1].isupper() and first.isalnum() and low not in STOPWORDS and low not in _OPENERS else None


#: Capitalised clause openers that are no subject.
_OPENERS = frozenset("then also try maybe perhaps yes no right sure well so but both either".split())


#: Comparatives a price decides: the lowest price is "cheaper", the highest "pricier".
_LOWEST = frozenset("cheaper cheapest cheap".split())
_HIGHEST = frozenset("pricier priciest dearer dearest expensive costlier".split())
#: "does the cheapest have parking", "book the most expensive": a price adjective standing alone for
#: an option; a verb, a question's end or "of them" follows it.
PRICE_ALONE = re.compile(
    r"\bthe\s+(?:most\s+)?(cheapest|priciest|dearest|expensive|cheaper|pricier)"
    r"(?=\s*(?:[?!,]|\.\B|$|(?:is|was|has|have|had|does|do|did|will|would|can|could|includes?|comes?|takes?"
    r"|of\s+(?:them|those|the)|for|with|in)\b))",
    re.IGNORECASE,
)
#: "the cheaper car quote", "the expensive warehouse": an option told apart by its price.
PRICE_REF = re.compile(
    r"\b(?:the|that|this)\s+(?:more\s+|most\s+)?(cheaper|cheapest|cheap|pricier|priciest|dearer|expensive|costlier)"
    r"\s+([a-z]{3,}(?:\s+(?:quotes?|plans?|options?|deals?|offers?|tickets?|flights?|rooms?|policy|policies|models?"
    r"|versions?|packages?|tiers?|subscriptions?))?)\b",
    re.IGNORECASE,
)
_PRICE = re.compile(r"[£$€]\s?\d[\d,]*(?:\.\d+)?k?")
_OPTION_SPLIT = re.compile(
    r"(?:;|,(?!\d))\s*(?:or\s+|and\s+)?|\s+(?:or|vs\.?|versus)\s+|\s+and\s+(?=[£$€]|a\s|an\s|the\s|[A-Z])"
)
_LEAD_OUT = re.compile(
    r"\s*\b(?:at|for|from|costs?|is|about|around|roughly|only|just|quoted|charged|charges|wants|asked|asks|offered"
    r"|offers)\s*$",
    re.IGNORECASE,
)


#: An amount without a currency sign, in a message that compares prices: "Verda at 25/month", "Admiral
#: quoted 640 and Direct Line 590", "ANALYTICS_WH is 9k a month". A unit after it makes it no price.
_BARE_PRICE = re.compile(
    r"(?<![\w.,/-])\d[\d,]*(?:\.\d+)?k?(?=(?:/(?:month|mo|yr|year|night))?(?:[\s,;)]|\.\B|$))"
    r"(?!\s?(?:gb|mb|tb|kg|km|mi|miles|%|am|pm|min|mins|minutes|hours?|days?|weeks?|months?|years?|people|guests"
    r"|rows|users|nodes|dashboards|cores|seats|times|x)\b)",
    re.IGNORECASE,
)


def by_price(word: str, context: Sequence[Mapping[str, str]], topic: Sequence[str] = ()) -> str | None:
    """ "the cheaper one" over "a 12-month lease at £1,150 or rolling monthly at £1,250": the option
    with the lowest price (the highest for "pricier"), from the latest message that prices two or
    more options one price each. The option is named before its price ("Play at 13:15 for €189")
    or, when the price leads, after it ("€225 at Hostal Atenas")."""
    low = word.lower()
    if low not in _LOWEST | _HIGHEST:
        return None
    messages = list(reversed(list(context)))
    roots = [cached_re.compile(rf"\b{re.escape(t[:4])}", re.IGNORECASE) for t in topic if len(t) >= 3]
    if roots:  # "the cheaper car quote": a message about cars first, then any
        messages = [m for m in messages if any(r.search(str(m.get("content") or "")) for r in roots)] + messages
    for message in messages:
        text = str(message.get("content") or "")
        options = _priced_options(text, _PRICE) or _priced_options(text, _BARE_PRICE)
        if len(options) >= 2:
            return (min if low in _LOWEST else max)(options)[1]
    return None


def _priced_options(text: str, price: re.Pattern[str]) -> list[tuple[float, str]]:
    options = []
    for part in _OPTION_SPLIT.split(text):
        prices = price.findall(part or "")
        if len(prices) == 1:
            name = _priced_name(part, prices[0])
            if name:
                options.append((_amount(prices[0]), name))
    return options


def _priced_name(part: str, price: str) -> str:
    before, _, after = part.partition(price)
    before = cached_re.sub(r"\s*\(\s*$", "", before)  # "Lumiares (£138)": the price in brackets after the name
    while _LEAD_OUT.search(before):
        before = _LEAD_OUT.sub("", before)
    opened = cached_re.match(
        r"\s*(?:and\s+|or\s+)?((?:a|an|the)\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:with|of|in|on|for|from)\b",
        before.split(":")[-1],
    )
    if opened:  # "a deluxe with a view of Wawel at 480": the option is the phrase its attachment follows
        return opened.group(1)
    name = name_before(before)
    labelled = (
        cached_re.search(rf"\b([a-z]{{3,}})\s+{re.escape(name)}$", before.strip())
        if cached_re.fullmatch(r"[A-Z0-9]", name)
        else None
    )
    if labelled and labelled.group(1) not in STOPWORDS:
        return f"{labelled.group(1)} {name}"  # "plumber B quoted £85": a label needs its noun
    if name and (name[:1].isupper() or cached_re.match(r"(?:a|an|the)\s", name, re.IGNORECASE) or " " in name):
        return name
    lead = cached_re.match(r"\s*(?:at|for|on|with)\s+(.+)", after)
    return name_after(lead.group(1)) if lead else ""


def _amount(price: str) -> float:
    """ "£1,150" -> 1150.0, "$2.5k" -> 2500.0."""
    return float(cached_re.sub(r"[^\d.]", "", price)) * (1000 if price.endswith("k") else 1)
