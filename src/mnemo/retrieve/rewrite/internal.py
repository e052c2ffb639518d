"""A query's own antecedents: what its pronouns refer to inside it.

"ask the Patels if they can bring chairs", "rename load_config and update its docstring", "when the
dishwasher finishes its cycle", "did my parents like the hotel they stayed at": the pronoun's
antecedent is in the query, so there is nothing for the conversation to resolve. Pure functions
over the query's words; detect.py asks them before it makes a reference.
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.gender import gender_of
from mnemo.retrieve.rewrite.names import (
    AUXILIARIES,
    FIRST_NAMES,
    PERSON_NOUNS,
    PREPOSITIONS,
    PUNCTUATION,
    TIME_HEADS,
    WORDS_TOO_NAMES,
    fold,
)
from mnemo.store.sql import STOPWORDS


def thing_subject_before(lowered: list[str]) -> bool:
    """Whether the clause before a possessive "its" has a thing as its subject: a determiner-led
    phrase opening the clause or right after its auxiliary ("when the dishwasher finishes", "does
    the Pixel 8 compare to"). A person there ("what did the vet say about its diet") owns nothing
    "its" can mean, and an object ("fix the laptop's ...") is not the subject."""
    clause: list[str] = []
    for word in reversed(lowered):
        if word in PUNCTUATION or word in _SUBORDINATORS:
            break
        clause.append(word)
    clause.reverse()
    if clause and clause[0].endswith("ing") and len(clause) < len(lowered):
        # "crashes before committing its offset": a gerund has no subject, its owner is the main clause's
        return thing_subject_before(lowered[: len(lowered) - len(clause) - 1])
    start = 0
    while start < len(clause) and (clause[start] in AUXILIARIES or clause[start] in _QUESTION_ADVERBS):
        start += 1  # "how often should a 2016 Honda Jazz have its oil changed": the subject follows
    if len(clause) < start + 2 or clause[start] not in _THING_DETERMINERS:
        return False
    head = next((w for w in clause[start + 1 :] if not w.isdigit()), "")
    return bool(head) and head not in STOPWORDS and head.rstrip("s") not in PERSON_NOUNS


_THING_DETERMINERS = frozenset("the my your our this a an".split())
#: What a "how" question asks before its auxiliary: "how often should", "how long does".
_QUESTION_ADVERBS = frozenset("often long much many soon far".split())
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


def named_before(
    words: list[tuple[str, int, int]],
    needed: int,
    other_gender: str | None = None,
    written: frozenset[str] = frozenset(),
) -> bool:
    """Whether the query names enough people before the pronoun: capitalised names, or listed first
    names typed in lower case ("remind me to give ewa back her ladder"), or names the chat wrote
    (``written``: "give biscuit her metacam"); a name of ``other_gender`` is no antecedent ("what
    did Olga think of him")."""
    names = [
        w
        for n, (w, _, _) in enumerate(words)
        # a capital after a full stop may only open a sentence ("About halfway. Would it ...")
        if (n and w[:1].isupper() and w.lower() not in _NOT_ANTECEDENT and not _sentence_word(words, n))
        or (n and words[n - 1][0].lower() in _NAME_CUES and (_lower_name(w) or w.lower() in written))
    ]
    if other_gender is not None:
        names = [w for w in names if gender_of(w) != other_gender]
    return len(names) >= needed


def _sentence_word(words: list[tuple[str, int, int]], n: int) -> bool:
    """A common word capitalised because it opens a sentence: "Would" in "About halfway. Would it"."""
    return words[n - 1][0] in (".", "!", "?") and words[n][0].lower() in STOPWORDS


#: Words a name typed in lower case follows: "ask rahel", "for yuki", "that lukas needs".
_NAME_CUES = frozenset(
    "for to ask tell give with and from text call email message thank remind invite meet pay cc ping that".split()
)


def _lower_name(word: str) -> bool:
    return word.islower() and fold(word) in FIRST_NAMES and word not in WORDS_TOO_NAMES and word not in STOPWORDS


def plural_before(lowered: list[str], pronoun: str = "they") -> bool:
    """A possessive-led plural noun earlier in the query ("my parents", "our kids", "press his
    olives ... or take them"): the antecedent of a later "they"/"them" in the same sentence."""
    singular = pronoun in ("they", "them", "their", "theirs", "themselves")
    if singular and any(
        w in _INDEFINITE and lowered[n + 1 : n + 2] not in (["of"], ["from"]) for n, w in enumerate(lowered)
    ):
        return True  # "for someone in their 50s", "if anyone loses their ticket": the singular "they"
    if any(w in _PLURAL_OWNERS and any(plural_word(x) for x in lowered[n + 1 : n + 3]) for n, w in enumerate(lowered)):
        return True  # "my parents", "our new neighbours"
    if any(w.removesuffix("'s") in ("people", "everyone", "everybody", "others") for w in lowered):
        return True  # "I keep forgetting people's names right after they tell me": people in general
    # "notify the frontend team when their contract breaks": a group the query names with "the"
    return any(w == "the" and any(x in _GROUP_HEADS for x in lowered[n + 1 : n + 3]) for n, w in enumerate(lowered))


#: Words that open a clause whose subject may be a plural the main clause named.
_CLAUSE_OPENERS = frozenset("when whenever so if once because until till after before while since".split())
_NOT_PLURAL_THINGS = frozenset("days weeks months years hours minutes times things guys folks ones".split())
#: "why do people yawn when they see ...": plurals without an "s" that a later "they" takes up.
_IRREGULAR_PLURALS = frozenset("people children men women teeth feet mice geese".split())


def plural_subject_before(lowered: list[str]) -> bool:
    """A plural the query's own question is about, before a clause break: "why do teenagers sleep so
    late, and is it bad for them", "when people retire early, what do they do", "do babies dream,
    and if so what do they dream about". The plural follows a question's auxiliary or opens a
    clause, so it is that clause's subject; "they"/"them" after the break takes it up."""
    breaks = [n for n, w in enumerate(lowered) if w in PUNCTUATION or w in _SUBORDINATORS]
    if not breaks:
        return False
    for n, word in enumerate(lowered[: breaks[-1]]):
        opener = not n or lowered[n - 1] in _SUBJECT_OPENERS
        # one modifier may stand between: "are climbing shoes supposed to hurt when you first buy them"
        modifier = lowered[n - 1] if n else ""
        opener = opener or (
            n >= 2 and lowered[n - 2] in _SUBJECT_OPENERS and modifier.isalpha() and modifier not in STOPWORDS
        )
        plural = word in _IRREGULAR_PLURALS or (plural_word(word) and word.isalpha() and word not in STOPWORDS)
        if opener and plural and word not in _NOT_PLURAL_THINGS and word not in _NOT_TAKEN_UP:
            return True
    return False


#: Words a question's or a clause's subject follows ("why do teenagers", "when people", "the twins"),
#: and counts ("i have two cats who fight").
_SUBJECT_OPENERS = frozenset(
    "do does did are were have can could should would will when if once the my our two three four several both".split()
)


def plural_then_clause(lowered: list[str]) -> bool:
    """A plural the query names and then a clause about it ("store fresh tomatoes so they last",
    "what happens to old blades when they're replaced"): ``lowered`` ends where "they" starts."""
    if not lowered or lowered[-1] not in _CLAUSE_OPENERS:
        return False
    main = lowered[:-1]
    return any(
        w in _IRREGULAR_PLURALS
        or (plural_word(w) and w.isalpha() and w not in STOPWORDS and w not in _NOT_PLURAL_THINGS and "'" not in w)
        for w in main[-12:]
    )


def title_before(words: list[tuple[str, int, int]]) -> bool:
    """A title or a product of two or more capitalised words earlier in the query ("The Remains of
    the Day", "Project Hail Mary", "Honda Jazz"), not at its start and not a person's name: what a
    later "it" or "its" is."""
    run: list[str] = []
    previous = ""
    start = max(0, len(words) - 30)  # the pronoun's own stretch: a long text is not rescanned per "it"
    for n, (word, _, _) in enumerate(words[start:], start):
        capital = n > 0 and word[:1].isupper() and word.lower() not in _NOT_ANTECEDENT
        if capital or (run and word.lower() in ("of", "the")):
            if not run and previous in _PLACE_LEADS:
                previous = word
                continue  # "when I get to New York": a place, no title
            run.append(word)
            continue
        if _is_title(run):
            return True
        run, previous = [], word.lower()
    return _is_title(run)


_PLACE_LEADS = frozenset("to in at from near around via into across".split())


def name_subject_before(words: list[tuple[str, int, int]], i: int) -> bool:
    """A subject "it" of a later clause ("how fast is it sinking", "does it ...") whose earlier
    clause, before a comma, names a thing as its own subject: "I heard that Venice is sinking, how
    fast is it actually sinking?" - "it" is Venice, nothing of the conversation."""
    lowered = [w.lower() for w, _, _ in words]
    if lowered[i - 1 : i] == [] or lowered[i - 1] not in _SUBJECT_AUX:
        return False  # "does Amazon deliver it": an object "it" is never its clause's subject
    comma = max((n for n in range(i) if lowered[n] == ","), default=-1)
    if comma < 0:
        return False
    return any(
        n > 0
        and word[:1].isupper()
        and word.isalpha()
        and lowered[n] not in _NOT_ANTECEDENT
        and fold(word) not in FIRST_NAMES
        and lowered[n + 1 : n + 2]
        and lowered[n + 1] in _SUBJECT_AUX | {"has", "have", "had"}
        for n, (word, _, _) in enumerate(words[:comma])
    )


def firm_subject_before(words: list[tuple[str, int, int]], i: int) -> bool:
    """A subject "they" of a later clause ("..., and will they waive it", "or do they") in a question
    that opens on a named subject: "does Verizon charge an activation fee, and will they waive it?" -
    a firm is "they", and this one is the query's own."""
    lowered = [w.lower() for w, _, _ in words]
    if i < 4 or lowered[i - 1] not in _SUBJECT_AUX | {"do"} or lowered[0] not in _SUBJECT_AUX | {"do"}:
        return False
    if not any(w in (",", "and", "or", "but") for w in lowered[2 : i - 1]):
        return False  # "does Tesco sell what they do": no second clause of its own
    name = words[1][0]
    if not name[:1].isupper() or lowered[1] in _NOT_ANTECEDENT or fold(name) in FIRST_NAMES:
        return False
    # what a firm does ("will they waive it", "or do they not deliver"), not what people need or want
    verbs = [w for w in lowered[i + 1 : i + 4] if w not in _FIRM_ADVERBS]
    if "themselves" in lowered[i:] or any(lowered[n : n + 2] == ["their", "own"] for n in range(i, len(lowered))):
        return False  # "or do they check them at the gate themselves": people of the chat's
    return bool(verbs) and verbs[0] in _FIRM_VERBS


_FIRM_ADVERBS = frozenset(
    "not n't still also usually ever even only just actually really normally always typically".split()
)
_FIRM_VERBS = frozenset(
    """charge waive offer deliver ship price match refund accept sell support allow let open close provide cover
    require send give do make run include stock bill limit cap store share refuse assign use process cancel
    approve take have check keep""".split()
)


#: Auxiliaries and copulas that follow a subject, or come before it in a question ("is it").
_SUBJECT_AUX = frozenset("is was are were does did will would can could should has".split())


def _is_title(run: list[str]) -> bool:
    capitals = [w for w in run if w[:1].isupper()]
    return len(capitals) >= 2 and fold(capitals[0]) not in FIRST_NAMES


def things_before(lowered: list[str], after: str = "") -> bool:
    """A plural noun earlier in the query's last sentence, after a verb or a modifier ("cook dried
    chickpeas without soaking them"): what a later object "them" takes up. After a preposition or a
    verb of giving ("tickets for them", "get them presents") "them" is people, not that noun - but
    what one gives or brings back (``after`` is the word after "them") is a thing: "do I have to
    give them back"."""
    giving_back = after == "back" and bool(lowered) and lowered[-1] in _GIVING_BACK
    if lowered and lowered[-1] in _TO_PEOPLE and not (giving_back and _TAKEN_PLURAL.search(" ".join(lowered))):
        return False
    sentence = lowered[max((n + 1 for n, w in enumerate(lowered) if w in (".", "?", "!", ";")), default=0) :]
    return any(
        plural_word(w) and w.isalpha() and w not in STOPWORDS and w not in _NOT_TAKEN_UP and n > 0
        for n, w in enumerate(sentence)
    )


#: Plural words that are times, pronoun-like or requests for advice: "in 3 weeks", "the others",
#: "any ideas for keeping them busy" (the ideas are not what "them" is).
_NOT_TAKEN_UP = frozenset(
    """days weeks months years hours minutes seconds times others ones things lots thanks ideas tips
    suggestions recommendations options thoughts ways""".split()
)
_GIVING_BACK = frozenset("give bring send".split())
#: Things one took or was lent, which one gives back: "cut branches", "borrowed some chairs" ("we had
#: awful storms ... give them back" gives back the chat's tent).
_TAKEN_PLURAL = re.compile(
    r"\b(?:cut|cuts|pick|picked|borrow|borrowed|lent|lend|take|took|taken|keep|kept|find|found|catch|caught|rent|rented)"
    r"\s+(?:\w+\s+){0,2}?\w+s\b"
)
_TO_PEOPLE = frozenset("for to with from about get give buy send show tell ask bring thank invite".split())
_PLURAL_OWNERS = frozenset("my our your his her their".split())
#: Groups a later "they"/"their" takes up: "the frontend team ... their contract".
_GROUP_HEADS = frozenset("team teams committee department squad crew staff band council board".split())
#: Indefinite pronouns that a later "their"/"they" takes up in the same query.
_INDEFINITE = frozenset("someone somebody anyone anybody everyone everybody nobody whoever each".split())


def plural_word(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


_NOT_ANTECEDENT = frozenset("i what when where why how who which did does do is are was were can could".split())


def thing_named_before(lowered: list[str], after: str) -> bool:
    """Whether the query itself names what an "it" means, in the same sentence and an earlier
    clause, in the same role:
    - an object "it" takes a singular thing that is a verb's object ("set the oven to 180 and turn
      it off", "take the salmon out of the freezer and put it in the fridge", "there's a leak under
      the sink, how do i stop it");
    - a subject "it" (a verb follows: ``after``) takes the subject of an earlier clause ("check
      whether the cron ran and if it failed, rerun it").
    A phrase after a preposition ("look at the logs and tell me why it crashed"), a plural, a person
    or a time is no such antecedent, and a sentence break ends the search: then the conversation
    says what "it" is. One pass over the words."""
    asked = bool(lowered) and lowered[-1] in AUXILIARIES  # "does it crash"
    # "is it dead": an "it" an auxiliary puts a question to is its clause's subject, whatever follows
    # "getting it coloured", "have it checked": a causative's "it" is its object, whatever follows
    causative = bool(lowered) and lowered[-1] in _CAUSATIVES
    verb_after = after.endswith(("s", "ed")) and after not in STOPWORDS and not causative
    subject = asked or after in AUXILIARIES or verb_after
    # "renew my passport before it expires", "eat the yogurt before it goes off": a time clause's
    # subject may be the main clause's object
    # ... only with a verb of lapsing or spoiling ("until it comes down" is a fever the chat named)
    timed = subject and bool(lowered) and lowered[-1] in _TIME_SUBORDINATORS and after in _LAPSING
    # "I bought a new kettle and it leaks": the subject of a clause joined on takes the object before
    joined = subject and lowered[-1:] in (["and"], ["but"], ["so"])
    found = broken = as_subject = False
    for n, word in enumerate(lowered[:-1]):
        if word in ".!?":
            found = broken = False  # a new sentence: what came before is no antecedent
            continue
        if word in PUNCTUATION or word in _SUBORDINATORS or word in ("—", "-"):
            broken = found or broken
            continue
        noun = _owned(lowered, n + 1, len(lowered))
        if word not in _THING_NAMERS or not _thing_noun(noun):
            continue
        before = lowered[n - 1] if n else ""
        if before in _ADDRESSING:
            continue  # "ask the concierge to keep it": whom one asks is a person, whatever the noun
        opens_clause = not n or before in _SUBORDINATORS or before in PUNCTUATION or before in ("there's", "is")
        if subject and opens_clause:
            found, broken, as_subject = True, False, True
        elif (not subject or timed or asked or joined) and before not in _PREPOSITIONS:
            found, broken, as_subject = True, False, False
    if asked and found and lowered[0] in _SUBORDINATORS:
        broken = True  # "when a goroutine panics does it crash": the auxiliary opens the main clause
    # "my docker container exits right after it starts": a subordinate clause's subject is the main one's
    opened = as_subject and subject and lowered[-1] in _SUBORDINATORS
    return found and (broken or timed or joined or opened)  # a time clause's opener is the break itself


#: Determiners that bring a new thing into the query: "a leaky tap", "my car", "find which process
#: is listening on 8080 and kill it" (a "the" phrase may itself point back at the chat: "the
#: recipe ... can i freeze it").
_INTRODUCING = frozenset("a an my our your which".split())
#: Verbs that report what a thing says, before the "it" of the report: "why does my script say it
#: can't find the module".
REPORTING = frozenset("say says said saying claim claims claimed complain complains think thinks".split())
_REFERRING_MODIFIERS = frozenset("first second third last former latter other same".split())


def own_thing_before(lowered: list[str]) -> bool:
    """Whether an earlier clause or sentence of the query brings in a singular thing of its own ("a
    leaky tap", "my sourdough starter", "my neighbour's dog") that a later subject or object "it"
    takes up: "how do i fix a leaky tap? it drips all night". Only a phrase the query introduces (a,
    an, my, our, your, which) counts: a "the" phrase may itself point back at the chat ("the recipe ... can
    i freeze it"), and an "it" already said, a preposition's object or a person is no antecedent."""
    if not lowered or lowered[-1] in _PREPOSITIONS or "it" in lowered or "it's" in lowered:
        return False  # "can i have a beer while i'm still on it": a preposition's "it" is the chat's
    breaks = PUNCTUATION | _SUBORDINATORS | REPORTING | {".", "?", "!", "—", "-", "as", "whenever"}
    boundary = max((n for n, w in enumerate(lowered) if w in breaks), default=-1)
    for n, word in enumerate(lowered[: max(boundary - 1, 0)]):
        if word not in _INTRODUCING or (n and lowered[n - 1] in _ADDRESSING | _PREPOSITIONS):
            continue
        noun = _owned(lowered, n + 1, boundary)
        if noun not in _REFERRING_MODIFIERS and noun.isalpha() and _thing_noun(noun):
            return True  # ("the first one" is a reference of its own, no antecedent)
    return False


def _owned(lowered: list[str], n: int, end: int) -> str:
    """The word at ``n``, or what it owns when it is a possessor: "my neighbour's dog", "my
    neighbours' tree" (whose apostrophe is a token of its own)."""
    if lowered[n] == "own" and n + 1 < end:
        return lowered[n + 1]  # "my own credit score"
    if lowered[n].endswith("'s") and n + 1 < end:
        return lowered[n + 1]
    if lowered[n + 1 : n + 2] == ["'"] and n + 2 < end:
        return lowered[n + 2]
    return lowered[n]


_TIME_SUBORDINATORS = frozenset("before until till when once after unless".split())
_LAPSING = frozenset("expires expire lapses runs goes spoils melts ends closes".split())


def _thing_noun(noun: str) -> bool:
    plural = noun.endswith("s") and not noun.endswith("ss")
    return not (noun in STOPWORDS or noun in PERSON_NOUNS or noun in TIME_HEADS or noun in _NOT_THINGS or plural)


#: A noun after one of these is a preposition's object, no verb's ("look at the logs").
_PREPOSITIONS = (PREPOSITIONS - {"without"}) | {"of"}


#: Verbs whose object is someone addressed: "ask the concierge", "tell the landlord", "email the agent".
_ADDRESSING = frozenset("ask tell remind email text message call ping thank pay".split())
_CAUSATIVES = frozenset("get gets getting got have has having had".split())
_THING_NAMERS = frozenset("the a an my our your this his her their".split())
#: Nouns no later "it" takes up: quantities, thanks, tries and the light objects of "do the job",
#: "does the trick".
_NOT_THINGS = frozenset(
    "thank thanks lot bit few couple little while kind sort way number look try go one job trick".split()
)


#: Words after which an indefinite noun phrase states a general case: "if a pod exceeds ...", "when a
#: cat stops eating", "should a 7 year old practise ...".
_CASE_OPENERS = frozenset(
    "if when whenever once after before until unless should can could would will does do is are must may".split()
)
#: Indefinite heads that name no case: "a lot", "a bit", "a day", "a few".
_NO_CASE = frozenset("lot bit few little day week month year while time couple minute hour second".split())
#: Heads that make a case a person's: a later "he", "she" or "they" is that person.
_PERSON_HEADS = frozenset(
    "old child kid boy girl man woman person teen teenager baby toddler student adult parent patient tenant "
    "landlord employee employer customer user developer engineer manager nurse doctor driver".split()
)


_CASE_SUBORDINATORS = frozenset("if when whenever once after before until unless".split())


def case_named_before(lowered: list[str], pronoun: str) -> bool:
    """Whether the query states a general case with an indefinite phrase before the pronoun, which
    then points at the case's own member: "if a kubernetes pod exceeds its memory limit, does it get
    restarted", "when a developer force-pushes, how can they recover", "should a 7 year old practise
    before he gets burned out". A person's pronoun needs a person's head; "it" needs a thing's."""
    for n, word in enumerate(lowered[:-1]):
        if word not in ("a", "an") or (n and lowered[n - 1] not in _CASE_OPENERS):
            continue
        if not n:
            continue
        if lowered[n - 1] not in _CASE_SUBORDINATORS and not _CASE_SUBORDINATORS & set(lowered[n + 1 :]):
            continue  # "would a clean reinstall fix it": an auxiliary's case binds only a later clause's pronoun
        head = _case_head(lowered[n + 1 : n + 5])
        if not head or head in _NO_CASE:
            continue
        person = head in _PERSON_HEADS or head in PERSON_NOUNS or head.endswith(("ist", "ician"))
        if pronoun in ("he", "him", "his", "she", "her", "hers") and person:
            return True
        if pronoun in ("it", "its") and not person:
            return True
        if pronoun in ("they", "them", "their", "theirs"):
            return True
    return False


def _case_head(words: list[str]) -> str:
    """The head of "a kubernetes pod exceeds", "a 7 year old practise": the last word before a verb
    or a function word, at most three words in."""
    head = ""
    for word in words[:3]:
        if (
            word in STOPWORDS
            or word in PUNCTUATION
            or (head and word.endswith(("s", "ed")) and not word.endswith("ss"))
        ):
            break
        head = word
    return head


def states_case(lowered: list[str]) -> bool:
    """Whether the query opens with a general case ("when a developer force-pushes ...", "if a
    tenant's deposit ..."): its definites ("the commits") then belong to the case, not to the chat."""
    return (
        len(lowered) > 3
        and lowered[0] in ("if", "when", "whenever", "once")
        and lowered[1] in ("a", "an")
        and bool(_case_head(lowered[2:6]))
    )
