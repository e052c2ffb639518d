"""A reference resolved by what it says of itself: its kind, its noun, the tag detection gave it.

"the next one" (a series), "the second day" (a numbered unit), "that much" (a quantity), "book one"
(a kind offered), "the quote" (a shaped figure), "the plumber" (a named role), "that idea" (a
proposal), "those options" (a list): each has a resolver of its own; resolve.py falls back to the
candidates when none applies.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from mnemo.retrieve.rewrite.alternatives import alternative_pair
from mnemo.retrieve.rewrite.anchoring import anchor_text
from mnemo.retrieve.rewrite.beginnings import beginning_text
from mnemo.retrieve.rewrite.changes import CHANGED, changed_noun, changed_text
from mnemo.retrieve.rewrite.choices import ordinal_choice
from mnemo.retrieve.rewrite.counted import counted_members
from mnemo.retrieve.rewrite.datenouns import (
    DATE_SPAN_NOUNS,
    date_span,
    deed_date_text,
    numbered_unit_text,
)
from mnemo.retrieve.rewrite.ellipsis import elided_text, subject_before
from mnemo.retrieve.rewrite.enumerated import focused_one
from mnemo.retrieve.rewrite.implicit import is_role
from mnemo.retrieve.rewrite.indefinite import ONE, offered_kind
from mnemo.retrieve.rewrite.lists import (
    GENERIC_ITEM_NOUNS,
    find_list,
)
from mnemo.retrieve.rewrite.meta import meta_text
from mnemo.retrieve.rewrite.moments import moment_text
from mnemo.retrieve.rewrite.names import PLACE_NOUNS, PROBLEM_WORDS, TIME_HEADS, is_pet
from mnemo.retrieve.rewrite.nominal import deed_of
from mnemo.retrieve.rewrite.noun_choice import class_noun
from mnemo.retrieve.rewrite.nouns import specific_mention
from mnemo.retrieve.rewrite.occurrences import occurrence_text
from mnemo.retrieve.rewrite.picks import item_by_word
from mnemo.retrieve.rewrite.pointed import pointed_noun
from mnemo.retrieve.rewrite.predicated import predicated_subject
from mnemo.retrieve.rewrite.problems import reported_problem
from mnemo.retrieve.rewrite.proposal import proposed
from mnemo.retrieve.rewrite.quantity import quantity_text
from mnemo.retrieve.rewrite.reason import reason_text
from mnemo.retrieve.rewrite.recurring import series_text
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.roles import named_role
from mnemo.retrieve.rewrite.said import conversation_text
from mnemo.retrieve.rewrite.shaped import SHAPES, shaped_text
from mnemo.retrieve.rewrite.tidy import without_determiner
from mnemo.retrieve.rewrite.told_times import told_time_text
from mnemo.retrieve.rewrite.totals import total_text
from mnemo.retrieve.rewrite.venues import venue_text
from mnemo.retrieve.rewrite.versions import version_text
from mnemo.retrieve.rewrite.works import WORK_NOUNS, names_work, titled_work

from . import cached_re


def _tag(noun: str) -> str:
    """The tag of a tagged noun: "date:" of "date:start", "total" of "total"."""
    head, colon, _ = noun.partition(":")
    return head + colon


def _argument(ref: Reference) -> str:
    return (ref.noun or "").partition(":")[2]


_Tagged = Callable[[Reference, Sequence[Mapping[str, str]], str], str | None]
#: The resolvers detection picks by a tag on a reference's noun ("date:start", "total"), each with
#: its confidence; a tag with a colon carries its argument after it.
_BY_TAG: dict[str, tuple[_Tagged, float]] = {
    "series:": (lambda ref, context, query: series_text(ref.text, context), 0.7),  # "the next one": book club
    "unit:": (lambda ref, context, query: numbered_unit_text(ref.text, context), 0.75),  # "the second day": day 2
    "date:": (lambda ref, context, query: deed_date_text(ref.text, _argument(ref), context), 0.75),  # "the start date"
    "quantity:": (lambda ref, context, query: quantity_text(ref.text, _argument(ref), context), 0.75),  # "that much"
    _tag(ONE): (lambda ref, context, query: offered_kind(context), 0.7),  # "book one": a truck
    "total": (lambda ref, context, query: total_text(ref.text, context), 0.7),  # "how many rows in total"
    "elided": (lambda ref, context, query: elided_text(ref.text, subject_before(query, ref.start), context), 0.7),
    "why": (lambda ref, context, query: reason_text(ref.text, context), 0.7),  # "did she say why"
    "town:": (lambda ref, context, query: venue_text(ref.text, context), 0.7),  # "any good restaurants?": in Porto
    "meta:": (lambda ref, context, query: meta_text(ref.text, _argument(ref), context), 0.75),  # "my first question"
    # "which model did you suggest at the start", "what we agreed on": the turn it points at
    "occurrence:": (lambda ref, context, query: occurrence_text(ref.text, context), 0.65),  # "the first trip"
    "version:": (lambda ref, context, query: version_text(ref.text, _argument(ref), context), 0.65),  # "the old one"
    "beginning:": (lambda ref, context, query: beginning_text(ref.text, _argument(ref), context, query), 0.65),
    "told:": (lambda ref, context, query: told_time_text(ref.text, context), 0.65),  # "what happened this morning"
    "moment:": (lambda ref, context, query: moment_text(ref.text, _argument(ref), context, query), 0.7),
}


#: Problem words that stand for whatever the user reported going wrong, named or not.
_REPORTED = frozenset({"the problem", "the issue", "the bug", "the error"})


def from_context(ref: Reference, context: Sequence[Mapping[str, str]], query: str = "") -> tuple[str, float] | None:
    """What the conversation makes of a reference by its own kind and noun, or None."""
    if ref.kind == "ordinal":
        return ordinal_choice(ref, context, query)
    tagged = _BY_TAG.get(_tag(ref.noun)) if ref.kind == "implicit" and ref.noun else None
    if tagged is not None:
        resolver, confidence = tagged
        text = resolver(ref, context, query)
        return (text, confidence) if text else None
    if ref.kind == "implicit" and ref.noun and ref.noun.endswith("s") and ref.text.lower().endswith(ref.noun):
        members = counted_members(ref.noun, conversation_text(context))  # "the new plants": which ones
        if members:
            return f"{ref.text} ({members})", 0.75
    head = ref.noun or ref.text.split()[-1]  # "the error" listed as a phrase has no noun of its own
    if ref.kind in ("implicit", "demonstrative") and head.lower() in SHAPES:
        shaped = shaped_text(ref.text, head, context, query)  # "the quote": "the £240 quote"
        if shaped:
            return shaped, 0.75
    if ref.kind == "implicit" and ref.noun in ("new", "old") and CHANGED.fullmatch(ref.text):
        changed = changed_text(ref.noun, context, changed_noun(ref.text))  # "the new name" -> "mnemo-engine"
        return (f"{ref.text} ({changed})", 0.8) if changed else None
    if ref.kind == "implicit" and ref.text.lower() == "the feature":  # "a round-up savings feature", "'vacation mode'"
        return specific_mention("feature", context) or _quoted_feature(context)
    if ref.kind == "implicit" and ref.text.lower().startswith("the ") and ref.text.split()[-1].lower() in PROBLEM_WORDS:
        mention = specific_mention(ref.text.split()[-1], context)  # "the crash": "the React Native app crashes"
        if mention is None and ref.text.lower() in _REPORTED and (reported := reported_problem(context)):
            return f"{ref.text} ({reported})", 0.7  # "the issue": "(my washing machine leaves black marks ...)"
        return mention
    if ref.kind == "implicit" and ref.noun and (is_role(ref.noun.lower()) or is_pet(ref.noun)):
        name = named_role(ref.noun, context)  # "the plumber": "Gareth the plumber"
        if name:
            return f"{ref.text} {name}", 0.8
    if ref.described and ref.noun:
        anchored = anchor_text(ref.noun, context)  # "the interview" -> "the interview at Stripe"
        if anchored and set(ref.text.lower().split()[1:]) - set(anchored.lower().split()) <= _participles(ref.text):
            # "the old index" -> "the old index on email"; "the failed pool" -> "the third node pool"
            return f"{ref.text.split()[0]} {anchored}", 0.8
        return (ref.text[: -len(ref.noun)] + anchored, 0.8) if anchored else None
    if ref.kind == "demonstrative":
        return _demonstrative(ref, context, query)
    return None


_APART = re.compile(r"\s+apart\b", re.IGNORECASE)


def _demonstrative(ref: Reference, context: Sequence[Mapping[str, str]], query: str) -> tuple[str, float] | None:
    """ "those", "that dog", "that idea", "those dates", "that part": a demonstrative by its noun."""
    apart = ref.text.lower() in ("these", "those", "them") and bool(_APART.match(query, ref.end))
    told_apart = alternative_pair(context) if apart else None
    if told_apart and len(told_apart) == 2:  # "how do I tell those apart" after "nitrogen deficiency or early blight"
        return f"{told_apart[0]} and {told_apart[1]}", 0.75
    if not ref.noun and ref.text.lower() in ("these", "those"):
        items = find_list(context, named=True)  # "which of those" -> "the ThinkPad X1 and the MacBook Air"
        return (", ".join(items[:-1]) + f" and {items[-1]}", 0.75) if items else None
    if ref.noun and is_pet(ref.noun):
        name = named_role(ref.noun, context)  # "that dog": "a rescue greyhound named Pepper"
        if name:
            return f"the {ref.noun} {name}", 0.8
    if ref.noun and (idea := proposed(ref.noun, context)):
        return idea, 0.75  # "that idea": the idea to freeze all merges to main
    two = " two " in f" {ref.text.lower()} "  # "those two days": two times, not a range
    if (ref.noun or "").lower() in DATE_SPAN_NOUNS and (span := date_span(context, ref.noun or "", two)):
        return f"{ref.text} ({span})", 0.8  # "for those dates": November 4–6
    if ref.noun and ref.noun.lower() not in TIME_HEADS:
        pointed = pointed_noun(ref, context, query)  # "that part", "that increase", "that city"
        if pointed:
            return pointed, 0.8
        if class_noun(ref.noun) and ref.noun.lower().rstrip("s") in PLACE_NOUNS:
            mention = specific_mention(ref.noun, context)  # "that market": "the farmers market on Elm Street"
            if mention and cached_re.search(r"[A-Z]", mention[0]):
                return mention
        if class_noun(ref.noun):
            return None  # "that guy": a name of the class, not a modified mention (see _through_noun)
        if ref.noun.lower() in GENERIC_ITEM_NOUNS and ref.text.lower().startswith(("these", "those")):
            items = find_list(context)  # "those options" -> "Qdrant, Milvus and pgvector"
            if items:
                return ", ".join(items[:-1]) + f" and {items[-1]}", 0.8
        if ref.noun.lower() == "one" and (focused := focused_one(context)):
            return focused, 0.75  # "that one" of a flea market and a farmers market: the one taken up since
        mention = specific_mention(ref.noun, context)
        if ref.noun.lower() in WORK_NOUNS and not (mention and names_work(mention[0])):
            title = titled_work(context)  # "that film": "Schindler's List", not the reply's "A powerful film"
            if title:
                return title, 0.75
        if mention and ref.noun.lower() in ("one", "option"):
            item = item_by_word(mention[0].split()[-2], context)  # "the sso one": "login_sso_redirect"
            # "that one" after "folds one-handed" names no item: the pro-noun is chosen like "it"
            named = mention[0].split()[-2][:1].isupper()  # "the March one" names which; "the folds one" does not
            mention = (item, mention[1]) if item else (None if ref.noun.lower() == "one" and not named else mention)
        deed = deed_of(ref.noun, context) if mention is None else None  # "that rename": "Kaveh renamed ..."
        if mention is None and deed is None and (subject := predicated_subject(ref.noun, context)):
            return f"the {without_determiner(subject)} {ref.noun}", 0.75  # "the Mona Lisa room crowd"
        return mention or ((f"the {ref.noun} ({deed})", 0.75) if deed else None)
    return None


#: A short name the user quoted: "this 'body battery' score", "a 'vacation mode'".
_QUOTED_NAME = re.compile(
    r"(?<!\w)[\"“'‘]([A-Za-z][\w -]{2,30})[\"”'’](?!\w)"
    # a feature's name is followed by what it is, or says it: "this 'body battery' score", "'Smart Reply' thing"
    r"(?=\s+(?:feature|mode|setting|option|button|tab|score|function|tool|thing|view|filter|toggle|widget|menu)\b)"
    r"|(?<!\w)[\"“'‘]([A-Za-z][\w -]{0,25}\s(?:mode|feature|view|filter))[\"”'’](?!\w)"
)


def _quoted_feature(context: Sequence[Mapping[str, str]]) -> tuple[str, float] | None:
    """The latest short name the user put in quotes, as "the feature (<name>)"."""
    for message in reversed(list(context)):
        if str(message.get("role") or "") in ("user", "human"):
            quoted = _QUOTED_NAME.findall(str(message.get("content") or ""))
            names = [a or b for a, b in quoted if len((a or b).split()) <= 4]
            if names:
                return f"the feature ({names[-1]})", 0.7
    return None


def _participles(text: str) -> set[str]:
    return {w for w in text.lower().split()[1:] if w.endswith("ed")}
