"""Conversation turns shared by the transcript and chat-log importers: noise decisions, the
recall-exchange window, and the records handed to ``Memory.add_many``.

A recall exchange is excluded as a *window* around the recall event (seed 001, problem 2): the
message that invoked the recall, the turn that ran it or shows its output, and the immediate reply
that relays it. Work earlier and later in the same session is kept, unlike a hard time cutoff.
Excluded turns are skipped (not stored) and counted under ``recall_exchange``: their words are
copies of other sessions, and stored they would make this session match every topic it recalled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mnemo.ingest import noise

#: Tool output kept per message (metadata only, never indexed); enough to see what a tool said.
TOOL_OUTPUT_CHARS = 2000
#: How far before a recall event the invoking message may sit (a trigger, then the tool call).
_INVOKER_LOOKBACK = 2
#: Turns with text re-read on the next run, so a recall window or a streamed reply that spans two
#: runs is judged whole.
RESUME_TURNS = 3
TITLE_CHARS = 100


@dataclass(slots=True)
class Turn:
    """One message being built from source lines; mutable while a file is parsed."""

    key: str
    role: str
    offset: int
    line: int
    text: str = ""
    timestamp: Any = None  # as the source wrote it (ISO text or epoch seconds)
    tools: list[str] = field(default_factory=list)
    tool_output: list[str] = field(default_factory=list)
    recall_call: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None  # set when the source itself says this is not conversation
    cleaned: str = ""

    def add_tool_output(self, text: str) -> None:
        used = sum(len(part) for part in self.tool_output)
        if text and used < TOOL_OUTPUT_CHARS:
            self.tool_output.append(text[: TOOL_OUTPUT_CHARS - used])


@dataclass(slots=True)
class FileState:
    """What is known about a transcript from its earlier lines; stored between runs."""

    session_id: str | None = None
    project: str | None = None
    git_branch: str | None = None
    first_type: str | None = None
    title: str | None = None
    started_at: str | None = None
    ended_at: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}  # type: ignore[attr-defined]

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> FileState:
        known = set(cls.__slots__)  # type: ignore[attr-defined]
        return cls(**{k: v for k, v in (values or {}).items() if k in known})


@dataclass(slots=True)
class Parsed:
    """The outcome of parsing one run's lines of a transcript."""

    records: list[dict[str, Any]]
    retract: list[str]  # ids written by an earlier run that re-reading now drops
    dropped: Counter[str]
    new_messages: int
    resume_offset: int
    resume_line: int
    state: FileState


def fold_tool_turns(turns: Sequence[Turn], counted_from: int) -> tuple[list[Turn], int]:
    """Fold assistant turns without text (tool calls only) into an assistant turn with text.

    A tool-only turn continues the assistant turn before it; one that follows a user turn is
    folded forward into the next assistant reply. Returns the turns left, and how many (counted)
    tool-only turns had no assistant turn to join.
    """
    kept: list[Turn] = []
    head: Turn | None = None
    pending: list[Turn] = []
    orphans = 0
    for turn in turns:
        if turn.role == "assistant" and not turn.text.strip():
            if head is not None:
                _absorb(head, turn)
            else:
                pending.append(turn)
            continue
        if turn.role == "assistant":
            for waiting in pending:
                _absorb(turn, waiting)
            pending, head = [], turn
        else:
            orphans += sum(1 for t in pending if t.offset >= counted_from)
            pending, head = [], None
        kept.append(turn)
    orphans += sum(1 for t in pending if t.offset >= counted_from)
    return kept, orphans


def _absorb(head: Turn, turn: Turn) -> None:
    head.tools.extend(turn.tools)
    for output in turn.tool_output:
        head.add_tool_output(output)
    head.recall_call = head.recall_call or turn.recall_call
    if "uuids" in head.metadata and "uuids" in turn.metadata:
        head.metadata["uuids"].extend(turn.metadata["uuids"])


def decide(turns: Sequence[Turn]) -> list[str | None]:
    """A drop reason (or None = keep) for each turn: noise rules first, then recall exchanges."""
    reasons: list[str | None] = []
    for turn in turns:
        if turn.reason is not None:
            reasons.append(turn.reason)
            continue
        turn.cleaned = noise.strip_markup(turn.text)
        if not turn.cleaned:
            reasons.append(noise.markup_reason(turn.text))
        else:
            reasons.append(noise.text_noise(turn.cleaned, turn.role))
    for index in sorted(recall_window(turns)):
        if reasons[index] is None:
            reasons[index] = noise.RECALL_EXCHANGE
    return reasons


def is_recall_event(turn: Turn) -> bool:
    return turn.recall_call or noise.is_recall_listing(turn.text) or any(map(noise.is_recall_listing, turn.tool_output))


def recall_window(turns: Sequence[Turn]) -> set[int]:
    """Indexes of the turns that belong to a memory-recall exchange."""
    return set().union(*recall_windows(turns))


def recall_windows(turns: Sequence[Turn]) -> list[set[int]]:
    """One set of turn indexes per recall event: its invoker(s), the event, and the relay."""
    windows: list[set[int]] = []
    for index, turn in enumerate(turns):
        if not is_recall_event(turn):
            continue
        window = {index, *_invokers(turns, index)}
        relay = _relay(turns, index)
        if relay is not None:
            window.add(relay)
        windows.append(window)
    return windows


def _invokers(turns: Sequence[Turn], event: int) -> list[int]:
    """The message(s) that asked for the recall: a trigger phrase, or the user turn just before."""
    found: list[int] = []
    for index in range(event - 1, max(-1, event - 1 - _INVOKER_LOOKBACK), -1):
        turn = turns[index]
        asked = turn.role == "user" and turns[event].role == "assistant" and index == event - 1
        if noise.is_recall_trigger(turn.text) or asked:
            found.append(index)
            if turn.role == "user":
                break
        else:
            break
    return found


def _relay(turns: Sequence[Turn], event: int) -> int | None:
    """The reply that passes the recalled content on: the next assistant turn, unless a user spoke."""
    for index in range(event + 1, min(len(turns), event + 3)):
        if turns[index].role == "assistant":
            return index
        if turns[index].role == "user" and not is_recall_event(turns[index]):
            return None
    return None


def to_records(
    turns: Sequence[Turn], reasons: Sequence[str | None], *, source: str, session_id: str, project: str | None
) -> tuple[list[dict[str, Any]], list[int]]:
    """Records (for ``Memory.add_many``) of the kept turns, and the positions of the kept turns."""
    records: list[dict[str, Any]] = []
    kept: list[int] = []
    for index, (turn, reason) in enumerate(zip(turns, reasons, strict=True)):
        if reason is not None:
            continue
        metadata = dict(turn.metadata)
        if turn.tools:
            metadata["tools"] = list(dict.fromkeys(turn.tools))
        if turn.tool_output:
            metadata["tool_output"] = "\n".join(turn.tool_output)
        records.append(
            {
                "id": turn.key,
                "content": turn.cleaned,
                "kind": "message",
                "role": turn.role,
                "source": source,
                "session_id": session_id,
                "project": project,
                "timestamp": turn.timestamp,
                "metadata": metadata,
            }
        )
        kept.append(index)
    return records, kept


def finish(
    turns: Sequence[Turn],
    dropped: Counter[str],
    state: FileState,
    *,
    source: str,
    counted_from: int,
    end: int,
    fork: bool = False,
) -> Parsed:
    """Decide, build records, and count one run's turns; turns before ``counted_from`` are re-read
    ones (already counted by an earlier run, and retracted if now dropped)."""
    reasons: list[str | None] = [noise.FORK_SESSION] * len(turns) if fork else decide(turns)
    session = state.session_id or ""
    records, kept = to_records(turns, reasons, source=source, session_id=session, project=state.project)
    if state.title is None:
        state.title = next((title_of(turns[i].cleaned) for i in kept if turns[i].role == "user"), None)
    counted = [t.offset >= counted_from for t in turns]
    dropped.update(r for r, c in zip(reasons, counted, strict=True) if r is not None and c)
    head = turns[resume_index(turns)] if turns else None
    return Parsed(
        records=records,
        retract=[t.key for t, r, c in zip(turns, reasons, counted, strict=True) if r is not None and not c],
        dropped=dropped,
        new_messages=sum(1 for i in kept if counted[i]),
        resume_offset=head.offset if head else end,
        resume_line=head.line if head else -1,
        state=state,
    )


def resume_index(turns: Sequence[Turn]) -> int:
    """Where the next run starts re-reading: a few turns back, and never inside a recall exchange
    (re-read without its start, the end of an exchange would no longer be recognised as one)."""
    index = max(0, len(turns) - RESUME_TURNS)
    for window in sorted(recall_windows(turns), key=min, reverse=True):
        if min(window) < index <= max(window):
            index = min(window)
    return index


def title_of(text: str) -> str | None:
    first = text.strip().splitlines()[0].strip() if text.strip() else ""
    if not first:
        return None
    return first if len(first) <= TITLE_CHARS else first[: TITLE_CHARS - 1] + "…"
