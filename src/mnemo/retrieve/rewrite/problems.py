"""A problem pointed at: "is there a workaround for this?", "what caused that?".

When a question asks for a fix or a cause, a bare "this" or "that" points at the problem
the conversation described - a whole clause ("the parser chokes on YAML files with anchors"),
which no single noun phrase stands for: "the parser" is not what needs a workaround. The clause is
the latest sentence of the last few messages that reports something going wrong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.wordfind import sentences, stems

#: What a question asks for when "this" is a problem: a remedy or a cause ("why" asks about anything).
PROBLEM_QUESTION = re.compile(
    r"\b(?:workaround|fix|fixes|solution|solve|remedy|cause[ds]?|causing|prevent|avoid|debug|troubleshoot)\b",
    re.IGNORECASE,
)
#: What a sentence says when it reports something going wrong (a failure, not a negation: "I
#: can't wait" and "it isn't far" report nothing broken).
_GOING_WRONG = re.compile(
    r"\b(?:fail(?:s|ed|ing)?|crash(?:es|ed|ing)?(?!\s+report)|breaks|broke(?:n)?|chokes?|choked|hangs|freez(?:es|ing)|froze"
    r"|went\s+(?:up|down)|dropped|spiked|leak(?:s|ing)|throws|timed\s+out|times\s+out|not\s+working"
    r"|(?<!finally\s)stopped\s+(?:working|responding|firing|syncing|loading|arriving|printing|charging|connecting"
    r"|playing|showing|updating|sending|receiving|beeping|heating|draining|flushing|blocking|running)|corrupt(?:s|ed))\b",
    re.IGNORECASE,
)
_LOWER_OPENERS = frozenset("the a an my our your his her their this that it we they there".split())
_RECENT = 4
_MAX_WORDS = 14


def problem_clause(context: Sequence[Mapping[str, str]]) -> str | None:
    """The latest sentence of the last few messages that reports a problem, or None."""
    for message in reversed(list(context)[-_RECENT:]):
        text = str(message.get("content") or "")
        for sentence in reversed(sentences(text)):
            sentence = sentence.strip().rstrip(".!?")
            if _GOING_WRONG.search(sentence) and not sentence.endswith("?") and len(sentence.split()) <= _MAX_WORDS:
                first = sentence.split()[0]
                # a sentence's capital goes, a name's stays ("numPy 2.0 breaks my build")
                return sentence[0].lower() + sentence[1:] if first.lower() in _LOWER_OPENERS else sentence
    return None


def problem_text(query: str, reference: str, context: Sequence[Mapping[str, str]]) -> str | None:
    """ "this (the parser chokes on YAML files with anchors)" for a bare "this"/"that" in a question
    after a remedy or a cause; None otherwise."""
    if reference.lower() not in ("this", "that") or not PROBLEM_QUESTION.search(query):
        return None
    clause = problem_clause(context)
    return f"{reference} ({clause})" if clause else None


#: What a user's clause says when it reports trouble in plainer words than a failure verb: "the cart
#: total shows NaN", "leaves black marks", "memory grows until it's OOM-killed", "doesn't persist".
_TROUBLE = re.compile(
    r"\b(?:doesn't|don't|won't|can't|isn't|aren't|wasn't|didn't|never|keeps?|still|no\s+longer|stopped"
    r"|slow(?:er|ly)?|error|errors|bug|broken|wrong|issue|leaks?|noise|noisy|loud|squeak(?:s|ing)?|squeal(?:s|ing)?"
    r"|rejected|denied|refused|timeouts?|NaN|overlaps?|grows|growing|drops?|dropping|flicker(?:s|ing)?|warnings?"
    r"|missing|lost|stuck|pain|sore|hurts?|aches?|late|overdue|declined|bounced|garbled|blank|empty"
    r"|OOM|overheat\w*|squash(?:es|ed|ing)|distorted|misaligned|mouldy|moldy"
    # a bad state said of something ("the icons look blurry"), not a name ("the sticky header")
    r"|(?:is|are|was|were|looks?|looked|feels?|felt|gets?|got|went|seems?|seemed|became|becomes|getting)\s+"
    r"(?:\w+\s+)?(?:blurry|fuzzy|pixelated|cracked|wobbly|loose|sticky|stiff|swollen|itchy|dizzy|faded|damp|delayed"
    r"|washed\s+out|grainy|dull)"
    r"|smells?\s+(?:bad|awful|weird|off|musty|funny|of|like\s+(?:burning|gas|damp|mould))|smelly)\b",
    re.IGNORECASE,
)
_CLAUSE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n|,\s+(?:and|but|which|so|because|though)\s+|:\s+(?=the\b)", re.IGNORECASE)
_QUOTES = re.compile(r"[\"“”]|(?<!\w)'|'(?!\w)")
#: Words that open a clause without belonging to the report: "Also the designer flagged ...".
_DISCOURSE = re.compile(r"^(?:also|and|but|plus|separately|oh|then|now),?\s+", re.IGNORECASE)
_PROBLEM_MAX_WORDS = 16


def _clauses(text: str) -> list[str]:
    """``text`` split at sentence and clause breaks that stand outside quotes ("says 'error: the
    server ...'" stays whole)."""
    pieces, start = [], 0
    for match in _CLAUSE_SPLIT.finditer(text):
        if len(_QUOTES.findall(text[: match.start()])) % 2 == 0:
            pieces.append(text[start : match.start()])
            start = match.end()
    return [*pieces, text[start:]]


def reported_problem(context: Sequence[Mapping[str, str]]) -> str | None:
    """The user's clause that reports what is wrong, for "the problem", "the issue", "the bug" with no
    mention of their own: of the clauses of the last few user messages that report trouble
    (_GOING_WRONG, _TROUBLE), the one the later replies take up most ("Two things: the cart total
    shows NaN ..., and the checkout button overlaps ..." then "The NaN is probably ..."), then one
    with a failure verb, then the chat's first. A question or what the user says of themselves ("I
    don't know much about cars") reports nothing."""
    messages = list(context)[-_RECENT:]
    best: tuple[int, int, int, str] | None = None
    for index, message in enumerate(messages):
        if str(message.get("role") or "").lower() not in ("user", "human"):
            continue
        taken = stems(" ".join(str(m.get("content") or "") for m in messages[index + 1 :]))
        for clause in _clauses(str(message.get("content") or "")):
            clause = _DISCOURSE.sub("", clause.strip())
            if not clause or clause.endswith("?") or _ABOUT_ONESELF.search(clause):
                continue
            clause = clause.rstrip(".!;,")
            failing = bool(_GOING_WRONG.search(clause))
            if not (failing or _TROUBLE.search(clause)):
                continue
            words = clause.split()
            if len(words) > _PROBLEM_MAX_WORDS:
                clause = " ".join(words[:_PROBLEM_MAX_WORDS])
            score = (len(stems(clause) & taken), int(failing), -index)
            if best is None or score > best[:3]:
                best = (*score, clause)
    if best is None:
        return None
    clause = best[3]
    return clause[0].lower() + clause[1:] if clause.split()[0].lower() in _LOWER_OPENERS else clause


#: What the user says of themselves, not of something wrong: "I don't know much about cars", "I'm
#: never good at small talk", "not sure if that's related".
_ABOUT_ONESELF = re.compile(
    r"^(?:but\s+|and\s+|though\s+)?(?:I|I'm|I\s+am|I've)\s+(?:really\s+)?(?:don't|do\s+not|am\s+not|'m\s+not|not|never"
    r"|have\s+no|have\s+never)\s+(?:know|sure|good|great|an?\s+expert|much|idea|been\s+good|understood)"
    r"|^(?:not\s+sure|no\s+idea)\b",
    re.IGNORECASE,
)
