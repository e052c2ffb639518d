"""Memory's session summaries: which sessions to (re)summarise, by the LLM or extractively, and writing them.

Runs after the messages are committed (``add_many`` calls it last), so nothing here can roll an
import back: an LLM that is down, slow or talks nonsense only turns an LLM summary into an
extractive one with the reason in its metadata. A session whose messages have not changed since
its summary (the digest in the metadata) keeps an LLM summary; the LLM is asked about at most
``max_llm`` sessions per run, the others get an extractive summary marked ``llm_pending``, which
a later run upgrades (docs/summaries.md).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mnemo.errors import ConfigError, InputError
from mnemo.facade.common import Progress
from mnemo.facade.erase import erase_traces
from mnemo.llm.client import client_from_config
from mnemo.records import Item, Scope, SearchFilter, Subcategory
from mnemo.retrieve.summaries import (
    SessionKey,
    SummaryReport,
    category_summary_id,
    category_summary_record,
    session_digest,
    session_groups,
    summarise,
    summary_id,
    summary_record,
)
from mnemo.retrieve.summary_llm import Fallback, LLMSummary, SummaryWriter

log = logging.getLogger(__name__)

#: Summaries written per transaction: LLM results already paid for are committed as the run goes.
FLUSH_EVERY = 32
#: The newest memories of a subcategory its summary is made from.
CATEGORY_MEMBERS = 300


def summarise_scope(
    memory: Any,
    *,
    llm: bool | None,
    max_llm: int | None,
    rebuild: bool,
    progress: Progress | None,
    scope: Mapping[str, str | None],
) -> SummaryReport:
    """Summarise every session in ``scope``. ``llm``: True insists on the LLM, False never calls it,
    None follows the config (``summaries_llm`` and a configured endpoint)."""
    messages = memory.store.iter_items(memory._filter("message", None, None, **scope))
    writer, reason = summary_writer(memory.config, llm, max_llm, explicit=True)
    return _run(memory, _session_targets(session_groups(messages)), writer, reason, rebuild, progress)


def summarise_touched(memory: Any, sessions: Iterable[SessionKey]) -> SummaryReport:
    """Rebuild the summaries of the sessions an ingestion touched (``summaries_on_ingest``)."""
    groups: dict[SessionKey, list[Item]] = {}
    for key in sorted(sessions, key=str):
        user_id, agent_id, project, session_id = key
        within = {"user_id": user_id, "agent_id": agent_id, "project": project, "session_id": session_id}
        messages = memory.store.iter_items(memory._filter("message", None, None, **within))
        # an unset owner field filters nothing: keep only this exact owner's messages
        groups[key] = session_groups(messages).get(key, [])
    writer, reason = summary_writer(memory.config, None, memory.config.summaries_llm_max, explicit=False)
    return _run(memory, _session_targets(groups), writer, reason, False, None)


def summary_writer(
    config: Any, llm: bool | None, max_llm: int | None, *, explicit: bool
) -> tuple[SummaryWriter | None, Fallback | None]:
    """The writer to use (None: extractive only) and, when an LLM was wanted but is not usable, why."""
    if max_llm is not None and (not isinstance(max_llm, int) or isinstance(max_llm, bool) or max_llm < 0):
        raise InputError(f"max_llm must be a whole number of sessions >= 0, got {max_llm!r}")
    wanted = config.summaries_llm if llm is None else llm
    if not wanted:
        return None, None
    if not config.llm_base_url:
        if llm:
            raise ConfigError("LLM summaries need an LLM: set llm_base_url and llm_model (MNEMO_LLM_BASE_URL, ...)")
        return None, None  # no LLM configured: extractive is the documented default, not a fallback
    try:
        client = client_from_config(config)
    except ConfigError as exc:
        if explicit:
            raise
        log.warning("session summaries stay extractive, the LLM settings are invalid: %s", exc)
        return None, Fallback("endpoint", f"LLM settings invalid: {exc}")
    assert client is not None  # llm_base_url is set
    return SummaryWriter(client, max_llm), None


def summarise_categories(
    memory: Any,
    *,
    llm: bool | None,
    max_llm: int | None,
    rebuild: bool,
    progress: Progress | None,
    user_id: str | None,
) -> SummaryReport:
    """Summarise every subcategory (of one user, or of all): topic summaries for progressive search's
    first tier. Summaries of subcategories that were renamed or merged away are deleted."""
    user = memory._scope({"user_id": user_id}).user_id
    subs = memory.store.subcategories(user)
    writer, reason = summary_writer(memory.config, llm, max_llm, explicit=True)
    report = _run(memory, [_category_target(memory, sub) for sub in subs], writer, reason, rebuild, progress)
    return replace(report, removed=_remove_orphans(memory, user, {category_summary_id(s) for s in subs}))


@dataclass(frozen=True, slots=True)
class _Target:
    """One thing to summarise: its items, where its summary is stored and how its record is made."""

    members: list[Item]
    summary_id: str
    scope: Scope  # the summary's owner fields (and session)
    record: Callable[[str, dict[str, Any]], dict[str, Any]]
    digest: str  # of everything it stands for (a topic may have more members than are summarised)
    subject: str | None = None  # how the LLM prompt names it; None: a conversation


def _session_targets(groups: Mapping[SessionKey, list[Item]]) -> list[_Target]:
    targets = []
    for key, members in groups.items():
        user_id, agent_id, project, session_id = key
        assert session_id is not None  # session_groups only groups messages that have a session
        scope = Scope(user_id=user_id, agent_id=agent_id, session_id=session_id, project=project)
        record = functools.partial(summary_record, key, members)
        targets.append(_Target(members, summary_id(session_id), scope, record, session_digest(members)))
    return targets


def _category_target(memory: Any, sub: Subcategory) -> _Target:
    user = sub.user_id or None
    flt = SearchFilter(scope=Scope(user_id=user), category=sub.path)
    # user None filters nothing: keep the user-less partition's own members only
    members = [i for i in memory.store.iter_items(flt) if i.kind != "summary" and i.scope.user_id == user]
    members.sort(key=lambda i: (i.timestamp is None, i.timestamp or 0))
    subject = f"{len(members)} memories filed under the topic {sub.path}"
    record = functools.partial(category_summary_record, sub, members)
    newest, digest = members[-CATEGORY_MEMBERS:], session_digest(members)
    return _Target(newest, category_summary_id(sub), Scope(user_id=user), record, digest, subject)


def _remove_orphans(memory: Any, user: str | None, current: set[str]) -> int:
    """Delete the category summaries of this user partition (or all) whose subcategory is gone."""
    flt = SearchFilter(scope=Scope(user_id=user), kinds=("summary",))
    stale = {
        (item.id, item.scope.user_id)
        for item in memory.store.iter_items(flt)
        if item.metadata.get("summary_of_category") and item.id not in current
    }
    # the id holds the user ("-" for none), so deleting it by id touches no one else's summary
    removed = sum(memory.store.delete(item_id, memory._scope({"user_id": owner})) for item_id, owner in stale)
    if removed:
        erase_traces(memory)  # once for all of them: the vector index and caches forget the old text
    return removed


def _run(
    memory: Any,
    targets: Sequence[_Target],
    writer: SummaryWriter | None,
    unusable: Fallback | None,
    rebuild: bool,
    progress: Progress | None,
) -> SummaryReport:
    tally = {"llm": 0, "extractive": 0, "kept": 0, "empty": 0, "pending": 0}
    fallbacks: dict[str, int] = {}
    written = {"added": 0, "updated": 0, "unchanged": 0}
    pending_records: list[dict[str, Any]] = []

    def flush() -> None:
        if pending_records:
            report = memory.add_many(pending_records)
            for name in written:
                written[name] += getattr(report, name)
            pending_records.clear()

    for done, target in enumerate(targets, start=1):
        outcome, record = _one(memory, target, writer, unusable, rebuild)
        if isinstance(outcome, Fallback):
            fallbacks[outcome.code] = fallbacks.get(outcome.code, 0) + 1
            tally["pending"] += outcome.pending
            outcome = "extractive" if record else "empty"
        tally[outcome] += 1
        if record is not None:
            pending_records.append(record)
        if len(pending_records) >= FLUSH_EVERY:
            flush()
        if progress:
            progress(done, len(targets))
    flush()
    return SummaryReport(sessions=len(targets), fallbacks=fallbacks, **tally, **written)


def _one(
    memory: Any, target: _Target, writer: SummaryWriter | None, unusable: Fallback | None, rebuild: bool
) -> tuple[str | Fallback, dict[str, Any] | None]:
    """What became of one target ("llm", "extractive", "kept", "empty" or the fallback) and its record."""
    if not target.members:
        return "empty", None
    method = None if rebuild else _current_method(memory, target)
    if method == "llm" or (method == "extractive" and writer is None and unusable is None):
        return "kept", None  # nothing changed that a new summary would say differently
    outcome = writer.write(target.members, target.subject) if writer is not None else unusable
    if isinstance(outcome, LLMSummary):
        written = {"method": "llm", "model": outcome.model, "sources": list(outcome.sources)}
        return "llm", target.record(outcome.text, {**written, "excerpt": not outcome.complete})
    text, sources = summarise(target.members)
    if not text:
        return (outcome or "empty"), None
    metadata: dict[str, Any] = {"method": "extractive", "sources": sources}
    if outcome is not None:
        metadata.update(fallback=outcome.code, fallback_reason=outcome.detail, llm_pending=outcome.pending)
    return (outcome or "extractive"), target.record(text, metadata)


def _current_method(memory: Any, target: _Target) -> str | None:
    """The method of the target's stored summary if it was made from these very items."""
    stored = memory.store.get(target.summary_id, target.scope)
    owner = ("user_id", "agent_id", "project")
    if stored is None or any(getattr(stored.scope, f) != getattr(target.scope, f) for f in owner):
        return None
    return stored.metadata.get("method") if stored.metadata.get("digest") == target.digest else None
