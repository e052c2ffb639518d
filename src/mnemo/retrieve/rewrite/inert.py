"""Words that look like references but refer to nothing the conversation said.

Quoted text is verbatim ("search my notes for 'he said yes'", "translate 'where is it?'"): its
words must not change, whatever they are. Discourse formulas answer or move on ("that's fine",
"that makes sense", "ok then, ...", "so be it"). Some time words count from now, not from an event
("for the next hour", "these days"), and "then" before a command sequences it ("play jazz then
switch to the news"). "they" in "what do they call ..." and "in Japan do they ..." is people in
general. detect.py drops every reference wholly inside these spans.
"""

from __future__ import annotations

import re

#: A quoted run: straight or curly quotes, the opening one not inside a word (so the apostrophe of
#: "it's" opens nothing) nor before a digit ("the '90s"), the closing one not followed by a letter;
#: apostrophes inside words ("'he's not coming'") belong to the quoted text.
_QUOTED = re.compile(
    r"(?<!\w)(['\"\u2018\u201c])(?=[^\s\d])(?:[^'\"\u2018\u2019\u201c\u201d]|(?<=\w)['\u2019](?=\w)){1,160}?"
    r"['\"\u2019\u201d](?!\w)"
)
#: A formula that opens the query or a sentence of it and ends at punctuation or the query's end:
#: "that's fine, ...", "that makes sense.", "ok then, ...". Inside a sentence ("did the landlord
#: say that was ok?", "that's right next to the station?") the same words point.
_FORMULA = (
    r"that(?:'s|\s+is|\s+was)\s+(?:(?:totally|really|so|very|all|absolutely|too)\s+)?(?:fine|ok|okay|great|good"
    r"|perfect|right|true|fair|enough|cool|awesome|brilliant|lovely|all|bad|quick|hilarious|a\s+shame|a\s+pity"
    r"|annoying|interesting|weird|odd|strange|funny|amazing|helpful|useful|wild|crazy|sad|nice|kind|a\s+relief"
    r"|it|that|a\s+(?:good|great|nice|fair)\s+(?:idea|point|question)"
    r"|a\s+lot(?:\s+(?:of\s+(?:information|info|detail|details|steps|text)|to\s+(?:take\s+in|process|digest|remember)))?)"
    r"|that\s+makes\s+(?:total\s+|perfect\s+)?sense|that\s+(?:works|helps|sounds\s+\w+)|so\s+be\s+it"
    r"|never\s+mind\s+that|that(?:'s|\s+is|\s+was)\s+all\s+(?:i|we)\s+(?:needed|wanted)"
    # idioms of resignation and resolve: "ah well, that's life", "this is it, I'm booking"
    r"|(?:that|this)(?:'s|\s+is)\s+(?:life|it|the\s+way\s+it\s+goes|how\s+it\s+goes|the\s+thing)"
    # a question's own apology: "this is probably a silly question, but ...", "this might be a dumb one"
    r"|(?:this|that)(?:'s|\s+is|\s+might\s+be|\s+may\s+be|\s+could\s+be)\s+(?:probably\s+|maybe\s+|possibly\s+)?"
    r"(?:a\s+)?(?:really\s+|very\s+|bit\s+of\s+a\s+)?(?:silly|stupid|dumb|daft|basic|naive|obvious|weird|random|strange)"
    r"\s+(?:question|one|q)"
    r"|(?:ok|okay|alright|all\s+right|right|fine|good|great|so|well|cool|ok\s+cool|sounds\s+good)\s+then"
)
_DISCOURSE = re.compile(
    rf"(?:^|(?<=[.!?,;:\u2014\u2013]\s)|(?<=[.!?,;:\u2014\u2013]))\s*(?:(?:oh|ah|ha|ok|okay|well|anyway|thanks),?\s+)?"
    rf"(?:{_FORMULA})(?=\s*(?:[,!?;:\u2014\u2013-]|\.\B|$|\s+for\s+now))"
    r"|\bthese\s+days\b|\bnowadays\b",
    re.IGNORECASE,
)
#: Times counted from now: "for the next hour", "in the next few days".
_FROM_NOW = re.compile(
    r"\b(?:for|in|over|within|during)\s+the\s+next\s+(?:few\s+|couple\s+of\s+)?(?:\d+\s+|two\s+|three\s+)?"
    r"(?:second|minute|hour|day|week|month|year)s?\b",
    re.IGNORECASE,
)
#: "then" before a command: the next step of a sequence ("play jazz then switch to the news"); not
#: after "since", "back" or "until", where it is a time.
_SEQUENCE_THEN = re.compile(
    r"(?<!since\s)(?<!back\s)(?<!until\s)\bthen\s+(?=(?:switch|remind|send|play|turn|set|add|call|text|email|book"
    r"|open|close|start|stop|check|show|tell|ask|make|put|take|move|run|convert|delete|save|print)\b)",
    re.IGNORECASE,
)
#: "they" as people in general, in the two forms that never point back: what things are called,
#: and what is done in a named country ("what do they call a baby kangaroo", "in Japan do they
#: tip?"). "how do they ..." and "why do they ..." ask about a group as often as about people in
#: general ("how do they like Lisbon?"), so they stay references.
_GENERIC_THEY = re.compile(r"\bwhat\s+do\s+they\s+call\b|\bin\s+[A-Z][\w-]*\s+do\s+they\b")


#: A demonstrative that points ahead, at what the query itself quotes or lists after a colon:
#: "proofread this sentence: 'Their going to the park'", "translate these: hola, adiós", "summarise
#: this paragraph in one sentence: '...'".
_CATAPHORA = re.compile(
    r"\b(?:this|these)(?:\s+[a-z][\w-]*){0,5}\s*:\s*\S|\b(?:this|these)(?:\s+[a-z][\w-]*){0,2}\s+(?=['\"“‘])"
    # "is that true that goldfish ...": the clause after it is what "that" is
    r"|\b(?:is|isn't)\s+(?:that|this)\s+(?:really\s+)?(?:true|right|correct|a\s+myth|a\s+fact)\s+that\b"
    # "what do they mean by 'net zero'": people in general, as "they say"
    r"|\bwhat\s+do\s+they\s+mean\s+(?:by|when)\b",
    re.IGNORECASE,
)


#: A demonstrative about the talk itself or the present moment: "this might be a silly question",
#: "this is random, but", "that reminds me", "that said", "what is this thing called when your foot
#: falls asleep", "is this a good time to buy".
_ABOUT_THE_TALK = re.compile(
    r"\b(?:this|that)\s+(?:might|may|could|will|is\s+going\s+to|is|probably)\s+(?:\w+\s+)?(?:be|sound|seem)\s+(?:like\s+)?"
    r"(?:a\s+|an\s+)?(?:really\s+|bit\s+of\s+a\s+|very\s+)?(?:silly|stupid|dumb|weird|random|basic|strange|odd|naive|obvious"
    r"|daft|newbie|noob|beginner|simple|strange)\s+(?:question|thing\s+to\s+ask|request)\b"
    r"|^\s*(?:this|that)(?:'s|\s+is)\s+(?:a\s+bit\s+|totally\s+|completely\s+|kind\s+of\s+)?(?:random|unrelated"
    r"|off[- ]topic|a\s+long\s+shot|a\s+tangent)\b"
    r"|^\s*(?:oh,?\s+)?(?:that|this)\s+reminds\s+me\b|^\s*(?:that|this)\s+(?:being\s+)?said\b"
    r"|\bwhat(?:'s|\s+is)\s+(?:this|that)(?:\s+thing)?(?=\s+called\s+(?:when|where|if)\b)"
    # "what's this rash on my arm": what the asker has on them, named by the query itself
    r"|\b(?<!\bdoes\s)(?<!\bdo\s)(?<!\bdid\s)(?<!\bwill\s)(?<!\bwould\s)(?<!\bcan\s)(?<!\bcould\s)"
    r"(?:this|these)\s+(?:(?:kinds?|sorts?|types?)\s+of\s+)?[a-z]+(?:\s+[a-z]+)?"
    r"(?=\s+(?:on|in|under|behind|near|around)\s+my\s+[a-z]+)"
    # "this is probably obvious but", "this is going to sound weird": a remark on the question itself
    r"|^\s*this\s+(?:is|might\s+be|may\s+be|will\s+be|could\s+be)\s+(?:probably\s+|going\s+to\s+|gonna\s+)?(?:be\s+|sound\s+)?"
    r"(?:(?:really|very|a\s+bit|kind\s+of|so)\s+)?(?:obvious|weird|strange|silly|stupid|dumb|random|odd|basic|naive|unusual)\b"
    # "at this point", "in this economy", "in this day and age", "this one time": now, or an anecdote
    r"|\bat\s+this\s+point\b|\bin\s+this\s+(?:economy|day\s+and\s+age|climate)\b|\bthis\s+one\s+time\b"
    # "those of us who work nights", "for those who don't drink coffee": people the clause describes
    r"|\bthose\s+(?:of\s+(?:us|you|them)\s+)?who\b"
    # "those Studio Ghibli ones", "those noise-cancelling headphones everyone has": a kind known to all
    r"|\bthose\s+(?:(?-i:[A-Z])[\w-]*\s+){1,3}(?:ones|films|movies|books|games|shows|songs|albums|apps|phones|cars)\b"
    r"|\bthose\s+(?:[\w-]+\s+){1,3}(?=(?:that\s+|which\s+)?(?:everyone|everybody|people|all\s+the\s+\w+)\s+(?:has|have|uses|use|wears|wear|talks?|buys?|is|are|keeps?|seems?)\b)"
    r"|\bis\s+(?:this|now)\s+(?:a\s+good|a\s+bad|a\s+great|the\s+right|the\s+best|a\s+smart)\s+time\s+to\b",
    re.IGNORECASE,
)


def inert_spans(query: str) -> list[tuple[int, int]]:
    """The spans of the query whose words refer to nothing in the conversation."""
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(query)]
    for pattern in (_DISCOURSE, _FROM_NOW, _SEQUENCE_THEN, _GENERIC_THEY, _CATAPHORA, _ABOUT_THE_TALK):
        spans += [(m.start(), m.end()) for m in pattern.finditer(query)]
    return spans
