"""Categories through Memory and a real SQLite file: evolve, assignment, edits, search and context."""

from __future__ import annotations

import pytest

from mnemo import Memory
from mnemo.errors import InputError
from tests.conftest import needs_model

SKILLS = {
    "git": [
        "To undo a pushed commit safely, run git revert with the commit hash.",
        "Use git cherry-pick to copy one commit onto another branch.",
        "To see the history of one file, run git log --follow on it.",
        "git worktree add lets you check out a second branch in another folder.",
        "To clean untracked files from a git checkout, run git clean -fd.",
        "Use git add -p to stage only some hunks of a change.",
    ],
    "cooking": [
        "To caramelise onions, cook them slowly on low heat for forty minutes.",
        "To stop pasta from sticking, stir it during the first minute of boiling.",
        "For a crisp pizza base, preheat the baking stone for an hour.",
        "To thicken a sauce, stir in a spoon of cornflour mixed with cold water.",
        "To poach an egg, swirl the simmering water and slide the egg into the centre.",
        "Let bread dough rise in a warm place until it doubles in size.",
    ],
    "docker": [
        "To list every running container, use docker ps.",
        "Use docker compose logs -f to follow the logs of all services.",
        "To rebuild an image without cache, run docker build --no-cache.",
        "docker volume prune removes volumes no container uses.",
        "To copy a file out of a container, use docker cp container:/path ./path.",
        "Use docker stats to watch the CPU and memory of your containers.",
    ],
}


def fill(memory: Memory, user_id: str | None = None) -> None:
    memory.add_many(
        {"id": f"{topic}-{i}", "content": text, "user_id": user_id}
        for topic, texts in SKILLS.items()
        for i, text in enumerate(texts)
    )


@needs_model
def test_evolve_recovers_planted_topics_and_new_memories_join_them(model_memory: Memory) -> None:
    fill(model_memory)
    assert all(model_memory.get(f"{t}-0").category == "skills" for t in SKILLS)
    report = model_memory.evolve_categories()
    assert report.categories["skills"]["subcategories"] == 3
    subs = {t: {model_memory.get(f"{t}-{i}").subcategory for i in range(6)} for t in SKILLS}
    assert all(len(names) == 1 and None not in names for names in subs.values()), subs
    names = {t: next(iter(n)) for t, n in subs.items()}
    assert len(set(names.values())) == 3 and "git" in names["git"] and "docker" in names["docker"]
    tree = model_memory.categories()["categories"]["skills"]
    assert tree["count"] == 18 and {n: s["count"] for n, s in tree["subcategories"].items()} == {
        n: 6 for n in names.values()
    }
    # incremental assignment at ingestion, before any new evolve
    assert model_memory.add("To rename the current git branch, run git branch -m new-name.").subcategory == names["git"]
    assert model_memory.add("To knit a scarf, cast on forty stitches with thick wool.").subcategory is None
    # a second evolve with almost no change keeps every name
    again = model_memory.evolve_categories()
    assert set(model_memory.categories()["categories"]["skills"]["subcategories"]) >= set(names.values())
    assert not [h for h in again.history if h["action"] in ("split", "merged", "removed")]


@needs_model
def test_rename_merge_history_and_the_category_filter(model_memory: Memory) -> None:
    fill(model_memory)
    model_memory.add("Always ask before running git push --force.", id="rule-1")
    model_memory.evolve_categories()
    git = model_memory.get("git-0").subcategory
    docker = model_memory.get("docker-0").subcategory
    found = model_memory.search("how do I undo a commit", category=f"skills/{git}")
    assert found and all(h.item.subcategory == git for h in found)
    assert [h.id for h in model_memory.search("git push", category="rules")] == ["rule-1"]

    done = model_memory.rename_category(f"skills/{git}", "Version Control")
    assert done == {"renamed": f"skills/{git}", "to": "skills/version_control", "items": 6}
    assert model_memory.get("git-3").subcategory == "version_control"
    # the filter's cached key list must not outlive the rename
    assert {h.id for h in model_memory.search("commit", category="skills/version_control", limit=20)} == {
        f"git-{i}" for i in range(6)
    }
    assert model_memory.search("commit", category=f"skills/{git}") == []

    merged = model_memory.merge_categories(f"skills/{docker}", "skills/version_control")
    assert merged["items"] == 6 and model_memory.get("docker-2").subcategory == "version_control"
    actions = [h["action"] for h in model_memory.category_history()]
    assert actions[:2] == ["merged", "renamed"] and actions.count("created") >= 3
    with pytest.raises(InputError, match="no subcategory"):
        model_memory.rename_category("skills/nothing_here", "x")
    with pytest.raises(InputError, match="stays in its category"):
        model_memory.rename_category("skills/version_control", "rules/x")
    with pytest.raises(InputError, match="unknown category"):
        model_memory.search("x", category="hobbies")


@pytest.mark.core
def test_category_filter_keeps_to_the_scope(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        memory.add("Never deploy on Fridays.", user_id="alice", id="a1")
        memory.add("Never deploy without a rollback plan.", user_id="bob", id="b1")
        memory.add("I love deploying on Fridays.", user_id="alice", id="a2")
        hits = memory.search("deploy", category="rules", user_id="alice")
        assert [h.id for h in hits] == ["a1"]
        assert {h.id for h in memory.search("deploy", category="rules")} == {"a1", "b1"}
        assert [h.id for h in memory.search("deploy", category="preferences", user_id="bob")] == []
        assert memory.categories(user_id="alice")["categories"]["rules"]["count"] == 1
    with Memory(db_path, embedder="hashing", user_id="bob") as pinned:
        assert [h.id for h in pinned.search("deploy", category="rules")] == ["b1"]
        assert pinned.categories()["total"] == 1


@pytest.mark.core
def test_subcategories_are_grown_per_user(db_path: str) -> None:
    with Memory(db_path, embedder="hashing") as memory:
        for user in ("alice", "bob"):
            memory.add_many(
                {"content": f"I'm currently fixing the {w} pipeline for {user}", "user_id": user}
                for w in ("build", "deploy", "release", "build", "deploy", "release")
            )
        report = memory.evolve_categories(user_id="alice")
        assert report.users == ("alice",)
        assert memory.categories(user_id="bob")["categories"]["context"]["unassigned"] == 6
        assert memory.categories(user_id="alice")["categories"]["context"]["unassigned"] < 6


@pytest.mark.core
def test_context_grouped_by_category_stays_in_budget(hashing_memory: Memory) -> None:
    hashing_memory.add("I prefer short answers about the deploy.")
    hashing_memory.add("Never deploy on Fridays.")
    hashing_memory.add("To deploy, run make release from the main branch.")
    hashing_memory.add("I'm currently fixing the deploy pipeline.")
    pack = hashing_memory.context_pack("deploy", max_tokens=200, group_by_category=True)
    lines = pack.text.splitlines()
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## Preferences", "## Skills", "## Rules", "## Current context"]
    assert lines[lines.index("## Rules") + 1] == "- Never deploy on Fridays."
    assert pack.tokens <= 200 and len(pack.used) == 4
    tight = hashing_memory.context_pack("deploy", max_tokens=40, group_by_category=True)
    assert tight.tokens <= 40 and 0 < len(tight.used) < 4
    assert hashing_memory.context("deploy", group_by_category=True, category="rules").count("## ") == 1


@pytest.mark.core
def test_subcategories_evolve_automatically_after_enough_new_memories(db_path: str) -> None:
    with Memory(db_path, embedder="hashing", category_evolve_after=12) as memory:
        memory.add_many({"content": f"To fix the {w} build, run make {w} again"} for w in ("docs", "web") * 5)
        assert memory.categories()["categories"]["skills"]["subcategories"] == {}
        memory.add("To fix the docs build, run make docs twice")
        memory.add("To fix the web build, run make web twice")  # the 12th memory since the last evolve
        assert memory.wait_for_background(timeout=60)
        assert memory.categories()["categories"]["skills"]["subcategories"] != {}
        assert memory.category_history()


@pytest.mark.core
def test_the_automatic_evolve_runs_off_the_write_path_unless_told_otherwise(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from mnemo.categories import service

    threads: list[str] = []
    original = service.Categorizer.evolve

    def recording(self: service.Categorizer, *args: object, **kwargs: object) -> service.EvolveReport:
        threads.append(threading.current_thread().name)  # a spy: the real evolve still runs
        return original(self, *args, **kwargs)

    monkeypatch.setattr(service.Categorizer, "evolve", recording)
    records = [{"content": f"To fix the {w} build, run make {w} again"} for w in ("docs", "web") * 3]
    for background in (True, False):
        settings = {"category_evolve_after": 6, "category_evolve_in_background": background}
        with Memory(f"{db_path}.{background}.db", embedder="hashing", **settings) as memory:
            memory.add_many(records)
            assert memory.wait_for_background(timeout=60)
            assert memory.categories()["categories"]["skills"]["subcategories"] != {}
    assert threads == ["mnemo-category-evolve", threading.current_thread().name]


@pytest.mark.core
def test_bad_input_in_a_store_gives_a_clear_outcome(hashing_memory: Memory) -> None:
    hashing_memory.add("hello")
    hashing_memory.add("🙂")  # no word at all: stored, but in no category
    hashing_memory.add_many({"content": "Never deploy on Fridays."} for _ in range(4))  # identical
    report = hashing_memory.evolve_categories()
    tree = hashing_memory.categories()
    assert tree["total"] == 5  # the wordless memory is not counted in any category
    rules = tree["categories"]["rules"]
    assert rules["count"] == 4 and [s["count"] for s in rules["subcategories"].values()] == [4]
    one_word = next(c for c, node in tree["categories"].items() if node["count"] == 1)
    assert tree["categories"][one_word]["unassigned"] == 1  # too few to cluster: unassigned
    assert report.categories["rules"] == {"subcategories": 1, "assigned": 4, "unassigned": 0}
    assert hashing_memory.evolve_categories().history == ()  # nothing changed, nothing recorded
