"""Notes on a query that can be searched but says little about what it wants.

Two kinds of query are searched as they are, not refused, yet their results can look arbitrary:

- one of common words only ("the of and", "what is it"): no word of it is distinctive, so the
  lexical ranking matches those common words and the results follow the query's overall meaning;
- one that points back at the conversation ("what did he say about that?") when no conversation
  was given to resolve it: "he" and "that" are searched as the words they are.

A note says which case it is and what to do about it, so a caller (the CLI, an MCP client, an
agent) can tell a weak query from a store that lacks the answer. Pure functions: no store, no model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mnemo.retrieve.rewrite.detect import detect
from mnemo.store.sql import STOPWORDS, query_terms

#: Word-level pointers: the kinds whose text alone stands for something said earlier. Longer
#: implicit readings ("who am I", "the next one") are left out: without a conversation they are
#: as often plain questions.
POINTERS = frozenset({"person", "plural", "thing", "demonstrative", "place", "temporal"})
#: How many of the query's words a note quotes.
QUOTED = 5


@dataclass(frozen=True, slots=True)
class QueryNote:
    code: str  # common_words_only, unresolved_references
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


def query_notes(query: str, context_given: bool = False) -> tuple[QueryNote, ...]:
    """What is weak about ``query`` as a search, if anything (an empty tuple for most queries)."""
    notes: list[QueryNote] = []
    words = query_terms(query, keep_stopwords=True)  # the full-text search's own tokens
    if words and all(w in STOPWORDS for w in words):
        quoted = ", ".join(words[:QUOTED])
        notes.append(
            QueryNote(
                "common_words_only",
                f"the query holds only common words ({quoted}); none of them is distinctive, so the "
                "results follow its overall meaning only: add a name or a topic word to narrow it",
            )
        )
    if not context_given:
        pointers = list(dict.fromkeys(r.text for r in detect(query) if r.kind in POINTERS))
        if pointers:
            quoted = ", ".join(f"'{p}'" for p in pointers[:QUOTED])
            notes.append(
                QueryNote(
                    "unresolved_references",
                    f"{quoted} {'refers' if len(pointers) == 1 else 'refer'} to something said earlier "
                    "and no conversation was given to resolve "
                    f"{'it' if len(pointers) == 1 else 'them'}, so the query was searched as written: "
                    "name what is meant, or pass the recent messages as context",
                )
            )
    return tuple(notes)
