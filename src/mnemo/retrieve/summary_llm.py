"""LLM-written session summaries, checked against the session before they are trusted.

The prompt carries the session's messages in order; a session longer than ``PROMPT_CHARS`` sends
only its most central sentences (the extractive ranking), still in order, so any session fits a
small local model's context. The answer must be a short text whose informative words mostly occur
in the session and whose every number does (the hallucination guard); anything else — an empty,
over-long or invented answer, a time-out, a dead endpoint — leaves the caller to fall back to the
extractive summary, with the reason. After one endpoint failure the writer stops calling for the
rest of the run, so an import never waits on a dead endpoint once per session.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from mnemo.llm.client import ChatClient, LLMError
from mnemo.records import Item
from mnemo.retrieve.summaries import ranked_sentences
from mnemo.store.sql import query_terms

#: Characters of conversation one prompt carries (about 2,000 tokens).
PROMPT_CHARS = 8000
#: Characters of one message (or quoted sentence) in the prompt.
LINE_CHARS = 600
#: The longest answer accepted as a summary, and the tokens the model is allowed for it.
MAX_SUMMARY_CHARS = 1000
MAX_TOKENS = 240
#: Share of the summary's informative words that must occur in the session. On LoCoMo dev's written
#: session summaries 0.65 accepts 95% of each session's own and 0% of other sessions' (0.7: 91%;
#: without their dated sentences 90% vs at most 1.6%); see benchmarks/summaries.py.
MIN_SUPPORT = 0.65
#: Words a summary uses about a conversation without them being in it: reporting verbs, the
#: people in it, a clock's am/pm. Matched by their first letters, so every form counts
#: ("expressed", "expressing"). They are left out of the support share, not treated as names.
META_PREFIXES = tuple(
    """summar convers session discuss mention assistant speaker particip explain describ agree decid
    decision confirm suggest recommend express prais emphas highlight compliment encourag reveal
    inform admir gratitud grateful thank appreciat excit recent upcoming updat""".split()
)
META_WORDS = frozenset(
    """also including included both overall later earlier then am pm plan plans planned planning say says
    said ask asks asked tell tells told talk talks talked talking chat chats note notes noted show shows
    showed showing shown user users spoke speak speaks share shares shared sharing caught catch catching""".split()
)
#: Sources listed per summary at most.
MAX_SOURCES = 50

SYSTEM = (
    "You summarise a conversation, or a set of memories about one topic, for a searchable memory. "
    "Write two to four plain sentences in the language of the text. Keep the names of people, places, "
    "products and projects, every date, number and amount, and every decision or plan, as they are "
    "written. Use only what the text says: never add facts, advice or opinions. Answer with the summary only."
)
_NUMBER = re.compile(r"\d+")
_PREFIX = 5  # words of this length or more also match a session word with the same first letters
Vocabulary = tuple[set[str], set[str]]  # words, and the first letters of the longer ones
_WORD = re.compile(r"[^\W\d_]\w*")
_LABEL = re.compile(r"^\s*(summary|résumé|resumen|zusammenfassung)\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Excerpt:
    """What a prompt quotes of a session: its lines, the items they come from, whether that is all of it."""

    lines: tuple[str, ...]
    item_ids: tuple[str, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class LLMSummary:
    text: str
    sources: tuple[str, ...]
    model: str
    complete: bool  # the prompt carried the whole session, not an excerpt


@dataclass(frozen=True, slots=True)
class Fallback:
    """Why a session got no LLM summary: ``code`` budget, endpoint, rejected or empty; ``detail`` says more."""

    code: str
    detail: str

    @property
    def pending(self) -> bool:
        """The LLM was not asked, or could not answer: a later run should try again."""
        return self.code in ("budget", "endpoint")


def excerpt(items: Sequence[Item], budget: int = PROMPT_CHARS) -> Excerpt:
    """The whole session when it fits ``budget`` characters, else its most central sentences in order."""
    whole = [f"{item.role or 'unknown'}: {_clip(item.content)}" for item in items if item.content.strip()]
    if sum(len(line) + 1 for line in whole) <= budget:
        return Excerpt(tuple(whole), tuple(i.id for i in items if i.content.strip()), True)
    chosen: list[tuple[int, str, str]] = []
    used = 0
    for sentence in ranked_sentences(items):
        line = f"{items[sentence.position].role or 'unknown'}: {_clip(sentence.text)}"
        if used + len(line) + 1 > budget:
            continue  # a shorter sentence further down may still fit
        chosen.append((sentence.position, line, sentence.item_id))
        used += len(line) + 1
    chosen.sort(key=lambda entry: entry[0])
    return Excerpt(tuple(line for _, line, _ in chosen), tuple(dict.fromkeys(i for _, _, i in chosen)), False)


def prompt(items: Sequence[Item], part: Excerpt, subject: str | None = None) -> list[dict[str, str]]:
    """The chat messages asking for a summary of ``part`` of ``items`` (a session unless ``subject`` says)."""
    header = [subject or f"Conversation of {len(items)} messages"]
    dates = sorted({t.date().isoformat() for t in _times(items)})
    if dates:
        header.append(f"from {dates[0]}" + (f" to {dates[-1]}" if len(dates) > 1 else ""))
    if not part.complete:
        header.append("(only its most informative sentences are shown)")
    body = " ".join(header) + ":\n" + "\n".join(part.lines)
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": body}]


def clean(answer: str) -> str:
    """The answer without a "Summary:" label, wrapping quotes or runs of whitespace."""
    text = " ".join(answer.split())
    text = _LABEL.sub("", text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


def rejection(summary: str, items: Sequence[Item]) -> str | None:
    """Why ``summary`` cannot be trusted as a summary of ``items`` (None when it can)."""
    if not summary:
        return "empty answer"
    if len(summary) > MAX_SUMMARY_CHARS:
        return f"answer too long ({len(summary)} characters, at most {MAX_SUMMARY_CHARS})"
    words, numbers = _vocabulary(items)
    invented = sorted({n for n in _NUMBER.findall(summary) if n.lstrip("0") not in numbers})
    if invented:
        return f"numbers not in the session: {', '.join(invented[:5])}"
    strangers = sorted({n for n in _names(summary) if not _known(n.lower(), words)})
    if strangers:  # an invented person or place is the most harmful thing a summary can add
        return f"names not in the session: {', '.join(strangers[:5])}"
    terms = [t for t in query_terms(summary) if not t.isdigit() and not _meta(t)]
    if len(terms) < 3:
        return "answer too short to be a summary"
    supported = sum(1 for t in terms if _known(t, words))
    share = supported / len(terms)
    if share < MIN_SUPPORT:
        return f"only {share:.0%} of its words occur in the session (at least {MIN_SUPPORT:.0%})"
    return None


def drawn_on(summary: str, items: Sequence[Item], candidates: Sequence[str]) -> tuple[str, ...]:
    """The ``candidates`` (item ids) sharing two or more informative words with the summary."""
    wanted = {t for t in query_terms(summary) if not _meta(t)}
    allowed = set(candidates)
    chosen = []
    for item in items:
        if item.id in allowed:
            terms = set(query_terms(item.content))
            if sum(1 for t in wanted if _known(t, _with_prefixes(terms))) >= 2:
                chosen.append(item.id)
    return tuple(dict.fromkeys(chosen or candidates))[:MAX_SOURCES]


class SummaryWriter:
    """Asks the LLM for session summaries, at most ``max_calls`` times, and stops after a failure."""

    def __init__(self, client: ChatClient, max_calls: int | None = None) -> None:
        self.client = client
        self.max_calls = max_calls
        self.calls = 0
        self.failure: str | None = None  # the endpoint failure that ended this run's calls

    @property
    def model(self) -> str:
        return self.client.settings.model

    def unavailable(self) -> Fallback | None:
        """Why no more calls will be made in this run (None while they will)."""
        if self.failure is not None:
            return Fallback("endpoint", f"LLM not called after an earlier failure: {self.failure}")
        if self.max_calls is not None and self.calls >= self.max_calls:
            return Fallback("budget", f"LLM call budget of {self.max_calls} sessions per run reached")
        return None

    def write(self, items: Sequence[Item], subject: str | None = None) -> LLMSummary | Fallback:
        """The checked summary of a session's messages (or of the memories ``subject`` names), or why there is none."""
        stop = self.unavailable()
        if stop is not None:
            return stop
        part = excerpt(items)
        if not part.lines:
            return Fallback("empty", "nothing to summarise")
        self.calls += 1
        try:
            answer = self.client.complete(prompt(items, part, subject), max_tokens=MAX_TOKENS, temperature=0.0)
        except LLMError as exc:
            self.failure = str(exc)
            return Fallback("endpoint", f"LLM failed: {exc}")
        text = clean(answer)
        refused = rejection(text, items)
        if refused is not None:
            return Fallback("rejected", f"LLM answer rejected: {refused}")
        return LLMSummary(text, drawn_on(text, items, part.item_ids), self.model, part.complete)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def _times(items: Sequence[Item]) -> list[datetime]:
    return [i.timestamp for i in items if i.timestamp is not None]


def _vocabulary(items: Sequence[Item]) -> tuple[Vocabulary, set[str]]:
    """The session's words (and their prefixes) and numbers, the dates of its messages included."""
    words: set[str] = set()
    numbers: set[str] = set()
    for item in items:
        words.update(query_terms(item.content, keep_stopwords=True))
        for name in (item.role, item.scope.session_id, item.scope.user_id, item.scope.agent_id):
            words.update(query_terms(name or "", keep_stopwords=True))
        numbers.update(n.lstrip("0") for n in _NUMBER.findall(item.content))
    for moment in _times(items):
        words.update(moment.strftime("%B %b %A %a").lower().split())
        clock = (moment.hour, moment.hour % 12 or 12, moment.minute)
        numbers.update(str(n) for n in (moment.year, moment.month, moment.day, moment.year % 100, *clock))
    numbers.add("")  # "0", "00": a zero is never an invented fact
    return _with_prefixes(words), numbers


def _names(text: str) -> set[str]:
    """Capitalised words that do not start a sentence: the names of people, places and things."""
    names = set()
    for match in _WORD.finditer(text):
        word, before = match.group(), text[: match.start()].rstrip()
        if len(word) > 1 and word[0].isupper() and before and before[-1] not in ".!?:…\"'(":
            names.add(word)
    return {n for n in names if not _meta(n.lower())}


def _meta(term: str) -> bool:
    return term in META_WORDS or term.startswith(META_PREFIXES)


def _with_prefixes(words: set[str]) -> Vocabulary:
    return words, {w[:_PREFIX] for w in words if len(w) >= _PREFIX}


def _known(term: str, vocabulary: Vocabulary) -> bool:
    words, prefixes = vocabulary
    return term in words or (len(term) >= _PREFIX and term[:_PREFIX] in prefixes)
