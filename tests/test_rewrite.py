"""Query rewriting: detection, the rule resolver, the LLM path over real HTTP, and bad input."""

from __future__ import annotations

import time

import pytest

from mnemo.errors import InputError
from mnemo.llm import ChatClient, LLMSettings
from mnemo.retrieve.rewrite import QueryRewriter, detect
from tests.fake_llm import FakeLLM, down_url, query_of

pytestmark = pytest.mark.core

JOHN = [
    {"role": "user", "content": "Ask John about the database migration."},
    {"role": "assistant", "content": "John said the migration is blocked on the schema review."},
]


def kinds(query: str, context: str = "") -> dict[str, str]:
    return {r.text.lower(): r.kind for r in detect(query, context)}


def test_detects_pronouns_demonstratives_temporal_and_implicit_references() -> None:
    assert kinds("What did he say?") == {"he": "person"}
    assert kinds("Tell me more about that") == {"that": "demonstrative"}
    assert kinds("What did we decide earlier?") == {"earlier": "temporal"}
    assert kinds("Is the bug fixed?") == {"the bug": "implicit"}
    assert kinds("What did we do there?") == {"there": "place"}


@pytest.mark.parametrize(
    "query",
    [
        "How to implement OAuth2 authentication?",
        "Find the function that parses YAML anchors",
        "Is there a way to rerun failed tests?",
        "What did we decide about pricing this week?",
        "Where has Melanie camped with her family?",
        "When did Caroline go to the support group before the move?",
    ],
)
def test_clear_queries_have_no_references(query: str) -> None:
    assert detect(query, "some context about tests and pricing") == []


def test_resolver_rewrites_people_and_things_from_the_context() -> None:
    result = QueryRewriter().rewrite("What did he say about that migration?", JOHN)
    assert result.was_rewritten and result.method == "resolver"
    assert result.expanded == "What did John say about the database migration?"
    assert {r.reference for r in result.resolved} == {"he", "that migration"}
    assert 0.7 <= result.confidence <= 1.0


def test_resolver_uses_gender_speaker_roles_and_places() -> None:
    context = [
        {"role": "Caroline", "content": "I went to a support group in Boston with Tom."},
        {"role": "Melanie", "content": "That sounds lovely!"},
    ]
    rewriter = QueryRewriter()
    assert "Tom" in rewriter.rewrite("What did he think of it?", context).expanded
    assert "Boston" in rewriter.rewrite("What did she do there?", context).expanded
    she = rewriter.rewrite("What did she do there?", context)
    assert she.expanded.startswith("What did Caroline") or "Melanie" in she.expanded


def said(*turns: str) -> list[dict[str, str]]:
    """Alternating user/assistant turns, user first."""
    return [{"role": "user" if n % 2 == 0 else "assistant", "content": t} for n, t in enumerate(turns)]


def expand(query: str, context: list[dict[str, str]]) -> str:
    return QueryRewriter().rewrite(query, context).expanded


def test_titles_join_the_surname_and_give_the_gender() -> None:
    context = said(
        "Mrs Kowalczyk and Mr Ibsen run the allotment committee.",
        "Allotments often have waiting lists. Gardening plots are popular.",
    )
    assert "Mrs Kowalczyk" in expand("What did she say about the waiting list?", context)
    assert "Mr Ibsen" in expand("Can I email him directly?", context)
    assert "Prof Alvarado" in expand("When does he hold office hours?", said("Prof. Alvarado teaches optics."))


def test_sentence_initial_words_are_not_people_but_cued_names_are() -> None:
    context = said(
        "My cousin Ingrid wants to study architecture.",
        "Considering her portfolio, Delft or Zurich could fit. Making a shortlist helps.",
    )
    assert "Ingrid" in expand("Which school did she like more?", context)
    context = said("Radovan approved the invoice this morning.", "Noted. Paying on time avoids fees.")
    assert "Radovan" in expand("Did he approve the other one too?", context)


def test_it_prefers_the_identifier_the_user_asked_about() -> None:
    context = said(
        "Why does merge_shards hang on large inputs?",
        "The worker waits on a lock that the writer thread never releases when the queue is full.",
    )
    assert "merge_shards" in expand("How do I fix it?", context)


def test_repeated_mentions_outweigh_a_single_one() -> None:
    context = said("We compared Cassandra and CockroachDB for the ledger.", "Cassandra scaled better in the test.")
    assert "Cassandra" in expand("Why did it scale better?", context)


def test_demonstrative_noun_takes_the_specific_mention_with_its_modifiers() -> None:
    context = said(
        "The checkout-button bug only shows up on iPads.",
        "Another bug in the header menu was closed last week. The tap target is too small.",
    )
    assert "checkout-button bug" in expand("Who owns that bug?", context)
    context = said("We shipped build 7.1.3 on Friday.", "The build was signed and uploaded.")
    assert "build 7.1.3" in expand("Did that build pass QA?", context)
    context = said("The memory spike in the search indexer started on Monday.", "Heap usage doubles at night.")
    assert "search indexer" in expand("What causes this spike?", context)


def test_ordinals_pick_items_from_numbered_inline_and_paired_lists() -> None:
    numbered = said("Which note apps are good?", "Options: 1. Obsidian, local files. 2. Logseq, outliner. 3. Notion.")
    assert "Logseq" in expand("Is the second one free?", numbered)
    assert "Notion" in expand("Does the last one work offline?", numbered)
    inline = said("You could fly with Finnair, SAS or Norwegian.", "All three go via a hub.")
    assert "Finnair" in expand("Does the first option include bags?", said("Flights?", inline[0]["content"]))
    paired = said("I'm torn between Svelte and Solid for the dashboard.", "Both are small and fast.")
    assert "Svelte" in expand("Which router does the former use?", paired)
    assert "Solid" in expand("Tell me more about the latter.", paired)
    assert "Solid" in expand("What about the other option?", paired)
    assert "Obsidian, Logseq and Notion" in expand("Compare those options", numbered)


def test_ordinal_words_without_a_list_or_as_idioms_are_left_alone() -> None:
    numbered = said("Which note apps are good?", "Options: 1. Obsidian. 2. Logseq. 3. Notion.")
    for query in ("What was the first step of the tutorial?", "On the other hand, is Notion cheaper?"):
        assert expand(query, numbered) == query


def test_they_takes_two_people_named_together_and_a_team_over_a_plural_thing() -> None:
    assert "Wanjiru and Pablo" in expand(
        "Did they book the venue?", said("Wanjiru and Pablo are organising the reunion.")
    )
    context = said("The data team rebuilt the pipelines.", "Both pipelines now run hourly.")
    assert "data team" in expand("Did they document the change?", context)


def test_that_before_a_name_and_verb_is_a_conjunction_but_a_particle_makes_it_a_pointer() -> None:
    assert detect("Who said that Grafana is slow?", "grafana dashboards") == []
    assert kinds("How do I turn that off?", "the feature flag") == {"that": "demonstrative"}


def test_the_problem_word_takes_its_specific_mention() -> None:
    context = said("Our Flutter checkout screen crashes when the card is declined.", "Check the error handler.")
    assert "Flutter checkout screen" in expand("Is the crash logged anywhere?", context)


def test_a_thing_keeps_where_it_came_from() -> None:
    context = said("I got a scholarship offer from Tallinn University.", "Congratulations! Read the terms carefully.")
    assert "Tallinn" in expand("Should I take it?", context)


def test_names_joined_by_and_before_a_past_tense_verb_are_both_people() -> None:
    context = said("Dagny and Emeka repainted the office.", "It looks brighter now.")
    assert "Dagny and Emeka" in expand("Did they pick the colour?", context)


def test_possessive_pronouns_become_possessive_names() -> None:
    context = [{"role": "user", "content": "Emma is leading the accessibility audit."}]
    assert QueryRewriter().rewrite("What did her audit find?", context).expanded == "What did Emma's audit find?"


def test_clear_query_takes_the_fast_path_unchanged() -> None:
    result = QueryRewriter().rewrite("How to implement OAuth2 authentication?", JOHN)
    assert not result.was_rewritten and result.expanded == result.original
    assert result.confidence == 1.0 and "clear" in result.reason


@pytest.mark.parametrize(
    ("query", "context", "reason"),
    [
        ("", JOHN, "empty"),
        ("   ", JOHN, "empty"),
        ("it", [], "no context"),
        ("What did he say?", [], "no context"),
        ("What did she say?", [{"role": "user", "content": "the weather is nice"}], "no candidate"),
    ],
)
def test_bad_or_unresolvable_input_returns_the_original_with_a_reason(query: str, context: list, reason: str) -> None:
    result = QueryRewriter().rewrite(query, context)
    assert not result.was_rewritten and result.expanded == query.strip() and reason in result.reason


def test_malformed_context_is_an_input_error() -> None:
    with pytest.raises(InputError):
        QueryRewriter().rewrite("What did he say?", "not a list")
    with pytest.raises(InputError):
        QueryRewriter().rewrite("What did he say?", [{"role": "user", "content": 5}])


def llm_rewriter(server: FakeLLM, timeout: float = 5.0, ttl: float = 300.0) -> QueryRewriter:
    return QueryRewriter(ChatClient(LLMSettings(server.base_url, "fake", timeout=timeout)), cache_ttl=ttl)


def test_llm_rewrite_is_used_validated_and_cached() -> None:
    answers = {"What did he say about that?": "What did John say about the database migration?"}
    with FakeLLM(lambda body: answers[query_of(body)]) as server:
        rewriter = llm_rewriter(server)
        first = rewriter.rewrite("What did he say about that?", JOHN)
        second = rewriter.rewrite("What did he say about that?", JOHN)
    assert first.method == "llm" and first.was_rewritten
    assert first.expanded == "What did John say about the database migration?"
    assert first.confidence >= 0.7
    assert second.expanded == first.expanded and second.cached
    assert len(server.requests) == 1  # the second came from the cache
    prompt = server.requests[0]["messages"][-1]["content"]
    assert "John said the migration" in prompt and "he, that" in prompt


def test_cache_entries_expire_after_the_ttl() -> None:
    with FakeLLM(lambda body: "What did John say about the database migration?") as server:
        rewriter = llm_rewriter(server, ttl=0.2)
        rewriter.rewrite("What did he say about that?", JOHN)
        time.sleep(0.3)
        rewriter.rewrite("What did he say about that?", JOHN)
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    "answer",
    [
        "What did he say about that?",  # nothing resolved
        "What did Gandalf say about the dragon hoard in Mordor?",  # words not in the context
        "",
    ],
)
def test_untrusted_llm_rewrites_fall_back_to_the_resolver(answer: str) -> None:
    with FakeLLM(lambda body: answer) as server:
        result = llm_rewriter(server).rewrite("What did he say about that?", JOHN)
    assert result.method == "resolver" and "John" in result.expanded
    assert "not trusted" in result.reason


@pytest.mark.parametrize("mode", ["garbage", "empty", "error"])
def test_broken_llm_answers_fall_back_to_the_resolver(mode: str) -> None:
    with FakeLLM(lambda body: "unused", mode=mode) as server:
        result = llm_rewriter(server).rewrite("What did he say about that?", JOHN)
    assert result.method == "resolver" and "John" in result.expanded and "LLM failed" in result.reason


def test_slow_llm_times_out_and_falls_back_quickly() -> None:
    with FakeLLM(lambda body: "late", mode="slow", delay=3.0) as server:
        started = time.monotonic()
        result = llm_rewriter(server, timeout=0.3).rewrite("What did he say about that?", JOHN)
        elapsed = time.monotonic() - started
    assert elapsed < 2.0
    assert result.method == "resolver" and "did not answer" in result.reason


def test_down_llm_falls_back_to_the_resolver() -> None:
    rewriter = QueryRewriter(ChatClient(LLMSettings(down_url(), "fake", timeout=2)))
    result = rewriter.rewrite("What did he say about that?", JOHN)
    assert result.method == "resolver" and "unreachable" in result.reason


def test_clear_queries_never_reach_the_llm() -> None:
    with FakeLLM(lambda body: "should not be asked") as server:
        result = llm_rewriter(server).rewrite("How to implement OAuth2 authentication?", JOHN)
    assert not result.was_rewritten and server.requests == []


@pytest.mark.parametrize(
    ("context", "query", "wanted"),
    [
        (["Siobhán is running the onboarding workshop.", "Want me to draft the agenda?"], "Send it to her", "Siobhán"),
        (["Lorenzo booked the flights and Ines booked the hotel."], "Can she get a late checkout?", "Ines"),
        (["Mariana asked Paulo to fix the printer.", "Did he?"], "Remind him again", "Paulo"),
        (["Ahmed's daughter Noor got into medical school."], "When does she start?", "Noor"),
        (["talked to ravi about the budget", "what did he think?"], "does he know about the trip?", "Ravi"),
    ],
)
def test_names_in_any_script_case_or_gender_cue_are_resolved(context: list[str], query: str, wanted: str) -> None:
    assert wanted.lower() in expand(query, said(*context)).lower()


def test_speaker_labels_inside_messages_are_speakers() -> None:
    context = [
        {"role": "user", "content": "[Maya]: the deploy is stuck at 80%"},
        {"role": "user", "content": "[Joel]: i'll check the runners"},
    ]
    assert "Joel" in expand("did he find the cause?", context)


def test_that_day_and_back_then_take_the_time_the_conversation_named() -> None:
    assert "14 March" in expand("Am I free that day?", said("My flight to Nairobi is on 14 March.", "Visa?"))
    assert "2019" in expand("What tools did we use back then?", said("I started at Acme in 2019.", "Role?"))


def test_number_agreement_and_collectives() -> None:
    assert "Kubernetes" not in expand("Why did it crash?", said("The pods restarted twice.", "Kubernetes pods?"))
    assert "Stripe" in expand("When did they announce it?", said("Stripe changed their fee structure.", "Where?"))
    assert "council" in expand("When will they start?", said("The city council approved the new bike lanes."))


def test_those_takes_the_latest_list_of_named_things() -> None:
    context = said("I'm comparing the ThinkPad X1 and the MacBook Air.", "For what?", "Mostly coding and travel.")
    rewritten = expand("Which of those has the better keyboard?", context)
    assert "ThinkPad" in rewritten and "MacBook" in rewritten
