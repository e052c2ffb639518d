"""Names the capital letters do not give away, and tokens that look like names but are not.

Code names too: identifiers (snake_case, dotted, camelCase, ticket codes), dotfiles (".env") and
functions written as calls ("slugify()") name the specific things technical questions are about.

A lower-case answer to a "what"/"which" question ("amlodipine, 5mg once a day"), a word with a dose
after it ("sertraline 50mg") and an identifier's shape (snake_case, a commit hash) say that a word
names a specific thing; a number with a unit ("5mg", "3am") says it is none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.clause import looks_verbal
from mnemo.retrieve.rewrite.names import COMMON_VERBS, NOT_NAMES
from mnemo.store.sql import STOPWORDS

from . import cached_re

#: A number with its unit: a quantity or a clock time, never what "it" stands for.
_MEASURE = re.compile(
    r"(?i)\d+(?:[.,]\d+)?(?:mg|mcg|ml|l|g|kg|lb|lbs|oz|km|mi|m|cm|mm|ft|am|pm|h|hr|hrs|min|mins|s|gb|mb|tb|kb|mph|kmh|kw|kwh|w|v|x)"
)


#: A unit of measure: "ng/mL", "nmol/L", "mg/dL", "km/h" (a lower-case letter before the slash).
_UNIT = re.compile(r"(?=[A-Za-zµ]*[a-zµ])[A-Za-zµ]{1,5}/[A-Za-zµ]{1,3}")


#: A word with a dose after it: a medicine ("amlodipine 5mg"), not an adverb ("about 200mg").
_DOSED = re.compile(
    r"\b(?!(?:about|around|over|under|roughly|approximately|approx|maybe|nearly|almost|another|extra)\b)"
    r"([a-z][a-z-]{4,}(?<!ly))\s+\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)\b"
)
#: A lower-case answer that is only a name: "amlodipine, 5mg once a day" after "what did she switch you to?".
_LOWER_ANSWER = re.compile(r"([a-z][\w-]{3,}(?:\s+[a-z][\w-]{2,}){0,2})\s*(?:[,;(\u2014!]|\.\B|-\s|$)")
_NOT_ANSWERS = frozenset("yes yeah yep nope sure okay maybe probably dunno none nothing both neither either".split())


def lower_answer(text: str, answer: str, taken: set[str]) -> list[tuple[int, Candidate]]:
    """The answer to a "what"/"which" question when it is a lower-case name on its own."""
    found = _LOWER_ANSWER.match(text.strip()) if answer in ("what", "which") else None
    if found is None:
        return []
    words = found.group(1).split()
    if words[0] in STOPWORDS or words[0] in _NOT_ANSWERS or found.group(1) in taken or looks_verbal(words[-1]):
        return []
    if len(words) > 1 and (words[0] in COMMON_VERBS or looks_verbal(words[0])):
        return []  # "apply twice daily": an instruction, no name
    return [(0, Candidate(found.group(1), "thing", salience=1.5))]


def tech_weight(token: str) -> float:
    """How much an identifier-like token counts as a topic."""
    if not cached_re.search(r"[A-Za-z]", token) or _MEASURE.fullmatch(token) or _UNIT.fullmatch(token):
        return 0.3  # "6.8", "19.30", "5mg", "3am", "ng/mL": a number, a measure or a unit is not a topic
    if cached_re.search(r"[_./]", token) or (token[:1].islower() and cached_re.search(r"[a-z][A-Z]", token)):
        return 1.8  # snake_case, dotted, paths, lowerCamel: code identifiers
    if cached_re.search(r"[a-z][A-Z]", token):
        return 1.5  # product names: "MongoDB", "FastAPI"
    if len(token) >= 5 and cached_re.search(r"\d", token):
        return 1.5  # commit hashes, ticket ids: "a1b2c3d", "PR412"
    return 1.3 if token.isupper() and len(token) > 2 else 1.0


def dosed(text: str) -> list[tuple[int, Candidate]]:
    """The medicines of a message named with a dose."""
    return [(m.start(1), Candidate(m.group(1), "thing", salience=1.5)) for m in _DOSED.finditer(text)]


#: Identifier shapes: ticket codes, camelCase, snake_case and dotted or slashed paths, acronyms, codes with digits.
TECH = re.compile(
    r"\b(?:[A-Z][A-Z0-9]+-\d+|[A-Za-z]+[A-Z][A-Za-z0-9]*|[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*[_./][A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*"
    r"|[A-Z]{2,}[0-9]*|(?!\d+(?:st|nd|rd|th)\b)(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{2,})\b"
)
#: A dotfile: ".env", ".gitignore", ".env.local" (not the dot ending a sentence before a word).
_DOTFILE = re.compile(r"(?<=\s)\.[A-Za-z][\w-]*(?:\.[\w-]+)*(?!\w)(?!\.\w)")
#: A function written as a call: "slugify()", "json.loads()".
_CALL = re.compile(r"(?<![\w.])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\(\)")
#: A command-line flag: "npm install --legacy-peer-deps", "git push --force-with-lease".
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])")


#: Words in capitals written in a row: an SQL statement or a keyword phrase ("ALTER TABLE", "ON DELETE
#: CASCADE"); two letters at least each, so "I" and a lone acronym are not runs.
_CAPS_RUN = re.compile(r"\b[A-Z]{2,}(?:\s+[A-Z]{2,})+\b")


#: Latin and other abbreviations written with dots, which look like dotted identifiers: "e.g. CREATE INDEX".
_ABBREVIATIONS = frozenset("e.g e.g. i.e i.e. a.k.a a.k.a. etc. approx. viz. cf. n.b n.b. p.s p.s.".split())


def code_names(text: str, taken: set[str]) -> list[tuple[int, Candidate]]:
    """The identifiers, dotfiles and calls of a message that no name or phrase already covers."""
    found: list[tuple[int, Candidate]] = []
    for match in _CAPS_RUN.finditer(text):  # "CREATE INDEX CONCURRENTLY": one statement, not three names
        found.append((match.start(), Candidate(match.group(0), "thing", salience=1.8)))
        taken = taken | {w.lower() for w in match.group(0).split()}
    for match in TECH.finditer(text):
        token = match.group(0)
        if token.lower() not in taken and token.lower() not in NOT_NAMES and token.lower() not in _ABBREVIATIONS:
            plural = cached_re.fullmatch(r"[A-Z]{2,}s", token) is not None  # "PRs": several, never "it"
            found.append((match.start(), Candidate(token, "thing", salience=tech_weight(token), plural=plural)))
    for match in _DOTFILE.finditer(text):  # "my .env file", ".gitignore": a file named by its dot
        found.append((match.start(), Candidate(match.group(0), "thing", salience=1.2)))
    for match in _CALL.finditer(text):  # "slugify() in utils/text.py": a function named by its call
        if match.group(0).lower() not in taken:
            found.append((match.start(), Candidate(match.group(0), "thing", salience=1.8)))
    for match in FLAG.finditer(text):  # "--legacy-peer-deps": a flag, which "that flag" or "it" names
        if match.group(0).lower() not in taken:  # a flag of a quoted command is that command's
            found.append((match.start(), Candidate(match.group(0), "thing", salience=1.2)))
    return found


#: Nouns a number labels ("episode 48", "invoice #2217", "table 4"): the pair names one of many.
_LABELLED = (
    "episode invoice ticket table room flight gate platform bus route order issue pr bug case claim version "
    "chapter page section step day week lesson session unit apartment flat seat row lane exercise question task "
    "item incident build release sprint level floor door locker policy account reference ref job season track"
)
_LABEL = re.compile(
    rf"\b((credit\s+note|{'|'.join(_LABELLED.split())})\s+(?:#?\d[\w.-]*|(?-i:[A-Z]{{1,5}})-\d+))(?![\w:])",
    re.IGNORECASE,
)


def labelled(text: str) -> list[tuple[int, Candidate]]:
    """ "episode 48", "invoice #2217": a thing named by its noun and number, whatever the case."""
    return [(m.start(), Candidate(m.group(1), "thing", salience=1.2)) for m in _LABEL.finditer(text)]


#: Departments a chat names bare as the ones who act: "finance wants it under 200k", "legal said no".
#: Only names that are seldom a topic too ("marketing is going well", "sales are up" are no one).
DEPARTMENTS = frozenset("finance legal procurement hr compliance payroll".split())
_DEPARTMENT_ACTS = re.compile(
    rf"\b({'|'.join(sorted(DEPARTMENTS))})\s+(?:team\s+)?(?:still\s+|just\s+|also\s+)?(?:wants?|said|says|asked|needs?"
    r"|approved|rejected|signed|sent|flagged|replied|insists?|won't|can't|came\s+back|pushed\s+back)\b",
    re.IGNORECASE,
)


def acting_department(context: Sequence[Mapping[str, str]]) -> str | None:
    """ "finance wants it under 200k": the latest department the chat says acts, which "they" can be."""
    for message in reversed(list(context)):
        found = list(_DEPARTMENT_ACTS.finditer(str(message.get("content") or "")))
        if found:
            return found[-1].group(1)
    return None


#: A message opened by a noun phrase and a colon: "onboarding checklist: accounts, laptop, ...".
_HEADLINE = re.compile(r"^\s*((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*):\s+\S")


def headline(text: str) -> list[tuple[int, Candidate]]:
    """ "onboarding checklist: accounts, laptop, buddy": the thing the message lists the parts of."""
    found = _HEADLINE.match(text)
    if found is None:
        return []
    words = found.group(1).lower().split()
    if any(w in STOPWORDS or w in NOT_NAMES or w in COMMON_VERBS for w in words):
        return []  # "fyi:", "note to self:", "update:" with a verb: no thing named
    return [(found.start(1), Candidate(f"the {found.group(1)}", "thing", salience=1.6))]


_QUOTED = re.compile(r"(?<!\w)[\"“'‘`]([^\"“”'‘’`\n]{3,60})[\"”'’`](?!\w)")
#: "strings like '3 days ago'", "a cron expression for 'every weekday at 6:30am'", "parse('3 days ago')":
#: a quoted example or value of the thing talked about, never that thing itself.
_EXAMPLE_BEFORE = re.compile(r"(?:\blike|\bsuch\s+as|\be\.g\.,?|\bas\s+in|\bfor|\w\()\s*$", re.IGNORECASE)
_EXAMPLES_JOINED = re.compile(r",?\s+(?:and|or)\s+|,\s+")


def quoted(text: str) -> tuple[list[tuple[int, Candidate]], set[str]]:
    """The quoted error messages and titles of a message as things, and every quoted word (no word
    of a quote is a candidate of its own). A quoted example ("like '3 days ago' and 'next friday'")
    is no candidate: it is a value of the thing talked about."""
    found: list[tuple[int, Candidate]] = []
    words: set[str] = set()
    example_end: int | None = None  # examples joined by "and"/"or"/commas run on
    for match in _QUOTED.finditer(text):
        before = text[max(0, match.start() - 12) : match.start()]
        joined = example_end is not None and _EXAMPLES_JOINED.fullmatch(text[example_end : match.start()])
        if _EXAMPLE_BEFORE.search(before) or joined:
            example_end = match.end()
        else:
            found.append((match.start(), Candidate(match.group(1).strip(), "thing", salience=1.8)))
        words.update(w.lower() for w in match.group(1).split())
    return found, words
