"""Memory's conversation-source methods: importing transcripts, chat logs and notes, and searching sessions.

The logic lives in mnemo.ingest.sources and mnemo.retrieve.sessions; these methods only wire it to the store.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from mnemo.errors import InputError
from mnemo.facade.common import Progress
from mnemo.ingest import sources as source_import
from mnemo.ingest.sources import SourcesReport
from mnemo.records import ImportReport, SessionHit
from mnemo.redact import RedactingSourceStore
from mnemo.retrieve.query_language import parse_query
from mnemo.retrieve.session_view import SessionView, load_session, resolve_session_id
from mnemo.retrieve.sessions import current_session_from, make_session_searcher


class SourcesMixin:
    """Mixed into Memory: uses its store, add_many, _filter and _scope."""

    def import_claude_code(
        self,
        path: str | None = None,
        *,
        progress: Progress | None = None,
        exclude_sessions: Sequence[str] = (),
        extract_facts: bool = False,
    ) -> SourcesReport:
        """Import Claude Code transcripts (default ``~/.claude/projects``); re-runs read only growth.

        Fact extraction is off by default here: coding prompts hold few personal facts, and running
        it over every prompt would cost more than the whole import.
        """
        writer = (self._source_store(), partial(self._import_write, extract_facts), self._import_delete)
        return source_import.import_claude_code(*writer, path, progress=progress, exclude_sessions=exclude_sessions)

    def import_sources(
        self,
        paths: Sequence[str],
        *,
        progress: Progress | None = None,
        exclude_sessions: Sequence[str] = (),
        extract_facts: bool | None = None,
    ) -> SourcesReport:
        """Import transcripts, chat logs, markdown notes and facts.jsonl files (detected per file).

        ``extract_facts`` (default: the config's) applies to the user messages imported.
        """
        writer = (self._source_store(), partial(self._import_write, extract_facts), self._import_delete)
        return source_import.import_paths(*writer, paths, progress=progress, exclude_sessions=exclude_sessions)

    def sources(self, *, files: bool = False) -> list[dict[str, Any]]:
        """What is indexed: one entry per imported folder and kind, or per file with ``files``."""
        listed = self.store.list_sources()
        return [f.as_dict() for f in listed] if files else source_import.summarize(listed)

    def _source_store(self) -> Any:
        """The store the importer writes session rows and file state to (redacted when configured)."""
        return RedactingSourceStore(self.store) if self.config.redact else self.store

    def _import_write(self, extract_facts: bool | None, records: Sequence[Mapping[str, Any]]) -> ImportReport:
        return self.add_many(records, skip_invalid=True, extract_facts=extract_facts)

    def _import_delete(self, item_id: str) -> int:
        return self.store.delete(item_id, self._scope({}))

    def search_sessions(
        self,
        query: str,
        *,
        require: Sequence[str] = (),
        exclude: Sequence[str] = (),
        project: str | None = None,
        current_project: str | None = None,
        exclude_session: str | None = None,
        limit: int = 5,
        user_id: str | None = None,
        agent_id: str | None = None,
    ) -> list[SessionHit]:
        """Past conversations about ``query`` (query language: mnemo.retrieve.query_language), best first.

        ``project`` restricts to one project; ``current_project`` only boosts it. The session named by
        ``exclude_session`` (default: $MNEMO_CURRENT_SESSION or $CLAUDE_SESSION_ID) is never listed.
        """
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100:
            raise InputError(f"limit must be an integer from 1 to 100, got {limit!r}")
        parsed = parse_query(query, require, exclude)
        flt = self._filter("message", None, None, user_id=user_id, agent_id=agent_id, project=project)
        if self._session_searcher is None:
            self._session_searcher = make_session_searcher(self)
        return self._session_searcher.search(
            parsed,
            flt,
            limit=limit,
            current_project=current_project,
            exclude_session=exclude_session or current_session_from(os.environ),
            query_text=query,
        )

    def session(self, session_id: str, *, all_messages: bool = False, **scope: str | None) -> SessionView | None:
        """One session's messages in order (noise left out unless ``all_messages``); None if not in scope."""
        flt = self._filter(None, None, None, **scope)
        found = resolve_session_id(self.store, session_id, flt)
        return None if found is None else load_session(self.store, found, flt, all_messages=all_messages)
