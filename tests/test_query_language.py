"""The session-search query language and the pure helpers around it (synonyms, typos, snippets, dedup)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemo.errors import InputError
from mnemo.retrieve.query_language import ParsedQuery, Term, fts_any, parse_query
from mnemo.retrieve.session_dedup import DedupCandidate, collapse, signature
from mnemo.retrieve.session_match import candidate_words, find_matches
from mnemo.retrieve.session_rank import snippet
from mnemo.retrieve.session_terms import bounded_distance
from mnemo.retrieve.synonyms import load_synonyms, parse_synonyms, synonym_index

pytestmark = pytest.mark.core


def texts(terms: tuple[Term, ...]) -> list[str]:
    return [t.text for t in terms]


def test_plain_words_are_or_terms_lower_cased_without_stopwords() -> None:
    parsed = parse_query("How did we fix the Flaky FIXTURE")
    assert texts(parsed.any_of) == ["fix", "flaky", "fixture"]
    assert parsed.required == () and parsed.excluded == ()


def test_a_query_of_only_stopwords_keeps_them() -> None:
    assert texts(parse_query("the who").any_of) == ["the", "who"]


def test_plus_and_minus_prefixes_and_options() -> None:
    parsed = parse_query("fixture +pytest -docker", require=["Postgres"], exclude=["k8s"])
    assert texts(parsed.any_of) == ["fixture"]
    assert texts(parsed.required) == ["pytest", "postgres"]
    assert texts(parsed.excluded) == ["docker", "k8s"]
    assert texts(parsed.positive) == ["fixture", "pytest", "postgres"]


def test_quoted_phrases_with_and_without_signs() -> None:
    parsed = parse_query('"connection pool" +"unit test" -"dark mode" “smart quotes”')
    assert parsed.any_of == (Term(("connection", "pool")), Term(("smart", "quotes")))
    assert parsed.required == (Term(("unit", "test")),) and parsed.required[0].is_phrase
    assert parsed.excluded == (Term(("dark", "mode")),)


def test_hyphenated_and_dotted_words_become_phrases_as_the_index_tokenizes_them() -> None:
    parsed = parse_query("pre-commit phx.server mix_audit")
    assert texts(parsed.any_of) == ["pre commit", "phx server", "mix audit"]


def test_a_multi_word_require_option_is_a_phrase() -> None:
    assert parse_query("x", require=["state lock"]).required == (Term(("state", "lock")),)


def test_duplicates_collapse() -> None:
    assert texts(parse_query("Redis redis REDIS").any_of) == ["redis"]


@pytest.mark.parametrize(
    ("query", "require", "exclude", "message"),
    [
        ('"unclosed phrase', (), (), "unclosed quote"),
        ("-docker -k8s", (), (), "only excludes"),
        ("", (), (), "empty"),
        ("   ", (), (), "empty"),
        ("!!! ???", (), (), "empty"),
        ("fixture + pytest", (), (), "must be followed by a term"),
        ("fixture -", (), (), "must be followed by a term"),
        ("docker", (), ("docker",), "both searched for and excluded"),
        ('fixture +""', (), (), "holds no searchable words"),
        ("fixture", ("  ",), (), "--require needs a term"),
        ("x" * 5000, (), (), "limit"),
    ],
)
def test_malformed_queries_explain_themselves(query: str, require: tuple, exclude: tuple, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_query(query, require, exclude)


def test_only_exclusions_with_a_required_option_is_fine() -> None:
    parsed = parse_query("-docker", require=["image"])
    assert texts(parsed.required) == ["image"] and texts(parsed.excluded) == ["docker"]


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=200))
def test_the_parser_never_crashes_on_arbitrary_text(text: str) -> None:
    try:
        parsed = parse_query(text)
    except InputError as exc:
        assert str(exc)
        return
    assert isinstance(parsed, ParsedQuery) and parsed.positive
    assert all(word and word == word.lower() for term in parsed.positive for word in term.words)
    match = fts_any(parsed.positive)
    assert match is not None and match.count('"') % 2 == 0  # every term is a closed FTS5 string


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "+c", "-d", '"e f"', "+", "-", '"', "x-y"]), max_size=8))
def test_the_parser_never_crashes_on_operator_soup(parts: list[str]) -> None:
    with contextlib.suppress(InputError):
        parse_query(" ".join(parts))


def test_synonym_groups_from_lines_with_comments_and_removal() -> None:
    groups = parse_synonyms(["# comment", "", "postgres, PostgreSQL, psql", "k8s, kubernetes", "solo"])
    assert groups == [(("postgres",), ("postgresql",), ("psql",)), (("k8s",), ("kubernetes",))]
    trimmed = parse_synonyms(["!psql", "github actions, ci"], groups)
    assert trimmed == [(("k8s",), ("kubernetes",)), (("github", "actions"), ("ci",))]
    index = synonym_index(trimmed)
    assert index[("ci",)] == (("github", "actions"),)


def test_the_user_synonyms_file_extends_the_packaged_defaults(tmp_path: Path) -> None:
    defaults = load_synonyms(None)
    assert ("postgresql",) in defaults[("postgres",)]
    user = tmp_path / "synonyms.txt"
    user.write_text("frobnicate, wibble\n!postgres\n", encoding="utf-8")
    mine = load_synonyms(user)
    assert mine[("wibble",)] == (("frobnicate",),)
    assert ("postgres",) not in mine
    assert load_synonyms(tmp_path / "missing.txt") == defaults


def test_bounded_edit_distance_counts_a_swap_as_one_edit() -> None:
    assert bounded_distance("postgress", "postgres", 2) == 1
    assert bounded_distance("fixure", "fixture", 1) == 1
    assert bounded_distance("recieve", "receive", 1) == 1
    assert bounded_distance("docker", "kubernetes", 2) == 3  # capped at bound + 1


def test_matches_follow_stems_and_phrases() -> None:
    patterns = [[("migrat",)], [("connect", "pool")]]
    stems = {"migrations": "migrat", "migrating": "migrat", "connection": "connect", "pool": "pool"}
    text = "Migrating data: the connection pool, a connection, and the pool of migrations."
    assert candidate_words([text], patterns) >= {"migrating", "migrations", "connection", "pool"}
    marked = find_matches(text, patterns, stems)
    assert [text[s:e] for s, e in marked.spans] == ["Migrating", "connection pool", "migrations"]
    assert marked.groups == (0, 1, 0)


def test_snippets_centre_on_the_densest_matches() -> None:
    text = "intro " * 100 + "the flaky fixture broke the flaky test " + "outro " * 100
    start = text.index("flaky")
    marked = find_matches(text, [[("flaki",)], [("fixtur",)]], {"flaky": "flaki", "fixture": "fixtur"})
    body, spans = snippet(marked, width=120)
    assert body.startswith("… ") and body.endswith(" …") and len(body) < 170
    assert [body[s:e] for s, e in spans] == ["flaky", "fixture", "flaky"]
    assert start > 120  # the match was far from the start, and the window moved to it


def test_dedup_keeps_the_most_recent_complete_session_first() -> None:
    words = signature(["the fixture leaks rows between tests, scope it per function and roll back"], ["fixture"])
    other = signature(["dark mode toggle with css variables and local storage"])
    ranked = [
        DedupCandidate("old", 3.0, ended_at=100.0, message_count=10, signature=words),
        DedupCandidate("new", 2.0, ended_at=200.0, message_count=9, signature=words),
        DedupCandidate("partial", 1.5, ended_at=300.0, message_count=2, signature=words),
        DedupCandidate("other", 1.0, ended_at=50.0, message_count=5, signature=other),
    ]
    groups = collapse(ranked)
    assert [[ranked[i].session_id for i in g] for g in groups] == [["new", "old", "partial"], ["other"]]
