"""Categories and evolving subcategories on a real PostgreSQL server.

The SQLite category suites re-run here with ``db_path`` pointing at a fresh PostgreSQL database;
then both backends are given the same memories and must evolve, rename, merge and report alike;
then the PostgreSQL mixin's own edges (backfill of unclassified rows, concurrent evolves).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from mnemo import Memory
from mnemo.errors import InputError
from tests import test_categories as classify_suite
from tests import test_categories_store as store_suite
from tests.test_postgres_sessions import on_postgres

pytestmark = pytest.mark.postgres


@pytest.fixture
def db_path(pg_url: str) -> str:
    """The imported suites open ``Memory(db_path)``: here that is a fresh PostgreSQL database."""
    return pg_url


# -- the SQLite suites, unchanged, on PostgreSQL ----------------------------------------------

_SQLITE_ONLY = {
    # builds a pre-0004 SQLite file by hand; the PostgreSQL backfill is tested below instead
    "test_a_store_from_before_categories_upgrades_and_is_backfilled",
    # opens two stores named by appending to a file path
    "test_the_automatic_evolve_runs_off_the_write_path_unless_told_otherwise",
}
for _label, _module in (("classify", classify_suite), ("store", store_suite)):
    for _name in dir(_module):
        if _name.startswith("test_") and _name not in _SQLITE_ONLY:
            globals()[f"{_name}__{_label}_on_postgres"] = on_postgres(getattr(_module, _name))


# -- both backends give the same answers ------------------------------------------------------

_TOPICS = {
    "build": "To fix the {w} build, run make {w} again with a clean cache",
    "deploy": "Always tag the {w} release before the deploy goes out",
    "habit": "I'm currently learning {w} every evening after work",
}
_WORDS = ("docs", "web", "api", "cli", "mobile", "desktop")


def _scenario(target: str) -> dict[str, Any]:
    with Memory(target, embedder="hashing") as memory:
        memory.add_many(
            {"id": f"{topic}-{w}-{user}", "content": text.format(w=w), "user_id": user}
            for user in ("alice", "bob")
            for topic, text in _TOPICS.items()
            for w in _WORDS
        )
        report = {k: v for k, v in memory.evolve_categories().as_dict().items() if k != "seconds"}
        tree = memory.categories(user_id="alice")
        names = {c: sorted(node["subcategories"]) for c, node in tree["categories"].items() if node["subcategories"]}
        category, subs = next(iter(sorted(names.items())))
        renamed = memory.rename_category(f"{category}/{subs[0]}", "first one", user_id="alice")
        merged = (
            memory.merge_categories(f"{category}/{subs[1]}", f"{category}/first_one", user_id="alice")
            if len(subs) > 1
            else None
        )
        history = [{k: v for k, v in h.items() if k != "at"} for h in memory.category_history()]
        return {
            "report": report,
            "alice": memory.categories(user_id="alice"),
            "bob": memory.categories(user_id="bob"),
            "all": memory.categories(),
            "renamed": renamed,
            "merged": merged,
            "history": history,
            "again": memory.evolve_categories().as_dict()["history"],
            "assigned": {i.id: (i.category, i.subcategory) for i in memory.recent(limit=100)},
        }


def test_the_same_memories_evolve_alike_on_both_backends(pg_url: str, tmp_path: Any) -> None:
    on_pg = _scenario(pg_url)
    on_sqlite = _scenario(str(tmp_path / "twin.db"))
    assert on_pg["alice"]["categories"] and on_pg["renamed"]["items"] > 0
    assert on_pg == on_sqlite


# -- the mixin's own edges ---------------------------------------------------------------------


def test_rows_written_without_a_category_are_backfilled(pg_url: str) -> None:
    import psycopg

    with Memory(pg_url, embedder="hashing") as memory:
        memory.add("I hate waking up early.", id="old")
    with psycopg.connect(pg_url) as conn:  # as a row copied in by hand or by an older writer
        conn.execute("UPDATE items SET category = NULL, subcategory = NULL")
    with Memory(pg_url, embedder="hashing") as memory:
        assert memory.get("old").category is None
        version = memory.store.category_version()
        assert memory.evolve_categories().backfilled == 1
        assert memory.get("old").category == "preferences"
        assert memory.store.category_version() > version
        assert memory.store.unclassified() == []


def test_merge_weights_centroids_by_count_and_rename_refuses_a_taken_name(pg_url: str) -> None:
    from mnemo.records import Subcategory
    from mnemo.store.sqlite_categories import Grouping

    with Memory(pg_url, embedder="hashing") as memory:
        store = memory.store
        keys = [memory.add(f"Never deploy {w} on Fridays", id=w).id for w in ("a", "b", "c", "d")]
        everything = memory._filter(None, None, None)
        rows = {i.id: k for k, i in store.fetch(range(1, store.max_item_key() + 1), everything).items()}
        x, y = np.array([1, 0, 0], np.float32), np.array([0, 1, 0], np.float32)
        grouping = Grouping(
            "",
            "rules",
            ((Subcategory("id-x", "rules", "x", ("k1",), 3), x), (Subcategory("id-y", "rules", "y", ("k2",), 1), y)),
            tuple((rows[k], "x" if k != "d" else "y") for k in keys),
            (("created", (), ("x", "y"), "test"),),
        )
        store.save_grouping(grouping)
        with pytest.raises(InputError, match="already exists"):
            store.rename_subcategory("", "rules", "x", "y")
        assert store.merge_subcategories("", "rules", "y", "x") == 1
        ((name, centroid),) = store.subcategory_centroids("", "rules")
        assert name == "x" and np.allclose(centroid, np.array([3, 1, 0]) / np.sqrt(10))
        (sub,) = store.subcategories("", "rules")
        assert (sub.count, sub.keywords) == (4, ("k1", "k2"))
        assert [h["action"] for h in store.category_history()] == ["merged", "created"]
        assert store.category_counts(everything) == {("rules", "x"): 4}


def test_concurrent_evolves_of_one_store_finish_consistently(pg_url: str) -> None:
    with Memory(pg_url, embedder="hashing") as memory:
        memory.add_many({"content": text.format(w=w)} for text in _TOPICS.values() for w in _WORDS)
    errors: list[BaseException] = []

    def evolve() -> None:
        try:
            with Memory(pg_url, embedder="hashing") as mine:
                mine.evolve_categories()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=evolve) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with Memory(pg_url, embedder="hashing") as memory:
        tree = memory.categories()
        for node in tree["categories"].values():
            names = list(node["subcategories"])
            assert len(names) == len(set(names))
            assert sum(s["count"] for s in node["subcategories"].values()) + node["unassigned"] == node["count"]
        assert memory.evolve_categories().history == ()  # all three converged on one grouping
