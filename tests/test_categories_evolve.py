"""Evolving subcategories: the pure evolve step on constructed vectors, then through a real store."""

from __future__ import annotations

import numpy as np
import pytest

from mnemo.categories.evolve import EvolveSettings, evolve_group
from mnemo.records import Subcategory
from mnemo.store.sqlite_categories import Grouping, Member

pytestmark = pytest.mark.core
DIM = 32


def around(direction: np.ndarray, n: int, seed: int, spread: float = 0.1) -> np.ndarray:
    noise = np.random.default_rng(seed).standard_normal((n, DIM)) * spread / np.sqrt(DIM)
    rows = direction + noise
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def axis(i: int) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[i] = 1.0
    return v


def members(
    vectors: np.ndarray, texts: list[str], start: int = 0, subs: list[str | None] | None = None
) -> list[Member]:
    subs = subs or [None] * len(vectors)
    return [Member(start + i, t, s, v) for i, (v, t, s) in enumerate(zip(vectors, texts, subs, strict=True))]


def topic(word: str, n: int) -> list[str]:
    return [f"note {i} about {word} and {word} things" for i in range(n)]


def current(grouping: Grouping) -> tuple[list[tuple[Subcategory, np.ndarray]], dict[int, str | None]]:
    return list(grouping.subcategories), dict(grouping.assignments)


def relabel(ms: list[Member], assigned: dict[int, str | None]) -> list[Member]:
    return [Member(m.key, m.content, assigned.get(m.key, m.subcategory), m.vector) for m in ms]


def three_topics() -> list[Member]:
    return (
        members(around(axis(0), 8, 1), topic("garden", 8), 0)
        + members(around(axis(1), 8, 2), topic("piano", 8), 100)
        + members(around(axis(2), 8, 3), topic("kayak", 8), 200)
    )


def test_first_evolve_finds_planted_clusters_and_names_them_by_keyword() -> None:
    grouping = evolve_group("", "context", three_topics(), [], EvolveSettings())
    names = sorted(sub.name for sub, _ in grouping.subcategories)
    assert names == ["garden", "kayak", "piano"]
    assigned = dict(grouping.assignments)
    assert {assigned[k] for k in range(8)} == {"garden"} and {assigned[k] for k in range(200, 208)} == {"kayak"}
    assert [h[0] for h in grouping.history] == ["created"] * 3


def test_re_evolving_unchanged_content_keeps_ids_names_and_writes_no_history() -> None:
    ms = three_topics()
    first = evolve_group("", "context", ms, [], EvolveSettings())
    old, assigned = current(first)
    again = evolve_group("", "context", relabel(ms, assigned), old, EvolveSettings())
    assert {s.id: s.name for s, _ in again.subcategories} == {s.id: s.name for s, _ in old}
    assert again.history == () and again.assignments == ()


def test_a_user_rename_survives_later_evolves() -> None:
    ms = three_topics()
    old, assigned = current(evolve_group("", "context", ms, [], EvolveSettings()))
    renamed = [
        (Subcategory(s.id, s.category, "music" if s.name == "piano" else s.name, s.keywords, s.count), c)
        for s, c in old
    ]
    assigned = {k: ("music" if v == "piano" else v) for k, v in assigned.items()}
    more = members(around(axis(1), 3, 9), topic("piano", 3), 300)
    later = evolve_group("", "context", relabel(ms, assigned) + more, renamed, EvolveSettings())
    assert "music" in {s.name for s, _ in later.subcategories}
    assert {k: v for k, v in later.assignments} == {300: "music", 301: "music", 302: "music"}


def test_a_new_topic_becomes_a_new_subcategory_and_new_members_join_theirs() -> None:
    ms = three_topics()
    old, assigned = current(evolve_group("", "context", ms, [], EvolveSettings()))
    fresh = members(around(axis(3), 7, 4), topic("chess", 7), 400) + members(
        around(axis(0), 2, 5), topic("garden", 2), 500
    )
    later = evolve_group("", "context", relabel(ms, assigned) + fresh, old, EvolveSettings())
    moved = dict(later.assignments)
    assert {moved[k] for k in range(400, 407)} == {"chess"} and {moved[500], moved[501]} == {"garden"}
    assert ("created", (), ("chess",), "7 memories") in later.history


def test_a_cluster_that_grew_incoherent_is_split_and_the_split_is_recorded() -> None:
    base = members(around(axis(0), 6, 1), topic("tea", 6), 0)
    old, assigned = current(evolve_group("", "preferences", base, [], EvolveSettings(min_subcategories=1)))
    [tea] = [s.name for s, _ in old]
    assert tea.startswith("tea")  # one cluster: no contrast, so its two most frequent words
    leaning = 0.75 * axis(0) + 0.66 * axis(1)  # close enough to join "tea", yet its own direction
    grown = members(around(leaning, 8, 2, spread=0.05), [f"matcha latte {i} with oat milk" for i in range(8)], 100)
    settings = EvolveSettings(min_subcategories=1, split_coherence=0.95)
    later = evolve_group("", "preferences", relabel(base, assigned) + grown, old, settings)
    assert len(later.subcategories) == 2
    split = [h for h in later.history if h[0] == "split"]
    assert split and split[0][1] == (tea,) and tea in split[0][2]
    moved = dict(later.assignments)
    assert {moved.get(k) for k in range(100, 108)} - {None} == {next(n for n in split[0][2] if n != tea)}


def test_near_duplicate_subcategories_merge_under_the_larger_name() -> None:
    a = members(around(axis(0), 8, 1), topic("yoga", 8), 0, ["yoga"] * 8)
    b = members(around(axis(0), 4, 2), topic("stretching", 4), 100, ["stretching"] * 4)
    c = members(around(axis(5), 6, 3), topic("sailing", 6), 200, ["sailing"] * 6)
    old = [
        (Subcategory("id-yoga", "preferences", "yoga", (), 8), axis(0)),
        (Subcategory("id-stretch", "preferences", "stretching", (), 4), around(axis(0), 1, 7)[0]),
        (Subcategory("id-sail", "preferences", "sailing", (), 6), axis(5)),
    ]
    later = evolve_group("", "preferences", a + b + c, old, EvolveSettings())
    assert sorted((s.id, s.name, s.count) for s, _ in later.subcategories) == [
        ("id-sail", "sailing", 6),
        ("id-yoga", "yoga", 12),
    ]
    assert ("merged", ("yoga", "stretching"), ("yoga",), "near-duplicate subcategories") in later.history
    assert dict(later.assignments) == {k: "yoga" for k in range(100, 104)}


def test_a_subcategory_whose_members_are_gone_is_removed() -> None:
    ms = three_topics()
    old, assigned = current(evolve_group("", "context", ms, [], EvolveSettings()))
    remaining = [m for m in relabel(ms, assigned) if m.subcategory != "kayak"]
    later = evolve_group("", "context", remaining, old, EvolveSettings())
    assert "kayak" not in {s.name for s, _ in later.subcategories}
    assert ("removed", ("kayak",), (), "no members left") in later.history


def test_too_few_identical_empty_or_wordless_members_never_crash() -> None:
    two = members(around(axis(0), 2, 1), topic("x", 2))
    assert evolve_group("", "facts", two, [], EvolveSettings()).subcategories == ()
    assert evolve_group("", "facts", [], [], EvolveSettings()).subcategories == ()
    same = members(np.tile(axis(3), (7, 1)), ["same words here"] * 7)
    single = evolve_group("", "facts", same, [], EvolveSettings())
    assert len(single.subcategories) == 1 and single.subcategories[0][0].count == 7
    blank = members(np.tile(axis(4), (5, 1)), ["!!", "?", "...", "—", "🙂"])
    named = evolve_group("", "facts", blank, [], EvolveSettings())
    assert [s.name for s, _ in named.subcategories] == ["facts_topic"]
    zero = members(np.zeros((4, DIM), dtype=np.float32), topic("void", 4))
    assert evolve_group("", "facts", zero, [], EvolveSettings()).subcategories == ()


def test_centroids_of_another_model_mean_a_fresh_start_that_keeps_names() -> None:
    ms = three_topics()
    old, assigned = current(evolve_group("", "context", ms, [], EvolveSettings()))
    shorter = [(sub, centroid[:8]) for sub, centroid in old]  # as if re-embedded with another model
    again = evolve_group("", "context", relabel(ms, assigned), shorter, EvolveSettings())
    assert sorted(s.name for s, _ in again.subcategories) == sorted(s.name for s, _ in old)
