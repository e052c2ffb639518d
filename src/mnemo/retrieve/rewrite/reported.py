"""A judged figure: "is that normal?" after "The Kafka consumer lag on the events topic is at 2.3
million messages" asks about the lag, not about the pipeline the chat opened with.

A question that judges a state (normal, high, a lot, worrying) points its "that" at the latest
figure the chat reported, and a figure is reported as "<subject> is (at) <number>": the subject
is the thing judged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.reference import Reference

from . import cached_re

#: "is that normal", "isn't that too high", "is this a lot": a judgement of a state.
_JUDGED = re.compile(
    r"\b(?:is|isn't|was|wasn't)\s+(?:that|this)\s+(?:really\s+|still\s+)?(?:normal|ok|okay|fine|expected|bad|good"
    r"|high|low|a\s+lot|too\s+(?:high|low|much|many|slow|big)|worrying|concerning|healthy|reasonable|typical"
    r"|unusual|acceptable)\b"
    # "is that more than we paid last year": a figure compared
    r"|\b(?:is|isn't|was|wasn't)\s+(?:that|this)\s+(?:much\s+|a\s+lot\s+)?(?:more|less|cheaper|dearer|higher|lower)\s+than\b"
    # "what could cause a spike like that": a change like the one reported
    r"|\b(?:spike|jump|drop|dip|increase|rise|fall|surge|slowdown)\s+like\s+(?:that|this)\b",
    re.IGNORECASE,
)
#: "<subject> is (at|now|around) <number>": the subject and the figure.
_FIGURE = re.compile(
    r"(?:^|[.!?;]\s+)((?:(?:The|the|Your|your|Our|our|My|my)\s+)?(?!(?:I|we|it|they|he|she|you|that|this)\b)"
    r"(?:[^.!?;,]|\.\b){2,80}?)\s+(?:is|are|was|were|sits|stands|(?:has\s+)?(?:hit|reached|grown\s+to|risen\s+to)"
    r"|(?:jumped|rose|dropped|fell|spiked|climbed|went\s+up|went\s+down)\s+to|came\s+in\s+at|comes\s+to|came\s+to"
    r"|costs?)\s+(?:now\s+|currently\s+|already\s+)?"
    r"(?:at\s+|around\s+|about\s+|over\s+)?([£$€]?\d[\d,.]*(?:\s*(?:%|k\b|m\b|ms\b|million|thousand|[a-z]+/[a-z]+"
    r"|messages|users|requests|orders|errors|seconds|minutes|hours|kg|km|miles|gb|mb|tb))?)",
    re.IGNORECASE,
)
#: "<subject> quoted <amount>": an amount someone named, which the query judges as their quote.
_PRICED_DEED = re.compile(
    r"\b((?:the|my|our|a|an)\s+[\w-]+(?:\s+[\w-]+)?|[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*)\s+"
    r"(quoted|charged|offered|billed|invoiced)\s+(?:me\s+|us\s+)?([£$€]\d[\d,]*(?:\.\d+)?k?)",
)
_DEED_NOUNS = {"quoted": "quote", "charged": "charge", "offered": "offer", "billed": "bill", "invoiced": "invoice"}
#: A figure is a measure or an amount: a currency, a percentage, a unit, a count of things; an age
#: or a clock time ("my daughter is 3", "at 3pm") is no figure a question judges.
_NO_FIGURE = re.compile(r"^\d{1,2}$")  # a bare small number: an age, a count of children, an hour
_SUBJECT_VERB = re.compile(r"\s(?:and|but|or|serves?|has|have|had|is|was|said|says)\s", re.IGNORECASE)


def judged_figure(query: str, ref: Reference, context: Sequence[Mapping[str, str]]) -> str | None:
    """What the judged "that" is: the subject of the latest reported figure, or None."""
    judged = _JUDGED.search(query)
    if judged is None or not judged.start() <= ref.start < judged.end() or cached_re.search(r"\d", query[: ref.start]):
        return None  # "I put 500ml in - is that more than ...": the query's own figure
    for message in reversed(list(context)[-4:]):
        priced = _PRICED_DEED.search(str(message.get("content") or ""))
        if priced:  # "the garage quoted £2,300": the quote of that amount, from the garage
            subject, verb, figure = priced.groups()
            return f"the {_DEED_NOUNS[verb.lower()]} from {subject} of {figure}"
        found = [f for f in _FIGURE.finditer(str(message.get("content") or "")) if not _NO_FIGURE.match(f.group(2))]
        if found:
            subject = found[-1].group(1)
            if _SUBJECT_VERB.search(f" {subject} "):
                return None  # "the soup serves 4 and the prep time": no single subject
            first = subject.split()[0]
            if first in ("A", "An"):
                subject = subject[0].lower() + subject[1:]
            if first in ("The", "Your", "Our", "My"):
                return subject[0].lower() + subject[1:]
            # "vendor quote from Cloudline came in at $42k": a chat drops the article the query needs
            return subject if first.lower() in ("the", "your", "our", "my") or first[:1].isupper() else f"the {subject}"
    return None
