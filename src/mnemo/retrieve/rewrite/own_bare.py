"""An "it" whose antecedent is a thing the query names without a determiner.

"if I freeze cooked rice and reheat it later", "can you catch covid again after having it", "my
sister keeps borrowing money and never pays it back", "how long can cooked rice sit out before it's
unsafe": the query brings in its own thing as a verb's bare object (or a question's bare subject),
and a later clause takes it up; or it opens on a condition about its own deed ("if I pay my
credit card off in full every month, does it still help my credit score?"). The "it" then points
at nothing of the conversation.

Verbs of adding are left out: "if I add spinach, will it hold together" asks about the dish the
chat is about, not the spinach. Pure functions over the query text.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite import cached_re
from mnemo.retrieve.rewrite.names import PERSON_NOUNS, TIME_HEADS
from mnemo.retrieve.rewrite.pointing import DEMONSTRATIVE, PERSONAL, pointer_words
from mnemo.store.sql import STOPWORDS

#: Who does the deed in a general or personal question: "if I freeze", "can you catch", "someone has".
_DOERS = frozenset("i you we they he she someone somebody people kids children".split())
#: Words between the doer and its verb: "you've previously had", "I accidentally", "keeps".
_BETWEEN = frozenset(
    """can could should will would do does did 've have has had keep keeps still often ever accidentally
    previously already just always never usually sometimes""".split()
)
#: Verbs of putting one thing into another: their object is an ingredient, and "it" the whole.
_ADDING = frozenset(
    """add adds added adding put puts putting use uses used using mix mixes mixed mixing include includes
    included stir stirs stirred swap swaps swapped throw throws toss tosses try tries tried sub""".split()
)
#: Words that join the clause the bare thing is named in to the clause with the "it" (a comma before a
#: new question does not: "I got fresh potting mix today, when should I repot it?" is the chat's plant).
_BREAKS = frozenset("and but so if when whenever after before once until to because".split())
#: Words that start no bare noun phrase (determiners, pronouns, particles, degree words).
_NOT_NOUN = frozenset(
    """the a an my your our his her their this that these those it them him me us some any up out off down on
    in at for with from about into over back away again more less so too very really just still it's""".split()
)
#: A bare subject put somewhere: "can garden furniture go on before it's cured" - on the chat's patio.
_PLACED = re.compile(r"\b(?:go|goes|be\s+put|be\s+placed|sit|stand)\s+(?:on|in|into|onto|inside)\b")
#: A habit phrase: what the asker does every day is a use of the chat's thing, not the "it".
_HABIT = re.compile(
    r"\b(?:every|most|each)\s+(?:day|night|morning|evening|week|weekend|sunday|monday|saturday|time)s?\b"
    r"|\b(?:constantly|daily|nightly|regularly|usually|always|all\s+the\s+time|every\s+other\s+\w+)\b"
)
_QUESTION_OPENERS = frozenset("how what when should can could do does is will why".split())
_GENERIC_DOERS = frozenset("someone somebody people kids children".split())
#: Words before an "it" that make it a subject, not a verb's object.
_NOT_VERB = frozenset("""is was will would can could should does did do has have""".split())
#: Verbs of getting, consulting or working at something, whose object serves the chat's thing.
_GETTING = frozenset(
    """got bought buy ordered order watched watch checked check called call visited visit fixed fix tried read
    googled asked booked""".split()
)
_HAVING = frozenset("have has had having get got getting".split())
#: Openers of a time clause whose subject "it" may be the main clause's thing.
_TIME_OPENERS = frozenset("before after until once when whenever while".split())
_WH = frozenset("how long often much why when what".split())
_ASKING = frozenset("can could does do should will would is".split())
_WORD = re.compile(r"[a-z][a-z'-]*|[,—-]")


def bare_thing_before(before: str, after: str = "") -> bool:
    """Whether the sentence before an "it" names a bare thing in an earlier clause, and the "it" is
    a verb's object ("reheat it", "after having it", "pays it back") or a time clause's subject
    ("salt pasta water before it boils", "can cooked rice sit out before it's unsafe")."""
    sentence = cached_re.split(r"[.?!]\s", before)[-1]
    words = _WORD.findall(sentence.lower())
    if not words:
        return False
    timed = words[-1] in _TIME_OPENERS
    if not timed and (words[-1] in _NOT_VERB or (words[-1] in STOPWORDS and words[-1] not in _HAVING)):
        return False  # "will it", "with it": a subject or a preposition's "it"
    end = len(words) if timed else len(words) - 1  # a time clause's opener is itself the break
    if timed and _asked_of_bare(words) and not _RECOVERING.match(after.strip().removeprefix("'s ")):
        return True  # ("how long does aquarium salt take to work before it gets better" is the chat's sick fish)
    for n in range(1, len(words) - 2):
        if not _verb_slot(words, n) or not _plain_verb(words[n]) or not _bare_phrase(words, n + 1):
            continue
        between = words[n + 2 : end]
        if _HABIT.search(" ".join(between)):
            continue  # "I simmer tomato sauce most nights, so how often should I season it": the chat's pan
        joined = next((k for k, w in enumerate(between) if w in _BREAKS), None)
        after_join = between[joined + 1] if joined is not None and joined + 1 < len(between) else ""
        if joined is not None and between[joined] == "so" and after_join in _QUESTION_OPENERS:
            continue  # "... so how often should I sand it": a new question, about the chat's thing
        if (
            joined is not None
            and not _pointer_between(words[n + 2 :])
            and not _new_subject(between[joined + 1 :], words)
        ):
            return True
    return False


def _asked_of_bare(words: list[str]) -> bool:
    """A question about a bare subject: "how long can cooked rice sit out ...", "does bread go stale ..."."""
    k = 0
    while k < len(words) and words[k] in _WH:
        k += 1
    return (
        0 < k + 1 < len(words) - 1
        and words[k] in _ASKING
        and _bare_phrase(words, k + 1)
        and not _pointer_between(words[k + 1 :])
        and not _PLACED.search(" ".join(words[k + 1 :]))
    )


def _verb_slot(words: list[str], n: int) -> bool:
    """Whether the word at ``n`` follows a doer (through auxiliaries and adverbs) or "keeps"."""
    k = n - 1
    while k >= 0 and words[k] in _BETWEEN:
        if words[k] in ("keep", "keeps"):
            return True  # "my sister keeps borrowing money"
        k -= 1
    return k >= 0 and words[k] in _DOERS


def _plain_verb(word: str) -> bool:
    """A main verb: no auxiliary, negation or verb of adding."""
    if word in _ADDING or "'" in word or not word.isalpha():
        return False
    if word in _GETTING:
        return False  # "I bought cream cheese frosting, can I freeze it": what one got is a means, not the "it"
    return word in _HAVING or (word not in STOPWORDS and word not in _BETWEEN)


def _bare_phrase(words: list[str], start: int) -> bool:
    """Whether a bare noun phrase starts at ``start``: up to three bare words, the last no participle
    or adverb ("get alerted when ..." names no thing)."""
    end = start
    while end < len(words) and end - start < 3 and _bare_noun(words[end]):
        end += 1
    return end > start and not words[end - 1].endswith(("ed", "ly"))


def _bare_noun(word: str) -> bool:
    plural = word.endswith("s") and not word.endswith(("ss", "us", "is"))
    return (
        word.isalpha()
        and len(word) > 2
        and word not in _NOT_NOUN
        and word not in STOPWORDS
        and word not in PERSON_NOUNS
        and word not in TIME_HEADS
        and not plural
    )


def _new_subject(words: list[str], sentence: list[str]) -> bool:
    """Whether the joined clause has a doer of its own before the "it": "I called roadside assistance
    and they want to tow it" (they tow the chat's car). "someone has hearing loss if they won't
    admit it": "they" is that someone."""
    generic = bool(_GENERIC_DOERS & set(sentence))
    return any(w in ("he", "she", "we", "you") or (w == "they" and not generic) for w in words)


def _pointer_between(words: list[str]) -> bool:
    """A pointer between the bare thing and the "it" may itself be what "it" follows."""
    return any(w in ("it", "that", "this", "them", "those") for w in words[:-1])


#: A condition the query opens with, about its own deed or thing: "if I pay my credit card off in
#: full every month", "if I run git gc on a huge repo", "if my passport expires in 5 months".
_CONDITION = re.compile(
    r"^\s*(?:so\s+|and\s+|also\s+)?(?:if|when|once)\s+(?P<clause>(?:i|we|you|my|our)\b(?:[^?.!,]|\.\b)*?)"
    r"(?:,\s*|\s+(?=(?:does|do|will|would|can|could|should|is|am|are)\s))(?P<main>(?:[^?.!]|\.\b)*)$",
    re.IGNORECASE,
)
#: Verbs of going: a condition about getting somewhere names a time or a place, no thing.
_GOING = frozenset(
    "get gets go goes arrive arrives land lands travel fly come comes move moves drive drives commute walk".split()
)
#: What "it" does when it is an illness or a fault getting better: "clear up", "go away", "heal".
_RECOVERING = re.compile(
    r"(?:clear|clears|go\s+away|goes\s+away|come\s+out|comes\s+out|come\s+down|heal|heals|settle|settles"
    r"|get\s+better|gets\s+better|pass|improve|improves)\b",
    re.IGNORECASE,
)
#: Pointers that make a condition or its main clause lean on the chat ("one": "if I buy one").
_CLAUSE_POINTERS = pointer_words(*(w for w in PERSONAL if w not in ("their", "his")), *DEMONSTRATIVE, "same", "one")


def conditioned_thing(before: str, after: str = "") -> bool:
    """Whether an "it" follows the query's opening condition about its own deed or thing, with no
    pointer in it and no verb of adding ("if I add spinach, will it hold together" is the chat's dish)."""
    found = _CONDITION.match(before)
    if found is None:
        return False
    clause, main = found.group("clause"), found.group("main")
    if _HABIT.search(clause.lower()):
        return False  # "if I dry laundry indoors every day, can it keep up": a use of the chat's thing
    if _RECOVERING.match(after.strip().removeprefix("usually ").removeprefix("still ")):
        return False  # "if I take honey every night, does it usually clear up": the chat's cough
    words = _WORD.findall(clause.lower())
    mixed_pair = bool(cached_re.search(r"\b(?:mix|mixes|mixing|combine|combines)\s+\w+\s+and\s+\w+", clause.lower()))
    if len(words) < 4 or (not mixed_pair and any(w in _ADDING for w in words)) or any(w in _GOING for w in words):
        return False  # "if I get to New York can I take it on the subway": a time or place, no thing
    return not _CLAUSE_POINTERS.search(clause) and not _CLAUSE_POINTERS.search(main)
