"""Dates and times as a conversation writes them: "on March 3rd", "in 2019", "at 14:20 on Friday",
"the march appointment". Deictic ones ("next week", "today") point at the speaker's now and are not
here. Pure regexes and string helpers, shared by the temporal resolver and the anchoring rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import cached_re

_MONTHS = (
    "january|february|march|april|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
)
_MONTH = rf"(?:{_MONTHS}|may)"  # "may" only next to a number: "we may go" is no date
#: A month name as written in a chat, full or abbreviated: "March", "Sept", "Dec".
MONTH_NAME = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*"
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
_HOLIDAY = (
    r"(?:(?:christmas|new\s+year(?:'?s)?)(?:\s+(?:eve|day))?|easter|thanksgiving|halloween|ramadan|eid|diwali|hanukkah"
    r"|black\s+friday|cyber\s+monday|boxing\s+day|(?:valentine|mother|father|st\.?\s+patrick|saint\s+patrick)'?s\s+day"
    r"|lunar\s+new\s+year|chinese\s+new\s+year|passover|yom\s+kippur|rosh\s+hashanah|holi|hogmanay|bonfire\s+night)"
)
#: Dates and times a conversation fixes; deictic ones ("next week", "today") point at the speaker's now.
TIME = re.compile(
    rf"\b(?:(?:on|in|at|since|from|around|for|over)\s+)?(?:"
    rf"(?:the\s+)?{_ORD}(?:\s+of)?\s+{_MONTH}(?:\s+(?:19|20)\d{{2}})?"
    rf"|{_MONTH}\s+{_ORD}\b(?:,?\s+(?:19|20)\d{{2}})?"
    rf"|{_MONTH}\s+(?:19|20)\d{{2}}"
    rf"|(?:early|late|mid|mid-|last)\s*(?:{_MONTHS})"
    rf"|(?<=in )(?:{_MONTHS})|(?<=since )(?:{_MONTHS})"
    # "joined in may": after "in" or "since" and ending its clause, "may" is the month
    r"|(?<=in |ce )may(?=\s*(?:[,;!?)]|\.\B|$|(?:and|but|so|when|then|i|we)\b))"
    rf"|(?<=the )(?:{_MONTHS})(?=\s+(?!through|to|towards|on|in|at|of)[a-z]{{3,}})"  # "the march appointment"
    rf"|the\s+{_ORD}(?=[^\w.-]|\.(?!\d)|$)"  # "the 5.0 release" is a version, no day
    rf"|\d{{4}}-\d{{2}}-\d{{2}}"
    rf"|(?:19|20)\d{{2}}(?![-\d])"
    rf"|(?:last\s+|next\s+)?{_DAY}(?:\s+(?:morning|afternoon|evening|night))?"
    # a season the speaker places: "last summer", "in the spring of 2021", "the winter before last"
    r"|(?:last|this|next)\s+(?:summer|winter|spring|autumn|fall)"
    # "in the summer", "in winter 2019"; "in winter tyres" is a kind of tyre, so a season here
    # ends its phrase (punctuation, a year, "of", or a new clause)
    r"|(?<=in )(?:the\s+)?(?:summer|winter|spring|autumn|fall)(?:\s+of)?(?:\s+(?:19|20)\d{2})?"
    r"(?=\s*(?:[,;!?)]|\.\B|$|(?:19|20)\d{2}|(?:i|we|you|he|she|they|it|when|and|but|so|then)\b))"
    # "at 7", "at 7.30" (a British clock), never "came back at 7.2" (a reading)
    rf"|(?<=at )\d{{1,2}}(?:[:.][0-5]\d)?\s*(?:am|pm)?(?=\W|$)(?![.,]\d)"
    rf"|\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm)|noon|midnight"
    # a 24-hour clock anywhere ("the 14:05 pipeline run"), a week of a plan or a month ("in week 5",
    # "the first week of october")
    r"|(?<![\d:.])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])"
    r"|(?<=in )week\s+\d{1,2}\b"
    # a numbered day of a plan ("the longest stage is day 4") and a day of an outing ("on the last
    # night of the road trip", "the first morning of the retreat")
    r"|(?<![\w-])day\s+\d{1,2}(?![\d:.,]\d)(?!\s*(?:%|percent))"
    r"|(?:the\s+)?(?:first|last|final|second|third|opening|closing)\s+(?:day|night|morning|evening|afternoon)"
    r"\s+of\s+(?:the|our|my|your|their|his|her)\s+(?:[a-z][\w-]*\s+)?(?:trip|holiday|vacation|tour|festival"
    r"|conference|retreat|offsite|camp|cruise|visit|stay|course|residency|honeymoon|season|term|month|year)\b"
    rf"|the\s+(?:first|second|third|fourth|last)\s+week\s+of\s+(?:{_MONTHS}|may)\b"
    # a quarter a preposition governs: "by Q2", "in Q3 2024" ("the Q3 roadmap" is a roadmap)
    r"|(?:(?<=by )|(?<=in )|(?<=until )|(?<=before )|(?<=after )|(?<=end of ))q[1-4](?:\s+(?:19|20)\d{2})?"
    r"(?=\s*(?:[,;!?)]|\.\B|$|(?:and|but|so|then|with|for|or)\b))"
    rf"|{_HOLIDAY})(?![\w:-])",
    re.IGNORECASE,
)
_EVERY = re.compile(r"\bevery\s+(?:other\s+)?$", re.IGNORECASE)


def with_preposition(time: str) -> str:
    first = time.split()[0].lower()
    if first in ("on", "in", "at", "since", "from", "around", "for", "over"):
        return time
    if first in ("last", "next", "this"):
        return time  # "last summer", "next Friday": English puts no preposition before a deictic time
    if cached_re.match(r"(?:the\s+\w+\s+)?week\b", time, re.IGNORECASE):
        return f"in {time}"  # "in the first week of october", "in week 5"
    month_or_year = cached_re.fullmatch(r"(?:19|20)\d{2}|(?:early|late|mid|last)?\s*[a-z]+", time.lower())
    if month_or_year and not cached_re.search(_DAY, time, re.IGNORECASE):
        return f"in {time}"
    return f"on {time}"


def without_preposition(time: str) -> str:
    first, _, rest = time.partition(" ")
    return rest if rest and first.lower() in ("on", "in", "at", "since", "from", "around", "for", "over") else time


#: A unit after a number that makes it an amount: "at 5 days", "at 40 percent", "at 12 quid"; but "at 10
#: minutes past 4" is a clock time, and a year ("in 2019 users complained") is no amount.
_MEASURED = re.compile(
    r"\s*(?:%|(?:percent|days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|secs?|pounds?"
    r"|dollars?|euros?|quid|bucks|miles?|km|kg|mb|gb|tb)\b(?!\s+(?:past|to|after|before)\b))",
    re.IGNORECASE,
)


def times_in(text: str) -> list[str]:
    """The dates and times of a message, adjacent ones joined ("at 14:20 on Friday")."""
    out: list[tuple[int, int]] = []
    for match in TIME.finditer(text):
        if _EVERY.search(text[max(0, match.start() - 24) : match.start()]):
            continue  # "every other Thursday" is a schedule, not a day
        if cached_re.search(r"(?<!\d)\d{1,3}$", match.group(0)) and _MEASURED.match(text, match.end()):
            continue  # "estimated at 5 days", "priced at 12 pounds": an amount, no clock time
        if out and text[out[-1][1] : match.start()].strip(" ,").lower() in ("", "and", "to", "-", "–"):
            out[-1] = (out[-1][0], match.end())
            continue
        out.append((match.start(), match.end()))
    return [text[s:e].strip() for s, e in out]


#: A quarter of a year as written: "Q2", "Q3 2024", "the second quarter of 2023".
_QUARTER = re.compile(
    r"\b(?:Q[1-4](?:\s+(?:19|20)\d{2}|\s*'\d{2})?|(?:the\s+)?(?:first|second|third|fourth|last)\s+quarter"
    r"(?:\s+of\s+(?:19|20)\d{2})?)(?![\w-])",
    re.IGNORECASE,
)


def named_quarter(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest quarter the conversation wrote ("missed the Q2 target" -> "Q2"), or None: what
    "that quarter" points at, even where the quarter only modifies a noun."""
    for message in reversed(list(context)):
        found = _QUARTER.findall(str(message.get("content") or ""))
        if found:
            return found[-1]
    return None


_HOLIDAY_ALONE = re.compile(rf"(?:on|in|at|during|around|over)?\s*{_HOLIDAY}", re.IGNORECASE)


def holiday_date(time: str, texts: Sequence[str]) -> str | None:
    """The date a holiday named as the time falls on, as a message gives it beside the holiday
    ("Diwali falls on November 1 this year", "Ramadan starts around March 11"), or None."""
    if not _HOLIDAY_ALONE.fullmatch(time.strip()):
        return None
    name = without_preposition(time).lower()
    for text in reversed(list(texts)):
        if name not in text.lower():
            continue
        dates = [t for t in times_in(text) if not _HOLIDAY_ALONE.fullmatch(t.strip())]
        if dates:
            return dates[0]
    return None
