"""Expletive "it": the "it" that points at nothing ("is it possible to ...", "it's raining",
"it is 3am", "is it worth it"), and the clock question ("what time is it?"). Pure regexes.
"""

from __future__ import annotations

import re

#: "it" that points at nothing: "is it possible to ...", "it's raining", "what time is it".
_EXPLETIVE_ADJ = (
    r"(?:possible|impossible|worth|ok|okay|safe|safer|better|best|easy|easier|hard|harder|difficult|necessary|"
    r"normal|legal|allowed|wise|smart|common|true|fine|cheaper|faster|quicker|important|reasonable|"
    r"advisable|feasible|realistic|time|too\s+late|too\s+early|a\s+good\s+idea|a\s+bad\s+idea)"
)
#: "it" that points at nothing: "is it possible to ...", "it's raining", "what time is it".
EXPLETIVE_IT = re.compile(
    rf"\b(?:(?:is|was|would|will|isn't|wasn't)\s+it\s+(?:be\s+|still\s+|really\s+|ever\s+|even\s+|always\s+|usually\s+)?{_EXPLETIVE_ADJ}\s+(?:to|that|if|for)\b"
    # "is it worth learning Rust" (a gerund with its object); "is it worth repairing?" repairs the chat's thing
    r"|\b(?:it(?:'s|\s+is|\s+was)?|is\s+it)\s+worth\s+\w+ing\b(?!\s*(?:or\b|now\b|anymore\b|at\s+all\b|[?,!;]|\.\B|$))"
    # "is it rude to leave": an adjective and a to-infinitive (a determiner or pronoun after "to"
    # makes it a preposition instead: "is it close to the station" has a referent)
    # "is it likely to rain", "is it likely that ...": the weather or a clause; "is it likely to bend" has a referent
    r"|\b(?:is|was|isn't|wasn't)\s+it\s+(?:really\s+|still\s+)?(?:un)?likely\s+(?:that\b|to\s+(?:rain|snow|be|get|pour"
    r"|freeze|stay)\b)"
    r"|\b(?:(?:is|was|isn't|wasn't)\s+it|(?:would|will|could|wouldn't)\s+it\s+be)\s+(?:really\s+|still\s+)?"
    r"(?!(?:un)?likely\b)[a-z]{3,}(?:\s+enough)?\s+to\s+(?!(?:the|a|an|my|your|our|his|her"
    r"|their|this|that|these|those|it|me|him|them|us|you|home|work|school|what|which)\b)[a-z]+\b"
    # "how hard would it be to migrate our jobs": the adjective fronted, the verb with its own object
    r"|\bhow\s+(?:hard|easy|difficult|tricky|risky|expensive|costly|feasible|realistic|painful|long)\s+"
    r"(?:would|will|could|is|was)\s+it\s+(?:be\s+)?to\s+[a-z]+(?:\s+(?:up|over|out|across|off))?\s+"
    r"(?:the|a|an|my|our|your|his|her|their|all|every|some|each|this|these|those)\b"
    # "its cheaper to fly on tuesdays": the possessive typed for "it's" before the same frame
    rf"|it(?:'s|s|\s+is|\s+was|\s+will\s+be|\s+would\s+be)\s+(?:still\s+|really\s+)?{_EXPLETIVE_ADJ}\s+(?:to|that|if|for)\b"
    r"|it(?:'s|\s+is|\s+was|\s+has)?\s+(?:been\s+)?(?:so\s+|really\s+|very\s+|super\s+|too\s+|absolutely\s+)?"
    r"(?:raining|snowing|pouring|rains|snows|sunny|cold|hot|warm|windy|late|early|dark|humid|muggy|rainy|stormy"
    r"|foggy|snowy|cloudy|overcast|sweltering|scorching)\b"
    r"|\b(?<=worth\s)it\b"  # "is it worth it": the idiom's "it" is the outlay, no thing
    # "is it bad practice to commit ...", "is it a good habit to ...": a judged noun and its infinitive
    r"|\b(?:is|was|isn't|wasn't)\s+it\s+(?:considered\s+|generally\s+|really\s+)?(?:a\s+|an\s+)?(?:good|bad|best"
    r"|common|standard|normal|accepted|acceptable|poor|safe|better|wise)\s+(?:practice|practise|idea|habit|form"
    # "bad practice for a component to fetch": "for" needs its infinitive ("for a banking app?" judges the chat's)
    r"|approach|move|option|choice|plan)\s+(?:to|that|if|for\s+(?:a|an|your|my|the|people|someone)\b[^,;?]*?\bto\s+[a-z])"
    # the clock and the calendar: "it is 3am", "it's nearly midnight", "it's Friday"
    r"|\bit(?:'s|\s+is|\s+was)\s+(?:already\s+|nearly\s+|almost\s+|past\s+|only\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|o'clock)?"
    r"|midnight|noon|monday|tuesday|wednesday|thursday|friday|saturday|sunday|the\s+weekend)\b"
    r"|\bit(?:'s|\s+is|\s+was)?\s+(?:going|forecast)\s+to\s+(?:rain|snow|pour|hail"
    r"|be\s+(?:sunny|cold|hot|warm|windy|freezing|gusting|blowing|stormy|icy|foggy))\b"
    # "it's meant to be gusting 50mph": only the weather's own words ("supposed to be hot" may be food)
    r"|\bit(?:'s|\s+is)?\s+(?:meant|supposed|due)\s+to\s+(?:rain|snow|pour|hail|be\s+(?:windy|gusting|blowing"
    r"|stormy|icy|foggy|sunny|raining|snowing))\b"
    # "it's supposed to be cold saturday", "it's forecast to be wet": the weather, with its expectation
    r"|\b(?:it(?:'s|\s+is|\s+was)?\s+(?:supposed|meant|forecast|expected|due)\s+to\s+(?:rain|snow|pour|be\s+(?:\w+\s+)?"
    r"(?=[a-z]))|it(?:'ll|\s+will)\s+be\s+(?:\w+\s+)?)"
    r"(?:rain|snow|pour|sunny|cold|hot|warm|windy|freezing|chilly|mild|wet|dry|rainy|stormy|humid|nice|lovely|gorgeous"
    r"|miserable)\b"
    # ... when the query says when or where the weather is ("hot all the way through" is a lasagne)
    r"(?=(?:[^.?!]|\.\b)*\b(?:today|tonight|tomorrow|weekend|morning|afternoon|evening|night|outside|out|monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday|week|later)\b)"
    # "its 3am", "its nearly midnight": the possessive typed for "it's" before a time
    r"|\bits\s+(?:already\s+|nearly\s+|almost\s+|past\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)|midnight|noon)\b"
    # "it's my sister's 30th next month", "it's our anniversary": an occasion, no thing
    r"|\bit(?:'s|\s+is|\s+was)\s+(?:my|your|our|his|her|their)\s+(?:[\w-]+'s\s+)?"
    r"(?:(?:\d+(?:st|nd|rd|th)\s+|big\s+)?(?:birthday|bday|anniversary|wedding|retirement|graduation)"
    r"|\d+(?:st|nd|rd|th)|first\s+day|last\s+day|day\s+off)"
    # the occasion ends the phrase: "my birthday present" is a thing
    r"(?=\s*(?:[,!?;]|\.\B|$|\s+(?:next|this|last|on|in|today|tomorrow|tonight|soon|coming)\b))"
    # the weather and the week: "it's freezing today", "it's been a long week"
    r"|\bit(?:'s|\s+is|\s+was)\s+(?:freezing|boiling|roasting|chilly|humid|muggy|foggy|icy)\b"
    r"|\bit(?:'s|\s+has)\s+been\s+(?:a|an)\s+(?:\w+\s+){0,2}(?:day|week|month|year|while|morning|night)\b"
    # a wish or a farewell: "it'd be great to ...", "it was nice chatting"
    r"|\bit(?:'d|\s+would)\s+be\s+(?:great|nice|good|lovely|helpful|amazing|fun)\s+(?:to|if)\b"
    r"|\bit(?:'s|\s+is|\s+was|\s+has\s+been)\s+(?:so\s+|really\s+)?(?:nice|good|great|lovely|fun)\s+"
    r"(?:chatting|talking|seeing|meeting|catching)\b"
    # "is it true house prices always go up", "is it true that ...": the claim after is the "it"
    r"|^\s*is\s+it\s+(?:really\s+)?true\s+(?:that\s+)?(?!(?:for|of|about|in|too|though|then|or|even|also|still|only|just|at|with|if|when|on|anymore|now)\b|[?!]|\.\B)"
    r"(?=[a-z]+\s+[\w']+\s+\w)"
    # "is it a myth that we only use 10 percent of our brains": the claim after is the "it"
    r"|^\s*is\s+it\s+(?:a\s+)?(?:myth|fact|urban\s+legend|old\s+wives'?\s+tale)\s+that\b"
    # "what does it mean when a test is flaky", "how does it feel if ...": the clause after is the "it"
    r"|\b(?:what|how)\s+(?:does|did|would|do)\s+it\s+(?:mean|feel|look|work|matter)\s+(?:when|if|that)\b"
    # "it turns out", "it's confirmed that": a report, no thing
    r"|\bit\s+(?:turns|turned)\s+out\s+(?=that\b|to\b|the\b|a\b|an\b|my\b|our\b|we\b|i\b|they\b|he\b|she\b|there\b)"
    r"|\bit(?:'s|\s+is|\s+was)\s+(?:\w+ly\s+)?(?:confirmed|known|said|rumoured|rumored|reported|expected|thought|believed)"
    r"\s+that\b"
    # "how much would it cost to replace it": what a task costs, whatever its object
    r"|\bhow\s+much\s+(?:would|does|will|did|should|might|could)\s+it\s+(?:typically\s+|usually\s+|roughly\s+|normally\s+)?cost\s+(?:\w+\s+){0,2}?to\s+[a-z]+(?=\s+[a-z])"
    # "does it cost anything to renew a passport": what a task costs
    r"|\b(?:does|did|will|would|can)\s+it\s+cost\s+(?:\w+\s+){0,3}?to\s+\w+\s+(?:a|an|the|my|your|our|at|in|on|for|with)\b"
    # the weather with a modal or an adverb: "it might snow", "is it usually cold in Oslo"
    r"|\bit\s+(?:might|may|could|will|would|should)\s+(?:still\s+)?(?:rain|snow|pour|hail|drizzle|storm)\b"
    r"|\b(?:is|was|will|would)\s+it\s+(?:be\s+)?(?:usually|normally|often|always|still|really|very|too|generally|typically)"
    r"\s+(?:cold|hot|warm|windy|rainy|sunny|humid|dry|wet|foggy|snowy|freezing|chilly|mild)\s+(?:in|at|on|during)\b"
    # ambient "it" in a question: "did it rain the whole time", "how long has it been since"
    r"|\b(?:did|does|do|will|would|could|is|was|has|had)\s+it\s+(?:still\s+|ever\s+)?"
    r"(?:rain|snow|pour|hail|drizzle|freeze|raining|snowing|pouring|been\s+since)\b"
    r"|\bit\s+(?:looks|looked|seems|seemed|appears|appeared|sounds|turns\s+out|turned\s+out)\s+(?:like|that|as\s+if|to)\b"
    r"|\bhow\s+\w+\s+(?:is|was|would\s+it\s+be)\s+it\s+(?:for|to)\b|\bhow\s+\w+\s+is\s+it\s+for\b"
    r"|\bit(?:'s|\s+has)\s+been\s+(?:ages|years|months|weeks|days|a\s+while|too\s+long)\b"
    # "take it easy", "take it slow": an idiom, no thing
    r"|\btak(?:e|ing)\s+it\s+(?:easy|slow|slowly|in\s+turns)\b"
    # "does she like it there", "how are you finding it here": being there, no thing
    r"|\b(?:lik(?:e|es|ed|ing)|lov(?:e|es|ed|ing)|hat(?:e|es|ed|ing)|find(?:s|ing)?)\s+it\s+(?:there|here|over\s+there)\b"
    # "does it matter what time i take it": whether something matters, no thing
    r"|\b(?:does|did|would|will)\s+it\s+(?:really\s+)?matter\s+(?=what|when|which|whether|if|how|who|where)"
    # "will it be windy at Whitby": weather words that no thing is (unlike "cold" or "hot")
    r"|\b(?:is|was|will|would|could|might|may)\s+it\s+be\s+(?:\w+\s+)?(?:windy|rainy|sunny|stormy|foggy|snowy|cloudy"
    r"|drizzly|overcast|breezy)\b"
    r"|\bit's\s+(?:my|your|our|his|her|their)\s+turn\b"
    # "how do you tell them it's not okay": the situation told, no thing
    r"|\b(?:tell|told|telling|say|said|saying|explain|remind)\s+(?:them|him|her|me|you|someone|people|everyone|my\s+\w+)"
    r"\s+(?:that\s+)?it(?:'s|\s+is|\s+was)\s+(?:not\s+|really\s+|totally\s+)?(?:okay|ok|fine|alright|acceptable|cool"
    r"|normal|over)\b"
    # "i've been tired all the time lately, could it be my thyroid": the complaint's cause, no thing
    r"|\b(?:could|might|would|can)\s+it\s+be\s+(?:just\s+|because\s+of\s+|due\s+to\s+|related\s+to\s+|caused\s+by\s+)?"
    r"(?:my|something|anything|stress|anxiety|hormones|allergies|dehydration|burnout|depression|a\s+sign|a\s+symptom)\b"
    # idioms whose "it" is nothing at all: "when it comes to", "is it just me or", "will i make it to
    # the gate", "how's it going", "what is it about cats that", "if it helps", "believe it or not",
    # "as it turns out", "it's my first time", "it's up to me", "call it a day", "wing it", "it's no wonder"
    r"|\bwhen\s+it\s+comes\s+to\b|\bis\s+it\s+(?:just\s+)?me\s+or\b|\bhow(?:'s|\s+is)\s+it\s+going\b"
    r"|\bmake\s+it\s+(?:to|in\s+time|on\s+time|through|back|home|there)\b"
    r"|\bwhat(?:'s|\s+is)\s+it\s+about\s+(?:\w+\s+){1,5}?that\b|\bwhat(?:'s|\s+is)\s+it\s+called\s+(?:when|if|where)\b"
    r"|^\s*if\s+it\s+helps\b|\bbelieve\s+it\s+or\s+not\b|\bas\s+it\s+(?:turns|turned)\s+out\b|\bas\s+it\s+happens\b"
    r"|\bit(?:'s|\s+is|\s+was|\s+will\s+be)\s+(?:my|our|his|her|their|the|your)\s+first\s+time\b"
    r"|\bit(?:'s|\s+is)\s+(?:all\s+)?up\s+to\s+(?:me|you|us|him|her|them)\b|\bcall\s+it\s+a\s+(?:day|night)\b"
    r"|\bwing\s+it\b|\bplay\s+it\s+(?:safe|cool|by\s+ear)\b|\bgo\s+about\s+it\s+(?=if\b|when\b)"
    r"|\bit(?:'s|\s+is|\s+was)\s+no\s+(?:wonder|use|surprise|secret|joke|big\s+deal)\b"
    r"|\bit(?:'s|\s+is)\s+getting\s+(?:late|dark|cold|light|warm|chilly)\b"
    # "what's it like to live in Oslo", "what was it like growing up there": an experience, no thing
    r"|\bwhat(?:'s|\s+is|\s+was)\s+it\s+like\s+(?:to\s+[a-z]+|[a-z]{3,}ing)\b"
    r"|\bwhat\s+(?:would|will)\s+it\s+be\s+like\s+(?:to\s+[a-z]+|[a-z]{3,}ing)\b"
    # "why is it colder at the top of a mountain", "it gets dark at 4", "make it stop raining": the air and the light
    r"|\bwhy\s+(?:is|was|does|did)\s+it\s+(?:get\s+|feel\s+|always\s+)?(?:colder|warmer|hotter|cooler|windier"
    r"|wetter|rainier|sunnier|drier|darker|lighter|brighter)\b"
    r"|\bit\s+(?:gets|got|getting|get)\s+(?:so\s+)?(?:dark|light)\b"
    r"|\bit\s+(?:to\s+)?(?:stop|stops|stopped|start|starts|started|keeps|kept)\s+(?:raining|snowing|pouring|hailing)\b"
    # "how long does it take an English speaker to reach ...": the time a task takes someone
    r"|\b(?:does|did|will|would|should|could|can|might)\s+it\s+(?:usually\s+|normally\s+)?take\s+(?:\w+\s+){0,4}?to\b"
    r"|\bit\s+(?:takes|took)\s+(?:\w+\s+){0,4}?to\b"
    r"|what\s+(?:time|day|date)\s+is\s+it\b"
    # distance between two places: "how far is it from Porto to Braga", "how far is it to the coast";
    # "is it far from the station" keeps its referent (the hotel), so "from" alone is not enough
    r"|\bhow\s+(?:far|long)\s+is\s+it\s+(?:from\s+[\w'-]+(?:\s+[\w'-]+){0,2}\s+to|to|between)\b)",
    re.IGNORECASE,
)


CLOCK_QUESTION = re.compile(
    r"^\s*what(?:'s|\s+is)?\s+(?:the\s+)?(?:time|day|date)(?:\s+is\s+it)?\s*(?:now|today)?\s*\??\s*$", re.IGNORECASE
)


#: A query that judges its own clause: "Ravi wants his changes auto-applied, is that a good idea", "i
#: heard redis is single threaded, is that still true", "my shins hurt since i started, is that
#: normal". "that" is the clause before the comma when the clause reports a wish, a plan or a claim,
#: or when the judgement is of a state ("normal"); "i have an ulcer, is that safe" asks about the
#: conversation's medicine.
_JUDGED = re.compile(
    r"^(?P<clause>(?:\S+\s+){3,}\S+?)(?:,|[;!]|\.\B|\s+[-\u2014\u2013])\s*(?:but\s+|so\s+)?(?:is|was|would|will|isn't)\s+(?P<that>that)\s+"
    r"(?:(?:still|really|actually|even|generally|usually|always)\s+)?(?P<judgement>a\s+good\s+idea|a\s+bad\s+idea|true"
    r"|right|correct|ok|okay|fine|normal|common|safe|wise|smart|sensible|reasonable|realistic|legal|allowed|possible"
    r"|fair|unfair|rude|acceptable|appropriate|too\s+much|a\s+scam|legit"
    r"|enough|worth\s+it|accurate|the\s+case|a\s+problem|an\s+issue|bad|good|risky|dangerous|weird|strange|odd"
    r"|unusual|suspicious|concerning|worrying|expected|a\s+red\s+flag)\b",
    re.IGNORECASE,
)
_REPORTED_CLAUSE = re.compile(
    r"\b(?:wants?|wanted|plans?|planning|thinking|going\s+to|gonna|heard|read|said|says|say|saying|told|suggested"
    r"|recommended|recommends?|decided|like\s+to|'d\s+like|claims?|claimed|reckons?|apparently|supposedly"
    r"|looks\s+like|seems|tells?|always)\b"
    # a deed someone in the query did: "he removed the token refresh logic from it, is that risky"
    r"|\b(?:he|she|they|we|i|someone|somebody)\s+(?:just\s+|already\s+)?[a-z]{3,}ed\b",
    re.IGNORECASE,
)
_STATE_JUDGEMENTS = frozenset(
    {"normal", "common", "a problem", "an issue", "bad", "weird", "strange", "odd", "unusual", "expected"}
    | {"suspicious", "concerning", "worrying", "a red flag"}
)


#: A query that asks after its own statement: "the docs recommend running ANALYZE after bulk loads.
#: Why is that?", "they say you shouldn't swim after eating. Is there any science behind that claim?"
_CHALLENGED = re.compile(
    r"^(?P<clause>(?:\S+\s+){3,}\S+?)(?:,|[;!]|\.\B|\s+-)\s*(?:but\s+|so\s+)?(?:(?:any|no)\s+idea\s+|i\s+wonder\s+)?"
    r"(?:why\s+(?:is|was)\s+(?=that\s*[?.!]*\s*$)|why\s+(?:does|would|do|did|might)\s+(?=that\s+happen\b)|why\s+(?:would|could|might)\s+(?=that\s+be\s*[?.!]*\s*$)|why\s+(?=that\s+(?:happens|is|keeps\s+happening)\s*[?.!]*\s*$)|(?:is|are)\s+there\s+(?:any\s+)?(?:real\s+|actual\s+)?"
    r"(?:science|evidence|truth|research|data|proof|basis)\s+(?:behind|to|for|in|on|supporting)\s+)(?P<that>that|this)\b",
    re.IGNORECASE,
)


#: A condition the query states, then weighs: "if we cut its retention to 3 days roughly how much disk
#: would that free up", "if I move the standup to 10, will that clash with anything".
_CONDITIONED = re.compile(
    r"^(?:so\s+|ok\s+|and\s+)?(?:if|suppose|say)\s+(?:we|i|you|they)\s+(?P<clause>[^?]{6,80}?)[, ]+"
    r"(?:[^?]{0,40}?\s)?(?:would|will|could|does|did|is|might)\s+(?P<that>that)\b",
    re.IGNORECASE,
)


#: A claim the query reports, then asks about: "I read that grapes are toxic to dogs — does that apply
#: to raisins too?", "I heard that you can freeze milk, is that true for oat milk?".
_REPORTED_THEN = re.compile(
    r"^(?:so\s+|ok\s+)?(?:i|we)(?:'ve|\s+have)?\s+(?:read|heard|saw|seen|was\s+told|were\s+told|learned|learnt)"
    r"\s+(?:somewhere\s+|online\s+)?that\s+(?P<clause>[^?]{6,120}?)\s*(?:[,;!]|\.\B|\s[-–—])\s*(?:but\s+|so\s+)?"
    r"(?:does|do|is|would|could|can|will|did)\s+(?P<that>that|this)\b",
    re.IGNORECASE,
)


def own_clause_that(query: str) -> re.Match[str] | None:
    """The match of a query whose "that" is its own clause before the comma, or None."""
    reported = _REPORTED_THEN.match(query)
    if reported is not None:
        return reported  # "I read that grapes are toxic — does that apply to raisins": the claim read
    challenged = _CHALLENGED.match(query)
    if challenged is not None:
        return challenged  # "why is that" after a statement of its own asks about the statement
    conditioned = _CONDITIONED.match(query)
    if conditioned is not None:
        return conditioned  # "if we cut its retention to 3 days, how much disk would that free up"
    found = _JUDGED.match(query)
    if found is None:
        return None
    judgement = " ".join(found.group("judgement").lower().split())
    return found if judgement in _STATE_JUDGEMENTS or _REPORTED_CLAUSE.search(found.group("clause")) else None


#: The impersonal "they" of a question about how the world works: "how do they decaffeinate coffee",
#: "why do they put salt on the roads", "what do they check at an MOT" (a "what" question only with
#: its setting: "what do they eat" asks about the chat's animals), "do they let you take power banks
#: on a plane". A present-tense
#: how/why question with a verb of making or doing asks about whoever does it, nobody in the chat;
#: verbs that report what particular people did or are like ("how do they compare", "why do they
#: keep crashing") stay references.
GENERIC_THEY = re.compile(
    r"\b(?:how|why|what(?=(?:\s+kind\s+of\s+\w+)?\s+(?:do|does)\s+they\s+(?:\w+\s+){1,2}(?:at|in|with)\s+"
    r"(?:a|an|the|old|new)\s))"
    r"(?:\s+kind\s+of\s+\w+)?\s+(?:do|does)\s+(they)\s+(?:usually\s+|normally\s+|actually\s+|always\s+|even\s+|still\s+)?"
    r"(?!(?:take|say|keep|start|finish|need|want|like|think|go|come|live|land|arrive|fly|react|open|pass|mean|feel"
    r"|charge|cost|offer|send|pay|respond|reply|decide|handle|fix|work|compare|differ|fail|crash|break|look|sound"
    r"|taste|smell|fit|matter|know|get\s+(?:back|along|on|there|here|home))\b)[a-z]+\s+\w"
    r"|\bdo\s+(they)\s+(?:let|expect|allow|make|want)\s+you\b",
    re.IGNORECASE,
)


#: The "they" of received wisdom, opening the query: "they say you shouldn't swim after eating",
#: "they always tell new managers to hold weekly 1:1s". A present tense of saying with a general
#: addressee or an adverb of habit; "they say the parcel comes today" is someone in particular.
_SAYING_THEY = re.compile(
    r"^\s*(they)\s+(?:(?:always|often|usually|all)\s+(?:say|tell|recommend|claim)\b"
    r"|(?:say|tell|reckon|claim|recommend)\s+(?:that\s+)?(?:you|people|everyone|anyone|new|kids|children|women|men"
    r"|it's|its|it\s+is)\b)",
    re.IGNORECASE,
)


def generic_they_starts(query: str) -> set[int]:
    """Where the query's impersonal "they" stand."""
    starts = {m.start(1) if m.group(1) else m.start(2) for m in GENERIC_THEY.finditer(query)}
    return starts | {m.start(1) for m in _SAYING_THEY.finditer(query)}


def expletive_spans(query: str) -> list[tuple[int, int]]:
    """The spans of the query whose "it" is expletive."""
    if "it" not in query.lower():
        return []  # every expletive frame has its "it" (or "its"); most queries have none
    # "is it easy to fold with one hand", "is it still safe to cook": the frame's verb lacks its object
    spans = [(m.start(), m.end()) for m in EXPLETIVE_IT.finditer(query) if not _object_raised(query[m.start() :])]
    return spans + [(m.start("it"), m.end("it")) for m in _SITUATION_IT.finditer(query)]


def _object_raised(frame: str) -> bool:
    """Whether the "it" of an expletive-looking frame is the object its verb left out."""
    return bool(_TOUGH.search(frame) or _SAFE_TO_USE.search(frame))


#: "is it still safe to cook?", "is it ok to eat now?": whether the chat's food or thing may be used,
#: the verb's object left out and nothing after it ("is it ok to eat before a workout" is expletive).
_SAFE_TO_USE = re.compile(
    r"^(?:is|was|isn't|wasn't)\s+it\s+(?:still\s+|really\s+)?(?:safe|ok|okay|fine|alright|all\s+right)\s+to\s+"
    r"(?:eat|drink|cook|freeze|refreeze|reheat|microwave|use|wear|wash|touch|store|keep|serve|feed)"
    r"(?:\s+(?:now|still|yet|again|anymore|today|tonight))?\s*[?.!]*\s*$",
    re.IGNORECASE,
)
#: "is it easy to fold with one hand?": an "easy"-type adjective whose verb has no object of its own
#: takes the "it" as that object (it is easy to fold *it*), so the "it" is the chat's thing;
#: "is it easy to fold a duvet" keeps the expletive reading.
_TOUGH = re.compile(
    r"^(?:is|was|isn't|wasn't)\s+it\s+(?:really\s+|still\s+)?(?:easy|easier|hard|harder|difficult|simple|tricky)\s+"
    r"to\s+(?:fold|clean|assemble|install|use|carry|wash|repair|replace|maintain|store|grow|cook|read|play|ride"
    r"|drive|open|close|fix|remove|build|paint|lift|move|set\s+up|put\s+together|take\s+apart|unfold|charge|adjust)"
    r"\s*(?:$|[?!,]|\.\B|(?:with|on|in|at|by|without|after|before|into|from|using|when|if|alone|yourself|myself)\b)",
    re.IGNORECASE,
)


#: The situation a query's own first clause tells, taken up by "it" in a question of how to handle
#: it: "my friend keeps cancelling plans last minute, how do i talk to her about it?", "..., how
#: should i deal with it", "..., how do i bring it up".
_SITUATION_IT = re.compile(
    r"^(?:\S+\s+){1,6}?(?:keeps|kept|always|never|won't|refuses|refused|hasn't|haven't|didn't|doesn't|is\s+always)\b"
    r"(?:[^,;.?!]|\.\b)*[,;.]\s*(?:so\s+|but\s+)?(?:how|what|should|can|could|is\s+there)\b[^?]*?"
    r"\b(?:(?:talk|speak|say|ask|tell|approach|confront)\b[^?]*?\babout|deal\s+with|handle|address|bring|raise|mention)\s+(?P<it>it)\b",
    re.IGNORECASE,
)
