"""The deed a message dates: "we deployed v2.3 on Thursday" is "when we deployed v2.3", "had ACL
surgery on march 3" is "when I had ACL surgery", "i started taking vitamin D" is a change undated.

A date in a clause that reports something done (a subject, a verb in the past tense, its object)
dates that deed; a temporal pointer then names the deed with its date. Split from temporal.py,
which finds the anchor among the messages.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.dates import _EVERY, TIME
from mnemo.retrieve.rewrite.names import IRREGULAR_PAST

from . import cached_re

#: A clause that reports a deed in the past tense: a subject, a lexical verb, what it was done to.
#: Past tenses that do not end in -ed, and the few a chat uses bare ("cut over", "set up").
_PAST_WORDS = "|".join(sorted(IRREGULAR_PAST | {"went", "had", "did", "broke", "split", "cut", "set", "hit"}))
_DEED = re.compile(
    r"^\s*((?:i|we|you|he|she|they|someone|somebody|(?:my|our|your|his|her|their|the)\s+\w+(?:\s+\w+)?"
    # a product with its model number: "my Fitbit Charge 6 installed ...", "Android 14 landed ..."
    r"(?:\s+(?-i:[A-Z0-9])[\w.-]*){0,2}"
    r"|(?-i:[A-Z][a-z][\w-]*)(?:\s+(?-i:[A-Z0-9])[\w.-]*){0,2}(?:\s+and\s+(?:I|we|(?-i:[A-Z][a-z][\w-]*)))?)\s+"
    r"(?:just\s+|finally\s+)?"
    rf"(?:(?:[a-z]+-)?[a-z]{{3,}}ed|{_PAST_WORDS})\b.*)$",
    re.IGNORECASE,
)


#: An arrangement a date fixes ahead: "i'm speaking at kubecon on march 20", "we're moving on the 30th".
_ARRANGED = re.compile(
    r"^\s*((?:i|we|you|he|she|they|(?-i:[A-Z][a-z][\w-]*))(?:'m|'re|'s|\s+(?:am|are|is))\s+[a-z]{3,}ing\b.*)$",
    re.IGNORECASE,
)


#: Times counted from the message's own day: they date a deed as well as a calendar date does.
_DEICTIC = re.compile(
    r"\b(?:last\s+(?:week|night|month|year|weekend|sprint|quarter|term|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|yesterday"
    r"|this\s+morning|earlier\s+today|(?:a\s+few|a\s+couple\s+of|two|three|\d+)\s+(?:days|weeks|months|years)\s+ago)\b",
    re.IGNORECASE,
)


def dated_deed(text: str) -> str | None:
    """ "when we deployed v2.3", "when my dad retired": the clause of a message that a date dates,
    without the date, when it reports something done (a lexical verb in the past tense)."""
    for clause in cached_re.split(r"[.;!?]\s+|,\s+(?:and|but|so)\s+|\n", text):
        found = TIME.search(clause) or _DEICTIC.search(clause)
        if found is None or _EVERY.search(clause[: found.start()]):
            continue
        head = clause[: found.start()].rstrip(" ,")
        if cached_re.search(r"\b(?:the|a|an|our|my|your|his|her|their|this|that)$", head, re.IGNORECASE):
            continue  # "at the Tuesday sync": the date modifies a noun, it does not date the clause
        after = clause[found.end() :].lstrip(" ,")
        told_after = len(head.split()) < 2 and bool(_DEED.match(after))
        if told_after:
            words = after.split()[:9]  # "yesterday we spent hours debugging ...": the deed follows
            while words and words[-1].lower() in _LOOSE_ENDS:
                words.pop()
            head = " ".join(words).rstrip(".!?;:,")  # the sentence's own full stop ends no deed
        if _BARE_DEED.match(head):  # chat drops its own subject: "bought Nvidia shares in January"
            head = f"I {head[0].lower()}{head[1:]}"
        deed = _DEED.match(head) or _ARRANGED.match(head)
        if deed is None:
            continue
        words = _without_trailing_places(deed.group(1).split())
        if len(words) < 2 or len(words) > 11 or words[1].lower() in ("was", "were", "is", "are"):
            continue
        if words[1].lower() == "had" and (
            len(words) < 3 or cached_re.fullmatch(r"been|to|[a-z]+(?:ed|en)", words[2].lower())
        ):
            continue  # "had been", "had finished": no deed of its own; "had knee surgery" is one
        if words[0].lower() in _ADVERBS:
            continue  # "Already booked": a truecased adverb opening the message, no name
        subject = words[0] if words[0] == "I" or words[0].lower() not in _DEED_PRONOUNS else words[0].lower()
        subject = cached_re.sub(r"^i'", "I'", subject)  # "i'm speaking at ...": the pronoun as written mid-query
        also = _AND_DEED.match(clause, found.end())  # "in 2015 and got a tetanus shot then": both deeds
        # a time counted from the message's day ("last month") dates nothing by itself: the deed keeps it
        deictic = [found.group(0)] if not TIME.search(clause) and not told_after else []
        return "when " + " ".join([subject, *words[1:], *deictic, *([also.group(1)] if also else [])])
    return None


def _without_trailing_places(words: list[str]) -> list[str]:
    """A long deed without the places told after it: "I had the screen on my Galaxy Z Flip5 replaced
    at the Samsung store in the mall" -> "I had the screen on my Galaxy Z Flip5 replaced"."""
    while len(words) > 11:
        cuts = [n for n, w in enumerate(words) if n >= 3 and w.lower() in ("at", "in", "near", "inside", "outside")]
        if not cuts:
            break
        words = words[: cuts[-1]]
    return words


#: A second deed joined to the dated one, or its purpose: "stepped on a nail in 2015 and got a tetanus
#: shot then", "took Mochi to the vet on tuesday for her dental".
_AND_DEED = re.compile(
    rf"\s+((?:and\s+(?:then\s+)?(?:[a-z]{{3,}}ed|{_PAST_WORDS})"
    r"|for\s+(?:my|our|his|her|their|the|a|an))\s+(?:[^,;.!?]|\.\b)*?)"
    r"(?=\s+(?:then|there|too|because|but|so)\b|\s*(?:[,;!?]|\.\B)|\s*$)",
    re.IGNORECASE,
)


#: The speaker's own change of state, undated: "i started taking vitamin D", "then i got covid".
_CHANGE = re.compile(
    r"(?:^|[,;.!?]\s*|\bthen\s+|\band\s+)((?:i|we)\s+(?:just\s+)?(?:started|stopped|switched|got|began|quit|moved"
    r"|joined|changed|upgraded|downgraded|installed|bought|sold|adopted|retired)\s+(?:[^,;.!?]|\.\b)*?)"
    r"(?=\s+(?:because|since|so|and|but|after|before|when)\b|\s*(?:[,;!?]|\.\B)|\s*$)",
    re.IGNORECASE,
)


def changed_deed(text: str) -> str | None:
    """The last change the speaker reports making, as "when <clause>" (no date needed)."""
    found = list(_CHANGE.finditer(text))
    if not found:
        return None
    clause = found[-1].group(1).strip()
    words = clause.split()
    words[0] = "I" if words[0].lower() == "i" else words[0].lower()
    return "when " + " ".join(words) if len(words) >= 3 else None


_BARE_DEED = re.compile(
    r"^(?:(?:bought|sold|booked|started|finished|moved|joined|quit|left|signed|paid|got|had|took|went|ran|flew"
    r"|drove|met|won|lost|broke|fell|gave|sent|made|wrote|did)\s+\w"
    # "updated my macbook to Sequoia yesterday": any regular past tense before what it was done to
    r"|[a-z]{3,}ed\s+(?:my|our|the|a|an|his|her|their|(?-i:[A-Z0-9])))",
    re.IGNORECASE,
)
_LOOSE_ENDS = frozenset("in on at for to of with from by the a an and or".split())
_ADVERBS = frozenset("already just finally then also recently literally actually still never once only even".split())
_DEED_PRONOUNS = frozenset("we you he she they someone somebody my our your his her their the".split())
