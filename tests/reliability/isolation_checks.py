"""Scope-isolation checks shared by the isolation tests and the soak part (benchmarks/soak/isolation.py).

Every generated memory carries a unique tag word (``zq<n>x``). A call scoped to one owner may only
ever show tags of memories inside that scope: the check dumps each call's whole JSON-ready output
and looks for any other tag, so no channel (content, snippet, title, fact, category name, rendered
context) is left unchecked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from mnemo import Memory
from mnemo.records import Scope

TAG = re.compile(r"zq\d+x")
USERS = ("ann", "bob", "cyd")
AGENTS = ("planner", "coder")
PROJECTS = ("/p/web", "/p/api")
SESSIONS = ("s1", "s2", "s3")
WORDS = (
    "deploy database migration invoice billing python kernel lisbon garden wedding hiking budget "
    "refactor latency queue worker schema token coffee piano holiday contract release pipeline"
).split()


@dataclass(frozen=True)
class Memo:
    tag: str
    user: str
    agent: str | None
    project: str | None
    session: str
    role: str
    words: tuple[str, ...]

    def record(self, ns: str) -> dict[str, Any]:
        text = " ".join(self.words)
        content = f"I love {self.words[0]} and my {text} code is {self.tag}"
        return {
            "id": f"{ns}-{self.tag}",
            "content": content,
            "role": self.role,
            "user_id": f"{ns}-{self.user}",
            "agent_id": self.agent,
            "project": self.project,
            "session_id": f"{ns}-{self.session}",
            "metadata": {"note": f"about {self.tag}"},
        }


@dataclass(frozen=True)
class ScopeAsk:
    user: str
    agent: str | None = None
    project: str | None = None

    def kwargs(self, ns: str) -> dict[str, str]:
        given = {"user_id": f"{ns}-{self.user}", "agent_id": self.agent, "project": self.project}
        return {k: v for k, v in given.items() if v is not None}

    def holds(self, memo: Memo) -> bool:
        return (
            memo.user == self.user
            and (self.agent is None or memo.agent == self.agent)
            and (self.project is None or memo.project == self.project)
        )


def tags_in(value: Any) -> set[str]:
    return set(TAG.findall(json.dumps(value, default=str, ensure_ascii=False)))


def dumped(value: Any) -> Any:
    """JSON-ready form of whatever a Memory call returned (records, lists, dicts, iterators)."""
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if isinstance(value, (list, tuple, Iterator)):
        return [dumped(v) for v in value]
    return value


def scoped_outputs(memory: Memory, ns: str, ask: ScopeAsk, query: str, sessions: Sequence[str]) -> dict[str, Any]:
    """The output of every read a caller can scope, each as JSON-ready data."""
    scope = ask.kwargs(ns)
    outputs: dict[str, Any] = {
        "search": dumped(memory.search(query, limit=50, **scope)),
        "search_fused": dumped(memory.search(query, limit=20, iterative=True, **scope)),
        "context": memory.context_pack(query, max_tokens=4000, **scope).as_dict(),
        "recent": dumped(memory.recent(limit=200, **scope)),
        "export": list(memory.export(**scope)),
        "facts": dumped(memory.facts(status=None, limit=1000, **scope)),
        "categories": memory.categories(**scope),
        "stats": memory.stats(**scope),
        "sessions_search": dumped(
            memory.search_sessions(query, user_id=scope["user_id"], agent_id=ask.agent, project=ask.project, limit=20)
        ),
        "store_sessions": dumped(memory.store.list_sessions(scope=Scope(**scope))),
    }
    for sid in sessions:
        view = memory.session(f"{ns}-{sid}", all_messages=True, **scope)
        outputs[f"session {sid}"] = view.as_dict() if view is not None else None
    return outputs


def violations(memory: Memory, ns: str, memos: Sequence[Memo], ask: ScopeAsk, query: str) -> list[str]:
    """Every call that showed a tag from outside ``ask``'s scope, named with the stray tags."""
    allowed = {m.tag for m in memos if ask.holds(m)}
    found = []
    for name, output in scoped_outputs(memory, ns, ask, query, SESSIONS).items():
        stray = tags_in(output) - allowed
        if stray:
            found.append(f"{name} scoped to {ask} showed {sorted(stray)}")
    expected = sum(1 for m in memos if ask.holds(m))
    messages = memory.stats(**ask.kwargs(ns))["by_kind"].get("message", 0)
    if messages != expected:
        found.append(f"stats scoped to {ask} counted {messages} messages, expected {expected}")
    return found
