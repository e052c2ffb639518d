"""`mnemo categorize` and `mnemo categories` end to end in real processes, on a real store file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.core


def run(*args: str, db: str | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MNEMO_EMBEDDER": "hashing"}
    prefix = ["--db", db] if db else []
    result = subprocess.run(
        [sys.executable, "-m", "mnemo", *prefix, *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert "Traceback" not in result.stderr, result.stderr
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_categorize_a_file_without_a_store(tmp_path: Path) -> None:
    lines = [
        {"id": "p1", "text": "I prefer tea to coffee."},
        "this line is not json",
        {"id": "r1", "text": "Never push to main without a review."},
        {"id": "empty", "text": "   "},
        {"id": "s1", "text": "To list open ports, run ss -tlnp."},
        {"id": "c1", "text": "I'm currently migrating the billing service."},
        {"text": "My sister lives in Lyon."},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    result = run("categorize", "--json", "--file", str(source))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(o["id"], o["category"]) for o in out] == [
        ("p1", "preferences"),
        ("r1", "rules"),
        ("s1", "skills"),
        ("c1", "context"),
        ("7", "facts"),
    ]
    assert all(set(o) == {"id", "category", "subcategory", "confidence"} and 0 < o["confidence"] <= 1 for o in out)
    assert "categorized 5, skipped 2" in result.stderr and "line 2: not valid JSON" in result.stderr
    assert not list(tmp_path.glob("**/*.db"))  # no store was created


def test_categorize_text_and_bad_input(tmp_path: Path) -> None:
    one = json.loads(run("categorize", "--json", "Always answer in French.").stdout)
    assert one["category"] == "rules" and "opens_directive" in one["cues"] and one["subcategory"] is None
    assert run("categorize", "I love hiking.").stdout.startswith("preferences (")
    missing = run("categorize", "--file", str(tmp_path / "nope.jsonl"), check=False)
    assert missing.returncode == 2 and "no such file" in missing.stderr
    assert run("categorize", check=False).returncode == 2


def test_categories_tree_evolve_rename_merge_history(db_path: str, tmp_path: Path) -> None:
    records = [
        {"content": f"To fix the {topic} build, run make {topic}-{i} and check the {topic} logs"}
        for topic in ("docs", "web", "api")
        for i in range(5)
    ]
    source = tmp_path / "m.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    run("import", str(source), db=db_path)
    evolved = json.loads(run("categories", "evolve", "--json", db=db_path).stdout)
    assert evolved["categories"]["skills"]["subcategories"] >= 2
    tree = json.loads(run("categories", "--json", db=db_path).stdout)
    skills = tree["categories"]["skills"]
    assert tree["total"] == 15 and skills["count"] == 15
    first, second = list(skills["subcategories"])[:2]
    assert "skills/" + first == skills["subcategories"][first]["path"]
    text = run("categories", "tree", db=db_path).stdout
    assert "skills (15)" in text and first in text

    renamed = json.loads(run("categories", "rename", f"skills/{first}", "builds", "--json", db=db_path).stdout)
    assert renamed["to"] == "skills/builds" and renamed["items"] == skills["subcategories"][first]["count"]
    merged = json.loads(run("categories", "merge", f"skills/{second}", "skills/builds", "--json", db=db_path).stdout)
    assert merged["into"] == "skills/builds"
    history = json.loads(run("categories", "history", "--json", db=db_path).stdout)
    assert [h["action"] for h in history[:2]] == ["merged", "renamed"]
    hits = json.loads(run("search", "--json", "build", db=db_path).stdout)["hits"]
    assert all(h["category"] == "skills" for h in hits)

    unknown = run("categories", "rename", "skills/nothing", "x", db=db_path, check=False)
    assert unknown.returncode == 2 and "no subcategory" in unknown.stderr
    bad = run("categories", "merge", "skills/builds", "facts/x", db=db_path, check=False)
    assert bad.returncode == 2
