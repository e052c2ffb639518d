"""Top-level classification and the category columns: real SQLite files, the real model where marked."""

from __future__ import annotations

import json
import sqlite3

import pytest

from mnemo import Memory
from mnemo.categories.classify import Classifier
from mnemo.embed.registry import make_embedder
from mnemo.errors import InputError
from mnemo.records import CATEGORIES
from mnemo.store.migrations import MIGRATIONS
from tests.conftest import needs_model

#: Clear examples, written apart from the development set and the prototypes.
CLEAR = {
    "facts": [
        "My brother-in-law works as a pilot for a Dutch airline.",
        "The inventory service uses MongoDB 6 and runs in three regions.",
        "Our office in Madrid has forty desks.",
    ],
    "preferences": [
        "I really like mechanical keyboards with quiet switches.",
        "I prefer reading on paper rather than on a screen.",
        "Olives are my favourite snack.",
    ],
    "skills": [
        "To rename a git branch, run git branch -m old-name new-name.",
        "You can list open ports with ss -tlnp.",
        "To descale the coffee machine, run a cycle with citric acid and then two with water.",
    ],
    "rules": [
        "Never reformat files you did not change.",
        "Always answer with the command first and the explanation after.",
        "Do not book meetings for me on Monday mornings.",
    ],
    "context": [
        "I'm currently rewriting the billing exporter in Rust.",
        "Right now the staging cluster is down and I'm waiting for the infra team.",
        "This week I'm onboarding two new engineers.",
    ],
}


@needs_model
def test_clear_examples_with_the_real_model() -> None:
    classifier = Classifier(make_embedder("minilm"))
    for category, texts in CLEAR.items():
        for result in classifier.classify_many(texts):
            assert result.category == category, (texts, result.as_dict())
            assert 0.2 < result.confidence <= 1.0


@pytest.mark.core
@pytest.mark.parametrize("embedder", ["hashing", None])
def test_cues_carry_the_hashing_embedder_and_no_embedder(embedder: str | None) -> None:
    classifier = Classifier(make_embedder(embedder) if embedder else None)
    wrong = [
        (category, text, result.category)
        for category, texts in CLEAR.items()
        for text, result in zip(texts, classifier.classify_many(texts), strict=True)
        if result.category != category
    ]
    assert not wrong


@pytest.mark.core
def test_wordless_short_and_huge_texts_get_a_clear_outcome() -> None:
    classifier = Classifier(make_embedder("hashing"))
    assert classifier.classify("").category is None
    assert classifier.classify("  !!! 🙂 ").as_dict() == {"category": None, "confidence": 0.0, "scores": {}, "cues": []}
    one_word = classifier.classify("hello")
    assert one_word.category in CATEGORIES and 0 < one_word.confidence <= 1
    long = classifier.classify("I prefer short answers. " * 5000)
    assert long.category == "preferences"
    json.dumps(long.as_dict())


@pytest.mark.core
def test_add_classifies_with_the_vector_it_made_and_persists_it(hashing_memory: Memory) -> None:
    item = hashing_memory.add("Never push directly to the release branch.", id="r1")
    assert item.category == "rules"
    stored = hashing_memory.get("r1")
    assert stored is not None and (stored.category, stored.subcategory) == ("rules", None)
    report = hashing_memory.add_many([{"id": "r1", "content": "Never push directly to the release branch."}])
    assert report.unchanged == 1  # the derived columns do not make a re-add an update
    hits = hashing_memory.search("release branch")
    assert hits[0].as_dict()["category"] == "rules"


@pytest.mark.core
def test_categorize_without_storing(hashing_memory: Memory) -> None:
    result = hashing_memory.categorize("I'm currently moving house, so evenings are busy.")
    assert result["category"] == "context" and "now" in result["cues"]
    assert hashing_memory.stats()["items"] == 0
    with pytest.raises(InputError):
        hashing_memory.categorize("   ")


@pytest.mark.core
def test_classification_can_be_switched_off(db_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMO_CATEGORIZE", "false")
    with Memory(db_path, embedder="hashing") as memory:
        assert memory.add("I love green tea.").category is None


@pytest.mark.core
def test_a_store_from_before_categories_upgrades_and_is_backfilled(db_path: str) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    name, script = MIGRATIONS[0]
    conn.executescript(script)
    conn.execute("INSERT INTO schema_migrations VALUES (?, 0)", (name,))
    conn.execute(
        "INSERT INTO items (id, content, kind, ingested_at, content_hash, seq) "
        "VALUES ('old', 'I hate waking up early.', 'message', 0, 'h', 1)"
    )
    conn.close()
    with Memory(db_path, embedder="hashing") as memory:
        assert memory.get("old").category is None  # the old row has no category yet
        report = memory.evolve_categories()
        assert report.backfilled == 1
        assert memory.get("old").category == "preferences"
        assert memory.categories()["categories"]["preferences"]["count"] == 1


class _ChatServer:
    """A local OpenAI-compatible chat-completions endpoint (the one allowed fake: a remote LLM).

    It answers every memory that mentions "sourdough" as a skill and records what it was asked.
    """

    def __init__(self, broken: bool = False) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        outer = self
        self.requests: list[dict] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                if broken:
                    self.send_response(500)
                    self.end_headers()
                    return
                listing = body["messages"][-1]["content"].splitlines()
                answer = {line.split(".")[0]: "skills" for line in listing if "sourdough" in line}
                reply = {"choices": [{"message": {"role": "assistant", "content": json.dumps(answer)}}]}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.core
@pytest.mark.parametrize("broken", [False, True])
def test_an_llm_is_asked_only_about_unsure_memories(db_path: str, broken: bool) -> None:
    server = _ChatServer(broken)
    unsure = "sourdough starter, rye flour, a warm shelf"  # no cue says what kind of memory this is
    try:
        settings = {"category_llm": True, "llm_base_url": server.url, "llm_model": "test-model"}
        with Memory(db_path, embedder="hashing", **settings) as memory:
            items = memory.add_many([{"id": "u", "content": unsure}, {"id": "s", "content": "Never push to main."}])
            assert items.added == 2
            assert memory.get("u").category == ("facts" if broken else "skills")
            assert memory.get("s").category == "rules"  # confident: kept, and never sent
        assert server.requests and all("Never push" not in r["messages"][-1]["content"] for r in server.requests)
        assert server.requests[0]["model"] == "test-model"
    finally:
        server.close()
