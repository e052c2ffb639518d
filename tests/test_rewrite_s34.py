"""Query rewriting, twelfth pass: titles, people words that are no names, and other general cases."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.candidates import extract
from mnemo.retrieve.rewrite.detect import detect
from mnemo.retrieve.rewrite.indefinite import one_spans
from mnemo.retrieve.rewrite.lowercase import truecase
from mnemo.retrieve.rewrite.splice import spliced, tidied_replacement
from mnemo.retrieve.rewrite.tidy import tidy
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("I just finished The Remains of the Day for my book club.", "The Remains of the Day"),
        ("Put her number on the Do Not Call registry.", "Do Not Call"),
        ("we watched The Bear last night", "The Bear"),
    ],
)
def test_a_capitalised_function_word_inside_a_sentence_opens_a_title(text: str, title: str) -> None:
    assert title in [c.text for c in extract(said(text))]


def test_a_capitalised_the_opening_a_sentence_is_no_part_of_the_name() -> None:
    texts = [c.text for c in extract(said("The Smiths are coming over on Sunday."))]
    assert "The Smiths" not in texts


def test_the_title_with_its_the_replaces_it() -> None:
    context = said("I just finished The Remains of the Day for my book club.")
    rewritten = expand("who played the butler in the film version of it?", context).lower()
    assert "the remains of the day" in rewritten


def test_it_in_the_next_sentence_is_the_same_thing() -> None:
    context = said("I just finished The Remains of the Day for my book club.")
    rewritten = expand("I loved it. who played the butler in the film version of it?", context).lower()
    assert rewritten.count("the remains of the day") == 2
    assert "book club" not in rewritten


@pytest.mark.parametrize("word", ["family", "friends", "colleagues", "parents"])
def test_a_word_for_people_after_with_is_no_name(word: str) -> None:
    assert truecase(f"a small dinner with {word}") == f"a small dinner with {word}"
    assert truecase("went out with priya") == "went out with Priya"


def test_they_after_a_dinner_with_family_are_the_people_named_before() -> None:
    context = said(
        "my grandparents are celebrating their 50th wedding anniversary on june 14",
        "Congratulations to them! Are you planning a party?",
        "yes, a small dinner with family",
    )
    assert "grandparents" in expand("what kind of gift would they appreciate?", context)


@pytest.mark.parametrize(
    ("query", "context", "wanted"),
    [
        (
            "how far ahead should we book one?",
            ("Our lease ends July 1.", "Moving day is chaotic, so book a truck early."),
            "book a truck",
        ),
        (
            "can he get one without a german bank account?",
            ("My friend Ade is moving to Berlin.", "Does he already have a SCHUFA credit report? Landlords ask."),
            "get a SCHUFA credit report",
        ),
        (
            "pick one up on my way home",
            ("the bakery had sourdough and a dark rye", "Which did you try?", "the rye, way better"),
            "pick a dark rye up",
        ),
    ],
)
def test_one_after_a_verb_of_getting_is_the_kind_the_chat_offered(
    query: str, context: tuple[str, ...], wanted: str
) -> None:
    assert wanted in expand(query, said(*context))


@pytest.mark.parametrize(
    "query",
    [
        "Can you explain what a Kubernetes operator is and when I'd use one?",
        "do I need one more day off?",
        "should we book one of the cabins?",
    ],
)
def test_one_with_its_own_kind_or_in_a_phrase_is_no_reference(query: str) -> None:
    assert one_spans(query) == []


@pytest.mark.parametrize(
    "query", ["is that fair on her given she works from home", "is that legal in the uk", "is that typical for her age"]
)
def test_an_adjective_that_judges_that_after_a_copula_is_its_predicate(query: str) -> None:
    demonstratives = [r for r in detect(query, "some context") if r.kind == "demonstrative"]
    assert [(r.text, r.noun) for r in demonstratives] == [("that", None)]


def test_an_adjective_before_a_noun_still_leaves_that_its_determiner() -> None:
    demonstratives = [r for r in detect("is that legal team in place", "some context") if r.kind == "demonstrative"]
    assert [r.noun for r in demonstratives] == ["legal"]


@pytest.mark.parametrize(
    "text",
    [
        "i need to parse strings like '3 days ago' and 'next friday' into datetimes",
        "I need a cron expression for 'every weekday at 6:30am'",
        "dateparser.parse('3 days ago') returns a datetime",
    ],
)
def test_a_quoted_example_is_no_candidate(text: str) -> None:
    texts = {c.text for c in extract(said(text))}
    assert not texts & {"3 days ago", "next friday", "every weekday at 6:30am"}


def test_a_quoted_error_is_still_a_candidate() -> None:
    assert "Cannot find module" in {c.text for c in extract(said("The build fails with 'Cannot find module'."))}


def test_it_skips_the_examples_for_the_library_that_handles_them() -> None:
    context = said(
        "I need a library to parse dates like 'next tuesday' in python",
        "dateparser handles natural-language dates in many languages.",
    )
    assert "dateparser" in expand("can it handle 'in two weeks' too?", context)


@pytest.mark.parametrize(
    ("phrase", "tidied"),
    [
        ("the trip much easier", "the trip"),
        ("the process a lot faster", "the process"),
        ("the app so slow", "the app"),
        ("the very long email", "the very long email"),
    ],
)
def test_a_degree_and_its_adjective_are_cut_from_a_phrase_end(phrase: str, tidied: str) -> None:
    assert tidy(phrase) == tidied


def test_the_word_after_the_former_is_the_verb_of_a_question_with_does() -> None:
    refs = detect("how much ram does the former need for 2k pods", "if you need long retention")
    assert [(r.text, r.noun) for r in refs] == [("the former", None)]


@pytest.mark.parametrize("query", ["how do I do the second item", "do the second one, whats the config change"])
def test_do_as_the_main_verb_leaves_the_ordinal_its_noun(query: str) -> None:
    refs = [r for r in detect(query, "two items: the second one and the item after") if r.kind == "ordinal"]
    assert refs and refs[0].text.split()[-1] in ("item", "one")


@pytest.mark.parametrize(
    ("query", "wanted"), [("they'll arrive when?", "will arrive"), ("they're staying where?", "are staying")]
)
def test_a_clitic_is_spelled_out_after_the_replacement(query: str, wanted: str) -> None:
    rewritten = expand(query, said("My parents are visiting next week."))
    assert "parents" in rewritten and wanted in rewritten
    assert "'ll" not in rewritten and "'re" not in rewritten


def test_her_before_a_clause_with_a_clitic_is_an_object() -> None:
    context = said("Priya asked if we can swap shifts on Friday.")
    rewritten = expand("yes tell her that's fine", context)
    assert "Priya" in rewritten and "Priya's" not in rewritten


@pytest.mark.parametrize(
    ("text", "kept"),
    [("the Noor's dentist appointment", "Noor's dentist appointment"), ("the worker's memory limit", None)],
)
def test_an_article_before_a_named_possessor_is_dropped(text: str, kept: str | None) -> None:
    assert tidied_replacement(text) == (kept or text)


def test_splicing_keeps_one_article_and_spells_out_a_clitic() -> None:
    query = "can the their shows be moved if they're late"
    assert spliced(query, [(8, 19, "the the gigs"), (32, 36, "the bands")]) == (
        "can the gigs be moved if the bands are late"
    )


def test_a_replacement_never_doubles_its_article() -> None:
    context = said(
        "Recap: Mr Adeyemi suggested a bake sale, Mrs Kovac suggested a sponsored walk.",
        "Which one are you leaning towards?",
        "the walk, probably",
    )
    rewritten = expand("Who came up with that one again?", context)
    assert "the the" not in rewritten.lower()


@pytest.mark.parametrize(
    ("query", "context", "wanted"),
    [
        (
            "how much per month usually?",
            ("My son wants to start piano lessons.", "Weekly lessons are typical."),
            "piano",
        ),
        ("is there an expedited option?", ("I'm renewing my passport; it takes 6 to 8 weeks.",), "passport"),
    ],
)
def test_a_question_of_only_generic_words_continues_the_topic(
    query: str, context: tuple[str, ...], wanted: str
) -> None:
    assert wanted in expand(query, said(*context)).lower()


@pytest.mark.parametrize(
    "query",
    ["how much is a return ticket from Leeds to York?", "is there a bus to Gatwick?", "how long is a sourdough bake?"],
)
def test_a_question_that_names_its_own_topic_is_left_alone(query: str) -> None:
    assert expand(query, said("I'm renewing my passport; it takes 6 to 8 weeks.")) == query


def test_any_tips_for_a_named_topic_is_a_question_of_its_own() -> None:
    context = said("I'm renewing my passport; it takes 6 to 8 weeks.")
    assert expand("any tips for sourdough?", context) == "any tips for sourdough?"
    assert "passport" in expand("any ideas for the form?", context).lower()
