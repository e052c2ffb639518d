"""Session search against real SQLite stores: matching, ranking, noise, dedup, projects, scope."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from mnemo import Memory
from mnemo.errors import InputError
from tests.conftest import needs_model

START = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)


def msg(sid: str, n: int, role: str, text: str, *, project: str = "/p/shop", day: int = 0, **extra: Any) -> dict:
    user_id = extra.pop("user_id", None)
    record = {
        "id": f"cc:{sid}:{n}",
        "content": text,
        "role": role,
        "session_id": sid,
        "project": project,
        "timestamp": (START + timedelta(days=day, minutes=n)).isoformat(),
        "source": "claude-code",
        "metadata": {"git_branch": "main", "sidechain": False, **extra},
    }
    if user_id:
        record["user_id"] = user_id
    return record


def session(sid: str, turns: list[tuple[str, str]], **options: Any) -> list[dict]:
    return [msg(sid, n, role, text, **options) for n, (role, text) in enumerate(turns)]


def ids(hits: list) -> list[str]:
    return [h.session_id for h in hits]


FILLER = [("user", "now please tidy the changelog entry for the release notes"), ("assistant", "Done, tidied it.")]


@pytest.fixture
def memory(db_path: str) -> Iterator[Memory]:
    with Memory(db_path, embedder="none") as mem:
        yield mem


def test_stemming_finds_other_forms_of_a_word(memory: Memory) -> None:
    memory.add_many(session("mig", [("user", "write the migration that adds a status column to orders")]))
    memory.add_many(session("other", [("user", "the dark mode toggle forgets the choice")]))
    assert ids(memory.search_sessions("migrating")) == ["mig"]


def test_a_typo_is_matched_to_the_stores_vocabulary(memory: Memory) -> None:
    memory.add_many(session("pg", [("user", "postgres refuses connections after the upgrade"), *FILLER]))
    memory.add_many(session("pg2", [("user", "tune postgres autovacuum on the orders table")], day=1))
    memory.add_many(session("x", [("user", "the css grid overlaps on phones")]))
    hits = memory.search_sessions("postgress")
    assert set(ids(hits)) == {"pg", "pg2"}
    assert "postgres" in hits[0].snippets[0].text.lower()


def test_synonyms_from_the_defaults_and_from_the_users_file(memory: Memory, tmp_path: Path) -> None:
    memory.add_many(session("k", [("user", "the kubernetes deployment never becomes ready")]))
    memory.add_many(session("w", [("user", "we frobnicate the widgets every night")]))
    assert ids(memory.search_sessions("k8s")) == ["k"]
    assert memory.search_sessions("wibble") == []
    home = Path(memory.config.home)
    home.mkdir(parents=True, exist_ok=True)
    (home / "synonyms.txt").write_text("# mine\nwibble, frobnicate\n", encoding="utf-8")
    with Memory(memory.config.db_target, embedder="none") as fresh:  # the file is read when a Memory opens
        assert ids(fresh.search_sessions("wibble")) == ["w"]


def test_two_in_depth_matches_beat_ten_passing_mentions(memory: Memory) -> None:
    passing = [("user", f"step {i}: fix the pricing card layout and the footer spacing") for i in range(5)]
    passing = [t for pair in zip(passing, [("assistant", "Checked it in Chrome.")] * 5, strict=True) for t in pair]
    memory.add_many(session("passing", passing, day=5))
    memory.add_many(
        session(
            "deep",
            [
                ("user", "the dashboard leaks memory; how do I profile it with chrome devtools?"),
                (
                    "assistant",
                    "Open Chrome DevTools, Memory panel: take a heap snapshot, use the app, take another and "
                    "compare. Detached DOM nodes that grow between snapshots show the leak.\n```js\n"
                    "window.removeEventListener('resize', onResize)\n```",
                ),
            ],
            day=1,
        )
    )
    for query in ("chrome devtools", "chrome"):
        found = ids(memory.search_sessions(query))
        assert found[0] == "deep" and found.index("passing") > 0 if "passing" in found else found == ["deep"]
    (layout,) = memory.search_sessions("pricing card layout")
    assert layout.total_matches == 5 and len(layout.snippets) == 3 and layout.more_matches == 2


def test_recall_exchanges_and_sidechains_never_count(memory: Memory) -> None:
    memory.add_many(
        session(
            "recall",
            [
                ("user", "do you remember the terraform state lock? memory search please"),
                ("assistant", "[1/1] 5a1b2c3 • Oct 30 • /p/infra\n    terraform state lock"),
                ("user", "now enable s3 bucket versioning for the backups bucket"),
            ],
        )
    )
    rows = memory.store.session_rowids("recall", memory._filter(None, None, None), counted_only=False)
    assert len(rows) == 3
    # mark the recall exchange as the importer does
    memory.add_many(
        [
            {**r, "metadata": {**r["metadata"], "recall_exchange": True}}
            for r in session(
                "recall",
                [
                    ("user", "do you remember the terraform state lock? memory search please"),
                    ("assistant", "[1/1] 5a1b2c3 • Oct 30 • /p/infra\n    terraform state lock"),
                ],
            )
        ]
    )
    memory.add_many(session("side", [("assistant", "terraform state lock in a sub-agent")], sidechain=True))
    memory.add_many(session("real", [("user", "terraform plan hangs on the state lock"), *FILLER], day=2))
    assert ids(memory.search_sessions("terraform state lock")) == ["real"]
    assert ids(memory.search_sessions("bucket versioning")) == ["recall"]  # the rest of that session counts


def write_transcript(folder: Path, sid: str, lines: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{sid}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def cc_user(sid: str, n: int, text: str, cwd: str = "/home/me/shop") -> dict:
    return {
        "type": "user",
        "uuid": f"{sid}-u{n}",
        "parentUuid": None,
        "sessionId": sid,
        "cwd": cwd,
        "isSidechain": False,
        "gitBranch": "main",
        "timestamp": (START + timedelta(minutes=n)).isoformat().replace("+00:00", "Z"),
        "message": {"role": "user", "content": text},
    }


def test_fork_sessions_from_the_real_importer_never_appear(memory: Memory, tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-home-me-shop"
    fork = "11111111-aaaa-4bbb-8ccc-000000000001"
    main = "22222222-aaaa-4bbb-8ccc-000000000002"
    queued = {"type": "queue-operation", "operation": "enqueue", "sessionId": fork, "timestamp": "2025-10-01T09:00:00Z"}
    write_transcript(folder, fork, [queued, cc_user(fork, 1, "gradient accumulation for the cuda out of memory crash")])
    write_transcript(folder, main, [cc_user(main, 1, "training hits cuda out of memory, try gradient accumulation")])
    memory.import_claude_code(str(tmp_path / "projects"))
    assert ids(memory.search_sessions("cuda out of memory gradient accumulation", limit=10)) == [main]


def test_near_duplicate_sessions_collapse_into_the_latest_complete_one(memory: Memory) -> None:
    turns = [
        ("user", "the checkout test fails one run in five; the db fixture leaks rows between tests"),
        ("assistant", "The session-scoped fixture keeps rows; I made it function-scoped with a rollback."),
    ]
    memory.add_many(session("first", turns[:1], day=1))
    memory.add_many(session("second", [*turns, ("user", "ran the suite thirty times, green")], day=2))
    memory.add_many(session("other", [("user", "the flaky playwright test clicks the pay button too early")], day=3))
    hits = memory.search_sessions("flaky fixture test")
    assert [h.session_id for h in hits if h.session_id in {"first", "second"}] == ["second"]
    second = next(h for h in hits if h.session_id == "second")
    assert second.also_in == ("first",)
    assert "other" in ids(hits)


def test_project_filter_and_current_project_boost(memory: Memory) -> None:
    text = "the redis cache invalidation runs when a product changes"
    memory.add_many(session("shop", [("user", text)], project="/home/me/shop", day=1))
    memory.add_many(session("blog", [("user", text)], project="/home/me/blog", day=0))
    assert ids(memory.search_sessions("redis cache", project="/home/me/blog")) == ["blog"]
    assert ids(memory.search_sessions("redis cache"))[0] == "shop"  # the newer one wins a tie
    boosted = memory.search_sessions("redis cache", current_project="/home/me/blog/src")
    assert ids(boosted) == ["blog", "shop"]


def test_scope_isolation_between_users(memory: Memory) -> None:
    memory.add_many(session("alice-s", [("user", "alice rotates the jwt signing key")], user_id="alice"))
    memory.add_many(session("bob-s", [("user", "bob rotates the jwt signing key")], user_id="bob"))
    assert ids(memory.search_sessions("jwt signing key", user_id="alice")) == ["alice-s"]
    pinned = Memory(memory.config.db_target, embedder="none", user_id="bob")
    try:
        assert ids(pinned.search_sessions("jwt signing key")) == ["bob-s"]
        assert pinned.session("alice-s") is None
    finally:
        pinned.close()


def test_the_current_session_is_never_listed(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    memory.add_many(session("now", [("user", "websocket reconnect with backoff")], day=9))
    memory.add_many(session("then", [("user", "websocket reconnect loop with jitter")], day=1))
    assert set(ids(memory.search_sessions("websocket reconnect"))) == {"now", "then"}
    assert ids(memory.search_sessions("websocket reconnect", exclude_session="now")) == ["then"]
    monkeypatch.setenv("MNEMO_CURRENT_SESSION", "now")
    assert ids(memory.search_sessions("websocket reconnect")) == ["then"]
    monkeypatch.delenv("MNEMO_CURRENT_SESSION")
    monkeypatch.setenv("CLAUDE_SESSION_ID", "then")
    assert ids(memory.search_sessions("websocket reconnect")) == ["now"]


def test_required_and_excluded_terms_apply_to_whole_sessions(memory: Memory) -> None:
    memory.add_many(session("cache", [("user", "add a redis cache for the catalog"), ("assistant", "Cached it.")]))
    memory.add_many(session("limit", [("user", "rate limiting with redis"), ("assistant", "A lua token bucket.")]))
    memory.add_many(session("http", [("user", "an http cache header for the catalog")]))
    assert set(ids(memory.search_sessions("cache +redis"))) == {"cache"}
    assert set(ids(memory.search_sessions("redis -lua"))) == {"cache"}
    assert set(ids(memory.search_sessions("catalog", exclude=["redis"]))) == {"http"}
    assert set(ids(memory.search_sessions("catalog", require=["http"]))) == {"http"}


def test_phrases_match_words_next_to_each_other(memory: Memory) -> None:
    memory.add_many(session("phrase", [("user", "the connection pool is exhausted under load")]))
    memory.add_many(session("apart", [("user", "one connection per request; a pool of workers")]))
    assert ids(memory.search_sessions('"connection pool"')) == ["phrase"]
    assert set(ids(memory.search_sessions("connection pool"))) == {"phrase", "apart"}


def test_hits_carry_snippets_with_message_ids_and_highlights(memory: Memory) -> None:
    long_text = "background " * 80 + "the stripe webhook signature check reads the raw body " + "more " * 80
    memory.add_many(session("s", [("user", "stripe webhook fails"), ("assistant", long_text), *FILLER]))
    (hit,) = memory.search_sessions("stripe webhook signature")
    data = hit.as_dict()
    assert data["session_id"] == "s" and data["project"] == "/p/shop" and data["title"] == "stripe webhook fails"
    assert {s["message_id"] for s in data["snippets"]} == {"cc:s:0", "cc:s:1"}
    long_snippet = next(s for s in data["snippets"] if s["message_id"] == "cc:s:1")
    assert len(long_snippet["text"]) < 300 and "signature" in long_snippet["text"]
    marked = [long_snippet["text"][a:b].lower() for a, b in long_snippet["highlights"]]
    assert {"stripe", "webhook", "signature"} <= set(marked)
    assert data["started_at"].startswith("2025-10-01") and data["also_in"] == []


def test_session_view_hides_noise_unless_all(memory: Memory) -> None:
    memory.add_many(
        [
            msg("view-1234", 0, "user", "deploy the api"),
            msg("view-1234", 1, "assistant", "Deployed.", tool_output="kubectl apply ... configured"),
            msg("view-1234", 2, "assistant", "sub-agent notes", sidechain=True),
        ]
    )
    view = memory.session("view-1234")
    assert view is not None and [m.content for m in view.messages] == ["deploy the api", "Deployed."]
    assert view.hidden == 1 and "tool_output" not in json.dumps(view.as_dict())
    full = memory.session("view", all_messages=True)  # a unique prefix is enough
    assert full is not None and len(full.messages) == 3
    assert full.as_dict(with_tool_output=True)["messages"][1]["tool_output"].startswith("kubectl")
    assert memory.session("nope-nope") is None


def test_bad_arguments_raise_input_errors(memory: Memory) -> None:
    with pytest.raises(InputError, match="unclosed quote"):
        memory.search_sessions('"oops')
    with pytest.raises(InputError, match="only excludes"):
        memory.search_sessions("-docker")
    with pytest.raises(InputError, match="limit"):
        memory.search_sessions("docker", limit=0)
    memory.add_many([msg("ab12-1", 0, "user", "one"), msg("ab12-2", 0, "user", "two")])
    with pytest.raises(InputError, match="several sessions"):
        memory.session("ab12")


def test_the_dev_set_imports_and_finds_real_transcripts(memory: Memory) -> None:
    dev = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "sessions_dev" / "projects"
    memory.import_claude_code(str(dev / "-home-marco-projects-spotter"))
    assert ids(memory.search_sessions("mix phx.server doesnt start"))[0] == "55604662-cf2a-4331-851a-ec234028f8ca"
    assert ids(memory.search_sessions("opentelemetry setup"))[0] == "ae4a77f8-aedd-4bc1-888f-c94edc91af04"


@needs_model
def test_a_paraphrase_finds_the_session_with_the_real_model(model_memory: Memory) -> None:
    model_memory.add_many(
        session("oom", [("user", "training crashes with CUDA out of memory at batch size 64"), *FILLER])
    )
    model_memory.add_many(session("css", [("user", "the pricing cards overlap on narrow screens")]))
    model_memory.add_many(session("rss", [("user", "the rss feed validator rejects our dates")]))
    hits = model_memory.search_sessions("graphics card ran short of vram")
    assert ids(hits)[0] == "oom"
