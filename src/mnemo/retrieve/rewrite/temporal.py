"""Temporal references: "then", "that day", "the night before", "since then", "when that happened".

A temporal pointer stands for a time the conversation fixed, either by a date or time ("on March
3rd", "in 2019", "at 14:20 on Friday") or by an event ("during the Lisbon offsite", "at the
wedding", "when I lived in Montréal"). The anchor is the message that gives one: each recent
message is scored by what it offers (a date counts most for "that day"), by recency and by
speaker; its date and its event phrase together replace the pointer. Relation phrases keep their
relation and take the anchor as object ("the day before Tuesday", "after the product demo").
Pure functions over the message texts; no parser, so it fits the few-millisecond budget.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.anchor import Anchor
from mnemo.retrieve.rewrite.asked import WHEN_QUESTION, when_question_event
from mnemo.retrieve.rewrite.dated import changed_deed, dated_deed
from mnemo.retrieve.rewrite.dates import (
    _DAY,
    MONTH_NAME,
    TIME,
    holiday_date,
    times_in,
    with_preposition,
    without_preposition,
)
from mnemo.retrieve.rewrite.eventfit import segment_fits, talked_about_time
from mnemo.retrieve.rewrite.lowercase import lower_case_chat, truecase
from mnemo.retrieve.rewrite.names import (
    COLLECTIVES,
    COMMON_VERBS,
    PERSON_NOUNS,
    PLURAL_GROUPS,
    TIME_HEADS,
    VAGUE,
)
from mnemo.retrieve.rewrite.noun_phrases import phrases
from mnemo.retrieve.rewrite.surroundings import event_partner, event_place
from mnemo.retrieve.rewrite.tidy import without_particles
from mnemo.store.sql import STOPWORDS

from . import cached_re

_DURING = re.compile(
    r"\b(?:during|throughout)\s+((?:(?:the|our|my|his|her|their|a)\s+)?(?:[^,.;!?]|\.\b)+)", re.IGNORECASE
)
#: "when I lived in Montréal", "when we were in Oslo": a clause that dates the events around it.
_WHEN_CLAUSE = re.compile(
    r"\b(when|while)\s+((?:i|we|he|she|they|you|[A-Z][\w'-]+)\s+(?:[^,.;!?]|\.\b)+?)(?=\s+(?:i|we|he|she|they)\s|[,;!?]|\.\B|$)",
    re.IGNORECASE,
)
#: "Renée's farewell party": a named person's event.
_POSSESSIVE = re.compile(r"(?<!\w)[A-Z][\w-]*'s\s+[a-z]{3,}(?:\s+[a-z]{3,})?")
_NOT_NOUN = re.compile(
    r"(?:is|was|are|were|has|had|will|went|came|got|woke|ate|drank|swam|flew|drove|sang|[a-z]+ed|[a-z]+ing|[a-z]+[ea]pt)$"
)
#: Heads that name no event: people, groups, times and durations, vague words.
NOT_EVENTS = (
    PERSON_NOUNS
    | COLLECTIVES
    | PLURAL_GROUPS
    | TIME_HEADS
    | VAGUE
    | frozenset("hour hours minutes months weeks days years quarter sprint season best rest most".split())
)
_PAST = re.compile(
    r"\b(?:was|were|had|did|went|ran|saw|got|made|took|came|met|lost|left|began|gave|told|bought|[a-z]{3,}ed)\b",
    re.IGNORECASE,
)
_PLACE = re.compile(r"(?<=\w )(?:to|in|at)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
_IN_PLACE = re.compile(r"^\s+(?:in|at)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
#: A pointer that orders something after or before the last event told: "after that", "since then".
SEQUEL = re.compile(r"\b(?:after|before|since)\s+(?:that|then|this|it)\b|\bright\s+after\b", re.IGNORECASE)


def event_in(text: str) -> tuple[str | None, float]:
    """The event a message dates, and how explicit it is: a "when" clause or "during X" (1.5),
    else its first noun phrase that names a thing, not a person, a time or nothing (1.0)."""
    asked = when_question_event(text)
    if asked:  # "when did the uk switch to decimal money?": the event asked about, no clause of its own
        return asked, 1.5
    clause = _WHEN_CLAUSE.search(text)
    if clause:
        main = dated_deed(text[: clause.start()]) if clause.start() > 0 else None
        if main:  # "the outage started at 14:05 when the failover kicked in": the main clause is the event
            return main, 1.5
        return f"{clause.group(1).lower()} {clause.group(2).strip()}", 1.5
    dated = _DATED.match(text)  # "the tax return deadline is 31 January": the subject is what is dated
    subject_ok = dated and dated.group(1).split()[0].lower() not in _SUBJECT_PRONOUNS
    # a span of days dates by its last day: "12–13 june"
    when = cached_re.sub(r"^\d{1,2}\s*[–-]\s*(?=\d)", "", dated.group(2)) if dated else ""
    if dated and subject_ok and TIME.match(when) and _names_event(dated.group(1)):
        subject = dated.group(1)
        return (subject[0].lower() + subject[1:] if subject.split()[0] in _CAPITAL_DETERMINERS else subject), 1.0
    during = _DURING.search(text)
    if during:
        phrase = _cut(during.group(1))
        if phrase:
            return phrase, 1.5
    done = dated_deed(text)
    if done:  # "we deployed v2.3 on Thursday": the dated clause itself is the event
        return done, 1.2
    changed = changed_deed(text)
    if changed:  # "i started taking vitamin D because ...": a change the speaker made is an event undated too
        return changed, 1.0
    headline = _HEADLINE.match(text)
    if headline and TIME.search(text) and _headline_ok(headline.group(1)):
        return headline.group(1), 1.0  # "fire drill at the warehouse on monday": chat names the event bare
    bare = _BARE_DATED.search(text)
    if bare and _bare_event(bare.group(1)) and TIME.match(_DATE_LEAD.sub("", text[bare.end(1) + 1 :])):
        return bare.group(1), 1.0  # "going under for knee surgery on Thursday": a bare noun, then its date
    return _event_phrase(text)


def _bare_event(phrase: str) -> bool:
    """An event named by common nouns alone ("knee surgery", "jury duty"), not a verb's participle
    and its particle ("got moved to Thursday")."""
    words = phrase.lower().split()
    return _names_event(phrase) and not set(words) & STOPWORDS and not words[0].endswith("ed")


#: Words between an event and its date: "jury duty starting Monday", "a course from 3 June".
_DATE_LEAD = re.compile(r"^(?:starting|from)\s+(?:on\s+)?", re.IGNORECASE)
#: "for knee surgery on Thursday", "having a colonoscopy next week": an event named without a
#: determiner of its own (or with "a"), right before the time it happens.
_BARE_DATED = re.compile(
    r"\b(?:for|have|having|had|got|getting|booked|scheduled)\s+(?:an?\s+)?"
    r"((?!(?:the|my|our|your|his|her|their|it|this|that|them|me|us|you)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s"
    r"(?=(?:on|this|next|at|in|tomorrow|tonight|starting|from|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)",
    re.IGNORECASE,
)


def _event_phrase(text: str) -> tuple[str | None, float]:
    """The first noun phrase of a message that names an event (no person, time or vague word), with
    the gerund, partner and place around it; weaker for an indefinite phrase."""
    found = phrases(text) + [(m.start(), _possessed(m.group(0))) for m in _POSSESSIVE.finditer(text)]
    for start, candidate in sorted(found, key=lambda pair: pair[0]):
        written = candidate if isinstance(candidate, str) else candidate.text
        if not _names_event(written, born=bool(_BIRTH.search(text))) or TIME.fullmatch(written):
            continue
        shown = written if isinstance(candidate, str) else _as_written(text, start, written)
        gerund = _GERUND_BEFORE.search(text, max(0, start - 24), start)
        if gerund and gerund.group(1).lower() not in _NOT_GERUNDS:  # "before refactoring the cache": the deed
            shown, start = text[gerund.start(1) : start] + shown, gerund.start(1)  # as written, spaces and all
        if shown.endswith("'s"):
            continue  # "your cousin Beatriz's": the owner; the possessed thing is the event
        if shown.split()[0].lower().split("'")[0] in ("this", "that", "these", "those"):
            continue  # "That fight is brutal", "That's standard": it points back at an event, it names none
        inner = TIME.search(shown)
        if inner and inner.start() > 0:
            shown = shown[: inner.start()].rstrip()  # "the Berlin marathon last September": the date is apart
            shown = cached_re.sub(r"\s+(?:last|next|this|early|late)$", "", shown, flags=re.IGNORECASE)
        place = _IN_PLACE.match(text[start + len(shown) :])
        if place and TIME.match(place.group(0).strip()):
            place = None
        if place is None:
            shown += event_partner(text[start + len(shown) :])  # "a call with the bank": who it was with says which
            shown += event_place(text[start + len(shown) :])  # "her new job at the maritime museum"
        shown = without_particles(shown)  # "a payment notification since" (its date cut off) ends at its noun
        if shown.split()[0] in ("The", "Our", "My", "A", "An", "His", "Her", "Their"):
            shown = shown[0].lower() + shown[1:]  # it opened its sentence; mid-query it is lower-case
        # an indefinite phrase introduces something new ("a taxi driver"); events are known ones
        weight = 0.3 if shown.lower().startswith(("a ", "an ")) else 0.6
        return (f"{shown} {place.group(0).strip()}" if place else shown), weight
    return None, 0.0


_GERUND_BEFORE = re.compile(r"\b([a-z]{3,}ing)\s+$")
#: "-ing" words that are no deed of their own ("during the outage", "something", "morning").
_NOT_GERUNDS = frozenset("during something anything nothing everything morning evening thing king spring ring".split())


#: A message that opens with a bare noun phrase and a place or date: a chat note of an event.
_HEADLINE = re.compile(r"^\s*([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:at|in|on)\s", re.IGNORECASE)


def _headline_ok(phrase: str) -> bool:
    words = phrase.lower().split()
    if any(w in STOPWORDS or w in _SUBJECT_PRONOUNS or w in COMMON_VERBS for w in words):
        return False
    return (
        not _NOT_NOUN.fullmatch(words[0])
        and not _PAST.fullmatch(words[0])
        and _names_event(phrase)
        and not TIME.fullmatch(phrase)
    )


def _possessed(phrase: str) -> str:
    """ "Aiko's exam results", but "Caroline's talk" out of "Caroline's talk went": a second word
    that is a verb is cut (COMMON_VERBS lists the base forms chat uses most)."""
    words = phrase.split()
    if len(words) == 3 and (words[2] in COMMON_VERBS or _NOT_NOUN.fullmatch(words[2])):
        return " ".join(words[:2])
    return phrase


#: A birth or a visit dates the person: "our daughter Esme was born on 2 March", "my mother-in-law
#: Gwen is coming to stay from the 8th" make the person the anchor.
_BIRTH = re.compile(r"\b(?:born|birth|arriv\w*|coming|comes|visit\w*|stay\w*|fly(?:ing)?\s+in)\b", re.IGNORECASE)


def _names_event(phrase: str, born: bool = False) -> bool:
    """Whether a noun phrase names an event: its head is no person, group or vague word, and a
    time noun counts when a modifier makes it an occasion ("the parent-teacher evening")."""
    words = cached_re.split(r"\s+(?:for|of|from|with|in|on|at)\s+", phrase.lower(), maxsplit=1)[0].split()
    head = words[-1]
    named = cached_re.split(r"\s+(?:for|of|from|with|in|on|at)\s+", phrase, maxsplit=1)[0].split()[-1][:1].isupper()
    if len(words) >= 2 and words[-2] in PERSON_NOUNS and named and not born:
        return False  # "my flatmate Thandi": a person by role and name, no event
    if head in TIME_HEADS and len(words) > 1 and words[0].endswith("'s") and words[0] not in STOPWORDS:
        return True  # "Nadia's last day", "Tom's big night": a person's occasion
    if head in TIME_HEADS and len([w for w in words[:-1] if w not in STOPWORDS and w not in _DETERMINERS]) >= 1:
        return not TIME.search(phrase)  # "the awards night", not "last night" or "my new year's"
    return head not in NOT_EVENTS and head.removesuffix("s") not in NOT_EVENTS


_DETERMINERS = frozenset("the a an my our your his her their this that last next every same".split())


#: "<subject> is <date>": a copula that dates its subject.
_DATED = re.compile(
    # a pasted chat's speaker label first ("Ilse: offsite is confirmed for 12–13 june")
    r"^\s*(?:[A-Z][a-z]+:\s+)?((?:[A-Za-z0-9](?:[\w'-]|\.(?=\d))*\s+){0,5}?[A-Za-z][\w'-]*)\s+"
    r"(?:(?:is|was|are|were)\s+(?:confirmed|booked|scheduled|set|planned|fixed)\s+(?:for|on)|is|was|are|were|falls\s+on|is\s+due"
    r"|starts|begins|ends|kicks\s+off|opens|closes)\s+(.+)$",
    re.IGNORECASE,
)
_CAPITAL_DETERMINERS = frozenset({"The", "Our", "My", "Their", "His", "Her"})
_SUBJECT_PRONOUNS = frozenset("i we you he she it they this that there what which who".split())


def _as_written(text: str, start: int, normalised: str) -> str:
    """The phrase as the message wrote it ("our anniversary", not the normalised "the anniversary")."""
    count, last = len(normalised.split()), normalised.split()[-1]
    written = text[start:].split()[: count + 2]
    # "a rescue greyhound called Biko" was normalised without "called": read on to its last word
    ends = [n for n, w in enumerate(written) if w.strip(".,;:!?") == last and n >= count - 1]
    return " ".join(written[: ends[0] + 1 if ends else count]).strip(".,;:!?")


def _cut(phrase: str) -> str:
    words = []
    for word in phrase.split():
        if word.lower() in ("i", "we", "he", "she", "they", "was", "is", "were", "and", "but") and len(words) > 1:
            break
        words.append(word)
        if len(words) == 5:
            break
    return " ".join(words)


_CLAUSES = re.compile(r"[,;]\s*|(?<=(?:[!?]|\.\B))\s+|\s+(?:and|but)\s+")
#: What is left of a clause once its time is taken out, when it says where someone went: "to
#: Sicily", "Lviv", "we went to Sicily" (not "with Ana", whom one went with).
_WENT_TO = re.compile(
    r"(?i:(?:(?:i|we|they|he|she)\s+)?(?:(?:went|go|moved|flew|travelled|traveled|visited|stayed)\s+)?(?:to\s+|in\s+)?)"
    r"([A-Z][\w-]+(?:\s+[A-Z][\w-]+)*)"  # the name keeps its capital: "with Ana" is no place
)


_OPENING_PREPOSITION = re.compile(r"(?:On|In|At|By|During|Since|From|Until)\b")
#: How much of a message the anchor search reads: its last characters.
_ANCHOR_WINDOW = 2000


def find_anchor(
    context: Sequence[Mapping[str, str]],
    wants_date: bool,
    unit: str = "",
    max_messages: int = 8,
    topic: frozenset[str] = frozenset(),
    earliest: bool = False,
    sequel: bool = False,
) -> Anchor | None:
    """The best-scored message's date and event, or None when no recent message dates anything.

    A date counts most, an explicit event ("during", "when") next, a bare noun phrase least; the
    user's words and the opening message (what the conversation is about) count more, older
    messages less. ``unit`` ("weekend") favours a message that names the same unit, and a day-sized
    unit a date precise to the day. ``topic`` (stems of the query's own words, ``topic_stems``)
    favours the event the query's verb or subject fits, not simply the last one dated; ``earliest``
    ("the very first night") turns recency around. ``sequel`` ("after that", "since then") points
    at the last event told, so the opening message gets no bonus.
    """
    best: tuple[float, Anchor] | None = None
    recent = list(context)[-max_messages:]
    opening = next((m for m in recent if str(m.get("role") or "").lower() in ("user", "human")), None)
    fits = segment_fits(recent, topic) if topic else [0] * len(recent)
    for distance, message in enumerate(reversed(recent)):
        at = len(recent) - 1 - distance
        fit = fits[at]
        if earliest:
            distance = len(recent) - 1 - distance
        text = str(message.get("content") or "")[-_ANCHOR_WINDOW:]  # a pasted log dates its end, not all of it
        if lower_case_chat(text):
            text = truecase(text)
        found_times = times_in(text)
        if not found_times and WHEN_QUESTION.match(text):
            continue  # a when-question dates nothing; its answer does, and takes the question's event
        event, explicit = event_in(text)
        # "the VPN client": of several times, the one talked of; a longer unit ("that week") takes
        # the time that spans it instead (``_unit_clause``)
        talked = talked_about_time(text, found_times, recent[at + 1 :], topic) if unit in _POINT_UNITS else None
        if talked and talked[0] != found_times[0]:
            found_times = [talked[0]]
            event, explicit = event_in(talked[1])
        where = _PLACE.search(text)
        place = where.group(1) if where and not TIME.fullmatch(where.group(0)) else None
        if event and place and place.lower() in event.lower():
            place = None
        if not found_times and not event and not (place and _PAST.search(text)):
            continue  # "at uni in Glasgow I played ...": a past stay somewhere dates it too
        by_user = str(message.get("role") or "").lower() in ("user", "human")
        score = (2.0 if wants_date else 1.5) * bool(found_times) + (explicit or 0.4 * bool(place))
        opened = message is opening and not sequel
        score *= (1.2 if by_user else 1.0) * (1.5 if opened else 1.0) / (1.0 + 0.25 * distance)
        score *= _fit_weight(text, found_times, event, unit) * (1.0 + min(fit, 2))
        time, event, place = _unit_clause(text, found_times, event, place, unit)
        if time and _OPENING_PREPOSITION.match(time):
            time = time[0].lower() + time[1:]  # "On 15 February 1971" opened its sentence; mid-query it is "on"
        anchor = Anchor(time, event, 0.8 if found_times and event else 0.7, place)
        if best is None or score > best[0]:
            best = (score, _answered(anchor, message, recent, len(recent) - 1 - distance))
    return _with_holiday_date(_with_month(_refined(best[1], recent), recent), recent) if best else None


def _with_holiday_date(anchor: Anchor, recent: Sequence[Mapping[str, str]]) -> Anchor:
    """ "that evening" after "Diwali falls on November 1": the holiday is the event, its date the time."""
    date = holiday_date(anchor.time or "", [str(m.get("content") or "") for m in recent])
    if date is None:
        return anchor
    return Anchor(date, without_preposition(anchor.time or ""), anchor.confidence, anchor.place)


def _fit_weight(text: str, found_times: Sequence[str], event: str | None, unit: str) -> float:
    """How well a message's times and event fit the pointer: the same unit ("that weekend"), a day
    precise to the day for a day-sized unit, a past event, and not an hour alone."""
    weight = 1.0
    if unit and cached_re.search(rf"\b{re.escape(unit)}\b", text, re.IGNORECASE):
        weight *= 1.5
    if unit in _DAY_UNITS and any(_DAY_PRECISE.search(t) for t in found_times):
        weight *= 1.3  # "that day" wants "April 27", not "mid April"
    if event and _PAST.search(text):
        weight *= 1.4  # a pointer back in time points at something that happened, not a plan
    if not event and found_times and all(_CLOCK.fullmatch(without_preposition(t)) for t in found_times):
        weight *= 0.5  # "we'll be out till 2am": an hour alone is seldom the occasion pointed at
    return weight


def _unit_clause(
    text: str, found_times: Sequence[str], event: str | None, place: str | None, unit: str
) -> tuple[str | None, str | None, str | None]:
    """The message's time, event and place; with several times, "that summer" after "Kyiv in 2019
    and Lviv last summer" takes the time that names the unit and the event of its own clause."""
    named = [t for t in found_times if unit and cached_re.search(rf"\b{re.escape(unit)}\b", t, re.IGNORECASE)]
    time = (named or list(found_times) or [None])[0]
    if named and len(found_times) > 1:
        own = next((c for c in _CLAUSES.split(text) if named[0] in c), "")
        event = event_in(own)[0]
        went = _WENT_TO.fullmatch(own.replace(named[0], "").strip(" ,"))
        # "and Lviv last summer": where; the message's other places belong to its other clauses
        place = went.group(1) if went and not event else None
    return time, event, place


def _answered(anchor: Anchor, message: Mapping[str, str], recent: Sequence[Mapping[str, str]], at: int) -> Anchor:
    """ "anything fun on the 20th?" - "Leon's band is playing the Jazz Café": a question that
    dates something without naming it takes its event from the answer."""
    text = str(message.get("content") or "").rstrip()
    if not anchor.time:
        return anchor
    asked = str(recent[at - 1].get("content") or "") if at > 0 else ""
    if _WHEN_ASKED.match(asked):  # "when's the team offsite?" - "June 10 to 12": the question names it
        event, _ = event_in(asked)
        return Anchor(anchor.time, event, anchor.confidence, anchor.place) if event else anchor
    if anchor.event or not text.endswith("?") or at + 1 >= len(recent):
        return anchor
    event, _ = event_in(str(recent[at + 1].get("content") or ""))
    return Anchor(anchor.time, event, anchor.confidence, anchor.place) if event else anchor


_WHEN_ASKED = re.compile(
    r"^\s*(?:when(?:'s|\s+is|\s+was|\s+are|\s+were)?|what\s+(?:date|day|time)\s+is)\b", re.IGNORECASE
)


_ORDINAL_DAY = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)


def _with_month(anchor: Anchor, recent: Sequence[Mapping[str, str]]) -> Anchor:
    """ "around the 30th" after "a drop on 30 June": the day the chat dated in full, with its month."""
    day = _ORDINAL_DAY.search(anchor.time or "")
    if day is None or cached_re.search(rf"\b{MONTH_NAME}\b", anchor.time or "", re.IGNORECASE):
        return anchor  # "on the 14th of June" has its month already
    number = day.group(1)
    full = cached_re.compile(
        rf"\b{number}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_NAME}\b|\b{MONTH_NAME}\s+{number}(?:st|nd|rd|th)?\b",
        re.IGNORECASE,
    )
    for message in reversed(list(recent)):
        found = full.search(str(message.get("content") or ""))
        if found:
            time = (anchor.time or "")[: day.start()] + found.group(0) + (anchor.time or "")[day.end() :]
            return Anchor(time, anchor.event, anchor.confidence, anchor.place)
    return anchor


def _refined(anchor: Anchor, recent: Sequence[Mapping[str, str]]) -> Anchor:
    """A later bare time answers a question about the anchor ("What time?" - "noon"): it narrows
    the anchor's time rather than replacing its event."""
    for message in reversed(list(recent)[-3:]):
        text = str(message.get("content") or "").strip(" .!")
        found = times_in(text)
        if not found or len(text.split()) > len(found[0].split()) or found[0] == anchor.time:
            continue
        if anchor.time is None or _CLOCK.search(found[0]):  # a clock time narrows a day; a date would clash
            bare = without_preposition(found[0])
            if anchor.time and bare.lower() in anchor.time.lower():
                return anchor
            time = f"at {bare} {with_preposition(anchor.time)}" if anchor.time else with_preposition(found[0])
            return Anchor(time, anchor.event, anchor.confidence, anchor.place)
    return anchor


_CLOCK = re.compile(r"\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b", re.IGNORECASE)


_DAY_UNITS = frozenset("day night morning evening afternoon".split())
_POINT_UNITS = _DAY_UNITS | {""}
_DAY_PRECISE = re.compile(rf"\d|{_DAY}", re.IGNORECASE)
