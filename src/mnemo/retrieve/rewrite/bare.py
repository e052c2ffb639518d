"""Nouns without a determiner, and the trimming every noun phrase gets.

Bare subject nouns: "the report shows churn went up", "ferritin is 9 and b12 is low".

A noun with no determiner is no candidate for the phrase rules (candidates.py), yet as the subject
of a clause it is what the clause is about, and a later "that" or "it" may well point at it. The
subject slot is found by grammar: a lower-case content word that opens a clause (a sentence start,
a comma, a conjunction, or right after a verb of saying or showing) and is followed by a finite
verb. Pure and dependency-free; returns positions and words, candidates.py makes them candidates.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.lowercase import verbal
from mnemo.retrieve.rewrite.names import (
    CHILD_NOUNS,
    DURATION,
    IRREGULAR_PAST,
    PERSON_NOUNS,
    PHRASE_BREAKERS,
    VAGUE,
    is_pet,
)
from mnemo.retrieve.rewrite.opening import PHATIC
from mnemo.store.sql import STOPWORDS

from . import cached_re

_OPENER = r"(?:^|[.,;:!?]\s+|\b(?:and|but|so|because|that|shows|showed|says|said|means|think|thinks)\s+)"
_FINITE = (
    r"(?:is|was|are|were|has|had|went|goes|keeps|kept|rose|fell|dropped|jumped|doubled|halved|looks|seems"
    r"|[a-z]{3,}ed)\b"
)
_SUBJECT = re.compile(
    rf"{_OPENER}(?:([a-z][a-z0-9-]{{2,}})\s+)?([a-z][a-z0-9-]{{2,}})\s+"
    rf"(?=(?:still|also|just|now|never|always|already)\s+[a-z]{{3,}}s\b|{_FINITE})"
)
_NOT_SUBJECTS = frozenset(
    "i you we he she they it this that there which who what everything nothing"
    # adverbs and discourse words that open a chat clause with its "I" dropped ("also had my flu jab")
    " also just still then now yeah yep yes ok okay so anyway plus btw finally already even".split()
)


def bare_subjects(text: str) -> list[tuple[int, str]]:
    """(position, word) of each bare noun that is a clause's subject."""
    out = []
    for match in _SUBJECT.finditer(text):
        word = match.group(2)
        if not _subject_word(word) or word.endswith(("ing", "ed")):
            continue  # "running was fun", "really was": a gerund or an adverb, no entity
        modifier = match.group(1)
        if modifier and _subject_word(modifier) and not modifier.endswith("ed"):
            out.append((match.start(1), f"{modifier} {word}"))  # "wedding speech is at 4pm": a compound subject
        else:
            out.append((match.start(2), word))
    return out


def _subject_word(word: str) -> bool:
    return not (
        word in STOPWORDS or word in _NOT_SUBJECTS or word in PHRASE_BREAKERS or word in VAGUE or word.endswith("ly")
    )


ATTACHED = re.compile(
    rf"^\s+(?:for(?!\s+{DURATION})"  # "the orders table for 20 minutes": how long, not which table
    r"|of|from|with(?=\s+[A-Z])|to(?=\s+(?:the\s+)?[A-Z][a-z])|on(?=\s+[A-Za-z]+\s+[A-Za-z]+)(?!\s+(?:the|a|an|my|our|your)\s)"
    r"(?!\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    # "a holiday rental in Sintra": a place by name says which rental; a month says when
    r"|in(?=\s+[A-Z][a-z]+\b)(?!\s+(?:January|February|March|April|May|June|July|August|September|October"
    r"|November|December|[A-Z][a-z]+day)\b))"
    # a dot only inside a word ("fly.io"): "for a 2-year-old. Give" ends at the full stop
    r"\s+((?:the\s+|a\s+|an\s+)?(?:(?:[\w\-]|\.(?=\w))+\s+){0,2}(?:[\w\-]|\.(?=\w))+)"
)
OBJECT_NEXT = re.compile(r"^\s+(?:you|the|a|an|it|us|them|me|him|her|this|that|your|our|their|my)\b")
#: Discourse words of chat ("on the plane honestly", "claimed the sofa already", "a cat lol") end a
#: noun phrase: they comment on the sentence and never modify its noun.
_DISCOURSE = frozenset(
    "honestly already lol haha tho though anyway anyways actually really btw pls plz rn tbh yet ever".split()
)
_STOP_AFTER = STOPWORDS | _DISCOURSE | set("and or but yesterday today tomorrow again now too please".split())
# adverbs and prepositions no noun phrase runs through: "ArrayDeque rather than", "Ben Nevis via the
# Mountain Track", "your friends ski elsewhere", "the hour ago", "the highly rated one"
_STOP_AFTER |= set(
    """rather via versus vs per elsewhere ago indoors outdoors towards toward instead still highly usually
    probably definitely quickly easily mostly nearly mainly fully together apart abroad whether unless although
    though whereas whenever wherever however since""".split()
)
#: Modal verbs: after a noun they begin its predicate ("the records might", "the fan could").
_MODALS = frozenset("might may must could would should will shall can cannot".split())
# A negated auxiliary is a verb: "the gaffer hasn't said yet" ends its subject at "gaffer". Phrases
# are read in word characters, so "hasn't" arrives as "hasn"; "haven" and "don" are words of their
# own ("a tax haven"), so those two negations are left out.
_STOP_AFTER |= {f"{aux}n" for aux in "has had is are was were does did could should would must".split()}
_SUBJECTS = frozenset("i you we they he she it who that which there this".split())


#: Amounts no one would repeat as part of what was counted.
_VAGUE_AMOUNTS = frozenset("many few several some more most fewer less any no".split())


#: Verbs a subject noun takes in "-s" that are seldom nouns: "the market sells", "the app says".
_VERBS_IN_S = frozenset(
    """sells makes says thinks wants needs goes does gets takes looks works keeps comes gives opens closes seems
    feels tastes smells sounds serves offers includes lets helps""".split()
)


#: Units a number measures with: "5 metres", "3 litres", "12 kilos".
_UNITS_OF_MEASURE = frozenset(
    """metre meter centimetre centimeter millimetre kilometre kilometer mile foot feet inche inch yard litre liter
    millilitre gallon kilo kilogram gram pound ounce stone degree percent minute second hour""".split()
)


#: Words after which an -ing word is a verb ("I'm buying shoes", "keeps losing keys"), not a kind.
_BEFORE_VERB_ING = frozenset(
    """am is are was were be been being i'm im we're you're they're he's she's it's keep keeps kept stop stops
    stopped start starts started love loves like likes hate hates enjoy enjoys avoid try tried quit go goes went
    i we you they he she it""".split()
)


def _gerund_modifies(words: list[re.Match[str]], at: int) -> bool:
    """Whether the -ing word at ``at`` modifies the noun after it: not after a subject, a form of
    "be" or a verb that takes a gerund."""
    before = words[at - 1].group(0).lower() if at > 0 else ""
    # "the 80 missing units": after a count the -ing word says which units, no kind of them
    return before.isalpha() and before not in _BEFORE_VERB_ING and not before.endswith("n't")


def bare_plurals(text: str) -> list[tuple[int, Candidate]]:
    """Plural nouns with no determiner ("new football boots", "old photos", "3 tickets for the
    Ghibli exhibition"): what "these" and "those" point at. A plural-looking word after a subject
    is a verb ("she keeps"), so it is skipped."""
    out: list[tuple[int, Candidate]] = []
    words = list(cached_re.finditer(r"[A-Za-z0-9][\w'-]*", text))
    for n, word in enumerate(words):
        token = word.group(0)
        low = token.lower()
        if not _plural_noun(low) or token[:1].isupper() or cached_re.search(r"[_./\d]", token):
            continue
        if OBJECT_NEXT.match(text[word.end() :]):
            continue  # "any lockfile change busts the cache": a verb before its object
        before = words[n - 1].group(0) if n else ""
        if before.lower() in _SUBJECTS or before[:1].isupper() or before.lower() in ("the", "my", "your", "our", "a"):
            continue  # a verb after its subject, or a phrase the determiner pass already has
        if low in _VERBS_IN_S and before.lower() not in STOPWORDS:
            continue  # "the farmers' market sells lemon drizzle loaves": the verb after its subject noun
        following = [words[n + 1].group(0)] if n + 1 < len(words) else []
        if _third_person_verb(low) and _verb_after_actor(low, following, loose=True):
            continue  # "our flight lands at 6am": the flight's verb, no "flight lands"
        if cached_re.fullmatch(r"[\d.,]+", before) and low.rstrip("s") in _UNITS_OF_MEASURE:
            continue  # "5 metres tall": a measure, never what "those" are
        modifiers: list[str] = []
        following = word.start()
        for prev in reversed(words[max(0, n - 2) : n]):
            if cached_re.search(r"[,:;.!?()]", text[prev.end() : following]):
                break  # "onboarding checklist: accounts": punctuation ends the phrase
            following = prev.start()
            plow = prev.group(0).lower()
            adverb = plow.endswith("ly") and len(plow) > 4
            # "new running shoes", "bought hiking boots": a gerund before the noun names its kind
            kind_of = not modifiers and plow.endswith("ing") and _gerund_modifies(words, n - 1)
            if (
                plow in STOPWORDS
                or plow in PHRASE_BREAKERS
                or adverb
                or plow in _VAGUE_AMOUNTS
                or plow in _TAKES_OBJECTS
            ):
                break  # "how many changes": the changes, not "many changes"
            if verbal(plow) and not kind_of:
                break
            modifiers.insert(0, prev.group(0))
        start = words[n - len(modifiers)].start()
        phrase = " ".join([*modifiers, token])
        attached = ATTACHED.match(text[word.end() :])
        if attached and trim(attached.group(1).split(maxsplit=1)[-1]):
            phrase = f"{phrase} {text[word.end() :].split()[0]} {trim_keep_det(attached.group(1))}"
        # weaker than a determiner-led phrase: a bare "-s" word may be a name ("postgres") or a verb
        out.append((start, Candidate(phrase, "thing", salience=0.6, plural=True)))
    return out


#: Verbs that take a plural object and never modify it: "options include clover lawns", "feeds
#: bees", "interfaces represent unions" ("support tickets", "feed bags", "offer codes" are nouns: left out).
_TAKES_OBJECTS = frozenset(
    """include includes represent represents contain contains require requires provide provides allow allows
    create creates cause causes feeds adds remove removes avoid avoids recommend recommends prefer prefers
    compare compares attract attracts reduce reduces increase increases improve improves prevent prevents""".split()
)


def _plural_noun(low: str) -> bool:
    return (
        len(low) > 3
        and low.endswith("s")
        and not low.endswith(("ss", "us", "is", "'s"))
        and low not in STOPWORDS
        and low not in PHRASE_BREAKERS
        and low not in VAGUE
        and low not in PHATIC
        and low[:-1] not in _COMMON_VERBS_3RD
        and low not in _CONTRACTED
    )


#: Contractions typed without the apostrophe: "theres only one", "hes late" name nothing.
_CONTRACTED = frozenset("theres heres wheres whats thats hes shes lets its whos hows".split())


_COMMON_VERBS_3RD = frozenset(
    """need want keep get make take give look seem sound feel work run go come say know think use help show
    start stop open close cost mean hurt smell taste leak drip break fail""".split()
)


def trim_keep_det(text: str) -> str:
    first, _, rest = text.partition(" ")
    return f"{first} {trim(rest)}" if first.lower() in ("the", "a", "an") and rest else trim(text)


#: Nouns whose head is a verb's form too: "the fun run", "a test drive", "the school run".
_VERB_COMPOUNDS = frozenset(
    """fun run|school run|test run|dry run|trial run|training run|long run|park run|home run|charity run|test drive
    |bike ride|road trip|day trip|sign up|check up|follow up|set up|clean up|warm up|cool down""".replace(
        "\n    ", ""
    ).split("|")
)


def trim(phrase: str) -> str:
    """Cut a noun phrase at the first function word; drop it when nothing specific is left."""
    words: list[str] = []
    given = phrase.split()
    for at, word in enumerate(given):
        low = word.lower().strip(".-")
        if words and f"{words[-1].lower()} {low}" in _VERB_COMPOUNDS:
            words.append(word.strip(".-"))  # "the charity fun run": a noun whose head is also a verb
            continue
        if low in _STOP_AFTER or low in PHRASE_BREAKERS or (words and (past_participle(low) or low in _ENDS_PHRASE)):
            break  # "the youngest Ollie caught ...": the verb after the subject ends its phrase
        if words and low in _MODALS:
            break  # "the records might be worth ...": a modal after the noun is its verb
        if words and low in PLURAL_AGREEING and looks_plural(words[-1]):
            break  # "my in-laws arrive friday": a plural noun's own verb, never its compound
        if words and _actor(words[-1].lower()) and _verb_after_actor(low, given[at + 1 : at + 2]):
            break  # "my neighbour parks across ...", "my cat keeps scratching": a person's or pet's own verb
        if words and _third_person_verb(low) and _verb_after_actor(low, given[at + 1 : at + 2], loose=True):
            break  # "our flight lands at 6am", "the fee adds roughly 0.1%": a thing's own verb
        words.append(word.strip(".-"))
    if not words or words[-1].lower() in VAGUE or all(w.lower() in VAGUE for w in words):
        return ""
    return " ".join(words)


def _verb_after_actor(low: str, following: list[str], loose: bool = False) -> bool:
    """A word in -s after a person or a pet, followed by a preposition, a particle, a determiner or
    a gerund, is its verb ("parks across", "keeps scratching"); "the vet bills", "dog treats" are
    compounds. ``loose`` also takes an adverb of degree or a number after it ("adds roughly 0.1%")."""
    if not low.endswith("s") or low.endswith("ss") or "'" in low or not following:
        return False
    nxt = following[0].lower()
    degree = loose and (nxt in _DEGREE_AFTER or nxt[:1].isdigit() or nxt[:1] in "£$€")
    return nxt in _AFTER_VERB or (nxt.endswith("ing") and len(nxt) > 4) or degree


_DEGREE_AFTER = frozenset("roughly about around almost nearly only just over under up".split())
#: Verbs a thing does, in the third person: "the flight lands", "the fee adds", "the sale ends".
_THING_VERBS = _COMMON_VERBS_3RD | frozenset(
    "land add arrive leave depart expire end begin charge cover include apply last ship".split()
)


def _third_person_verb(low: str) -> bool:
    """ "lands", "adds", "includes": a verb of ``_THING_VERBS`` with its third-person ending."""
    return low.endswith("s") and (low[:-1] in _THING_VERBS or (low.endswith("es") and low[:-2] in _THING_VERBS))


_AFTER_VERB = frozenset(
    """across on in at into onto over under through around up out off down away back to from with the a an my
    our his her their your every all""".split()
)


def _actor(word: str) -> bool:
    """A person or a pet: a word in -s after it is its verb, no compound ("the dog walks" is no
    kind of walks)."""
    return word in PERSON_NOUNS or word in CHILD_NOUNS or is_pet(word)


def past_participle(word: str) -> bool:
    return len(word) > 4 and word.endswith("ed") and not word.endswith(("eed", "ied"))


def looks_plural(head: str) -> bool:
    low = head.lower()
    if cached_re.fullmatch(r"[A-Z]{2,}s", head):
        return True  # "PRs", "APIs", "VMs": an acronym's plural
    return low.endswith("s") and not low.endswith("ss") and len(low) > 3 and low not in SINGULAR_IN_S


#: Singular nouns that end in "s" ("the lens arrived scratched", "the thesis", "the campus"); a
#: list, because "skis", "menus" and "critics" end the same way and are plural.
SINGULAR_IN_S = frozenset(
    """lens news series species gas canvas atlas chassis bias alias means bus status campus virus bonus
    census focus genus onus corpus apparatus thesis analysis crisis basis axis diagnosis emphasis hypothesis
    oasis synopsis tennis iris physics maths mathematics economics politics ethics""".split()
)


#: Words that end a noun phrase already begun: past tenses, and "last"/"next"/"every" opening a time
#: ("her ladder last week", "a farmers market every Saturday").
_ENDS_PHRASE = IRREGULAR_PAST | {"last", "next", "every", "each"}
#: Verbs in the plural present: after a plural noun they are its verb ("the kids need", "my parents
#: arrive"); a plural noun as a modifier comes before a noun instead ("the sales team").
PLURAL_AGREEING = _COMMON_VERBS_3RD | frozenset(
    "arrive land leave stay live visit love like hate play want fly travel move agree disagree argue".split()
)


#: A noun after a word of many: "too many zucchini", "lots of sushi": several, whatever its ending.
_MANY = re.compile(
    r"\b(?:too\s+many|so\s+many|lots\s+of|loads\s+of|a\s+lot\s+of|a\s+bunch\s+of|plenty\s+of)"
    r"\s+([a-z][a-z-]{2,})\b",
    re.IGNORECASE,
)


def counted_plurals(text: str) -> list[tuple[int, Candidate]]:
    """Nouns a word of many makes plural though they do not end in -s ("way too many zucchini")."""
    return [
        (m.start(1), Candidate(m.group(1), "thing", salience=0.8, plural=True))
        for m in _MANY.finditer(text)
        if m.group(1).lower() not in STOPWORDS
        and not m.group(1).lower().endswith("s")
        and m.group(1).lower() not in PHRASE_BREAKERS
    ]
