"""Whether a demonstrative determines a noun ("that job"), stands alone ("does this happen") or is
a relative or reported "that" ("the tests that fail", "make sure that ..."), from the words around it.
"""

from __future__ import annotations

from mnemo.retrieve.rewrite.clause import (
    CLAUSE_PREDICATES,
    REPORTING_VERBS,
    SUBJECT_VERBS,
    looks_verbal,
    verbal_prev,
)
from mnemo.retrieve.rewrite.internal import (
    plural_word,
)
from mnemo.retrieve.rewrite.names import (
    HAVING_DONE,
    ING_NOUNS,
    IRREGULAR_PAST,
    PARTICLES,
    PREPOSITIONS,
    STATE_ADJECTIVES,
)
from mnemo.retrieve.rewrite.names import PUNCTUATION as PUNCT
from mnemo.store.sql import STOPWORDS

#: Words after which "that/this" is a pointer, not a relative pronoun: prepositions and the verbs
#: people use when they talk about a topic ("fix that", "about this bug").
POINTER_CONTEXT = set(
    """about of with on for from to in into at by like than is was are were be been do did does done
    fix fixed try tried use used see saw say said mention mentioned discuss discussed change changed
    explain explained mean meant remember recall find found show tell told decide decided about
    regarding re what why how where when would could should will can might must stop prevent avoid handle
    solve debug reproduce revert undo since because while until unless although though whereas once if
    whether""".split()
)
ADVERBS = frozenset(
    "also too outside inside again now first later anyway already still either instead twice once".split()
)
_ADJECTIVE_ENDINGS = ("able", "ible", "ful", "ous", "less")
#: Words after "that" that no demonstrative determines: reflexives and quantified time adverbials.
_REFLEXIVES = frozenset("myself yourself himself herself ourselves themselves itself".split())
_NOT_DETERMINED = frozenset("every each tonight today tomorrow".split())
#: Adverbs that close a verb phrase: "report that number somewhere", "try that recipe again".
_CLOSING_ADVERBS = frozenset("somewhere anywhere again too instead first later repo-wide everywhere".split())
#: Comparatives, which a demonstrative never determines: "isnt that slower", "is that cheaper than".
COMPARATIVES = frozenset(
    """better worse faster slower cheaper pricier safer riskier easier harder bigger smaller larger longer
    shorter quicker simpler cleaner healthier heavier lighter stronger weaker higher lower newer older warmer
    colder hotter cooler louder quieter nicer closer further farther earlier sooner likelier costlier""".split()
)
#: Auxiliaries that put "that" in subject position, so a verb follows it: "will that handle rows".
SUBJECT_AUX = frozenset("will would can could should might may does did do must".split())
_OBJECT_OPENERS = frozenset(
    "the a an any all my our your their his her its every everything anything something nothing someone".split()
)


#: Verbs of a request whose object a "that" before "and", "then" or "for" is: "summarise that and flag ...".
_OBJECT_VERBS = frozenset(
    """summarise summarize do send book fix read forward cancel share print save review approve schedule
    delete sign pay order buy return translate draft edit post upload archive""".split()
)

_COPULAS = frozenset("is was are were isn't wasn't isnt wasnt".split())
#: Adjectives a question judges its subject by; as nouns ("a fair", "legal") they would need an article.
_JUDGING = frozenset(
    """fair legal cheap typical bad good right wrong high low late early risky weird odd strange common rare
    serious realistic accurate correct standard unusual excessive overkill reasonable expensive healthy""".split()
)
_AFTER_JUDGED = frozenset("given or enough though compared considering".split())


def judged_predicate(prev: str, nxt: str, after: str) -> bool:
    """ "is that fair on her", "is that legal in the uk": after a copula, an adjective that judges
    "that" and then a preposition or the end is the predicate, no noun "that" determines."""
    judging = nxt in _JUDGING or (len(nxt) > 5 and nxt.endswith(("ical", "istic", "ive")))
    return prev in _COPULAS and judging and (not after or after in PREPOSITIONS | PUNCT | _AFTER_JUDGED)


#: Bare verbs that are no nouns after such a subject: "why does this happen", "will that work".
_BARE_VERBS = frozenset(
    """happen keep work help matter mean affect apply cause count hurt last suggest indicate imply sound seem
    depend""".split()
)
#: Verbs that need no object, which after "would that X" make X the subject's noun.
_INTRANSITIVE = frozenset("start begin happen apply arrive land ship end finish last run expire matter".split())

#: Verbs of having something done to an object: "get those valued", "had this checked".
_IRREGULAR_DONE = frozenset("done made seen taken written sent built paid cut set fixed sorted".split())

#: Verbs of supposing that clause.REPORTING_VERBS leaves out: "reckons that also explains".
_SUPPOSING = frozenset("reckon reckons reckoned guess guessed suspect suspects feels".split())

#: Verbs that class their object "as" something: "file that as a P1", "mark this as done".
_CLASSING_VERBS = frozenset(
    """file treat log mark count classify label tag flag list class record categorise categorize claim describe
    frame present use raise report rate prioritise prioritize register submit keep""".split()
)


def demonstrative_use(low: str, prev: str, nxt: str, after: str, known: set[str]) -> str | None:
    """ "determiner" ("that job"), "pronoun" ("does this happen") or None (a relative "that")."""
    pointer = not prev or prev in POINTER_CONTEXT or prev in PUNCT
    if nxt in _REFLEXIVES and prev not in STOPWORDS:
        return "pronoun"  # "clear that myself": no noun follows, and no clause
    if (nxt in PARTICLES or nxt in ("apart", "together", "aside")) and prev not in STOPWORDS:
        return "pronoun"  # "turn that off", "set this up", "tell those apart"
    if prev in SUBJECT_AUX and nxt in _BARE_VERBS:
        return "pronoun"  # "why does this happen", "will that work", "does this keep happening": its verb
    done = (nxt.endswith("ed") and len(nxt) > 4) or nxt in _IRREGULAR_DONE
    if prev in HAVING_DONE and done and after in PUNCT | PREPOSITIONS | {""}:
        return "pronoun"  # "get those valued", "have that checked": the object, then what is done to it
    if prev in ("is", "was", "are", "were") and done and nxt not in known and after in PUNCT | PREPOSITIONS | {""}:
        return "pronoun"  # "or was that dropped?", "is that fixed in 8.2": a passive's subject, no noun
    if nxt in ("one", "ones"):  # "do that one at 10": the pro-noun; "is that one of the best": a member
        return "pronoun" if after == "of" else "determiner"
    if low == "that" and prev in CLAUSE_PREDICATES and nxt and nxt not in PREPOSITIONS | PUNCT | SUBJECT_VERBS:
        return None  # "make sure that ...", "is it true that ...": a predicate, then a clause
    if low == "that" and plural_word(nxt) and "'" not in nxt:
        # "is it true that landlords can ...": "that" never determines a plural, so a clause follows
        return "pronoun" if pointer else None
    if low == "this" and prev in _SUBORDINATORS and _third_person_verb(nxt, known):
        return "pronoun"  # "ask her whether this handles invalidation": "this" is the clause's subject
    if nxt in ("secondhand", "second-hand") or (nxt == "second" and after == "hand"):
        return "pronoun"  # "buy that second hand": how it is bought, no ordinal
    if (nxt.endswith(_ADJECTIVE_ENDINGS) and len(nxt) > 5) or nxt in STATE_ADJECTIVES:
        return "pronoun"  # "is that doable", "keep this alive": an adjective, no noun follows
    finite = after in ("has", "is", "was", "does", "had") or _third_person_verb(after, known) or _past(after)
    # "reckons that also explains": after a verb of saying, "that" is its object or opens its clause
    after_noun = prev not in STOPWORDS and prev not in REPORTING_VERBS and prev not in _SUPPOSING
    if low == "that" and not pointer and after_noun and nxt in ADVERBS and finite:
        return None  # "a database file that already has data": a relative clause, its adverb, its verb
    if nxt in ADVERBS or (nxt.endswith("ly") and len(nxt) > 4) or (nxt in PREPOSITIONS and prev not in STOPWORDS):
        return "pronoun"  # "plant those outside", "claim that on the insurance": no noun follows
    if nxt in COMPARATIVES and low != "those" and after not in ("one", "ones"):
        return "pronoun"  # "isnt that slower though": a comparison, no noun
    if prev in SUBJECT_AUX and after in _INTRANSITIVE and nxt.isalpha() and nxt not in STOPWORDS:
        return "determiner"  # "when would that change start": a noun, then the clause's own verb
    if prev in SUBJECT_AUX and nxt not in known and stem(nxt) not in known and _object_opens(after):
        return "pronoun"  # "will that handle rows": the subject, then its verb and an object
    if prev in SUBJECT_AUX and nxt not in known and after in PARTICLES:
        return "pronoun"  # "how much disk would that free up": the subject, then a phrasal verb
    if nxt in _NOT_DETERMINED and prev not in STOPWORDS and not looks_verbal(after):
        return "pronoun"  # "take that every night": a time adverbial, no noun
    if nxt == "as" and (prev in _CLASSING_VERBS or prev in _OBJECT_VERBS):
        return "pronoun"  # "should I file that as a P1", "treat this as urgent": the object classed
    if nxt in STOPWORDS:  # "summarise that and flag ...": a verb's object, then another clause
        requested = prev in _OBJECT_VERBS and nxt in ("and", "then", "or", "for", "before", "after", "by", "too")
        return "pronoun" if pointer or low != "that" or requested else None
    if _past(nxt):
        return "pronoun" if pointer else None  # "the one that went down well": a relative clause
    if not after or after in PUNCT or stem(nxt) in known or nxt in known:
        return "determiner"
    if after in PREPOSITIONS and not looks_verbal(nxt) and nxt not in STOPWORDS:
        return "determiner"  # "recommend that route to a first-timer": no verb follows, so no clause
    if (after in PARTICLES or after in _CLOSING_ADVERBS) and not _verb_like(nxt) and nxt not in STOPWORDS:
        return "determiner"  # "add that polyfill back", "report that number somewhere": a particle, no verb
    if prev in _OBJECT_VERBS and nxt.isalpha() and not looks_verbal(nxt) and not _past(nxt):
        return "determiner"  # "buy that food cheaper": a verb that takes an object, never a clause
    if (looks_verbal(nxt) and nxt not in ING_NOUNS) or nxt in STOPWORDS:
        return "pronoun" if pointer or low != "that" else None
    if after in ("one", "ones"):
        return "determiner"  # "book that cheaper one": a modifier and the pro-noun "one"
    if verbal_prev(prev) and not looks_verbal(after) and not (low == "that" and plural_word(nxt)):
        return "determiner"  # "is using that flag ok": a verb's object ("that refunds" is no phrase)
    # only "that" can open a relative or reported clause; "this branch", "those files" point
    return "determiner" if pointer or low != "that" else None


#: Words that open a subordinate clause, whose subject comes next.
_SUBORDINATORS = frozenset("whether if because since unless although though once".split())


def _third_person_verb(word: str, known: set[str]) -> bool:
    """A verb of the third person after "this" (no singular determiner takes a plural): "handles",
    "works"; not "this series", "this news", "this analysis", nor a word the chat uses."""
    return plural_word(word) and not word.endswith(("ics", "ws", "ies", "ous")) and word not in known


def _object_opens(word: str) -> bool:
    """Whether ``word`` can open a verb's object or complement: "rows", "the", "any", "on"."""
    if looks_verbal(word) or word in PUNCT or not word:
        return False
    return word in _OBJECT_OPENERS or word in PREPOSITIONS or (plural_word(word) and "'" not in word)


def _verb_like(word: str) -> bool:
    """A verb form, regular or not: "the one that went down well" opens a relative clause."""
    return looks_verbal(word) or _past(word)


def _past(word: str) -> bool:
    return word in IRREGULAR_PAST or word in _COMMON_PAST


_COMMON_PAST = frozenset("went came got made took gave ran did said broke left fell sold bought kept put".split())


def stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word
