"""Lexical cues of the five categories: weighted patterns that need no model at all.

With the hashing embedder (the core install) these carry the classification alone, so they are
written for the general shape of each kind of memory, not for any one data set:

- preferences speak about the speaker's taste: "I prefer", "I love", "my favourite", "I'd rather";
- rules instruct the assistant: "never …", "always …", "don't …", "must", "without asking me";
- skills explain how something is done: "to do X, run …", "use X to …", "you can …", commands;
- context describes the current situation: "currently", "right now", "this week", "I'm -ing";
- facts state what is: "is written in", "lives in", "my sister …", numbers and names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from mnemo.records import CATEGORIES


@dataclass(frozen=True, slots=True)
class Cue:
    name: str
    category: str
    weight: float
    pattern: re.Pattern[str]


def _cue(name: str, category: str, weight: float, pattern: str) -> Cue:
    # matched against lower-cased text: case-insensitive matching costs twice as much per pattern
    return Cue(name, category, weight, re.compile(pattern))


_LIKE = r"(?:prefer|like|love|enjoy|adore|hate|dislike|detest|loathe|appreciate)"
_NOW = (
    r"(?:currently|right now|at the moment|for the moment|at present|this (?:week|month|sprint|quarter|morning|"
    r"afternoon|evening|year)|today|tonight|these days|for now|nowadays)"
)
_TOOL = r"(?:git|kubectl|docker|pytest|pip|uv|npm|yarn|cargo|ssh|sudo|psql|pg_dump|curl|brew|apt|terraform|helm|jq)"
#: Verbs that open an instruction; at the start of a sentence without "to …" they read as a rule.
_IMPERATIVE = (
    r"(?:use|keep|reply|answer|respond|write|add|put|leave|show|check|call|ask|tell|stop|avoid|prefer|include|"
    r"mention|format|wrap|stick|follow|treat|refer|address|cite|explain|give|send|book|schedule|remind|speak)"
)

CUES: tuple[Cue, ...] = (
    # -- preferences -----------------------------------------------------------------------
    _cue("i_like", "preferences", 3.0, rf"\b(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|generally\s+)?{_LIKE}s?\b"),
    _cue("dont_like", "preferences", 3.0, r"\b(?:i|we)\s+(?:don'?t|do not|never)\s+(?:really\s+)?(?:like|enjoy|eat)\b"),
    _cue("prefer", "preferences", 1.5, r"\bprefer(?:s|red|ence|ences|able)?\b"),
    _cue("favourite", "preferences", 3.0, r"\bfavou?rites?\b"),
    _cue("rather", "preferences", 2.5, r"\b(?:i'?d|i would|we'?d)\s+(?:much\s+)?rather\b"),
    _cue("cant_stand", "preferences", 3.0, r"\b(?:can'?t|cannot)\s+stand\b"),
    _cue(
        "fan", "preferences", 3.0, r"\b(?:not (?:a )?(?:big )?fan|not into|(?:big|huge) fan|a fan of|fond of|keen on)\b"
    ),
    _cue("i_find", "preferences", 1.5, r"\bi find\b"),
    _cue(
        "my_taste",
        "preferences",
        2.5,
        r"\b(?:i'?d (?:pick|choose|go with|take)|my (?:thing|go-to)|i'?m (?:really |so |big |not )?into"
        r"|not (?:big|huge) on|i tend to|(?:not )?for me\b|the best\b|i'?d like|i would like|i usually|i always"
        r"|i never|i can'?t live)",
    ),
    _cue(
        "taste",
        "preferences",
        1.5,
        r"\b(?:the (?:hotter|bitterer|sweeter|stronger|more|less)\b.*\bthe better|weakness)\b",
    ),
    _cue("like_it_when", "preferences", 1.5, r"\b(?:like|love|hate) it when\b"),
    _cue("style_choice", "preferences", 1.0, r"\b(?:over|than|instead of)\b.*\b(?:feels?|reads?|looks?)\b"),
    # -- rules -----------------------------------------------------------------------------
    _cue(
        "opens_directive",
        "rules",
        3.5,
        r"(?:^|[.!?;]\s+)(?:please\s+)?(?:never|always|don'?t|do not|avoid|make sure|ensure|remember to|be sure to"
        r"|no more|stop|only|from now on|going forward)\b",
    ),
    _cue("must", "rules", 2.5, r"\b(?:must|mustn'?t|shall|is not allowed|are not allowed|not allowed|forbidden)\b"),
    _cue("obligation", "rules", 1.5, r"\b(?:needs? to|has to|have to|required|is mandatory|at all times)\b"),
    _cue("you_should", "rules", 2.5, r"\b(?:you|the assistant|claude)\s+(?:should|must|need to|have to|may not)\b"),
    _cue("want_you_to", "rules", 3.0, r"\b(?:i|we)\s+(?:want|need|expect|would like|'d like)\s+you to\b"),
    _cue("please", "rules", 1.5, r"\bplease\b"),
    _cue("when_you", "rules", 2.0, r"\b(?:before|when|whenever|after|unless|until) you\b"),
    _cue("ask_me", "rules", 2.5, r"\b(?:without asking|ask(?:ing)? me|check(?:ing)? with me|on my behalf|unless i)\b"),
    _cue("never", "rules", 1.5, r"\bnever\b"),
    _cue("always", "rules", 1.0, r"\balways\b"),
    _cue("every_must", "rules", 1.0, r"\b(?:every|each|all|any)\b.*\b(?:must|needs?|should)\b"),
    _cue("this_repo", "rules", 1.5, r"\bin (?:this|our|the) (?:repo|repository|codebase|project|code base)\b"),
    _cue(
        "opens_imperative",
        "rules",
        1.5,
        rf"(?:^|[.!?;]\s+)(?:please\s+)?{_IMPERATIVE}\b(?!.*\bto (?:get|see|find|make|fix|keep|stop|free|run|create))",
    ),
    _cue("limit", "rules", 1.5, r"\b(?:under|at most|no more than|at or below|below|within) \d+"),
    # -- skills ----------------------------------------------------------------------------
    _cue("to_do_x", "skills", 4.0, r"(?:^|[.!?;]\s+)(?:to|for)\s+(?:\w+\s+){0,6}?\w+[^.,;]*,\s*\w+"),
    _cue("how_to", "skills", 3.0, r"\bhow to\b"),
    _cue(
        "you_can", "skills", 2.5, r"\b(?:you can|one can|you could|can be used|you get|you'?ll get|the (?:trick|way))\b"
    ),
    _cue(
        "use_x_to_y",
        "skills",
        2.5,
        r"\b(?:use|run|try|type|press|open|call|add|set|pass|enable|create|turn on)\b.{1,60}?\b(?:to|so)\s+"
        r"(?!(?:the|a|an|me|you|my|your)\b)\w+",
    ),
    _cue("tool_command", "skills", 2.0, rf"(?:`[^`]+`|\b{_TOOL}\s+[a-z-]+\b|\s--?[a-z][\w-]*)"),
    _cue("how_it_works", "skills", 1.5, r"\b(?:shows|finds|frees|reclaims|rolls back|refreshes|turns on|lets you)\b"),
    _cue(
        "imperative_purpose",
        "skills",
        2.0,
        r"(?:^|[.!?;]\s+)(?:clean|remove|install|rinse|mix|turn|press|open|close|restart|reboot|replace|apply|"
        r"wait|cut|heat|soak|unplug|plug|drain|fill|start|stop|create|delete|configure|set|put|try)\b.*\bto\s+\w+",
    ),
    _cue(
        "if_then",
        "skills",
        2.0,
        r"\b(?:if|when|whenever)\b[^,]{3,80},\s*(?:run|use|try|check|restart|call|press|set|turn|add|open|upgrade|"
        r"clear|delete|reinstall)\b",
    ),
    _cue(
        "steps",
        "skills",
        1.5,
        r"\b(?:first,|then|step \d|steps?:|otherwise|so (?:that|the|it|you)|by (?:\w+ing)|first\.?$)\b",
    ),
    _cue("recipe", "skills", 1.0, r"\b(?:minutes|grams|litres?|ladle|stir|bake|boil|tighten|loosen|valve)\b"),
    # -- context ---------------------------------------------------------------------------
    _cue("now", "context", 3.0, rf"\b{_NOW}\b"),
    _cue(
        "progressive",
        "context",
        2.0,
        r"\b(?:i'?m|i am|we'?re|we are|it'?s|it is)\s+(?:\w+\s+){0,2}?(?!(?:going|thing|something|nothing)\b)"
        r"\w{2,}ing\b",
    ),
    _cue(
        "in_progress",
        "context",
        2.5,
        r"\b(?:in the middle of|working on|stuck on|waiting (?:for|at|on)|in progress|half (?:done|ported|empty|way)"
        r"|just (?:finished|started|landed|joined|picked up)|not yet|so far|blocking|paused|on hold|in the process of"
        r"|got (?:moved|cancelled|canceled|postponed|delayed|pushed)|heads up|kicked off|halfway|for the time being"
        r"|still (?:waiting|working|trying|looking|fixing))\b",
    ),
    _cue(
        "near_future",
        "context",
        2.0,
        r"\b(?:tomorrow|next (?:week|month|tuesday|monday|wednesday|thursday|friday|sprint)|this (?:saturday|"
        r"sunday|friday|weekend)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|until (?:the|we|"
        r"friday|monday|next)|is planned for|deadline|due)\b",
    ),
    _cue(
        "since_recent",
        "context",
        2.0,
        r"\b(?:since (?:this morning|yesterday|last|today)|yesterday|lately|recently|(?:minutes|hours|days|a week|"
        r"two weeks|a few days|an hour) ago)\b",
    ),
    _cue("current", "context", 2.0, r"\b(?:current|ongoing|upcoming|latest news)\b"),
    _cue("state", "context", 1.5, r"\b(?:is|are) (?:down|failing|broken|blocked|queued|delayed|stuck|pending)\b"),
    # -- facts -----------------------------------------------------------------------------
    _cue(
        "attribute",
        "facts",
        2.0,
        r"\b(?:is written in|runs on|lives in|live in|works as|is a|is an|is the|was born|were born|was diagnosed|"
        r"allergic|intolerant|years old|turned \d+|reports to|is used|is cached|is deprecated|belongs to|is located"
        r"|consists of|is called|named|called)\b",
    ),
    _cue(
        "relation",
        "facts",
        1.5,
        r"\bmy (?:sister|brother|father|mother|mum|mom|dad|partner|wife|husband|son|daughter|grandmother|"
        r"grandfather|kids?|children|parents|dog|cat|boss|manager|colleague|blood|last|car|flat|house)\b",
    ),
    _cue(
        "system_fact",
        "facts",
        1.5,
        r"\b(?:returns|expects|exposes|stores|retries|owns|joined|sits in|has (?:about|\d)|contains|supports|"
        r"is kept|are kept|lives in|hosted|deployed on|deployed to)\b",
    ),
    _cue("number", "facts", 0.75, r"\b\d[\d.,:]*\b"),
    _cue("copula", "facts", 0.5, r"\b(?:is|are|was|were|has|have|had)\b"),
)

#: When no cue fires and the embedding is not telling either, a statement is most likely a fact.
PRIOR: Mapping[str, float] = {"facts": 0.6, "preferences": 0.0, "skills": 0.0, "rules": 0.0, "context": 0.0}
#: A cue counts at most this many times in one text, so a long document is not decided by volume.
MAX_HITS = 2
#: Only the start of a long text is read: what kind of memory it is shows early, and a few
#: patterns (".*" between two words) would cost quadratic time on a multi-megabyte message.
MAX_CHARS = 4000


def cue_scores(text: str) -> tuple[dict[str, float], list[str]]:
    """Summed cue weights per category, and the names of the cues that fired."""
    scores = {category: PRIOR[category] for category in CATEGORIES}
    fired: list[str] = []
    text = text[:MAX_CHARS].lower()
    for cue in CUES:
        hits = 0
        for _ in cue.pattern.finditer(text):
            hits += 1
            if hits == MAX_HITS:
                break
        if hits:
            scores[cue.category] += cue.weight * (1.0 + 0.25 * (hits - 1))
            fired.append(cue.name)
    return scores, fired
