"""Incremental import of conversation sources and notes into one store.

Each file is tracked in the ``sources`` table by path, size, mtime, a fingerprint of its head and
the offset to continue from. A re-run only stats files: an unchanged one is not opened, a grown
one is read from its stored offset, and one that shrank or whose head changed is read again whole.
Item ids are stable, so re-reading never duplicates anything. The store and the writer (normally
``Memory.add_many``, which embeds in batches) are passed in, keeping this module below the API.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mnemo.errors import InputError
from mnemo.ingest import chatlog, claude_code, noise, notes
from mnemo.ingest.conversation import FileState, Parsed
from mnemo.ingest.discover import CHAT, CLAUDE_CODE, FACTS, NOTES, claude_code_files, detect_kind, expand
from mnemo.ingest.lines import head_hash, read_lines
from mnemo.records import ImportReport, Session, SourceFile
from mnemo.timeutil import now_utc, to_utc

#: Kinds read line by line from a stored offset; the others are re-read whole when they change.
INCREMENTAL = frozenset({CLAUDE_CODE, CHAT, FACTS})
HEAD_BYTES = 4096
#: Records written per flush; each flush commits records, then sessions, then source offsets, so an
#: interrupted import leaves every file either done or still to do.
FLUSH_RECORDS = 5000
#: Bytes of a transcript read (and written) at a time: a 1 GB file needs no more memory than this.
READ_WINDOW = 8 << 20

Writer = Callable[[Sequence[Mapping[str, Any]]], ImportReport]
Deleter = Callable[[str], int]
Progress = Callable[[int, int], None]


@dataclass(slots=True)
class SourcesReport:
    """What an import run did, with drops counted by reason."""

    files: int = 0
    unchanged_files: int = 0
    read_files: int = 0
    skipped_files: int = 0
    sessions: int = 0
    lines: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    retracted: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        values = {name: getattr(self, name) for name in self.__slots__}  # type: ignore[attr-defined]
        values["dropped"] = dict(sorted(self.dropped.items(), key=lambda kv: (-kv[1], kv[0])))
        values["errors"] = self.errors[:100]
        return values


class Importer:
    """One import run over a list of (file, kind, root) entries."""

    def __init__(
        self,
        store: Any,
        write: Writer,
        delete: Deleter,
        *,
        progress: Progress | None = None,
        exclude_sessions: Iterable[str] = (),
    ) -> None:
        self.store = store
        self.write = write
        self.delete = delete
        self.progress = progress
        self.exclude = frozenset(s for s in exclude_sessions if s)
        self.report = SourcesReport()
        self._known = {s.path: s for s in store.list_sources()}
        self._records: list[Mapping[str, Any]] = []
        self._retract: list[str] = []
        self._sessions: dict[str, Session] = {}
        self._sources: list[SourceFile] = []
        self._seen_sessions: set[str] = set()

    def run(self, entries: Sequence[tuple[Path, str, str | None]]) -> SourcesReport:
        for done, (path, kind, root) in enumerate(entries, start=1):
            self.report.files += 1
            try:
                self._import(path, kind, root)
            except OSError as exc:  # vanished or unreadable: the next run tries again
                self.report.skipped_files += 1
                self.report.errors.append(f"{path}: {exc.strerror or exc}")
            if len(self._records) >= FLUSH_RECORDS:
                self._flush()
            if self.progress:
                self.progress(done, len(entries))
        self._flush()
        self.report.sessions = len(self._seen_sessions)
        return self.report

    # -- one file --------------------------------------------------------------------------

    def _import(self, path: Path, kind: str, root: str | None) -> None:
        stat = path.stat()
        known = self._known.get(str(path))
        if known is not None and known.size == stat.st_size and known.mtime == stat.st_mtime:
            self.report.unchanged_files += 1
            return
        if kind == CLAUDE_CODE and _session_of(path) in self.exclude:
            self.report.skipped_files += 1
            self.report.dropped["current_session"] += 1
            return  # not recorded: once it is no longer current, a later run imports it
        resume = known if known is not None and kind in INCREMENTAL and self._continues(path, known) else None
        self.report.read_files += 1
        source = SourceFile(
            path=str(path),
            kind=kind,
            root=root,
            size=stat.st_size,
            mtime=stat.st_mtime,
            offset=resume.offset if resume else 0,
            line=resume.line if resume else 1,
            bytes_read=resume.bytes_read if resume else 0,
            messages=resume.messages if resume else 0,
            dropped=resume.dropped if resume else 0,
            state=dict(resume.state) if resume else {},
        )
        if kind in INCREMENTAL:
            self._read_in_windows(path, kind, source)
        else:
            self._read_whole(path, kind, source)

    def _continues(self, path: Path, known: SourceFile) -> bool:
        """Whether the file only grew since last time (same head, not shorter)."""
        if path.stat().st_size < known.bytes_read:
            return False
        return head_hash(path, min(HEAD_BYTES, known.bytes_read)) == known.head_hash

    def _read_in_windows(self, path: Path, kind: str, source: SourceFile) -> None:
        """Read a large file READ_WINDOW bytes at a time, writing after each window, so memory stays
        bounded whatever the file's size. Each window resumes like a later run on a grown file
        (offset, line and parser state from the previous window); a window with no complete unit
        in it is doubled."""
        size, window = source.size, READ_WINDOW
        while True:
            limit = min(size, source.offset + window)
            self._read_incremental(path, kind, replace(source, size=limit), final=limit >= size)
            latest = self._sources[-1]
            if limit >= size:
                self._sources[-1] = replace(latest, size=size)
                return
            window = window if latest.offset > source.offset else window * 2
            source = replace(latest, size=size)
            self._flush()

    def _read_incremental(self, path: Path, kind: str, source: SourceFile, *, final: bool = True) -> None:
        counted_from = source.bytes_read
        read = read_lines(path, source.offset, source.line, source.size)
        self.report.lines += sum(1 for line in read.lines if line.offset >= counted_from)
        if read.tail and final:  # a window's cut line is read whole by the next window
            self.report.dropped["incomplete_line"] += 1
        end = max(read.end, counted_from)
        if kind == FACTS:
            records, dropped = notes.fact_records(path, read.lines, counted_from)
            self._add(records, [], dropped)
            done = (read.end, (read.lines[-1].number + 1) if read.lines else source.line)
            self._finish(path, source, done, end, len(records), sum(dropped.values()), source.state)
            return
        state = FileState.from_dict(source.state)
        if kind == CLAUDE_CODE:
            self._preset_project(path, state)
            results = [claude_code.parse(path, read.lines, state, counted_from, read.end)]
        else:
            results = chatlog.parse_lines(path, read.lines, state, counted_from, read.end)
        next_line = (read.lines[-1].number + 1) if read.lines else source.line
        points = [(p.resume_offset, p.resume_line if p.resume_line >= 0 else next_line) for p in results]
        for parsed in results:
            self._add(parsed.records, parsed.retract, parsed.dropped)
            self._note_session(parsed, path, kind)
        new = sum(p.new_messages for p in results)
        dropped = sum(sum(p.dropped.values()) for p in results)
        state_after = results[0].state.as_dict()
        if kind == CHAT:  # a chat log's later lines without a session id belong to the file, not its first session
            state_after = {"session_id": None, "file_session": state_after["session_id"]}
        self._finish(path, source, min(points), end, new, dropped, state_after)

    def _read_whole(self, path: Path, kind: str, source: SourceFile) -> None:
        if kind == NOTES:
            records, dropped = notes.markdown_records(path)
            self._add(records, [], dropped)
            self._finish(path, source, (source.size, 0), source.size, len(records), sum(dropped.values()), {})
            return
        try:
            value = json.loads(path.read_bytes().decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            self.report.dropped["invalid_json"] += 1
            self.report.errors.append(f"{path}: not a valid UTF-8 JSON file ({exc})")
            self._finish(path, source, (source.size, 0), source.size, 0, 1, {})
            return
        results = chatlog.parse_document(path, value, FileState())
        for parsed in results:
            self._add(parsed.records, [], parsed.dropped)
            self._note_session(parsed, path, CHAT)
        new = sum(len(p.records) for p in results)
        dropped = sum(sum(p.dropped.values()) for p in results)
        self._finish(path, source, (source.size, 0), source.size, new, dropped, {})

    def _preset_project(self, path: Path, state: FileState) -> None:
        """A subagent transcript belongs to its parent session's project."""
        if state.project is None and path.parent.name == "subagents":
            parent = self._sessions.get(path.parent.parent.name) or self.store.get_session(path.parent.parent.name)
            if parent is not None:
                state.project = parent.project

    def _add(self, records: list[dict[str, Any]], retract: list[str], dropped: Counter[str]) -> None:
        self._records.extend(records)
        self._retract.extend(retract)
        self.report.dropped.update(dropped)

    def _note_session(self, parsed: Parsed, path: Path, kind: str) -> None:
        state = parsed.state
        if not state.session_id:
            return
        self._seen_sessions.add(state.session_id)
        session = Session(
            session_id=state.session_id,
            project=state.project,
            source=claude_code.SOURCE if kind == CLAUDE_CODE else chatlog.SOURCE,
            path=None if path.parent.name == "subagents" else str(path),
            title=state.title,
            started_at=_moment(state.started_at),
            ended_at=_moment(state.ended_at),
            git_branch=state.git_branch,
            is_fork=kind == CLAUDE_CODE and noise.is_fork(state.first_type),
        )
        earlier = self._sessions.get(session.session_id)
        self._sessions[session.session_id] = session if earlier is None else _merge(earlier, session)

    def _finish(
        self,
        path: Path,
        source: SourceFile,
        resume: tuple[int, int],
        end: int,
        new_messages: int,
        dropped: int,
        state: Mapping[str, Any],
    ) -> None:
        self._sources.append(
            replace(
                source,
                offset=resume[0],
                line=resume[1],
                bytes_read=end,
                head_hash=head_hash(path, min(HEAD_BYTES, end)),
                session_id=state.get("session_id") or state.get("file_session") or source.session_id,
                messages=source.messages + new_messages,
                dropped=source.dropped + dropped,
                imported_at=now_utc(),
                state=state,
            )
        )

    # -- writing ---------------------------------------------------------------------------

    def _flush(self) -> None:
        if self._records:
            written = self.write(self._records)
            self.report.added += written.added
            self.report.updated += written.updated
            self.report.unchanged += written.unchanged
            self.report.skipped += written.skipped
            self.report.errors.extend(written.errors)
        for item_id in dict.fromkeys(self._retract):
            self.report.retracted += self.delete(item_id)
        if self._sessions:
            self.store.upsert_sessions(list(self._sessions.values()))
        if self._sources:
            self.store.record_sources(self._sources)
        self._records, self._retract, self._sessions, self._sources = [], [], {}, []


def _session_of(path: Path) -> str:
    return path.parent.parent.name if path.parent.name == "subagents" else path.stem


def _moment(value: Any) -> Any:
    try:
        return to_utc(value)
    except InputError:
        return None


def _merge(old: Session, new: Session) -> Session:
    starts = [t for t in (old.started_at, new.started_at) if t]
    ends = [t for t in (old.ended_at, new.ended_at) if t]
    return replace(
        old,
        project=old.project or new.project,
        path=old.path or new.path,
        title=old.title or new.title,
        started_at=min(starts) if starts else None,
        ended_at=max(ends) if ends else None,
        git_branch=new.git_branch or old.git_branch,
        is_fork=old.is_fork or new.is_fork,
    )


# -- entry points used by Memory ---------------------------------------------------------------


def default_claude_projects() -> Path:
    """``~/.claude/projects`` of the current user ($HOME is honoured)."""
    return Path(os.path.expanduser("~")) / ".claude" / "projects"


def import_claude_code(
    store: Any,
    write: Writer,
    delete: Deleter,
    root: str | Path | None = None,
    *,
    progress: Progress | None = None,
    exclude_sessions: Iterable[str] = (),
) -> SourcesReport:
    folder = Path(os.path.abspath(Path(root).expanduser() if root else default_claude_projects()))
    if not folder.is_dir():
        raise InputError(f"{folder}: no such folder (Claude Code keeps transcripts in ~/.claude/projects)")
    entries = [(path, CLAUDE_CODE, str(folder)) for path in claude_code_files(folder)]
    importer = Importer(store, write, delete, progress=progress, exclude_sessions=exclude_sessions)
    return importer.run(entries)


def import_paths(
    store: Any,
    write: Writer,
    delete: Deleter,
    paths: Iterable[str | Path],
    *,
    progress: Progress | None = None,
    exclude_sessions: Iterable[str] = (),
) -> SourcesReport:
    """Import files and folders, detecting per file what it holds."""
    entries: list[tuple[Path, str, str | None]] = []
    unsupported: list[str] = []
    for given in paths:
        root = Path(os.path.abspath(Path(given).expanduser()))
        for path in expand([root]):
            kind = detect_kind(path)
            if kind is None:
                unsupported.append(f"{path}: unsupported file type {path.suffix!r}")
            else:
                entries.append((path, kind, str(root)))
    importer = Importer(store, write, delete, progress=progress, exclude_sessions=exclude_sessions)
    report = importer.run(entries)
    report.files += len(unsupported)
    report.skipped_files += len(unsupported)
    report.errors.extend(unsupported)
    return report


def summarize(files: Sequence[SourceFile]) -> list[dict[str, Any]]:
    """One line per imported root and kind: files, sessions, messages, last import."""
    groups: dict[tuple[str, str], list[SourceFile]] = {}
    for f in files:
        kind = CLAUDE_CODE if f.kind == CLAUDE_CODE else f.kind
        groups.setdefault((f.root or f.path, kind), []).append(f)
    rows = []
    for (root, kind), members in sorted(groups.items()):
        last = max((f.imported_at for f in members if f.imported_at), default=None)
        rows.append(
            {
                "path": root,
                "kind": kind,
                "files": len(members),
                "sessions": len({f.session_id for f in members if f.session_id}),
                "messages": sum(f.messages for f in members),
                "dropped": sum(f.dropped for f in members),
                "last_import": last.isoformat() if last else None,
            }
        )
    return rows
