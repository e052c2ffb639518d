"""Index-time noise rules for conversation messages (seed 001, stage 1 and its "missing coverage").

Every rule is a pure function of a message's text (and speaker) that returns the *reason* it is
dropped, or None to keep it; the importers count drops by reason in their report, so nothing is
thrown away silently. Recall detection (what a memory-recall exchange looks like) lives here too;
the window around it is chosen in ``mnemo.ingest.conversation``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Messages shorter than this (after markup is stripped) carry too little to be found by.
MIN_CHARS = 10

# Reasons, as they appear in import reports. Line-level reasons first, then message-level ones.
FORK_SESSION = "fork_session"
PROGRESS = "progress"
SNAPSHOT = "snapshot"
SYSTEM_EVENT = "system_event"
QUEUE_OPERATION = "queue_operation"
SUMMARY_LINE = "summary_line"
UNKNOWN_TYPE = "unknown_type"
META = "meta"
COMPACT_SUMMARY = "compact_summary"
TOOL_RESULT = "tool_result"
TOOL_ONLY = "tool_only"
TOO_SHORT = "too_short"
IDE_EVENT = "ide_event"
INTERRUPTED = "interrupted"
ENVIRONMENT = "environment"
API_ERROR = "api_error"
LIMIT_REACHED = "limit_reached"
CAVEAT = "caveat"
BASH_MARKER = "bash_marker"
SLASH_COMMAND = "slash_command"
COMMAND_OUTPUT = "command_output"
TOOL_CALL_XML = "tool_call_xml"
RECALL_OUTPUT = "recall_output"
RECALL_EXCHANGE = "recall_exchange"
ACKNOWLEDGEMENT = "acknowledgement"
BOILERPLATE = "boilerplate"

#: Line types of a Claude Code transcript that never hold conversation, and why they are skipped.
LINE_TYPE_REASONS: dict[str, str] = {
    "progress": PROGRESS,
    "file-history-snapshot": SNAPSHOT,
    "system": SYSTEM_EVENT,
    "queue-operation": QUEUE_OPERATION,
    "summary": SUMMARY_LINE,
}

# Markup that wraps non-conversation text inside a message; stripped before the text is judged.
_STRIP_BLOCKS = re.compile(
    r"<(system-reminder|ide_[a-z_]+|function_calls|function_results|antml:function_calls)\b[^>]*>.*?</\1>",
    re.DOTALL,
)
_IDE_TAG = re.compile(r"</?ide_[a-z_]+\b[^>]*>")
_TOOL_XML_TAG = re.compile(
    r"</?(?:antml:)?(?:function_calls|function_results|invoke|parameter|tool_use|tool_result)\b[^>]*>"
)

# Markers that, at the start of a message, show it is tool or system output rather than talk.
# "Starts with" rather than "contains": a message *about* an API error is real conversation.
_PREFIX_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^\[Request interrupted"), INTERRUPTED),
    (re.compile(r"^New environment"), ENVIRONMENT),
    (re.compile(r"^(?:\[?API Error|API error:)"), API_ERROR),
    (re.compile(r"^(?:Claude (?:AI )?usage )?[Ll]imit reached"), LIMIT_REACHED),
    (re.compile(r"^(?:<local-command-caveat>)?Caveat:"), CAVEAT),
    (re.compile(r"^<bash-(?:input|stdout|stderr)"), BASH_MARKER),
    (re.compile(r"^<command-(?:name|message|args)>"), SLASH_COMMAND),
    (re.compile(r"^<local-command-(?:stdout|stderr)>"), COMMAND_OUTPUT),
)

#: One entry of an earlier recall's listing: ``[1/5] abc1234 • Dec 28 ...``.
RECALL_LISTING = re.compile(r"^\s*\[\d+/\d+\]\s+[0-9a-f]{7,}\s+•", re.MULTILINE)
# Phrases by which someone asks for, or announces, a search of past sessions. Narrower than
# "I'll search": that alone also starts "I'll search the codebase for the config loader".
_RECALL_TRIGGER = re.compile(
    r"\b(?:memory (?:search|recall)|recall (?:from )?memory|go back to a memory"
    r"|did you remember\b.{0,80}\btalked about|do you remember\b.{0,80}\b(?:talked|discussed|worked)"
    r"|(?:I'll|I will|let me) search (?:my |your |our |the )?(?:memory|memories|past|previous|earlier|old)"
    r"(?: \w+)? ?(?:sessions?|conversations?|chats?|history|work)?)",
    re.IGNORECASE,
)
# Tool calls that run a recall: a memory/session search command, or an MCP memory tool.
_RECALL_COMMAND = re.compile(
    r"\b(?:memory[-_ ](?:search|recall)|recall[-_]memor|mnemo (?:sessions )?search|search-sessions)", re.IGNORECASE
)

_WORD = re.compile(r"[\w']+")
#: Words of a bare acknowledgement from the user: a message made only of these carries nothing.
_ACK_WORDS = frozenset(
    """ok okay k kk thanks thank thx ty you yes yep yeah yup y no nope sure great good nice cool perfect
    awesome got it sounds go ahead continue proceed please lgtm done right fine alright agreed makes sense
    much so very a lot that works hi hello hey wow excellent exactly correct indeed do it cheers""".split()
)
#: Words of generic assistant narration ("I'll help with that", "Let me check."); a message made
#: only of these says nothing about the work.
_BOILERPLATE_WORDS = frozenset(
    """i i'll i'm i've i'd will can could would let let's me my help you your with that this it sure certainly
    of course happy glad absolutely okay ok great good perfect excellent now check look looking at take a the
    see continue continuing start started starting get do doing done understood got right here is what
    into on working work again first next proceed and to for that's thing things now then quick quickly
    ahead go going there be""".split()
)
_MAX_ACK_WORDS = 8
_MAX_BOILERPLATE_WORDS = 14


def strip_markup(text: str) -> str:
    """The text without system reminders, IDE events and tool-call XML (which are not conversation)."""
    text = _STRIP_BLOCKS.sub("", text)
    text = _IDE_TAG.sub("", text)
    return _TOOL_XML_TAG.sub("", text).strip()


def markup_reason(original: str) -> str:
    """Why a message that is empty once markup is stripped was all markup (IDE event or tool XML)."""
    if "<ide_" in original:
        return IDE_EVENT
    if _TOOL_XML_TAG.search(original) or "function_calls" in original:
        return TOOL_CALL_XML
    return TOO_SHORT


def is_recall_listing(text: str) -> bool:
    """Whether the text holds the output of an earlier memory recall (``[1/5] abc1234 • …``)."""
    return bool(text) and RECALL_LISTING.search(text) is not None


def is_recall_trigger(text: str) -> bool:
    """Whether a message asks for, or announces, a search of past sessions."""
    return _RECALL_TRIGGER.search(text) is not None


def is_recall_command(tool_name: str, tool_input: str) -> bool:
    """Whether a tool call runs a memory recall (a session-search command or a memory MCP tool)."""
    name = tool_name.lower()
    if name.startswith("mcp__") and ("memory" in name or "mnemo" in name) and "search" in name:
        return True
    return _RECALL_COMMAND.search(f"{tool_name} {tool_input}") is not None


def text_noise(text: str, role: str | None) -> str | None:
    """Why a message's (already markup-stripped) text is noise, or None to keep it."""
    stripped = text.strip()
    for pattern, reason in _PREFIX_REASONS:
        if pattern.match(stripped):
            return reason
    if is_recall_listing(stripped):
        return RECALL_OUTPUT
    if len(stripped) < MIN_CHARS:
        return TOO_SHORT
    words = [w.lower() for w in _WORD.findall(stripped)]
    if role == "user" and _only(words, _ACK_WORDS, _MAX_ACK_WORDS):
        return ACKNOWLEDGEMENT
    if role == "assistant" and _only(words, _BOILERPLATE_WORDS, _MAX_BOILERPLATE_WORDS):
        return BOILERPLATE
    return None


def _only(words: list[str], vocabulary: frozenset[str], most: int) -> bool:
    return 0 < len(words) <= most and all(w in vocabulary for w in words)


def is_fork(first_event_type: str | None) -> bool:
    """A transcript whose first event is a queue-operation is a temporary fork (e.g. a recall fork)."""
    return first_event_type == "queue-operation"


def first_event_type(types: Iterable[str | None]) -> str | None:
    """The first line type that is an event; snapshots and summaries are bookkeeping, not events."""
    for kind in types:
        if kind not in (None, "file-history-snapshot", "summary"):
            return kind
    return None
