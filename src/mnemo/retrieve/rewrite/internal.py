"""A query's own antecedents and quoted titles: what its pronouns may refer to inside it.

"ask the Patels if they can bring chairs", "rename load_config and update its docstring", "when the
dishwasher finishes its cycle", "did my parents like the hotel they stayed at": the pronoun's
antecedent is in the query, so there is nothing for the conversation to resolve. Words inside a
quoted title ("is 'This Is Us' worth watching?") refer to nothing at all. Pure functions over the
query's words; detect.py asks them before it makes a reference.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.names import FEMALE_NOUNS, MALE_NOUNS, PERSON_NOUNS, TIME_HEADS
from mnemo.store.sql import STOPWORDS

_PUNCT = frozenset(".?!,;:")
_AUX = frozenset("is was are were has had have will would can could should does did may might must".split())


def quoted_title_spans(query: str) -> list[tuple[int, int]]:
    """The spans of the query's quoted titles."""
    return [(m.start(), m.end()) for m in QUOTED_TITLE.finditer(query) if title_case(m.group(0))]


def title_case(quoted: str) -> bool:
    """Whether most words of a quoted run are capitalised, as a title's are ("It Ends with Us")."""
    words = re.findall(r"[A-Za-z][\w'-]*", quoted)
    return bool(words) and sum(w[:1].isupper() for w in words) * 2 >= len(words)


#: A quoted title: straight or curly quotes round a run that opens with a capital, the opening quote
#: not inside a word (so the apostrophe of "it's" opens nothing). A quoted message ("what did she
#: mean by 'call him first'?") is lower-case and keeps its references.
QUOTED_TITLE = re.compile(r"(?<!\w)(['\"\u2018\u201c])(?=[A-Z])[^'\"\u2019\u201d]{2,80}?['\"\u2019\u201d](?!\w)")


def thing_subject_before(lowered: list[str]) -> bool:
    """Whether the clause before a possessive "its" has a thing as its subject: a determiner-led
    phrase opening the clause or right after its auxiliary ("when the dishwasher finishes", "does
    the Pixel 8 compare to"). A person there ("what did the vet say about its diet") owns nothing
    "its" can mean, and an object ("fix the laptop's ...") is not the subject."""
    clause: list[str] = []
    for word in reversed(lowered):
        if word in _PUNCT or word in _SUBORDINATORS:
            break
        clause.append(word)
    clause.reverse()
    start = 1 if clause and clause[0] in _AUX else 0
    if len(clause) < start + 2 or clause[start] not in _THING_DETERMINERS:
        return False
    head = clause[start + 1]
    return head not in STOPWORDS and head.rstrip("s") not in PERSON_NOUNS


_THING_DETERMINERS = frozenset("the my your our this".split())
_SUBORDINATORS = frozenset(
    "when while if because and but or so that which who what where why how whether since until before after".split()
)


def family_before(lowered: list[str], words: list[tuple[str, int, int]]) -> bool:
    """ "the Patels", "the Hendersons": a family or group by its plural name, before "they"."""
    return any(
        n and lowered[n - 1] == "the" and w[:1].isupper() and plural_word(w.lower())
        for n, (w, _, _) in enumerate(words)
    )


#: A word shaped like code: snake_case, dotted, a path or a call ("load_config", "utils.py", "run()").
IDENTIFIER_WORD = re.compile(r"^[A-Za-z][\w]*(?:_[\w]+|\.[a-z]\w*|/\w+|\(\))")


def named_before(words: list[tuple[str, int, int]], needed: int) -> bool:
    names = [w for n, (w, _, _) in enumerate(words) if n and w[:1].isupper() and w.lower() not in _NOT_ANTECEDENT]
    return len(names) >= needed


def plural_before(lowered: list[str]) -> bool:
    """A possessive-led plural noun earlier in the query ("my parents", "our kids", "press his
    olives ... or take them"): the antecedent of a later "they"/"them" in the same sentence."""
    return any(
        w in _PLURAL_OWNERS and n + 1 < len(lowered) and plural_word(lowered[n + 1]) for n, w in enumerate(lowered)
    )


_PLURAL_OWNERS = frozenset("my our your his her their".split())


def plural_word(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


_NOT_ANTECEDENT = frozenset("i what when where why how who which did does do is are was were can could".split())


def thing_named_before(lowered: list[str]) -> bool:
    """Whether the query names a thing before an "it" in a later clause: a determiner and a noun
    ("set the oven to 180 and turn it off", "there's a weird smell in my fridge, how do i get rid
    of it"). People and times are no "it"; a phrase with no clause break before the pronoun is its
    own clause's object and says nothing of "it" ("is the meeting on if it rains?" still does)."""
    for n, word in enumerate(lowered[:-1]):
        noun = lowered[n + 1]
        if word not in _THING_NAMERS or noun in STOPWORDS or noun in PERSON_NOUNS or noun in TIME_HEADS:
            continue
        if noun in _NOT_THINGS:
            continue  # "a thank you", "a bit", "a lot": no thing
        if any(w in _PUNCT or w in _SUBORDINATORS or w in ("—", "-") for w in lowered[n + 2 :]):
            return True
    return False


def person_named_before(lowered: list[str], pronoun: str) -> bool:
    """Whether the query names a relative or friend of the pronoun's gender (or of none) before it,
    as "my brother" or, opening the query, "grandma": "my brother passed his driving test",
    "grandma wants her old slides". "the vet" or "the contract guy" are named by their job, and
    their "her" or "he" is as often someone else or wants their name."""
    female = pronoun in ("she", "her", "hers", "herself")
    wrong = MALE_NOUNS if female else FEMALE_NOUNS
    return any(
        word in PERSON_NOUNS and word not in wrong and (n == 0 or lowered[n - 1] in _OWN)
        for n, word in enumerate(lowered)
    )


_OWN = frozenset("my our your".split())
_THING_NAMERS = frozenset("the a an my our your this".split())
_NOT_THINGS = frozenset("thank thanks lot bit few couple little while kind sort way number look try go one".split())
