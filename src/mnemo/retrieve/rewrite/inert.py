"""Words that look like references but refer to nothing the conversation said.

Quoted text is verbatim ("search my notes for 'he said yes'", "translate 'where is it?'"): its
words must not change, whatever they are. Discourse formulas answer or move on ("that's fine",
"that makes sense", "ok then, ...", "so be it"). Some time words count from now, not from an event
("for the next hour", "these days"), and "then" before a command sequences it ("play jazz then
switch to the news"). "they" in a question about how or why things are done is people in general
("how do they decaffeinate coffee?", "in Japan do they tip?"). detect.py drops every reference
inside these spans, so such a query passes through unchanged.
"""

from __future__ import annotations

import re

#: A quoted run: straight or curly quotes, the opening one not inside a word (so the apostrophe of
#: "it's" opens nothing) and the closing one not followed by a letter.
_QUOTED = re.compile(r"(?<!\w)(['\"\u2018\u201c])(?=\S)[^'\"\u2018\u2019\u201c\u201d]{1,120}?['\"\u2019\u201d](?!\w)")
_DISCOURSE = re.compile(
    r"\bthat(?:'s|\s+is|\s+was)\s+(?:(?:totally|really|so|very|all|absolutely)\s+)?(?:fine|ok|okay|great|good|perfect|right"
    r"|true|fair|enough|cool|awesome|brilliant|lovely|all|a\s+shame|a\s+pity|annoying|interesting|weird|odd|strange"
    r"|funny|amazing|helpful|useful|wild|crazy|sad|nice|kind|a\s+relief|a\s+good\s+idea)\b"
    r"|\bthat\s+makes\s+(?:total\s+|perfect\s+)?sense\b|\bthat\s+(?:works|helps|sounds\s+\w+)\b"
    r"|\bso\s+be\s+it\b"
    r"|\b(?:ok|okay|alright|all\s+right|right|fine|good|great|so|well|sounds\s+good)\s+then\b(?=\s*(?:[,.!;:\u2014\u2013-]|$))"
    r"|\bthese\s+days\b|\bnowadays\b",
    re.IGNORECASE,
)
#: Times counted from now: "for the next hour", "in the next few days".
_FROM_NOW = re.compile(
    r"\b(?:for|in|over|within|during)\s+the\s+next\s+(?:few\s+|couple\s+of\s+)?(?:\d+\s+|two\s+|three\s+)?"
    r"(?:second|minute|hour|day|week|month|year)s?\b",
    re.IGNORECASE,
)
#: "then" before a command: the next step of a sequence ("convert it to gbp then to euros").
_SEQUENCE_THEN = re.compile(
    r"\bthen\s+(?=(?:switch|remind|send|play|turn|set|add|go|call|text|email|book|open|close|start|stop|check"
    r"|show|tell|ask|make|put|take|move|run|convert|delete|save|print|to|into|back)\b)",
    re.IGNORECASE,
)
#: "they" as people in general: how or why things are done, what things are called, what is done
#: in a place ("how do they train guide dogs?", "what do they call a baby kangaroo", "in japan do
#: they tip?").
_GENERIC_THEY = re.compile(
    r"\b(?:how|why)\s+do\s+they\b|\bwhat\s+do\s+they\s+call\b"  # not "how long do they take": that asks of someone
    r"|\bin\s+[a-z][\w-]*\s+do\s+they\b|\bdo\s+they\s+(?:let|allow)\s+you\b",
    re.IGNORECASE,
)


def inert_spans(query: str) -> list[tuple[int, int]]:
    """The spans of the query whose words refer to nothing in the conversation."""
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(query)]
    for pattern in (_DISCOURSE, _FROM_NOW, _SEQUENCE_THEN, _GENERIC_THEY):
        spans += [(m.start(), m.end()) for m in pattern.finditer(query)]
    return spans
