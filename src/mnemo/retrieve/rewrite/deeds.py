"""Events as referents: "how long did that take?", "when did it start?", "which came first?".

A demonstrative that is the subject of a predicate of duration or occurrence (take, last, happen, start,
end, ...) in a question about time names an *event*, not a thing: what the conversation says
someone did ("we migrated the billing service to Kubernetes"); "it" there mostly continues a
noun the talk is about ("the recital ... what time does it start"), so it is left to the pronoun
rules. An ordering question with no
options of its own ("which came first?") compares the last two such deeds. Deeds are found by
grammar: a personal subject followed by a past-tense verb, up to the end of its clause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.habits import ongoing
from mnemo.retrieve.rewrite.nominal import deed_of

from . import cached_re

#: "how long did that take", "when did it start", "how many weeks did this last".
_WHEN = (
    r"(?:how\s+long|when|what\s+time|how\s+many\s+[a-z]+|how\s+much\s+time"
    r"|(?:what|which)\s+(?:day|month|year|date|week))"
)
EVENT_SUBJECT = re.compile(
    rf"\b{_WHEN}\b(?:[^?.!]|\.\b)*?"
    # past auxiliaries only: a deed is reported ("how long will this take?" asks about a plan)
    r"\b(?:did|had|has)\s+(that|this)\s+"
    r"(?:take|taken|last(?:ed)?|happen(?:ed)?|start(?:ed)?|begin|begun|end(?:ed)?|finish(?:ed)?|occur(?:red)?|run"
    r"|go\s+on|gone\s+on|drag(?:ged)?\s+on|kick(?:ed)?\s+off)\b"
    # "when was that?", "which year was that again?": the copula dates the event itself
    rf"|\b{_WHEN}\s+was\s+(that|this)(?=\s*(?:again\b|exactly\b)?\s*[?.!]?\s*$)",
    re.IGNORECASE,
)
#: "which came first?", "what happened first?": an order between events the query does not list.
ORDERING = re.compile(
    r"\b(?:which|what)\s+(?:one\s+)?(?:came|happened|was|did\s+\w+)\s+(?:first|earlier|last|later)\b"
    r"(?=\s*[?.!]?\s*$)",  # "what happened first in the Big Bang" names its own events
    re.IGNORECASE,
)
_IRREGULAR = (
    "went got took made built sold bought wrote ran began did had met left came saw spent won lost paid"
    " found gave told brought fell broke chose drove flew forgot held kept knew led lent quit rode rang"
    " sang sent shut slept spoke stole swam taught threw understood woke wore"
)
#: A personal subject and a past-tense verb, to the end of its clause (a comma, "and then", "but").
_PAST = "|".join(_IRREGULAR.split())
_DEED = re.compile(
    r"\b(?:[Ii]|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|[A-Z][a-z]+|(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+[a-z]+)\s+"
    r"((?:(?:finally|just|then|also|eventually|actually|recently|already|never)\s+)?"
    rf"(?:[a-z][a-z-]+ed|{_PAST})"
    r"\b(?:\s+(?!and\b|but\b|then\b|so\b|because\b)(?:[\w'-]|\.(?=\w))+){0,7})",  # "1.29": one word
)


#: A deed told in the passive ("the ferry was cancelled") has no complement to lend a bare verb.
_PASSIVE_AUX = re.compile(r"^(?:the|a|an|my|our)\b", re.IGNORECASE)
_NOT_SUBJECTS = frozenset("how what when where why who which did does do was were is are had has have the".split())


def event_pronoun(query: str) -> tuple[int, int] | None:
    """The span of the pronoun that names an event ("that" in "how long did that take"), or None."""
    match = EVENT_SUBJECT.search(query)
    if match is None:
        return None
    group = 1 if match.group(1) else 2
    return match.start(group), match.end(group)


def ordering_span(query: str) -> tuple[int, int] | None:
    """ "which came first" when the query lists no options ("which came first, X or Y?" does)."""
    if cached_re.search(r"\s(?:or|and|vs\.?)\s", query, re.IGNORECASE):
        return None
    match = ORDERING.search(query)
    return (match.start(), match.end()) if match else None


def event_spans(query: str, context_text: str = "") -> list[tuple[int, int]]:
    """The event references in the query (a deed, an ordering, an action, an elided complement)."""
    spans = (event_pronoun(query), ordering_span(query), action_span(query), ellipsis_span(query, context_text))
    return [span for span in spans if span is not None and not own_intent_before(query, span[0])]


#: A deed the query itself says someone means to do, or has never done: "my landlord wants to raise
#: the rent by 20%; can he do that?" - "do that" is raising the rent, no deed of the chat.
_INTENT = re.compile(
    r"\b(?:wants?|wanted|plans?|planned|planning|going|asked|asks|told|tells|trying|tries|threatening|threatens"
    r"|threatened|offered|offers|decided|refuses|refused|intends|intend)\s+(?:\w+\s+)?to\s+[a-z]+"
    # "i've never cooked rice, how do i do it": a deed the asker has never done
    r"|\bnever\s+(?:\w+ed|done|made|seen|eaten|ridden|driven|written|sung|grown|built|taken|flown)\b",
    re.IGNORECASE,
)


def own_intent_before(query: str, start: int) -> bool:
    """Whether the "do that" at ``start`` (or the "that" of a "do that" at ``start``) is a deed the
    query itself tells: one someone means to do ("wants to raise the rent ... can he do that") or the
    asker never did ("never cooked rice ... how do i do it")."""
    done = _DO_BEFORE.search(query[:start])
    if done is not None:
        start = done.start()  # the pronoun of "do that": the deed starts at "do"
    elif not cached_re.match(r"(?:do|did|does|doing)\s+(?:that|this|it)\b", query[start:], re.IGNORECASE):
        return False
    return bool(_INTENT.search(query[:start]))


_DO_BEFORE = re.compile(r"\b(?:do|did|does|doing)\s+$", re.IGNORECASE)


def deeds(context: Sequence[Mapping[str, str]], count: int = 1, max_messages: int = 6) -> list[str]:
    """The latest ``count`` deeds of the conversation, newest first ("migrated the billing service
    to Kubernetes last quarter"); the user's own messages first, as they report what happened."""
    recent = list(context)[-max_messages:]
    ordered = [m for m in reversed(recent) if str(m.get("role") or "").lower() in ("user", "human")]
    ordered += [m for m in reversed(recent) if m not in ordered]
    out: list[str] = []
    for message in ordered:
        statements = [
            s for s in cached_re.split(r"(?<=[.?!])\s+", str(message.get("content") or "")) if not s.endswith("?")
        ]
        text = " ".join(statements)
        for match in reversed(list(_DEED.finditer(text))):
            if match.group(0).split()[0].lower() in _NOT_SUBJECTS:
                continue
            for deed in reversed([match.group(1).strip(), *_gapped(match.group(1), text[match.end() :])]):
                if len(deed.split()) >= 2 and deed not in out:
                    out.append(deed)
                if len(out) == count:
                    return out
    return out


#: "adopted a cat and then a dog": a second object after "and then", its verb left out (gapping).
_THEN_OBJECT = re.compile(r"^,?\s+(?:and\s+)?then\s+((?:a|an|the|my|our|some)\s+[\w'-]+(?:\s+[\w'-]+){0,4})")


def _gapped(deed: str, rest: str) -> list[str]:
    """The deed a gapped conjunct makes: the first deed's verb with the second object."""
    found = _THEN_OBJECT.match(rest)
    return [f"{deed.split()[0]} {found.group(1)}"] if found else []


def event_text(reference: str, query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """What an event reference becomes: the pronoun with its deed ("that (migrated the billing
    service ...)") or the ordering question with its two deeds ("which came first (A or B)")."""
    if DO_THAT.fullmatch(reference):  # "can he do that" -> "can he raise the rent in September"
        habit = ongoing(context)
        if reference.lower().startswith("doing"):  # "stop him doing that" -> "stop him pushing straight to main"
            return habit[1] if habit and habit[0] == "ing" else None
        action = action_text(context)
        if action is None and habit:
            return f"{reference} ({habit[1]})"  # "is he allowed to do that (parks across my driveway)"
        return action
    if reference.lower() not in ("that", "this", "it") and " " not in reference:  # "why did we switch?"
        deed = deed_of(reference, context)
        rest = deed.split(maxsplit=1)[1:] if deed and not _PASSIVE_AUX.match(deed) else []
        return f"{reference} {rest[0]}" if rest else None
    if ORDERING.fullmatch(reference):
        pair = deeds(context, count=2)
        return f"{reference} ({pair[1]} or {pair[0]})" if len(pair) == 2 else None
    found = deeds(context)
    return f"{reference} ({found[0]})" if found else None


#: Verb-phrase anaphora: "can he do that", "should I do this", "how do I do it" stand for an action.
DO_THAT = re.compile(r"\b(?:do|doing)\s+(?:that|this|it)\b(?!\s+(?:one|kind|sort|way)\b)", re.IGNORECASE)
#: An action the conversation proposes or plans: the verb phrase after "to" or a modal.
_ACTION = re.compile(
    r"\b(?:to|can|could|will|would|should|might|must|'ll)\s+(?!be\b|have\b|do\b|get\s+it\b|know\b|say\b)"
    r"([a-z]{3,}(?:\s+(?!and\b|but\b|because\b|so\b|which\b|or\b)[£$€]?[\w'%-]+){1,6})",
)


def action_span(query: str) -> tuple[int, int] | None:
    """The span of "do that" in the query, or None."""
    found = DO_THAT.search(query)
    return (found.start(), found.end()) if found else None


def action_text(context: Sequence[Mapping[str, str]], max_messages: int = 4) -> str | None:
    """The latest action the conversation states ("raise the rent in September"), or None."""
    for message in reversed(list(context)[-max_messages:]):
        for sentence in reversed(cached_re.split(r"(?<=(?:[?!]|\.\B))\s+", str(message.get("content") or ""))):
            if sentence.endswith("?"):
                continue
            found = list(_ACTION.finditer(sentence))
            if found:
                return found[-1].group(1).rstrip(" .!,;")
    return None


#: VP ellipsis: a question that ends on its bare verb ("why did we switch?", "when did she resign?")
#: leaves out the complement the conversation gave that verb.
_BARE_VERB = re.compile(
    r"\b(?:did|do|does|will|would|should|could|can|didn't|don't)\s+(?:i|we|he|she|they)\s+([a-z]{4,})\s*[?.!]?\s*$",
    re.IGNORECASE,
)
_LIGHT_VERBS = frozenset("know think mean care mind matter want need like love hate seem work help wait stay".split())


def ellipsis_span(query: str, context_text: str) -> tuple[int, int] | None:
    """The bare verb a question ends on, when the conversation reports a deed of that verb with a
    complement ("we switched our CI from Jenkins ..."), or None."""
    found = _BARE_VERB.search(query)
    if found is None or found.group(1).lower() in _LIGHT_VERBS:
        return None
    deed = deed_of(found.group(1), [{"content": context_text}])
    return (found.start(1), found.end(1)) if deed and not _PASSIVE_AUX.match(deed) else None
