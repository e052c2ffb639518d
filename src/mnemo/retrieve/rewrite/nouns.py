"""The specific mention behind "that bug", "this approach", "those tests".

A demonstrative with a noun points at an earlier mention of the same kind of thing, and that
mention usually carries the modifiers that make it findable ("the date-picker bug", "the
Dragonfly approach", "the memory leak in the image resizer"). The conversation is scanned for the
noun (singular or plural); each mention with at least one modifier is scored by recency, by who
said it (the user's words set the topic) and by how specific it is. A mention introduced by
"another"/"other" names a different one and is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.names import COMMON_VERBS, DURATION, PARTICLES, PHRASE_BREAKERS, QUANTIFIERS, VAGUE
from mnemo.retrieve.rewrite.noun_phrases import describes
from mnemo.store.sql import STOPWORDS

from . import cached_re

_NOT_MODIFIERS = (
    STOPWORDS
    | PHRASE_BREAKERS
    | VAGUE
    | PARTICLES
    | QUANTIFIERS
    | {"another", "other", "same", "plus", "minus"}
    | {"actually", "maybe", "probably", "really", "basically", "honestly", "apparently", "anyway"}
    # a speaker's praise or blame ("Great regular order!") says how it felt, not which one
    | set("great nice good lovely amazing awesome cool fantastic excellent wonderful perfect brilliant".split())
    | set("terrible awful horrible fine solid decent".split())
)
#: "release 4.2.1", "PR 412", "ticket OPS-17": an identifier right after the noun names the one meant
_LABEL_AFTER = re.compile(r"^\s+((?=[\w.\-]*\d)[\w.\-]*\w|[A-Z][\w\-]*[A-Z0-9][\w\-]*)")
_DIFFERENT = {"another", "other", "different", "second", "new"}
_IDENTIFIER = re.compile(r"\w_\w|\w\d|\d\w")
_BE_FORMS = frozenset("be been being is am are was were i'm im we're you're they're he's she's it's".split())
_ATTACH = re.compile(
    rf"^\s+(in|of|for|on|along|near)\s+(?!{DURATION})"  # "for 20 minutes" says how long, not which one
    r"((?:the|a|an|my|our|your|his|her|their)\s+)?([\w.\-/]+)(?:\s+([\w.\-/]+))?"
)


def specific_mention(noun: str, context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    """ "the <modifiers> <noun> [in the X]" from the conversation, and how sure, or None."""
    pattern = _noun_pattern(noun)
    scores: dict[str, float] = {}
    shown: dict[str, str] = {}
    messages = list(context)
    for distance, message in enumerate(reversed(messages)):
        role = str(message.get("role") or "").lower()
        weight = (1.5 if role in ("user", "human") else 1.0) / (1.0 + 0.35 * distance)
        text = str(message.get("content") or "")
        for match in pattern.finditer(text):
            phrase = _phrase_at(text, match)
            if phrase is None or _predicate(text, match, phrase):
                continue
            key = phrase.lower()
            # "the dark_mode_v2 flag" over "the dark mode flag": a written identifier says exactly which
            named = 1.5 if _IDENTIFIER.search(phrase) else 1.0
            scores[key] = scores.get(key, 0.0) + weight * named * (1.0 + 0.25 * len(phrase.split()))
            shown.setdefault(key, phrase)
    if not scores:
        return None
    ranked = sorted(scores, key=lambda k: -scores[k])
    clear = len(ranked) == 1 or scores[ranked[0]] >= 1.4 * scores[ranked[1]]
    return f"the {shown[ranked[0]]}", 0.9 if clear else 0.75


def _predicate(text: str, match: re.Match[str], phrase: str) -> bool:
    """ "is a popular commuter model": the mention describes a name said before it, whose own
    mention is what "that model" means."""
    modifiers = phrase[: phrase.lower().find(match.group(1).lower())].strip()
    lead = text[: match.start()].rstrip()
    start = len(lead) - len(modifiers) if modifiers and lead.endswith(modifiers) else match.start()
    return describes(text, start)


def _noun_pattern(noun: str) -> re.Pattern[str]:
    base = noun.lower()
    stem = base[:-2] if base.endswith("es") and len(base) > 4 else base[:-1] if base.endswith("s") else base
    return cached_re.compile(rf"\b({re.escape(stem)}(?:s|es)?)\b", re.IGNORECASE)


def _phrase_at(text: str, match: re.Match[str]) -> str | None:
    # only the words just before the noun matter; a bounded window keeps a long message linear
    before = text[max(0, match.start() - 160) : match.start()].split()
    if match.start() > 160 and before:
        before = before[1:]  # the window may start inside a word
    modifiers: list[str] = []
    for at in range(len(before) - 1, max(-1, len(before) - 5), -1):
        word = before[at]
        if word[-1:] in ',.;:!?()"' or word.startswith("("):
            break
        low = word.lower()
        if low in _DIFFERENT:
            return None  # "another bug" is not the bug
        if low in _NOT_MODIFIERS or _verb(low) or len(modifiers) == 3:
            break
        if low.endswith("ing") and at > 0 and before[at - 1].lower() in _BE_FORMS:
            break  # "been baking sourdough": a verb after "be", not "the baking sourdough"
        modifiers.insert(0, word)
    label = _LABEL_AFTER.match(text[match.end() :])
    if label:
        return " ".join([*modifiers, match.group(1), label.group(1)])
    apposed = _apposed(" ".join(before[: len(before) - len(modifiers)]))
    if apposed:  # "snuffles, a bacterial infection": the name the description is set beside
        return " ".join([*modifiers, match.group(1), apposed])
    attached = _attachment(text[match.end() :])
    if not modifiers and (not attached or match.group(1).lower() in ("one", "ones") or _TIMED.search(attached)):
        return None  # the bare noun (or "the one", "the tutor on Tuesdays") says no more than the query's
    return " ".join([*modifiers, match.group(1)]) + attached  # "the episode on loneliness"


#: "Dash, a retired racing greyhound", "snuffles, a bacterial infection": a name, then its description.
_APPOSED = re.compile(r"(?:^|[\s(])([\w'.-]+(?:\s+[A-Z][\w'.-]*)?),\s+(?i:a|an|the)$")


def _apposed(before: str) -> str | None:
    found = _APPOSED.search(before)
    if found is None:
        return None
    name = found.group(1)
    low = name.lower()
    if low in _NOT_MODIFIERS or _verb(low) or low in COMMON_VERBS or len(name) < 3:
        return None
    return name


_TIMED = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|mornings?|evenings?|nights?|today|tomorrow)\b",
    re.IGNORECASE,
)


#: "about <what>": a story's, an email's or a call's subject, up to the end of its clause (8 words at most).
_ABOUT = re.compile(r"^\s+about\s+((?:(?!(?:if|but|and|so|because|which|that)\b)[\w'-]+\s*){1,8})(?=[,;!?]|\.\B|$|\s)")


def _attachment(rest: str) -> str:
    """ "in the image resizer", "of the billing page": kept when it names something."""
    called = cached_re.match(r"^\s+(called|named)\s+([\w.\-/]*\w)", rest)
    if called:  # "a bucket called media-prod"
        return f" {called.group(1)} {called.group(2)}"
    topic = _ABOUT.match(rest)
    if topic:  # "the story about Jamie getting lost in Prague": what it is about, as the chat told it
        return f" about {topic.group(1)}"
    found = _ATTACH.match(rest)
    if not found:
        return ""
    words = [w for w in (found.group(3), found.group(4)) if w]
    kept: list[str] = []
    for word in words:
        ends_sentence = word.endswith(".")
        word = word.rstrip(".")  # "for my IBS.": the full stop ends the sentence, not the name
        low = word.lower()
        if not word or low in _NOT_MODIFIERS or _verb(low):
            break
        kept.append(word)
        if ends_sentence:
            break
    if not kept:
        return ""
    return f" {found.group(1)} {found.group(2) or ''}{' '.join(kept)}".replace("  ", " ")


def _verb(word: str) -> bool:
    # "-ing" words stay: "the onboarding checklist", "the hiring plan" use them as modifiers
    return word in COMMON_VERBS or (len(word) > 4 and word.endswith("ed") and "-" not in word)
