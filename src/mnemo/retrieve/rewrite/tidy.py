"""The words of a candidate phrase that cannot be part of a noun phrase.

The phrase rules read noun phrases by their words' shapes, without a tagger, so a phrase sometimes
runs on past its noun into the clause's verb ("the API returns", "the mouse keeps disconnecting",
"my sister Rukayat might") or into an adverb or a preposition ("the pool size also", "Melanie
yesterday", "the dress for"), and a demonstrative subject is sometimes read as a determiner ("That
sounds fun" gave "the sounds fun"). Such words are never part of what a pronoun points at and make
a rewrite read badly, so the tail is cut and a phrase with no noun left is dropped.
"""

from __future__ import annotations

import re

#: Words that end a clause or begin a new one, never a noun phrase: adverbs, discourse words,
#: prepositions left hanging, modal verbs ("the MSA first", "the dress for", "Rukayat might").
_NEVER_LAST = frozenset(
    """first usually also still yesterday today tomorrow tonight right near too though tho again now then
    just already lol pls plz really maybe anyway later soon here there instead either
    for of with to at in on from about around by into since until till
    might may will would can could should must shall
    hasnt havent hadnt doesnt dont didnt isnt arent wasnt werent cant wont couldnt shouldnt wouldnt
    has have had does did is are was were""".split()
)
#: Sentence adverbs a chat puts before a name: "actually Sweet Crumbs closes at 5".
_OPENING_ADVERBS = frozenset("actually also maybe probably just really basically honestly apparently anyway".split())
#: Third-person verbs that are seldom plural nouns: after a noun they are its verb ("Carlos thinks").
_VERB = frozenset(
    """thinks says wants needs seems helps knows tells asks goes does has likes loves hates adds complains
    suggests reckons recommends prefers agrees turns gets makes gives feels uses keeps died expires hurts
    crashes fails chokes lags hangs belongs depends happens matters barks""".split()
)
#: Third-person verbs that are also plural nouns ("tax returns", "the Amazon returns"): a verb only
#: after an identifier or an acronym ("parse_amount returns", "the API returns").
_NAMED_VERB = frozenset("returns runs works plays pays costs scales writes reads".split())
_CODE = re.compile(r"^(?:.*[_.()/].*|[a-z]+[A-Z]\w*|[A-Z0-9]{2,})$")
#: A verb right after "the": "That sounds fun" and "Does that affect" were read as "the ...".
_VERB_AFTER_DETERMINER = frozenset(
    "sounds looks seems feels means affect affects depends matters happens works helps makes".split()
)
#: Adjectives that make no noun phrase on their own ("her new sneakers" cut to "the new").
_ADJECTIVES = frozenset(
    "new old best worst latest unpaid great good bad big small whole full fun one two three four five both".split()
)
#: Adverb endings ("constantly", "seriously"), which "family", "reply" or "July" do not have.
_ADVERB = re.compile(r"[a-z]{3,}(?:ally|ously|ively|ently|antly|fully|lessly|edly|ingly|ately|ckly|wly)$")
#: Units a span of time is counted in ("two weeks", "the month"); choose.py shares them.
TIME_UNITS = frozenset("second minute hour day night week weekend month year decade".split())
_DEGREE = frozenset("much far way lot bit so really very too even slightly".split())
_PLAIN_GRADES = frozenset("easy hard slow fast warm cold hot cheap quiet loud good bad safe simple short long".split())


def _comparative(word: str) -> bool:
    return word in _PLAIN_GRADES or word in ("better", "worse") or (len(word) > 4 and word.endswith(("ier", "er")))


_COUNTS = frozenset("a an one two three four five six seven eight nine ten few couple several".split())
_DETERMINERS = frozenset("the a an my our your his her their this that these those".split())


def tidy(phrase: str) -> str:
    """``phrase`` without its trailing verb, adverb or preposition; "" when no noun is left."""
    words = phrase.split()
    while len(words) > 1 and not words[-1][:1].isupper():  # "FastAPI Depends", "Siew Ling" are names
        last = words[-1].lower()
        before = words[-2]
        if last in _NEVER_LAST and not (len(words) == 2 and before.lower() in _DETERMINERS):
            words.pop()  # "the pool size also"; "the first" keeps its only word
        elif last in _VERB or (last in _NAMED_VERB and _CODE.match(before)):
            words.pop()
        elif len(words) > 2 and last.rstrip("s") in TIME_UNITS and before.lower() in _COUNTS:
            del words[-2:]  # "a reminder two weeks before": how long before, not part of the reminder
        elif last.endswith("ing") and before.lower() in _VERB:
            words.pop()  # "the mouse keeps disconnecting" ("the Paris wedding" keeps its noun)
        elif len(words) > 3 and before.lower() in _DEGREE and _comparative(last):
            del words[-2 - (words[-3].lower() == "a" and before.lower() in ("lot", "bit")) :]
            # "made the trip much easier", "the process a lot faster": the degree is no part of the trip
        else:
            break
    while len(words) > 1 and words[0].lower() in _OPENING_ADVERBS and words[1][:1].isupper():
        words.pop(0)  # "actually Sweet Crumbs closes at 5": a sentence adverb before the name
    if words and words[0].lower() in _DETERMINERS:
        rest = [w.lower() for w in words[1:]]
        if not rest or rest[0] in _VERB_AFTER_DETERMINER or all(w in _ADJECTIVES or _ADVERB.search(w) for w in rest):
            return ""  # "the sounds fun", "the new", "the constantly"
    return " ".join(words)


def without_particles(phrase: str) -> str:
    """``phrase`` without trailing adverbs and prepositions only: an event keeps its verb ("my
    laptop died"), but not the "since" its date left behind ("a payment notification since")."""
    words = phrase.split()
    while len(words) > 1 and words[-1].lower() in _NEVER_LAST and not words[-1][:1].isupper():
        words.pop()
    return " ".join(words)


_LEADING_DETERMINER = re.compile(r"^(?:the|my|your|our|a|an)\s+", re.IGNORECASE)


def without_determiner(phrase: str) -> str:
    """ "the Lenovo monitor" -> "Lenovo monitor": the phrase without its leading determiner."""
    return _LEADING_DETERMINER.sub("", phrase)


#: A title's full stop before a name ("Mr. Haddad", "Dr. Okafor"), an initial's before a lower-case
#: word ("T. rex"): no sentence ends there.
_TITLE_STOP = re.compile(
    r"\b(Mr|Mrs|Ms|Mx|Dr|Prof|St|Mt|Sr|Jr|Fr|Capt|Sgt|Lt|Rev)\.(?=\s+[A-Z])|\b([A-Z])\.(?=\s+[a-z])"
)


def without_title_stops(text: str) -> str:
    """ "my landlord Mr. Haddad" as "my landlord Mr Haddad", "the T. rex set" as "the T rex set":
    phrases and sentences split at full stops, and a title's or an initial's stop would cut the
    name from the noun around it (an initial before a lower-case word ends no sentence)."""
    return _TITLE_STOP.sub(lambda m: m.group(1) or m.group(2), text) if "." in text else text
