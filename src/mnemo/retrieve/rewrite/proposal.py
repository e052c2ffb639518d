"""An idea by what it proposes: "that idea" after "Dana's proposal is to freeze all merges to main"
is the freeze, which the chat wrote as a verb phrase, not as a noun any candidate holds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_IDEA_NOUNS = frozenset("idea proposal suggestion plan approach strategy change move switch".split())
#: "the proposal is to freeze ...", "my plan was to move ...", "Dana suggested we freeze ...".
_PROPOSED = re.compile(
    r"\b(?:proposal|idea|suggestion|plan)\s+(?:is|was)\s+to\s+([a-z](?:[^.!?\n;]|\.\b){3,100})(?!(?<=\w)\w)"
    # a course of action: "suggested moving ...", "proposed we freeze ..." - not a claim ("suggested prices will fall")
    r"|\b(?:suggested|suggests|proposed|proposes)\s+(?:that\s+)?(?:(?:we|I|you)\s+(?!might|may|could|will|would|should)"
    r"([a-z]+(?<!ed)\s(?:[^.!?\n;]|\.\b){3,100})(?!(?<=\w)\w)|([a-z]+ing\b(?:[^.!?\n;]|\.\b){3,100})(?!(?<=\w)\w))"
    # a course weighed: "our team is considering adopting trunk-based development"
    r"|\b(?:considering|thinking\s+(?:of|about)|looking\s+(?:at|into)|weighing)\s+([a-z]+ing\s(?:[^.!?\n;]|\.\b){3,100})(?!(?<=\w)\w)",
    re.IGNORECASE,
)


def proposed(noun: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "the idea to freeze all merges to main during migration week", or None."""
    if noun.lower() not in _IDEA_NOUNS:
        return None
    for message in reversed(list(context)):
        found = list(_PROPOSED.finditer(str(message.get("content") or "")))
        if found:
            deed = next(group for group in found[-1].groups() if group).strip(" ,")
            link = "of" if deed.split()[0].lower().endswith("ing") else "to"  # "suggested splitting ...": of
            return f"the {noun.lower()} {link} {deed}"
    return None


#: A course of action put to the listener: "what if we put ...", "how about we ...", "should we ...".
_PUT_TO = re.compile(
    r"\b(?:what\s+if\s+(?:we|i)|how\s+about\s+(?:we|i)|maybe\s+(?:we|i)\s+(?:could|should)|should\s+(?:we|i)"
    r"|we\s+could|i\s+could|why\s+don't\s+(?:we|i)|let's)\s+([a-z]+\b(?:[^.!?\n]|\.\b){3,100})(?!(?<=\w)\w)",
    re.IGNORECASE,
)
#: "do that", "let's try that": the pronoun is the deed proposed.
_DONE = re.compile(r"\b(?:do|try)\s+$", re.IGNORECASE)


def proposed_deed(before: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "do that" after "what if we put the college friends at the round table": that deed, or None."""
    if not _DONE.search(before):
        return None
    for message in reversed(list(context)):
        found = list(_PUT_TO.finditer(str(message.get("content") or "")))
        if found:
            return found[-1].group(1).strip(" ,?")
    return None


#: A course the assistant put forward: "You could cache the dependencies ...", "Try soaking it overnight",
#: "I'd recommend a standing desk" - its verb phrase, to the end of the sentence.
_SUGGESTED = re.compile(
    r"(?:^|[.!?]\s+|;\s+|,\s+)(?:you\s+could(?:\s+also)?|you\s+might\s+(?:want\s+to|try)|try|consider|i'd\s+(?:recommend|suggest)"
    r"|one\s+option\s+is\s+to|the\s+(?:easiest|simplest|best|quickest)\s+(?:fix|option|way)\s+is\s+to)\s+"
    r"([a-z]+\b(?:[^.!?\n]|\.\b){3,100})(?!(?<=\w)\w)",
    re.IGNORECASE,
)
#: "how do i test that", "can you draft that": carrying out what was said to do.
_CARRYING_OUT = (
    r"\b(?:how\s+(?:do|would|should|can)\s+(?:i|we)|can\s+you|could\s+you|help\s+me)\s+"
    r"(?:draft|write|word|test|set|turn|run|apply|schedule|automate|script|implement|configure|enable|do|try)\s+$"
)
_CARRIED_OUT = re.compile(_CARRYING_OUT, re.IGNORECASE)
#: "would that", "how much would that", "is that": a question weighing what "that" stands for, or
#: carrying it out.
_WEIGHING = re.compile(rf"\b(?:would|could|will|might|does|is|isn't|wouldn't)\s+$|{_CARRYING_OUT}", re.IGNORECASE)


def suggested_course(before: str, context: Sequence[Mapping[str, str]], after: str = "") -> str | None:
    """ "how much would that save" after "You could cache the dependencies and split the test suite":
    the course the assistant's last message put forward, or None."""
    if not _WEIGHING.search(before):
        return None
    last = _last_reply(context)
    found = list(_SUGGESTED.finditer(str(last.get("content") or ""))) if last else []
    if found:
        return found[0].group(1).strip(" ,")
    # "will that make things on the LG look weird" after "Set fractional scaling to 150% ...": a command,
    # when the reply is the chat's last word ("I also just deleted my videos" makes "that" the user's deed),
    # neither its verb is the query's ("turn that off" after "Turn off Auto-Brightness": the object) nor
    # it is done to a thing ("Put it at the end": "write that" is the thing)
    replied_last = bool(context) and last is list(context)[-1]
    command = _COMMAND.search(str(last.get("content") or "")) if last and replied_last else None
    if command is None:
        return None
    course = command.group(1)
    if before.lower().split()[-1:] == [course.split()[0].lower()] or _DONE_TO_IT.match(course):
        return None
    if not (_CARRIED_OUT.search(before) or _consequence(before, after, course, context)):
        return None  # "is that normal", "how do i fix that": the user's thing or trouble, not the reply's command
    return _mid_sentence(course)


def _consequence(before: str, after: str, command: str, context: Sequence[Mapping[str, str]]) -> bool:
    """Whether "will that ..." weighs what the command would lead to: not a cause asked after ("would
    that be why"), not an enquiry ("Check the fee"), not a first step ("Run a backup first") before the
    user's own plan."""
    if not _CONSEQUENCE.search(before) or _CAUSE.match(after) or command.startswith(_ENQUIRIES):
        return False
    said = [str(m.get("content") or "") for m in context if str(m.get("role") or "") in ("user", "human")]
    return not _FIRST_STEP.search(command) and not (said and _PLAN.search(said[-1]))


#: "would that be why", "could that be the reason": a cause asked after, which a command never is.
_CAUSE = re.compile(r"\s+(?:be|explain|mean)\b", re.IGNORECASE)
#: A step before the user's own plan: "Run a Time Machine backup first", "Back up before you start".
_FIRST_STEP = re.compile(r"\b(?:first|beforehand|before\s+you)\b", re.IGNORECASE)
#: The user's own plan: "I'm thinking about upgrading", "we're planning to move": "will that" is the plan.
_PLAN = re.compile(
    r"\b(?:thinking\s+(?:about|of)|planning\s+(?:to|on)|going\s+to|about\s+to|want\s+to|considering)\b", re.IGNORECASE
)


#: A command done to a thing already named: "Put it at the end", "Keep them in the fridge".
_DONE_TO_IT = re.compile(r"[A-Za-z]+\s+(?:it|them|this|that)\b")
#: "will that", "would that": what doing the command would lead to.
_CONSEQUENCE = re.compile(r"\b(?:would|could|will|might|wouldn't)\s+$", re.IGNORECASE)
#: Commands to find something out: carried out ("how do i test that") they are a course; weighed
#: ("would that be worth it") they are not.
_ENQUIRIES = ("Check", "Ask", "Email", "Ring", "Contact", "Tell")


#: "how long does that take", "how long will it usually take": the time a task takes.
_HOW_LONG = re.compile(r"\bhow\s+long\s+(?:does|will|would|did|should)\s+$", re.IGNORECASE)
_TAKES = re.compile(r"^\s+(?:usually\s+|normally\s+|typically\s+|roughly\s+)?take\b", re.IGNORECASE)
#: A task the chat set out: "says to clean the condenser coils", "i need to replace the chain".
_TASK = re.compile(
    r"\b(?:says?|said|need|needs|have|has|had|want|wants|going|plan|planning|try|trying|recommends?|suggests?)\s+to\s+"
    r"([a-z]+\s+(?:the|a|an|my|your|our|his|her|their)\s+(?:[^.,;!?\n]|\.\b){3,60})(?!(?<=\w)\w)",
    re.IGNORECASE,
)


def timed_task(before: str, after: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "how long does that take" after "a guide that says to clean the condenser coils": that task."""
    if not _HOW_LONG.search(before) or not _TAKES.match(after):
        return None
    for message in reversed(list(context)):
        found = list(_TASK.finditer(str(message.get("content") or "")))
        if found:
            return found[-1].group(1).strip()
    return None


#: Advice given as a command: a reply's sentence that opens with a verb of doing ("Rotate the labels
#: with ...", "Dig it out and replant it in a pot", "Add list_select_related to your admin").
_COMMAND = re.compile(
    r"(?:^|(?<=[.!?]\s))((?:Add|Set|Use|Run|Try|Switch|Move|Rotate|Call|Put|Dig|Replant|Plant|Cut|Remove|Delete|Turn"
    r"|Install|Enable|Disable|Increase|Reduce|Raise|Lower|Wrap|Soak|Freeze|Store|Keep|Apply|Restart|Update"
    r"|Upgrade|Replace|Clean|Wash|Spray|Water|Feed|Cover|Swap|Split|Cache|Pin|Rename|Rinse|Mix|Brush|Sand"
    r"|Fill|Seal|Tighten|Loosen|Adjust|Unplug|Reset|Reboot|Configure|Prune|Trim|Repot|Stake|Mulch|Drain|Mark|Send"
    r"|Check|Ask|Email|Write|Book|Ring|Contact|Tell|Start|Stop|Drop|Invalidate|Bump)"
    r"\s(?:[^.!?\n]|\.(?=\S)){3,100})(?!(?<=\w)\w)"
)
#: "do the same", "would the same fix work": a query that repeats the advice on something else.
_REPEATED_ADVICE = re.compile(
    r"\b(?<!you\s)(?:do|try)\s+the\s+same\b|\bthe\s+same\s+(?:fix|trick|approach|method|steps?)\b", re.IGNORECASE
)
#: A deed the user tells, done to something ("I pruned the apple tree in February", "my neighbour
#: sprayed his roses"): then "do the same" repeats that deed, not the reply's tip. "Our API timed out"
#: and "I tried everything" are no deeds to repeat.
_TOLD_DEED = re.compile(
    r"\b(?:I|we|he|she|they|(?:my|our)\s+[a-z]+)\s+(?:just\s+|also\s+)?(?!tried\b)[a-z]{3,}ed\s+"
    r"(?:the|a|an|my|his|her|our|their|its|all|some)\b",
    re.IGNORECASE,
)


def repeated_advice(query: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "can i do the same with the raspberries" after "Dig it out and replant it in a pot": the
    command the assistant's last message gave, or None."""
    if not _REPEATED_ADVICE.search(query):
        return None
    told = (str(m.get("content") or "") for m in context if str(m.get("role") or "") in ("user", "human"))
    if any(_TOLD_DEED.search(text) for text in told):
        return None  # "should I do the same for my tomatoes" after what the neighbour did
    last = _last_reply(context)
    found = _COMMAND.search(str(last.get("content") or "")) if last else None
    return _mid_sentence(found.group(1)) if found else None


def _last_reply(context: Sequence[Mapping[str, str]]) -> Mapping[str, str] | None:
    return next((m for m in reversed(list(context)) if str(m.get("role") or "") == "assistant"), None)


def _mid_sentence(command: str) -> str:
    """ "Rotate the labels ..." opened its sentence; in brackets mid-query it is "rotate the labels ..."."""
    return command[0].lower() + command[1:].strip(" ,")
